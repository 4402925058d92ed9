"""The workflow job a bulk job launch creates, and its nodes (one job each)."""
from django.conf import settings
from django.db import models

from refsvc.jobs.models import JOB_STATUSES, Job
from refsvc.svc.models import Inventory, Organization, TimestampedModel


class WorkflowJob(TimestampedModel):
    name = models.CharField(max_length=512, blank=True, default="")
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    inventory = models.ForeignKey(Inventory, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    limit = models.TextField(null=True, blank=True, default=None)
    scm_branch = models.TextField(null=True, blank=True, default=None)
    job_tags = models.TextField(null=True, blank=True, default=None)
    skip_tags = models.TextField(null=True, blank=True, default=None)
    extra_vars = models.TextField(blank=True, default="{}")
    status = models.CharField(max_length=20, choices=JOB_STATUSES, default="pending")
    failed = models.BooleanField(default=False)
    started = models.DateTimeField(null=True, default=None)
    finished = models.DateTimeField(null=True, default=None)
    elapsed = models.DecimalField(max_digits=12, decimal_places=3, default=0)
    job_explanation = models.TextField(blank=True, default="")
    launched_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]


class WorkflowJobNode(TimestampedModel):
    workflow_job = models.ForeignKey(WorkflowJob, on_delete=models.CASCADE, related_name="nodes")
    job = models.ForeignKey(Job, null=True, on_delete=models.SET_NULL, related_name="+")
    unified_job_template = models.PositiveIntegerField()
    identifier = models.CharField(max_length=512)
    prompts = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]
