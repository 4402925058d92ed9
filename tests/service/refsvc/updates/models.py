"""Project updates and inventory updates. Each is run by a detached process
(refsvc.updates.runner) that writes its status and output here."""
from django.db import models

from refsvc.jobs.models import JOB_TYPES, Project, UnifiedJob, UnifiedJobAccess
from refsvc.resources.models import Group, InventorySource
from refsvc.svc import access
from refsvc.svc.models import Host, Inventory


class UpdateFields(UnifiedJob):
    """What both kinds of update have besides the unified job's fields."""

    timeout = models.IntegerField(default=0)
    scm_revision = models.CharField(max_length=1024, blank=True, default="")

    class Meta(UnifiedJob.Meta):
        abstract = True


class ProjectUpdate(UpdateFields):
    project = models.ForeignKey(Project, null=True, on_delete=models.SET_NULL, related_name="project_updates")
    job_type = models.CharField(max_length=8, choices=JOB_TYPES, default="check")
    local_path = models.CharField(max_length=1024, blank=True, default="")
    scm_type = models.CharField(max_length=8, blank=True, default="")
    scm_url = models.CharField(max_length=1024, blank=True, default="")
    scm_branch = models.CharField(max_length=256, blank=True, default="")
    scm_refspec = models.CharField(max_length=1024, blank=True, default="")
    scm_clean = models.BooleanField(default=False)
    scm_track_submodules = models.BooleanField(default=False)
    scm_delete_on_update = models.BooleanField(default=False)

    class Meta(UpdateFields.Meta):
        pass


class InventoryUpdate(UpdateFields):
    inventory_source = models.ForeignKey(InventorySource, null=True, on_delete=models.SET_NULL, related_name="inventory_updates")
    inventory = models.ForeignKey(Inventory, null=True, on_delete=models.SET_NULL, related_name="+")
    source = models.CharField(max_length=32, blank=True, default="")
    source_path = models.CharField(max_length=1024, blank=True, default="")
    source_vars = models.TextField(blank=True, default="")
    scm_branch = models.CharField(max_length=1024, blank=True, default="")
    enabled_var = models.TextField(blank=True, default="")
    enabled_value = models.TextField(blank=True, default="")
    host_filter = models.TextField(blank=True, default="")
    limit = models.TextField(blank=True, default="")
    overwrite = models.BooleanField(default=False)
    overwrite_vars = models.BooleanField(default=False)
    verbosity = models.PositiveIntegerField(default=1)
    source_project_update = models.ForeignKey(ProjectUpdate, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta(UpdateFields.Meta):
        pass


class SourcedHost(models.Model):
    """A host an inventory source brought in (an update with overwrite removes those it no longer lists)."""

    inventory_source = models.ForeignKey(InventorySource, on_delete=models.CASCADE, related_name="+")
    host = models.ForeignKey(Host, on_delete=models.CASCADE, related_name="+")

    class Meta:
        unique_together = [("inventory_source", "host")]


class SourcedGroup(models.Model):
    """A group an inventory source brought in."""

    inventory_source = models.ForeignKey(InventorySource, on_delete=models.CASCADE, related_name="+")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")

    class Meta:
        unique_together = [("inventory_source", "group")]


@access.rule(ProjectUpdate)
def _project_updates(qs, user):
    return qs.filter(project__in=access.visible_ids(Project, user))


@access.rule(InventoryUpdate)
def _inventory_updates(qs, user):
    return qs.filter(inventory_source__in=access.visible_ids(InventorySource, user))


@access.register(ProjectUpdate)
class ProjectUpdateAccess(UnifiedJobAccess):
    """Who may update its project deletes and cancels an update (one without a project, a
    superuser only)."""

    def can_change(self, user, obj, data=None):
        return obj.project is not None and access.allows(user, "update", obj.project)


@access.register(InventoryUpdate)
class InventoryUpdateAccess(UnifiedJobAccess):
    """Who may update its source deletes and cancels an update."""

    def can_change(self, user, obj, data=None):
        return obj.inventory_source is not None and access.allows(user, "update", obj.inventory_source)
