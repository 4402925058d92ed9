"""Workflow jobs: a run of a workflow job template, its nodes (copied from the
template's graph) and the approvals its approval nodes wait on."""
from django.conf import settings
from django.db import models
from django.db.models import Q

from refsvc.jobs.models import Job, UnifiedJob, UnifiedJobAccess, UnifiedJobTemplate
from refsvc.svc import access
from refsvc.svc.models import Inventory, TimestampedModel
from refsvc.workflows.models import WorkflowApprovalTemplate, WorkflowJobTemplate


class WorkflowJob(UnifiedJob):
    workflow_job_template = models.ForeignKey(WorkflowJobTemplate, null=True, on_delete=models.SET_NULL, related_name="workflow_jobs")
    extra_vars = models.TextField(blank=True, default="")
    inventory = models.ForeignKey(Inventory, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    limit = models.TextField(null=True, blank=True, default=None)
    scm_branch = models.TextField(null=True, blank=True, default=None)
    job_tags = models.TextField(null=True, blank=True, default=None)
    skip_tags = models.TextField(null=True, blank=True, default=None)
    allow_simultaneous = models.BooleanField(default=False)
    labels = models.ManyToManyField("resources.Label", blank=True, related_name="+")

    class Meta(UnifiedJob.Meta):
        pass


class WorkflowApproval(UnifiedJob):
    workflow_approval_template = models.ForeignKey(WorkflowApprovalTemplate, null=True, on_delete=models.SET_NULL, related_name="approvals")
    timeout = models.IntegerField(default=0)
    timed_out = models.BooleanField(default=False)
    approved_or_denied_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta(UnifiedJob.Meta):
        pass


class WorkflowJobNode(TimestampedModel):
    workflow_job = models.ForeignKey(WorkflowJob, on_delete=models.CASCADE, related_name="workflow_job_nodes")
    unified_job_template = models.ForeignKey(UnifiedJobTemplate, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    job = models.ForeignKey(Job, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    approval = models.ForeignKey(WorkflowApproval, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    project_update = models.ForeignKey("updates.ProjectUpdate", null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="+")
    system_job = models.ForeignKey("system.SystemJob", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    success_nodes = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="success_parents")
    failure_nodes = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="failure_parents")
    always_nodes = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="always_parents")
    do_not_run = models.BooleanField(default=False)
    identifier = models.CharField(max_length=512, blank=True, default="")
    all_parents_must_converge = models.BooleanField(default=False)
    extra_data = models.JSONField(default=dict, blank=True)
    inventory = models.ForeignKey(Inventory, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    limit = models.TextField(null=True, blank=True, default=None)
    scm_branch = models.TextField(null=True, blank=True, default=None)
    job_tags = models.TextField(null=True, blank=True, default=None)
    skip_tags = models.TextField(null=True, blank=True, default=None)
    job_type = models.CharField(max_length=8, null=True, blank=True, default=None)
    verbosity = models.PositiveIntegerField(null=True, default=None)

    class Meta:
        ordering = ["id"]

    @property
    def run(self):
        """The job, approval, project update or system job this node started (None before)."""
        if self.job_id:
            return self.job
        if self.approval_id:
            return self.approval
        if self.system_job_id:
            return self.system_job
        return self.project_update if self.project_update_id else None


@access.rule(WorkflowJob)
def _workflow_jobs(qs, user):
    return qs.filter(Q(launched_by=user) | Q(workflow_job_template__in=access.visible_ids(WorkflowJobTemplate, user)))


@access.rule(WorkflowJobNode)
def _workflow_job_nodes(qs, user):
    return qs.filter(workflow_job__in=access.visible_ids(WorkflowJob, user))


@access.rule(WorkflowApproval)
def _workflow_approvals(qs, user):
    nodes = access.visible(WorkflowJobNode, user).filter(approval__isnull=False).values("approval_id")
    return qs.filter(Q(launched_by=user) | Q(id__in=nodes))


@access.register(WorkflowJob)
class WorkflowJobAccess(UnifiedJobAccess):
    """Who may launch its workflow deletes and cancels a workflow job."""

    def can_delete(self, user, obj):
        wfjt = obj.workflow_job_template
        return wfjt is not None and access.allows(user, "execute", wfjt)


@access.register(WorkflowApproval)
class WorkflowApprovalAccess(UnifiedJobAccess):
    """A superuser deletes an approval; who may change its workflow, or holds approve on it,
    approves or denies it (the real WorkflowApprovalAccess.can_approve_or_deny)."""

    def can_approve_or_deny(self, user, obj):
        from refsvc.rbac.registry import has_perm

        node = WorkflowJobNode.objects.filter(approval=obj).select_related("workflow_job__workflow_job_template").first()
        wfjt = node.workflow_job.workflow_job_template if node else None
        if wfjt is not None and (access.allows(user, "change", wfjt) or has_perm(user, wfjt, "approve")):
            return True
        return "You do not have permission to approve or deny this workflow step."
