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
