"""POST /api/v2/bulk/job_launch/: a workflow job whose nodes are the jobs, as the
real BulkJobLaunchSerializer validates and answers it. The reference service
runs job templates only; each node's job starts at once (the nodes of a bulk
job are all roots, so the real service starts them together too)."""
import json
import uuid

from django.db import transaction
from django.utils import timezone
from rest_framework import serializers

from refsvc.jobs import launch as jobs_launch, runner
from refsvc.jobs.models import JobTemplate, UnifiedJobTemplate
from refsvc.jobs.views import can_change
from refsvc.svc.models import Credential, Inventory, Organization
from refsvc.svc.serializers import user_summary

from .models import WorkflowJob, WorkflowJobNode
from .serializers import limit

DONE = ("successful", "failed", "error", "canceled")
KIND_TITLES = {"project": "Project", "workflow_job_template": "Workflow Job Template", "inventory_source": "Inventory Source"}


class BulkJobNodeSerializer(serializers.Serializer):
    unified_job_template = serializers.IntegerField(min_value=1)
    identifier = serializers.CharField(max_length=512, required=False)
    inventory = serializers.IntegerField(required=False, min_value=1)
    execution_environment = serializers.IntegerField(required=False, min_value=1)
    credentials = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False)
    labels = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False)
    instance_groups = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False)
    extra_data = serializers.JSONField(required=False)
    limit = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    scm_branch = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    job_tags = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    skip_tags = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    job_type = serializers.ChoiceField(choices=[("run", "Run"), ("check", "Check")], required=False, allow_null=True)
    verbosity = serializers.ChoiceField(choices=[(i, str(i)) for i in range(6)], required=False, allow_null=True)
    diff_mode = serializers.BooleanField(required=False, allow_null=True)
    forks = serializers.IntegerField(required=False, min_value=0, allow_null=True)
    job_slice_count = serializers.IntegerField(required=False, min_value=0, allow_null=True)
    timeout = serializers.IntegerField(required=False, allow_null=True)


