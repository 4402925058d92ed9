"""Ad hoc commands: one Ansible module run with the `ansible` command against
an inventory's hosts, by a detached runner (refsvc.adhoc.runner) that writes
its status and stdout here."""
from django.conf import settings
from django.db import models

from refsvc.jobs.models import JOB_STATUSES, JOB_TYPES
from refsvc.svc.models import Credential, Inventory, TimestampedModel

VERBOSITY = [(0, "0 (Normal)"), (1, "1 (Verbose)"), (2, "2 (More Verbose)"), (3, "3 (Debug)"),
             (4, "4 (Connection Debug)"), (5, "5 (WinRM Debug)")]
ACTIVE = ("new", "pending", "waiting", "running")


class AdHocCommand(TimestampedModel):
    # Set on save from the module and its arguments, as the real service does
    # (its API shows the module's name alone).
    name = models.CharField(max_length=512, blank=True, default="")
    job_type = models.CharField(max_length=8, choices=JOB_TYPES, default="run")
    inventory = models.ForeignKey(Inventory, null=True, on_delete=models.SET_NULL, related_name="ad_hoc_commands")
    credential = models.ForeignKey(Credential, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    limit = models.TextField(blank=True, default="")
    module_name = models.CharField(max_length=1024, blank=True, default="")
    module_args = models.TextField(blank=True, default="")
    forks = models.PositiveIntegerField(default=0)
    verbosity = models.PositiveIntegerField(choices=VERBOSITY, default=0)
    extra_vars = models.TextField(blank=True, default="")
    become_enabled = models.BooleanField(default=False)
    diff_mode = models.BooleanField(default=False)
    # An execution environment id (checked against the resources app when it models them).
    execution_environment = models.PositiveIntegerField(null=True, blank=True, default=None)
    launch_type = models.CharField(max_length=20, default="manual")
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

    def save(self, *args, **kwargs):
        if not self.name:
            self.name = ": ".join(x for x in (self.module_name, self.module_args) if x)[:512]
        super().save(*args, **kwargs)
