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
from refsvc.jobs.models import Job, JobTemplate, UnifiedJobTemplate
from refsvc.jobs.views import can_change
from refsvc.svc import access
from refsvc.svc.models import Credential, Inventory, Organization

from refsvc.wfjobs.models import WorkflowJob, WorkflowJobNode
from refsvc.wfjobs.serializers import WorkflowJobSerializer
from .serializers import limit

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

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # The real service's DRF (3.15.1) gives a list's item errors as a list, one entry per item
            # ({} for an item without error); this DRF gives a dict keyed by index.
            errors = exc.detail
            jobs = errors.get("jobs") if isinstance(errors, dict) else None
            if isinstance(jobs, dict) and jobs and all(str(key).isdigit() for key in jobs):
                errors["jobs"] = [jobs.get(i, jobs.get(str(i), {})) for i in range(len(data.get("jobs") or []))]
            raise serializers.ValidationError(errors)

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
        self.check_ids("Inventories", inventories, set(access.visible(Inventory, user).filter(id__in=inventories).values_list("id", flat=True)))
        credentials = set(c for node in attrs["jobs"] for c in node.get("credentials", []))
        self.check_ids("Credentials", credentials, set(access.visible(Credential, user).filter(id__in=credentials).values_list("id", flat=True)))
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
        """A workflow job whose nodes are the jobs, launched at once (the workflow runner
        then follows them to the workflow job's end), as the real service's bulk launch."""
        user = self.context["request"].user
        nodes = validated_data.pop("jobs")
        validated_data.pop("organization", None)
        started = []
        with transaction.atomic():
            wfj = WorkflowJob.objects.create(launched_by=user, status="pending", **validated_data)
            for node in nodes:
                template = node.pop("template")
                identifier = node.pop("identifier")
                job = node_job(wfj, template, node, user)
                if job is None:
                    now = timezone.now()
                    job = Job.objects.create(name=template.name, job_template=template, status="error", failed=True,
                                             started=now, finished=now, launched_by=user,
                                             job_explanation="The job could not start: its launch values were refused.")
                else:
                    started.append(job)
                WorkflowJobNode.objects.create(
                    workflow_job=wfj, job=job, unified_job_template_id=template.id, identifier=identifier,
                    extra_data=node.get("extra_data") or {}, inventory_id=getattr(node.get("inventory"), "id", node.get("inventory")),
                    limit=node.get("limit"), scm_branch=node.get("scm_branch"), job_tags=node.get("job_tags"),
                    skip_tags=node.get("skip_tags"), job_type=node.get("job_type"), verbosity=node.get("verbosity"))
        for job in started:
            runner.start(job)
        runner.start(wfj, "refsvc.wfjobs.runner")
        return WorkflowJobSerializer(wfj, context=self.context).data


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
