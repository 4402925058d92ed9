"""Projects, job templates and jobs. A job is run by a detached process
(refsvc.jobs.runner) that writes its status and stdout here."""
from django.conf import settings
from django.db import models

from refsvc.svc.models import Credential, Inventory, Organization, TimestampedModel

JOB_TYPES = [("run", "Run"), ("check", "Check")]
JOB_STATUSES = [
    ("new", "New"), ("pending", "Pending"), ("waiting", "Waiting"), ("running", "Running"),
    ("successful", "Successful"), ("failed", "Failed"), ("error", "Error"), ("canceled", "Canceled"),
]
ASK_FIELDS = {
    # launch field -> the template's flag
    "limit": "ask_limit_on_launch",
    "extra_vars": "ask_variables_on_launch",
    "inventory": "ask_inventory_on_launch",
    "credentials": "ask_credential_on_launch",
    "job_tags": "ask_tags_on_launch",
    "skip_tags": "ask_skip_tags_on_launch",
    "verbosity": "ask_verbosity_on_launch",
    "job_type": "ask_job_type_on_launch",
}


class Project(TimestampedModel):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, on_delete=models.CASCADE, related_name="projects")
    scm_type = models.CharField(max_length=8, blank=True, default="")
    scm_url = models.CharField(max_length=1024, blank=True, default="")
    scm_branch = models.CharField(max_length=256, blank=True, default="")
    local_path = models.CharField(max_length=1024, blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]
        unique_together = [("name", "organization")]


class JobOptions(models.Model):
    job_type = models.CharField(max_length=8, choices=JOB_TYPES, default="run")
    inventory = models.ForeignKey(Inventory, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    project = models.ForeignKey(Project, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    playbook = models.CharField(max_length=1024, blank=True, default="")
    limit = models.TextField(blank=True, default="")
    extra_vars = models.TextField(blank=True, default="")
    job_tags = models.TextField(blank=True, default="")
    skip_tags = models.TextField(blank=True, default="")
    verbosity = models.PositiveIntegerField(default=0)
    forks = models.PositiveIntegerField(default=0)
    timeout = models.IntegerField(default=0)
    credentials = models.ManyToManyField(Credential, blank=True, related_name="+")

    class Meta:
        abstract = True

    @property
    def organization(self):
        return self.project.organization if self.project_id else None


class JobTemplate(TimestampedModel, JobOptions):
    name = models.CharField(max_length=512, unique=True)
    description = models.TextField(blank=True, default="")
    ask_limit_on_launch = models.BooleanField(default=False)
    ask_variables_on_launch = models.BooleanField(default=False)
    ask_inventory_on_launch = models.BooleanField(default=False)
    ask_credential_on_launch = models.BooleanField(default=False)
    ask_tags_on_launch = models.BooleanField(default=False)
    ask_skip_tags_on_launch = models.BooleanField(default=False)
    ask_verbosity_on_launch = models.BooleanField(default=False)
    ask_job_type_on_launch = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]


class Job(TimestampedModel, JobOptions):
    name = models.CharField(max_length=512, blank=True, default="")
    description = models.TextField(blank=True, default="")
    job_template = models.ForeignKey(JobTemplate, null=True, on_delete=models.SET_NULL, related_name="jobs")
    status = models.CharField(max_length=20, choices=JOB_STATUSES, default="pending")
    failed = models.BooleanField(default=False)
    started = models.DateTimeField(null=True, default=None)
    finished = models.DateTimeField(null=True, default=None)
    canceled_on = models.DateTimeField(null=True, default=None)
    elapsed = models.DecimalField(max_digits=12, decimal_places=3, default=0)
    cancel_flag = models.BooleanField(default=False)
    job_args = models.TextField(blank=True, default="")
    job_cwd = models.CharField(max_length=1024, blank=True, default="")
    job_explanation = models.TextField(blank=True, default="")
    result_stdout = models.TextField(blank=True, default="")
    launched_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]
