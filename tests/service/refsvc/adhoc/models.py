"""Ad hoc commands: one Ansible module run with the `ansible` command against
an inventory's hosts, by a detached runner (refsvc.adhoc.runner) that writes
its status and stdout here."""
from django.db import models
from django.db.models import Q

from refsvc.jobs.models import JOB_TYPES, UnifiedJob, UnifiedJobAccess
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


@access.register(AdHocCommand)
class AdHocCommandAccess(UnifiedJobAccess):
    """The real AdHocCommandAccess: a command is run with ad hoc on its inventory and use of its
    credential; who launched it, or may change its inventory, deletes and cancels it."""

    def can_add(self, user, data):
        from refsvc.rbac.registry import has_perm

        inventory, credential = data.get("inventory"), data.get("credential")
        if not (access.can_change(user, inventory) or has_perm(user, inventory, "adhoc")):
            return False
        return credential is None or access.can_change(user, credential) or has_perm(user, credential, "use")

    def can_change(self, user, obj, data=None):
        return obj.launched_by_id == user.id or (obj.inventory is not None and access.can_change(user, obj.inventory))
