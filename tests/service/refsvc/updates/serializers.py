"""How project updates and inventory updates read (they are never written through the API)."""
from refsvc.jobs import projects
from refsvc.jobs.models import ACTIVE, FINISHED
from refsvc.jobs.serializers import date as _date, unified_job_data


def _common(obj, type_name, url_base, template_id):
    url = "/api/v2/%s/%d/" % (url_base, obj.id)
    data = {
        "id": obj.id, "type": type_name, "url": url,
        "related": {"stdout": url + "stdout/", "cancel": url + "cancel/", "notifications": url + "notifications/",
                    "events": url + "events/", "unified_job_template": None},
        "summary_fields": {"user_capabilities": {"delete": True, "start": True}},
        "created": _date(obj.created), "modified": _date(obj.modified),
    }
    data.update(unified_job_data(obj, ("name", "description")))
    data["unified_job_template"] = template_id
    data.update(unified_job_data(obj, (
        "launch_type", "status", "execution_environment", "failed", "started", "finished", "canceled_on", "elapsed",
        "job_args", "job_cwd", "job_env", "job_explanation", "execution_node", "result_traceback",
        "event_processing_finished", "launched_by", "work_unit_id")))
    data.update({"timeout": obj.timeout, "scm_revision": obj.scm_revision})
    return data


def project_update_data(obj):
    data = _common(obj, "project_update", "project_updates", obj.project_id)
    project = obj.project
    data.update({
        "local_path": obj.local_path, "scm_type": obj.scm_type, "scm_url": obj.scm_url, "scm_branch": obj.scm_branch,
        "scm_refspec": obj.scm_refspec, "scm_clean": obj.scm_clean, "scm_track_submodules": obj.scm_track_submodules,
        "scm_delete_on_update": obj.scm_delete_on_update, "credential": project.credential_id if project else None,
        "project": obj.project_id, "job_type": obj.job_type, "job_tags": "update_%s,install_roles,install_collections" % obj.scm_type,
        "host_status_counts": {}, "playbook_counts": {},
    })
    if project is not None:
        data["related"]["project"] = data["related"]["unified_job_template"] = "/api/v2/projects/%d/" % project.id
        data["summary_fields"]["project"] = project_summary(project)
        data["summary_fields"]["unified_job_template"] = {
            "id": project.id, "name": project.name, "description": project.description, "unified_job_type": "project_update",
        }
        if project.organization_id:
            org = project.organization
            data["summary_fields"]["organization"] = {"id": org.id, "name": org.name, "description": org.description}
    return data


def inventory_update_data(obj):
    data = _common(obj, "inventory_update", "inventory_updates", obj.inventory_source_id)
    source = obj.inventory_source
    data.update({
        "source": obj.source, "source_path": obj.source_path, "source_vars": obj.source_vars, "scm_branch": obj.scm_branch,
        "credential": None, "enabled_var": obj.enabled_var, "enabled_value": obj.enabled_value,
        "host_filter": obj.host_filter, "overwrite": obj.overwrite, "overwrite_vars": obj.overwrite_vars,
        "custom_virtualenv": None, "verbosity": obj.verbosity, "limit": obj.limit, "inventory": obj.inventory_id,
        "inventory_source": obj.inventory_source_id, "license_error": False, "org_host_limit_error": False,
        "source_project_update": obj.source_project_update_id, "instance_group": None,
    })
    if obj.inventory_id:
        data["related"]["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        inv = obj.inventory
        data["summary_fields"]["inventory"] = {"id": inv.id, "name": inv.name, "description": inv.description,
                                               "kind": inv.kind, "organization_id": inv.organization_id}
    if source is not None:
        data["related"]["inventory_source"] = data["related"]["unified_job_template"] = "/api/v2/inventory_sources/%d/" % source.id
        data["summary_fields"]["inventory_source"] = {"source": source.source, "last_updated": None, "status": source_status(source)}
        data["summary_fields"]["unified_job_template"] = {"id": source.id, "name": source.name, "description": source.description,
                                                         "unified_job_type": "inventory_update"}
    if obj.source_project_update_id:
        data["related"]["source_project_update"] = "/api/v2/project_updates/%d/" % obj.source_project_update_id
    return data


def _last(updates):
    return updates.order_by("-id").first()


def project_summary(project):
    """A project in summary_fields (SUMMARIZABLE_FK_FIELDS['project'])."""
    if project is None:
        return None
    return {"id": project.id, "name": project.name, "description": project.description, "status": project_status(project),
            "scm_type": project.scm_type, "allow_override": project.allow_override}


def project_status(project):
    """A project's status as the real service derives it from its updates."""
    if not project.scm_type:
        return "ok" if projects.directory(project) is not None else "missing"
    last = _last(project.project_updates.all())
    return last.status if last else "never updated"


def project_state(project):
    """The fields of a project that follow from its updates."""
    from .models import ProjectUpdate

    updates = ProjectUpdate.objects.filter(project=project)
    done = _last(updates.filter(status__in=FINISHED))
    good = _last(updates.filter(status="successful"))
    last_run = _date(done.finished) if done else None
    if not project.scm_type:
        # a manual project's is the time its directory last changed (the real Project._get_last_job_run)
        last_run = _directory_time(project)
    return {
        "status": project_status(project), "scm_revision": good.scm_revision if good else "",
        "last_job_run": last_run, "last_job_failed": bool(done and done.failed),
        "last_update_failed": bool(done and done.failed), "last_updated": last_run,
    }


def _directory_time(project):
    import datetime

    path = projects.directory(project)
    if path is None:
        return None
    try:
        return _date(datetime.datetime.fromtimestamp(path.stat().st_mtime, tz=datetime.timezone.utc))
    except OSError:
        return None


def source_status(source):
    last = _last(source.inventory_updates.all())
    return last.status if last else "never updated"


def project_update_summaries(project):
    """summary_fields.last_update (the last finished update) and, while one is pending or
    running, current_update of a project: the real service's last_job and current_job."""
    data = {}

    def brief(update):
        return {"id": update.id, "name": update.name, "description": update.description,
                "status": update.status, "failed": update.failed}

    updates = project.project_updates.all()
    last = _last(updates.filter(status__in=FINISHED))
    if last is not None:
        data["last_update"] = brief(last)
    current = _last(updates.filter(status__in=ACTIVE))
    if current is not None:
        data["current_update"] = brief(current)
    return data