class BulkJobLaunchSerializer(serializers.Serializer):
    name = serializers.CharField(default="Bulk Job Launch", max_length=512, required=False, allow_blank=True)
    jobs = BulkJobNodeSerializer(many=True, allow_empty=False, max_length=100000)
    description = serializers.CharField(required=False, allow_blank=False)
    extra_vars = serializers.JSONField(required=False)
    organization = serializers.PrimaryKeyRelatedField(queryset=Organization.objects.all(), required=False, default=None, allow_null=True)
    inventory = serializers.PrimaryKeyRelatedField(queryset=Inventory.objects.all(), required=False)
    limit = serializers.CharField(required=False, allow_blank=False)
    scm_branch = serializers.CharField(required=False, allow_blank=False, max_length=1024)
    skip_tags = serializers.CharField(required=False, allow_blank=False)
    job_tags = serializers.CharField(required=False, allow_blank=False)

    def validate(self, attrs):
        user = self.context["request"].user
        if len(attrs["jobs"]) > limit("BULK_JOB_MAX_LAUNCH"):
            raise serializers.ValidationError("Number of requested jobs exceeds system setting BULK_JOB_MAX_LAUNCH")
        identifiers = set()
        for node in attrs["jobs"]:
            if "identifier" in node:
                if node["identifier"] in identifiers:
                    raise serializers.ValidationError("Identifier %s not unique" % node["identifier"])
                identifiers.add(node["identifier"])
            else:
                node["identifier"] = str(uuid.uuid4())
        wanted = set(node["unified_job_template"] for node in attrs["jobs"])
        kinds = dict(UnifiedJobTemplate.objects.filter(id__in=wanted).values_list("id", "kind"))
        other = sorted(set(KIND_TITLES.get(kind, kind) for kind in kinds.values() if kind != "job_template"))
        if other:
            # The real service also runs these; the reference service runs job templates only.
            raise serializers.ValidationError("Template types %s not allowed in bulk jobs" % " ".join(other))
        templates = dict((jt.id, jt) for jt in JobTemplate.objects.filter(id__in=wanted))
        allowed = set(jt.id for jt in templates.values() if can_change(user, jt, "execute"))
        self.check_ids("Unified Job Templates", wanted, allowed)
        self.check_organization(attrs, user)
        inventories = set(node["inventory"] for node in attrs["jobs"] if "inventory" in node)
        if "inventory" in attrs:
            inventories.add(attrs["inventory"].id)
        self.check_ids("Inventories", inventories, set(visible_ids(Inventory, user, inventories)))
        credentials = set(c for node in attrs["jobs"] for c in node.get("credentials", []))
        self.check_ids("Credentials", credentials, set(visible_ids(Credential, user, credentials)))
        for node in attrs["jobs"]:
            node["template"] = templates[node["unified_job_template"]]
        if "extra_vars" in attrs:
            attrs["extra_vars"] = json.dumps(jobs_launch._parse_extra_vars(attrs["extra_vars"]))
        return attrs

    @staticmethod
    def check_ids(title, wanted, allowed):
        missing = set(wanted) - set(allowed)
        if missing:
            raise serializers.ValidationError("%s %s not found or you don't have permissions to access it" % (title, missing))

    @staticmethod
    def check_organization(attrs, user):
        if user.is_superuser:
            return
        orgs = Organization.objects.filter(members=user) | Organization.objects.filter(admins=user)
        orgs = orgs.distinct()
        if attrs.get("organization") is None:
            count = orgs.count()
            if count == 1:
                attrs["organization"] = orgs.first()
            elif count > 1:
                raise serializers.ValidationError("User has permission to multiple Organizations, please set one of them in the request")
            else:
                raise serializers.ValidationError("User not part of any organization, please assign an organization to assign to the bulk job")
        elif attrs["organization"].id not in set(orgs.values_list("id", flat=True)):
            raise serializers.ValidationError("Organization %d not found or you don't have permissions to access it" % attrs["organization"].id)

    def create(self, validated_data):
        user = self.context["request"].user
        nodes = validated_data.pop("jobs")
        started = []
        with transaction.atomic():
            wfj = WorkflowJob.objects.create(launched_by=user, status="pending", **validated_data)
            for node in nodes:
                template = node.pop("template")
                job = node_job(wfj, template, node, user)
                WorkflowJobNode.objects.create(workflow_job=wfj, job=job, unified_job_template=template.id,
                                               identifier=node.pop("identifier"), prompts=node)
                if job is not None:
                    started.append(job)
        for job in started:
            runner.start(job)
        return representation(wfj)


def visible_ids(model, user, ids):
    from refsvc.svc import access

    return access.visible(model, user).filter(id__in=ids).values_list("id", flat=True)


def node_job(wfj, template, node, user):
    """The job of a node (None when it cannot start): the workflow job's launch values
    override the node's, and the template keeps what it does not prompt for."""
    data = dict((key, value) for key, value in node.items() if value is not None and key in jobs_launch.ASK_FIELDS)
    if "extra_data" in node:
        data["extra_vars"] = jobs_launch._parse_extra_vars(node["extra_data"])
    for key in ("limit", "job_tags", "skip_tags"):
        if getattr(wfj, key):
            data[key] = getattr(wfj, key)
    if wfj.inventory_id:
        data["inventory"] = wfj.inventory_id
    wf_vars = json.loads(wfj.extra_vars or "{}")
    if wf_vars:
        data["extra_vars"] = dict(data.get("extra_vars", {}), **wf_vars)
    try:
        job, _ignored = jobs_launch.launch(template, data, user)
    except serializers.ValidationError:
        return None
    return job


def refresh(wfj):
    """Bring the workflow job's status up to date with its nodes' jobs."""
    if wfj.status in DONE:
        return wfj
    jobs = [node.job for node in wfj.nodes.select_related("job")]
    statuses = [job.status if job else "failed" for job in jobs]
    now = timezone.now()
    if all(s in DONE for s in statuses):
        bad = [node for node in wfj.nodes.select_related("job") if node.job is None or node.job.status != "successful"]
        wfj.status = "failed" if bad else "successful"
        wfj.failed = bool(bad)
        wfj.started = wfj.started or wfj.created
        wfj.finished = max([job.finished for job in jobs if job and job.finished] or [now])
        wfj.elapsed = round((wfj.finished - wfj.started).total_seconds(), 3)
        if bad:
            wfj.job_explanation = ("No error handling path for workflow job node(s) [%s]. Workflow job node(s) missing "
                                   "unified job template and error handling path []."
                                   % ", ".join("(%d,%s)" % (n.id, n.job.status if n.job else "failed") for n in bad))
        wfj.save()
    elif wfj.status != "running":
        wfj.status, wfj.started = "running", wfj.started or now
        wfj.save()
    return wfj


