"""Ad hoc commands: one Ansible module run with the `ansible` command against
an inventory's hosts, by a detached runner (refsvc.adhoc.runner) that writes
its status and stdout here."""
from django.db import models
from django.db.models import Q

from refsvc.jobs.models import JOB_TYPES, UnifiedJob
from refsvc.svc import access
from refsvc.svc.models import Credential, Inventory

VERBOSITY = [(0, "0 (Normal)"), (1, "1 (Verbose)"), (2, "2 (More Verbose)"), (3, "3 (Debug)"),
             (4, "4 (Connection Debug)"), (5, "5 (WinRM Debug)")]


class AdHocCommand(UnifiedJob):
    # The name is set on save from the module and its arguments, as the real service
    # does (its API shows the module's name alone).
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

    class Meta(UnifiedJob.Meta):
        pass

    def save(self, *args, **kwargs):
        if not self.name:
            self.name = ": ".join(x for x in (self.module_name, self.module_args) if x)[:512]
        super().save(*args, **kwargs)


@access.rule(AdHocCommand)
def _ad_hoc_commands(qs, user):
    return qs.filter(Q(inventory__in=access.visible_ids(Inventory, user)) | Q(launched_by=user))
