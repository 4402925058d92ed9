from rest_framework import serializers

from refsvc.svc.serializers import ResourceSerializer, VariablesField, user_summary

from . import projects
from .models import ACTIVE, SCM_TYPES, WEBHOOK_SERVICES, Job, JobTemplate, Project

DATES = serializers.DateTimeField()


def object_roles(obj):
    from refsvc.rbac.registry import object_roles as roles

    return roles(obj)


def unique_combination(serializer, model, attrs, fields=("name", "organization")):
    """The real service's soft uniqueness of templates (name within an organization)."""
    values = {}
    for f in fields:
        values[f] = attrs[f] if f in attrs else getattr(serializer.instance, f, None)
    qs = model.objects.filter(**values)
    if serializer.instance is not None:
        qs = qs.exclude(pk=serializer.instance.pk)
    if qs.exists():
        raise serializers.ValidationError({"__all__": ["%s with this (%s) combination already exists." % (model.__name__, ", ".join(fields))]})


def summary(obj, *names):
    return {n: getattr(obj, n) for n in names} if obj is not None else None


def date(value):
    return DATES.to_representation(value) if value else None


def launched_by(obj):
    """A unified job's ``launched_by``: who launched it (the real UnifiedJob.launched_by)."""
    user = obj.launched_by
    return {"id": user.id, "name": user.username, "type": "user", "url": "/api/v2/users/%d/" % user.id} if user else {}


# How a unified job shows each field of the real UnifiedJobSerializer (jobs run here on
# this host, with no execution environment, events or receptor work unit of their own).
UNIFIED_VALUES = {
    "name": lambda obj: obj.name,
    "description": lambda obj: obj.description,
    "launch_type": lambda obj: obj.launch_type,
    "status": lambda obj: obj.status,
    "execution_environment": lambda obj: None,
    "failed": lambda obj: obj.failed,
    "started": lambda obj: date(obj.started),
    "finished": lambda obj: date(obj.finished),
    "canceled_on": lambda obj: date(obj.canceled_on),
    "elapsed": lambda obj: float(obj.elapsed),
    "job_args": lambda obj: obj.job_args,
    "job_cwd": lambda obj: obj.job_cwd,
    "job_env": lambda obj: obj.job_env or {},
    "job_explanation": lambda obj: obj.job_explanation,
    "execution_node": lambda obj: "localhost" if obj.started else "",
    "controller_node": lambda obj: "",
    "result_traceback": lambda obj: "",
    "event_processing_finished": lambda obj: obj.status not in ACTIVE,
    "launched_by": launched_by,
    "work_unit_id": lambda obj: None,
}


def unified_job_data(obj, names):
    """The values of ``names`` (fields of UNIFIED_VALUES) for the unified job ``obj``, in that order."""
    return {name: UNIFIED_VALUES[name](obj) for name in names}


class UnifiedJobSerializer(ResourceSerializer):
    """The base of the serializers of unified jobs (jobs, ad hoc commands, workflow jobs
    and approvals; project and inventory updates use unified_job_data directly).
    ``unified_values`` names what to_representation adds from UNIFIED_VALUES."""

    unified_fields = ("name", "description", "status", "failed", "started", "finished", "canceled_on", "elapsed",
                      "job_explanation", "launched_by")
    unified_values = ()
    elapsed = serializers.DecimalField(max_digits=12, decimal_places=3, read_only=True, coerce_to_string=False)

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data.update(unified_job_data(obj, self.unified_values))
        return data


