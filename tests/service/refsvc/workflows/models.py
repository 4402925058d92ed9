"""Workflow job templates, their nodes (a graph of success/failure/always edges)
and approval templates."""
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from refsvc.jobs.models import WEBHOOK_SERVICES, UnifiedIdMixin, UnifiedJobTemplate
from refsvc.svc import access
from refsvc.svc.models import Credential, Inventory, Organization, TimestampedModel


class WorkflowJobTemplate(UnifiedIdMixin, TimestampedModel):
    unified_kind = "workflow_job_template"
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.SET_NULL, related_name="workflows")
    inventory = models.ForeignKey(Inventory, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    extra_vars = models.TextField(blank=True, default="")
    limit = models.TextField(null=True, blank=True, default=None)
    scm_branch = models.TextField(null=True, blank=True, default=None)
    job_tags = models.TextField(null=True, blank=True, default=None)
    skip_tags = models.TextField(null=True, blank=True, default=None)
    allow_simultaneous = models.BooleanField(default=False)
    survey_enabled = models.BooleanField(default=False)
    survey_spec = models.JSONField(default=dict, blank=True)
    ask_variables_on_launch = models.BooleanField(default=False)
    ask_inventory_on_launch = models.BooleanField(default=False)
    ask_scm_branch_on_launch = models.BooleanField(default=False)
    ask_limit_on_launch = models.BooleanField(default=False)
    ask_labels_on_launch = models.BooleanField(default=False)
    ask_skip_tags_on_launch = models.BooleanField(default=False)
    ask_tags_on_launch = models.BooleanField(default=False)
    webhook_service = models.CharField(max_length=16, blank=True, default="", choices=WEBHOOK_SERVICES)
    webhook_credential = models.ForeignKey(Credential, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    labels = models.ManyToManyField("resources.Label", blank=True, related_name="workflow_job_templates")
    notification_templates_started = models.ManyToManyField("resources.NotificationTemplate", blank=True, related_name="workflow_job_templates_started")
    notification_templates_success = models.ManyToManyField("resources.NotificationTemplate", blank=True, related_name="workflow_job_templates_success")
    notification_templates_error = models.ManyToManyField("resources.NotificationTemplate", blank=True, related_name="workflow_job_templates_error")
    notification_templates_approvals = models.ManyToManyField("resources.NotificationTemplate", blank=True, related_name="workflow_job_templates_approvals")

    class Meta:
        ordering = ["id"]


class WorkflowApprovalTemplate(UnifiedIdMixin, TimestampedModel):
    unified_kind = "workflow_approval_template"
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    timeout = models.IntegerField(default=0)

    class Meta:
        ordering = ["id"]


def new_identifier():
    return str(uuid.uuid4())


class WorkflowJobTemplateNode(TimestampedModel):
    workflow_job_template = models.ForeignKey(WorkflowJobTemplate, on_delete=models.CASCADE, related_name="workflow_job_template_nodes")
    unified_job_template = models.ForeignKey(UnifiedJobTemplate, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    success_nodes = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="success_parents")
    failure_nodes = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="failure_parents")
    always_nodes = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="always_parents")
    identifier = models.CharField(max_length=512, default=new_identifier)
    all_parents_must_converge = models.BooleanField(default=False)
    extra_data = models.JSONField(default=dict, blank=True)
    inventory = models.ForeignKey(Inventory, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    credentials = models.ManyToManyField(Credential, blank=True, related_name="+")
    execution_environment = models.PositiveIntegerField(null=True, blank=True, default=None)
    diff_mode = models.BooleanField(null=True, default=None)
    forks = models.PositiveIntegerField(null=True, default=None)
    job_slice_count = models.PositiveIntegerField(null=True, default=None)
    timeout = models.IntegerField(null=True, default=None)
    verbosity = models.PositiveIntegerField(null=True, default=None)
    job_type = models.CharField(max_length=8, null=True, blank=True, default=None)
    job_tags = models.TextField(null=True, blank=True, default=None)
    skip_tags = models.TextField(null=True, blank=True, default=None)
    limit = models.TextField(null=True, blank=True, default=None)
    scm_branch = models.TextField(null=True, blank=True, default=None)
    labels = models.ManyToManyField("resources.Label", blank=True, related_name="workflow_job_template_nodes")

    class Meta:
        ordering = ["id"]
        unique_together = [("identifier", "workflow_job_template")]


class WorkflowJobTemplateNodeInstanceGroup(models.Model):
    """The instance groups a node prompts for, in order."""
    node = models.ForeignKey(WorkflowJobTemplateNode, on_delete=models.CASCADE, related_name="instance_group_links")
    instance_group = models.ForeignKey("resources.InstanceGroup", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        unique_together = [("node", "instance_group")]


@access.rule(WorkflowJobTemplate)
def _workflow_job_templates(qs, user):
    from refsvc.rbac.registry import allowed_q

    admin_orgs = Organization.objects.filter(admins=user).values("id")
    return qs.filter(Q(organization__in=admin_orgs) | Q(created_by=user) | allowed_q(user, WorkflowJobTemplate, "view"))


@access.rule(WorkflowJobTemplateNode)
def _workflow_job_template_nodes(qs, user):
    return qs.filter(workflow_job_template__in=access.visible_ids(WorkflowJobTemplate, user))


@access.rule(WorkflowApprovalTemplate)
def _workflow_approval_templates(qs, user):
    """Those of the nodes the user sees."""
    nodes = access.visible(WorkflowJobTemplateNode, user).filter(unified_job_template__kind="workflow_approval_template")
    return qs.filter(id__in=nodes.values("unified_job_template_id"))


def may_change(user, wfjt):
    """Who made the workflow, an administrator of its organization, or a role's grant of change."""
    from refsvc.rbac.registry import has_perm

    return wfjt.created_by_id == user.id or access.is_org_admin(user, wfjt.organization) or has_perm(user, wfjt, "change")


def may_add_in(user, org):
    from refsvc.rbac.registry import grants

    return access.is_org_admin(user, org) or any(
        key == "organization" and oid == org.pk and "add_workflowjobtemplate" in perms for key, oid, perms in grants(user))


@access.register(WorkflowJobTemplate)
class WorkflowJobTemplateAccess(access.Access):
    def can_add(self, user, data):
        org = data.get("organization")
        return org is not None and may_add_in(user, org)

    def can_offer_add(self, user):
        return Organization.objects.filter(admins=user).exists()

    def can_change(self, user, obj, data=None):
        return may_change(user, obj)

    def can_attach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        # Its labels and notification templates; its schedules are attached by a superuser only.
        return relation is not None and may_change(user, obj)

    def can_execute(self, user, obj):
        from refsvc.rbac.registry import has_perm

        return may_change(user, obj) or has_perm(user, obj, "execute")


@access.register(WorkflowJobTemplateNode)
class WorkflowJobTemplateNodeAccess(access.Access):
    """A node, its links and its prompts are changed by who may change its workflow."""

    def can_add(self, user, data):
        wfjt = data.get("workflow_job_template")
        return wfjt is not None and may_change(user, wfjt)

    def refuse_add(self, user, data):
        return access.DENIED if data.get("workflow_job_template") is None else None

    def can_change(self, user, obj, data=None):
        return may_change(user, obj.workflow_job_template)

    def refuse_attach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        # Nodes are linked within their workflow only.
        if isinstance(sub, WorkflowJobTemplateNode) and sub.workflow_job_template_id != obj.workflow_job_template_id:
            return access.DENIED
        return None