def representation(wfj):
    """A workflow job as the real WorkflowJobSerializer shows it."""
    base = "/api/v2/workflow_jobs/%d/" % wfj.id
    related = {"workflow_nodes": base + "workflow_nodes/", "labels": base + "labels/", "activity_stream": base + "activity_stream/",
               "notifications": base + "notifications/", "cancel": base + "cancel/", "relaunch": base + "relaunch/"}
    summary = {"labels": {"count": 0, "results": []}, "user_capabilities": {"delete": True, "start": True}}
    if wfj.launched_by_id:
        related["created_by"] = "/api/v2/users/%d/" % wfj.launched_by_id
        summary["created_by"] = summary["launched_by"] = user_summary(wfj.launched_by)
    if wfj.organization_id:
        related["organization"] = "/api/v2/organizations/%d/" % wfj.organization_id
        summary["organization"] = {"id": wfj.organization_id, "name": wfj.organization.name,
                                   "description": wfj.organization.description}
    if wfj.inventory_id:
        related["inventory"] = "/api/v2/inventories/%d/" % wfj.inventory_id
        summary["inventory"] = {"id": wfj.inventory_id, "name": wfj.inventory.name, "description": wfj.inventory.description,
                                "kind": wfj.inventory.kind}
    return {
        "id": wfj.id, "type": "workflow_job", "url": base, "related": related, "summary_fields": summary,
        "created": wfj.created, "modified": wfj.modified, "name": wfj.name, "description": wfj.description,
        "unified_job_template": None, "launch_type": "manual", "status": wfj.status, "failed": wfj.failed,
        "started": wfj.started, "finished": wfj.finished, "canceled_on": None, "elapsed": float(wfj.elapsed),
        "job_explanation": wfj.job_explanation, "launched_by": summary.get("launched_by") or {},
        "work_unit_id": None, "workflow_job_template": None, "extra_vars": wfj.extra_vars, "allow_simultaneous": False,
        "job_template": None, "is_sliced_job": False, "inventory": wfj.inventory_id, "limit": wfj.limit,
        "scm_branch": wfj.scm_branch, "webhook_service": "", "webhook_credential": None, "webhook_guid": "",
        "skip_tags": wfj.skip_tags, "job_tags": wfj.job_tags,
    }


def node_representation(node):
    base = "/api/v2/workflow_job_nodes/%d/" % node.id
    job = node.job
    data = {
        "id": node.id, "type": "workflow_job_node", "url": base,
        "related": {"workflow_job": "/api/v2/workflow_jobs/%d/" % node.workflow_job_id},
        "summary_fields": {}, "created": node.created, "modified": node.modified,
        "extra_data": node.prompts.get("extra_data", {}), "inventory": node.prompts.get("inventory"),
        "execution_environment": node.prompts.get("execution_environment"),
        "job": job.id if job else None, "workflow_job": node.workflow_job_id,
        "unified_job_template": node.unified_job_template, "success_nodes": [], "failure_nodes": [], "always_nodes": [],
        "all_parents_must_converge": False, "do_not_run": False, "identifier": node.identifier,
    }
    for key in ("scm_branch", "job_type", "job_tags", "skip_tags", "limit", "diff_mode", "verbosity", "forks",
                "job_slice_count", "timeout"):
        data[key] = node.prompts.get(key)
    if job:
        data["related"]["job"] = "/api/v2/jobs/%d/" % job.id
        data["summary_fields"]["job"] = {"id": job.id, "name": job.name, "description": job.description,
                                         "status": job.status, "failed": job.failed, "elapsed": float(job.elapsed),
                                         "type": "job"}
    return data