class ProjectSerializer(ResourceSerializer):
    type_name = "project"
    url_base = "projects"
    scm_type = serializers.ChoiceField(choices=SCM_TYPES, required=False, allow_blank=True, default="")
    local_path = serializers.CharField(max_length=1024, required=False, allow_blank=True)
    status = serializers.SerializerMethodField()
    scm_update_cache_timeout = serializers.IntegerField(min_value=0, max_value=2147483647, required=False, default=0)
    timeout = serializers.IntegerField(min_value=-2147483648, max_value=2147483647, required=False, default=0)
    default_environment = serializers.IntegerField(required=False, allow_null=True)

    class Meta:
        model = Project
        fields = ResourceSerializer.base_fields + (
            "name", "description", "local_path", "scm_type", "scm_url", "scm_branch", "scm_refspec", "scm_clean",
            "scm_track_submodules", "scm_delete_on_update", "credential", "timeout", "organization",
            "scm_update_on_launch", "scm_update_cache_timeout", "allow_override", "default_environment",
            "signature_validation_credential", "status",
        )
        validators = []

    def get_status(self, obj):
        from refsvc.updates.serializers import project_status

        return project_status(obj)

    def validate_default_environment(self, value):
        return validate_execution_environment(value)

    def to_representation(self, obj):
        data = super().to_representation(obj)
        from refsvc.updates.serializers import project_state

        data.update({"next_job_run": None, "custom_virtualenv": None})
        data.update(project_state(obj))
        return data

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {"playbooks": base + "playbooks/", "update": base + "update/", "project_updates": base + "project_updates/",
                   "schedules": base + "schedules/", "copy": base + "copy/"}
        from refsvc.updates.serializers import project_update_summaries

        for key, update in project_update_summaries(obj).items():
            related[key] = "/api/v2/project_updates/%d/" % update["id"]
        for event in ("started", "success", "error"):
            related["notification_templates_" + event] = base + "notification_templates_%s/" % event
        if obj.organization_id:
            related["organization"] = "/api/v2/organizations/%d/" % obj.organization_id
        if obj.credential_id:  # the real ProjectOptionsSerializer links the credential only
            related["credential"] = "/api/v2/credentials/%d/" % obj.credential_id
        return related

    def get_summary_fields(self, obj):
        data = {
            "organization": summary(obj.organization, "id", "name", "description"),
            "created_by": user_summary(obj.created_by),
            "object_roles": object_roles(obj),
            "user_capabilities": {"edit": True, "delete": True, "start": True, "schedule": True, "copy": True},
        }
        from refsvc.updates.serializers import project_update_summaries

        data.update(project_update_summaries(obj))
        for name in ("credential", "signature_validation_credential"):
            cred = getattr(obj, name)
            if cred is not None:
                data[name] = {"id": cred.id, "name": cred.name, "description": cred.description,
                              "kind": cred.credential_type.namespace, "cloud": cred.credential_type.kind == "cloud",
                              "kubernetes": cred.credential_type.kind == "kubernetes",
                              "credential_type_id": cred.credential_type_id}
                if name == "signature_validation_credential":  # its summary (SUMMARIZABLE_FK_FIELDS)
                    del data[name]["cloud"], data[name]["kubernetes"]
        return data

    def validate(self, attrs):
        def current(name, default=""):
            return attrs.get(name, getattr(self.instance, name) if self.instance else default)

        scm_type = current("scm_type") or ""
        if scm_type:
            if scm_type != "insights" and not (current("scm_url") or "").strip():
                raise serializers.ValidationError({"scm_url": ["SCM URL is required."]})
            attrs["local_path"] = ""
        else:
            attrs["scm_url"] = ""
            local_path = current("local_path")
            available = projects.local_paths()
            if local_path not in available:
                raise serializers.ValidationError(
                    {"local_path": ["Invalid path choice. Available choices are: %s" % ", ".join(available)]}
                )
        self.unique_error(Project, ("name", "organization"), attrs, "Project with this Name and Organization already exists.")
        return attrs


