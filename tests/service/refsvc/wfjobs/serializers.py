from rest_framework import serializers

from refsvc.jobs.serializers import UnifiedJobSerializer
from refsvc.svc.serializers import ResourceSerializer

from .models import WorkflowApproval, WorkflowJob, WorkflowJobNode

RUN_FIELDS = UnifiedJobSerializer.unified_fields


def user_summary(user):
    return {"id": user.id, "name": user.username, "type": "user"} if user else {}


class RunSerializer(UnifiedJobSerializer):
    unified_values = ("launch_type", "work_unit_id")

    def get_summary_fields(self, obj):
        return {"launched_by": user_summary(obj.launched_by), "user_capabilities": {"delete": True, "start": False}}

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["launched_by"] = data["summary_fields"]["launched_by"]
        return data


class WorkflowJobSerializer(RunSerializer):
    type_name = "workflow_job"
    url_base = "workflow_jobs"

    class Meta:
        model = WorkflowJob
        fields = ResourceSerializer.base_fields + RUN_FIELDS + (
            "workflow_job_template", "extra_vars", "allow_simultaneous", "inventory", "limit", "scm_branch",
            "job_tags", "skip_tags")
        read_only_fields = fields

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {rel: base + rel + "/" for rel in ("workflow_nodes", "labels", "cancel", "notifications",
                                                     "activity_stream", "relaunch")}
        if obj.workflow_job_template_id:
            related["workflow_job_template"] = "/api/v2/workflow_job_templates/%d/" % obj.workflow_job_template_id
            related["unified_job_template"] = related["workflow_job_template"]
        return related

    def get_summary_fields(self, obj):
        data = super().get_summary_fields(obj)
        wfjt = obj.workflow_job_template
        if wfjt is not None:
            data["workflow_job_template"] = {"id": wfjt.id, "name": wfjt.name, "description": wfjt.description}
            data["unified_job_template"] = dict(data["workflow_job_template"], unified_job_type="workflow_job")
        data["labels"] = {"count": obj.labels.count(), "results": [{"id": label.id, "name": label.name} for label in obj.labels.all()]}
        return data

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data.update({"unified_job_template": obj.workflow_job_template_id, "job_template": None, "is_sliced_job": False,
                     "webhook_service": "", "webhook_credential": None, "webhook_guid": ""})
        return data


class WorkflowApprovalSerializer(RunSerializer):
    type_name = "workflow_approval"
    url_base = "workflow_approvals"

    class Meta:
        model = WorkflowApproval
        fields = ResourceSerializer.base_fields + RUN_FIELDS + ("timed_out",)
        read_only_fields = fields

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {"approve": base + "approve/", "deny": base + "deny/"}
        if obj.workflow_approval_template_id:
            related["workflow_approval_template"] = "/api/v2/workflow_approval_templates/%d/" % obj.workflow_approval_template_id
        return related

    def get_summary_fields(self, obj):
        data = super().get_summary_fields(obj)
        if obj.approved_or_denied_by:
            data["approved_or_denied_by"] = user_summary(obj.approved_or_denied_by)
        node = WorkflowJobNode.objects.filter(approval=obj).select_related("workflow_job").first()
        if node is not None:
            wj = node.workflow_job
            data["source_workflow_job"] = {"id": wj.id, "name": wj.name, "description": wj.description,
                                           "status": wj.status, "failed": wj.failed, "elapsed": float(wj.elapsed)}
        return data

    def to_representation(self, obj):
        data = super().to_representation(obj)
        expiration = None
        if obj.timeout and obj.started:
            from datetime import timedelta

            expiration = (obj.started + timedelta(seconds=obj.timeout)).isoformat().replace("+00:00", "Z")
        data.update({"unified_job_template": obj.workflow_approval_template_id, "execution_environment": None,
                     "can_approve_or_deny": obj.status == "pending", "approval_expiration": expiration})
        return data


def run_type(node):
    if node.approval_id:
        return "workflow_approval"
    if node.system_job_id:
        return "system_job"
    return "project_update" if node.project_update_id else "job"


def job_url(node):
    if node.job_id:
        return "/api/v2/jobs/%d/" % node.job_id
    if node.approval_id:
        return "/api/v2/workflow_approvals/%d/" % node.approval_id
    if node.project_update_id:
        return "/api/v2/project_updates/%d/" % node.project_update_id
    if node.system_job_id:
        return "/api/v2/system_jobs/%d/" % node.system_job_id
    return None


class WorkflowJobNodeSerializer(ResourceSerializer):
    type_name = "workflow_job_node"
    url_base = "workflow_job_nodes"
    job = serializers.SerializerMethodField()
    success_nodes = serializers.SerializerMethodField()
    failure_nodes = serializers.SerializerMethodField()
    always_nodes = serializers.SerializerMethodField()

    class Meta:
        model = WorkflowJobNode
        fields = ResourceSerializer.base_fields + (
            "workflow_job", "unified_job_template", "job", "success_nodes", "failure_nodes", "always_nodes",
            "do_not_run", "identifier", "all_parents_must_converge", "extra_data", "inventory", "limit",
            "scm_branch", "job_tags", "skip_tags", "job_type", "verbosity")
        read_only_fields = fields

    def get_job(self, obj):
        return obj.job_id or obj.approval_id or obj.project_update_id or obj.system_job_id

    def get_success_nodes(self, obj):
        return [n.id for n in obj.success_nodes.all()]

    def get_failure_nodes(self, obj):
        return [n.id for n in obj.failure_nodes.all()]

    def get_always_nodes(self, obj):
        return [n.id for n in obj.always_nodes.all()]

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {rel: base + rel + "/" for rel in ("success_nodes", "failure_nodes", "always_nodes", "credentials",
                                                     "labels", "instance_groups")}
        related["workflow_job"] = "/api/v2/workflow_jobs/%d/" % obj.workflow_job_id
        if obj.unified_job_template_id:
            related["unified_job_template"] = "/api/v2/unified_job_templates/%d/" % obj.unified_job_template_id
        if job_url(obj):
            related["job"] = job_url(obj)
        return related

    def get_summary_fields(self, obj):
        data = {"workflow_job": {"id": obj.workflow_job_id, "name": obj.workflow_job.name}}
        ujt = obj.unified_job_template
        if ujt is not None:
            data["unified_job_template"] = {"id": ujt.id, "name": ujt.name, "unified_job_type": {
                "job_template": "job", "project": "project_update", "workflow_job_template": "workflow_job",
                "inventory_source": "inventory_update", "system_job_template": "system_job",
                "workflow_approval_template": "workflow_approval"}.get(ujt.kind, ujt.kind)}
        run = obj.run
        if run is not None:
            data["job"] = {"id": run.id, "name": run.name, "description": run.description, "status": run.status,
                           "failed": run.failed, "elapsed": float(run.elapsed),
                           "type": run_type(obj)}
        return data

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data.update({"execution_environment": None,
                     "diff_mode": None, "forks": None, "job_slice_count": None, "timeout": None})
        return data