class JobOptionsSerializer(ResourceSerializer):
    extra_vars = VariablesField()
    job_type = serializers.ChoiceField(choices=[("run", "Run"), ("check", "Check")], required=False, default="run")
    verbosity = serializers.ChoiceField(choices=[(i, str(i)) for i in range(6)], required=False, default=0)

    option_fields = (
        "job_type", "inventory", "project", "playbook", "forks", "limit", "verbosity", "extra_vars",
        "job_tags", "skip_tags", "timeout",
    )

    def get_summary_fields(self, obj):
        from refsvc.updates.serializers import project_summary

        org = obj.organization
        return {
            "organization": summary(org, "id", "name", "description"),
            "inventory": summary(obj.inventory, "id", "name", "description"),
            "project": project_summary(obj.project),
            "created_by": user_summary(getattr(obj, "created_by", None) or getattr(obj, "launched_by", None)),
            "credentials": [
                {"id": c.id, "name": c.name, "description": c.description, "kind": c.credential_type.namespace,
                 "cloud": c.credential_type.kind == "cloud"}
                for c in obj.credentials.all()
            ],
            "user_capabilities": {"edit": True, "delete": True, "start": True, "schedule": True, "copy": True},
        }

    def related_of(self, obj):
        related = {"credentials": self.get_url(obj) + "credentials/"}
        if obj.inventory_id:
            related["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        if obj.project_id:
            related["project"] = "/api/v2/projects/%d/" % obj.project_id
        return related


def validate_execution_environment(value):
    """An execution environment id, checked when the service models them."""
    if value is None:
        return None
    from django.apps import apps

    try:
        model = apps.get_model("resources", "ExecutionEnvironment")
    except LookupError:
        model = None
    if model is None or not model.objects.filter(pk=value).exists():
        raise serializers.ValidationError('Invalid pk "%s" - object does not exist.' % value)
    return value


JT_FLAGS = (
    "scm_branch", "forks", "limit", "verbosity", "extra_vars", "job_tags", "force_handlers", "skip_tags",
    "start_at_task", "timeout", "use_fact_cache", "host_config_key", "ask_scm_branch_on_launch",
    "ask_diff_mode_on_launch", "ask_variables_on_launch", "ask_limit_on_launch", "ask_tags_on_launch",
    "ask_skip_tags_on_launch", "ask_job_type_on_launch", "ask_verbosity_on_launch", "ask_inventory_on_launch",
    "ask_credential_on_launch", "ask_execution_environment_on_launch", "ask_labels_on_launch",
    "ask_forks_on_launch", "ask_job_slice_count_on_launch", "ask_timeout_on_launch",
    "ask_instance_groups_on_launch", "survey_enabled", "become_enabled", "diff_mode", "allow_simultaneous",
    "job_slice_count", "webhook_service", "webhook_credential", "prevent_instance_group_fallback",
    "execution_environment",
)


def last_finished_job(template):
    """The template's last job, set when a job finishes (the real UnifiedJob._update_parent_instance)."""
    from .models import FINISHED

    return template.jobs.filter(status__in=FINISHED).order_by("-finished", "-id").first()


def validate_webhook(serializer, attrs):
    """JobTemplateMixin.validate of the real service (job and workflow job templates): a webhook
    credential is a personal access token of the webhook service's kind."""
    def current(name):
        return attrs.get(name, getattr(serializer.instance, name, None) if serializer.instance else None)

    credential = current("webhook_credential")
    if credential is None:
        return
    if credential.credential_type.kind != "token":
        raise serializers.ValidationError({"webhook_credential": ["Must be a Personal Access Token."]})
    service = current("webhook_service")
    if not service or credential.credential_type.namespace != "%s_token" % service:
        raise serializers.ValidationError({"webhook_credential": ["Must match the selected webhook service."]})


class JobTemplateSerializer(JobOptionsSerializer):
    type_name = "job_template"
    url_base = "job_templates"
    forks = serializers.IntegerField(min_value=0, max_value=2147483647, required=False, default=0)
    job_slice_count = serializers.IntegerField(min_value=0, max_value=2147483647, required=False, default=1)
    timeout = serializers.IntegerField(min_value=-2147483648, max_value=2147483647, required=False, default=0)
    execution_environment = serializers.IntegerField(required=False, allow_null=True)
    webhook_service = serializers.ChoiceField(choices=[("", "---------")] + WEBHOOK_SERVICES, required=False, allow_blank=True, allow_null=True)

    class Meta:
        model = JobTemplate
        fields = ResourceSerializer.base_fields + ("name", "description", "job_type", "inventory", "project", "playbook") + JT_FLAGS
        validators = []

    def get_related(self, obj):
        related = self.related_of(obj)
        base = self.get_url(obj)
        for name in ("launch", "jobs", "survey_spec", "labels", "instance_groups", "schedules", "activity_stream",
                     "access_list", "object_roles", "copy", "slice_workflow_jobs", "webhook_key", "webhook_receiver"):
            related[name] = base + name + "/"
        if obj.organization_id:
            related["organization"] = "/api/v2/organizations/%d/" % obj.organization_id
        if obj.webhook_credential_id:
            related["webhook_credential"] = "/api/v2/credentials/%d/" % obj.webhook_credential_id
        last = last_finished_job(obj)
        if last is not None:
            related["last_job"] = "/api/v2/jobs/%d/" % last.id
        return related

    def get_summary_fields(self, obj):
        data = super().get_summary_fields(obj)
        data["object_roles"] = object_roles(obj)
        data["survey"] = {"title": obj.survey_spec.get("name", ""), "description": obj.survey_spec.get("description", "")} if obj.survey_spec else None
        if data["survey"] is None:
            del data["survey"]
        if obj.webhook_credential_id:
            cred = obj.webhook_credential
            data["webhook_credential"] = {"id": cred.id, "name": cred.name, "description": cred.description,
                                          "kind": cred.credential_type.namespace, "cloud": cred.credential_type.kind == "cloud",
                                          "credential_type_id": cred.credential_type_id}
        labels = obj.labels.order_by("name")
        data["labels"] = {"count": labels.count(), "results": [{"id": lb.id, "name": lb.name} for lb in labels[:10]]}
        last = last_finished_job(obj)
        if last is not None:
            # the real UnifiedJobTemplate's last_job, and last_update its alias
            data["last_job"] = {"id": last.id, "name": last.name, "description": last.description,
                                "finished": date(last.finished), "status": last.status, "failed": last.failed,
                                "canceled_on": date(last.canceled_on)}
            data["last_update"] = {"id": last.id, "name": last.name, "description": last.description,
                                   "status": last.status, "failed": last.failed}
        return data

    def validate_execution_environment(self, value):
        return validate_execution_environment(value)

    def validate_webhook_service(self, value):
        return value or ""

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["organization"] = obj.organization_id
        data["next_job_run"] = None
        data["custom_virtualenv"] = None
        last = obj.jobs.order_by("-id").first()
        data["status"] = last.status if last else "never updated"
        data["last_job_run"] = serializers.DateTimeField().to_representation(last.finished) if last and last.finished else None
        data["last_job_failed"] = bool(last and last.failed)
        return data

    def validate(self, attrs):
        def current(name):
            return attrs.get(name, getattr(self.instance, name, None) if self.instance else None)

        errors = {}
        project = current("project")
        playbook = current("playbook")
        if project is None:
            errors["project"] = ["This field is required."]
        elif project.scm_type and not playbook:
            errors["playbook"] = ["Must select playbook for project."]
        elif not project.scm_type and playbook not in projects.playbooks(project):
            errors["playbook"] = ['Playbook not found for project.']
        if current("inventory") is None and not current("ask_inventory_on_launch"):
            errors["inventory"] = ["Job Templates must have an inventory or allow prompting for it."]
        if errors:
            raise serializers.ValidationError(errors)
        attrs_org = dict(attrs, organization=project.organization if project is not None else None)
        unique_combination(self, JobTemplate, attrs_org)
        validate_webhook(self, attrs)
        return attrs


class JobSerializer(UnifiedJobSerializer, JobOptionsSerializer):
    type_name = "job"
    url_base = "jobs"

    class Meta:
        model = Job
        fields = ResourceSerializer.base_fields + (
            "name", "description", "job_template", "status", "failed", "started", "finished", "canceled_on",
            "elapsed", "job_args", "job_cwd", "job_explanation", "launched_by",
        ) + JobOptionsSerializer.option_fields
        read_only_fields = fields

    def get_related(self, obj):
        related = self.related_of(obj)
        base = self.get_url(obj)
        related.update({"stdout": base + "stdout/", "cancel": base + "cancel/"})
        if obj.job_template_id:
            related["job_template"] = "/api/v2/job_templates/%d/" % obj.job_template_id
            related["unified_job_template"] = related["job_template"]
        if obj.organization is not None:
            related["organization"] = "/api/v2/organizations/%d/" % obj.organization.id
        return related

    def get_summary_fields(self, obj):
        data = super().get_summary_fields(obj)
        data["job_template"] = summary(obj.job_template, "id", "name", "description")
        if obj.job_template is not None:
            data["unified_job_template"] = dict(summary(obj.job_template, "id", "name", "description"), unified_job_type="job")
        data["user_capabilities"] = {"delete": True, "start": True}
        labels = obj.labels.order_by("name")
        data["labels"] = {"count": labels.count(), "results": [{"id": lb.id, "name": lb.name} for lb in labels[:10]]}
        return data

    # The list shows neither (the real UnifiedJobListSerializer), the detail and a launch's answer do.
    detail_only = ("job_args", "job_cwd", "job_env", "result_traceback", "event_processing_finished")

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["organization"] = obj.organization.id if obj.organization else None
        data["unified_job_template"] = obj.job_template_id
        data.update(unified_job_data(obj, ("launch_type", "execution_node", "controller_node", "launched_by",
                                           "work_unit_id")))
        data.update(scm_branch=obj.scm_branch, diff_mode=obj.diff_mode, job_slice_count=obj.job_slice_count,
                    execution_environment=obj.execution_environment, force_handlers=obj.force_handlers,
                    start_at_task=obj.start_at_task, use_fact_cache=obj.use_fact_cache,
                    allow_simultaneous=obj.allow_simultaneous, job_slice_number=obj.job_slice_number,
                    scm_revision=obj.scm_revision,
                    # Not modelled: no passwords are asked for at launch here, set_stats artifacts are not
                    # collected, jobs run on this host outside any instance group, webhooks launch no job.
                    passwords_needed_to_start=[], artifacts={}, instance_group=None,
                    webhook_service="", webhook_credential=None, webhook_guid="")
        if isinstance(self.parent, serializers.ListSerializer):
            for name in self.detail_only:
                data.pop(name, None)
        else:
            data.update(unified_job_data(obj, ("job_env", "result_traceback", "event_processing_finished")))
        return data


class JobDetailSerializer(JobSerializer):
    """A job's own page (the real JobDetailSerializer): also its host and play counts."""

    def to_representation(self, obj):
        data = super().to_representation(obj)
        # Job events are not recorded here: no counts of hosts, plays or tasks.
        data.update(host_status_counts=None, playbook_counts={"play_count": 0, "task_count": 0}, custom_virtualenv=None)
        return data
