"""Projects, job templates and jobs. A job is run by a detached process
(refsvc.jobs.runner) that writes its status and stdout here."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.signals import post_delete
from django.dispatch import receiver

from refsvc.svc import access
from refsvc.svc.models import Credential, Inventory, Organization, TimestampedModel

JOB_TYPES = [("run", "Run"), ("check", "Check")]
JOB_STATUSES = [
    ("new", "New"), ("pending", "Pending"), ("waiting", "Waiting"), ("running", "Running"),
    ("successful", "Successful"), ("failed", "Failed"), ("error", "Error"), ("canceled", "Canceled"),
]
# A unified job that may still be canceled, one not finished yet (the real ACTIVE_STATES).
ACTIVE = ("new", "pending", "waiting", "running")
FINISHED = ("successful", "failed", "error", "canceled")
LAUNCH_TYPES = [
    ("manual", "Manual"), ("relaunch", "Relaunch"), ("callback", "Callback"), ("scheduled", "Scheduled"),
    ("dependency", "Dependency"), ("workflow", "Workflow"), ("webhook", "Webhook"), ("sync", "Sync"),
    ("scm", "SCM Update"),
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


WEBHOOK_SERVICES = [("github", "GitHub"), ("gitlab", "GitLab"), ("bitbucket_dc", "BitBucket DataCenter")]
SCM_TYPES = [("", "Manual"), ("git", "Git"), ("svn", "Subversion"), ("insights", "Red Hat Insights"), ("archive", "Remote Archive")]


class UnifiedJobTemplate(models.Model):
    """The id space shared by projects, job templates, inventory sources, workflow job
    templates and approval templates, as on the real service (a workflow node's or a
    schedule's unified_job_template is one id). The columns the real
    ``/api/v2/unified_job_templates/`` filters on are kept here."""

    kind = models.CharField(max_length=32)
    name = models.CharField(max_length=512, blank=True, default="")
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(null=True, blank=True)
    modified = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]


class UnifiedIdMixin:
    unified_kind = None

    def unified_organization_id(self, row):
        return getattr(self, "organization_id", None)

    def save(self, *args, **kwargs):
        row = UnifiedJobTemplate.objects.filter(pk=self.pk).first() if self.pk is not None else None
        values = {"kind": self.unified_kind, "name": self.name, "description": getattr(self, "description", ""),
                  "organization_id": self.unified_organization_id(row)}
        if self.pk is None:
            self.pk = UnifiedJobTemplate.objects.create(**values).pk
        else:
            UnifiedJobTemplate.objects.update_or_create(pk=self.pk, defaults=values)
        super().save(*args, **kwargs)
        UnifiedJobTemplate.objects.filter(pk=self.pk).update(created=getattr(self, "created", None),
                                                             modified=getattr(self, "modified", None))

    def delete(self, *args, **kwargs):
        pk = self.pk
        result = super().delete(*args, **kwargs)
        UnifiedJobTemplate.objects.filter(pk=pk).delete()
        return result


@receiver(post_delete)
def _drop_unified_row(sender, instance, **kwargs):
    # Also when the object goes with its organization or inventory (a cascade).
    if isinstance(instance, UnifiedIdMixin):
        UnifiedJobTemplate.objects.filter(pk=instance.pk, kind=instance.unified_kind).delete()


class Project(UnifiedIdMixin, TimestampedModel):
    unified_kind = "project"
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, on_delete=models.CASCADE, related_name="projects")
    scm_type = models.CharField(max_length=8, blank=True, default="")
    scm_url = models.CharField(max_length=1024, blank=True, default="")
    scm_branch = models.CharField(max_length=256, blank=True, default="")
    local_path = models.CharField(max_length=1024, blank=True, default="")
    scm_refspec = models.CharField(max_length=1024, blank=True, default="")
    scm_clean = models.BooleanField(default=False)
    scm_track_submodules = models.BooleanField(default=False)
    scm_delete_on_update = models.BooleanField(default=False)
    scm_update_on_launch = models.BooleanField(default=False)
    scm_update_cache_timeout = models.PositiveIntegerField(default=0)
    allow_override = models.BooleanField(default=False)
    timeout = models.IntegerField(default=0)
    credential = models.ForeignKey(Credential, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    signature_validation_credential = models.ForeignKey(Credential, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # An execution environment id (execution environments are not modelled here).
    default_environment = models.PositiveIntegerField(null=True, blank=True, default=None)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]
        unique_together = [("name", "organization")]

    # As the real Project.save: an SCM project is updated from source control when it is
    # created and when one of these fields changes (unless saved with skip_update=True).
    FIELDS_TRIGGER_UPDATE = ("scm_url", "scm_branch", "scm_type", "scm_refspec")

    def save(self, *args, skip_update=False, **kwargs):
        new = self.pk is None
        before = None
        if not new:
            before = Project.objects.filter(pk=self.pk).values(*self.FIELDS_TRIGGER_UPDATE).first()
        super().save(*args, **kwargs)
        changed = new or before is None or any(before[f] != getattr(self, f) for f in self.FIELDS_TRIGGER_UPDATE)
        if changed and self.scm_type and not skip_update:
            from refsvc.updates.views import start_project_update

            start_project_update(self, getattr(self, "_acting_user", None) or self.created_by)


class UnifiedJob(TimestampedModel):
    """The fields every run has (jobs, project and inventory updates, ad hoc commands,
    workflow jobs and approvals): the real UnifiedJob's, as far as they are modelled.
    ``result_stdout`` is the output a runner wrote."""

    name = models.CharField(max_length=512, blank=True, default="")
    description = models.TextField(blank=True, default="")
    status = models.CharField(max_length=20, choices=JOB_STATUSES, default="pending")
    failed = models.BooleanField(default=False)
    launch_type = models.CharField(max_length=20, choices=LAUNCH_TYPES, default="manual")
    started = models.DateTimeField(null=True, default=None)
    finished = models.DateTimeField(null=True, default=None)
    canceled_on = models.DateTimeField(null=True, default=None)
    elapsed = models.DecimalField(max_digits=12, decimal_places=3, default=0)
    cancel_flag = models.BooleanField(default=False)
    job_args = models.TextField(blank=True, default="")
    job_cwd = models.CharField(max_length=1024, blank=True, default="")
    job_explanation = models.TextField(blank=True, default="")
    result_stdout = models.TextField(blank=True, default="")
    # The environment the run was started with, its secrets hidden (the real job_env).
    job_env = models.JSONField(default=dict, blank=True)
    launched_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        abstract = True
        ordering = ["id"]

    @property
    def active(self):
        return self.status in ACTIVE


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


class JobTemplate(UnifiedIdMixin, TimestampedModel, JobOptions):
    unified_kind = "job_template"
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    # Set from the project on save, as the real service does.
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    scm_branch = models.CharField(max_length=1024, blank=True, default="")
    diff_mode = models.BooleanField(default=False)
    become_enabled = models.BooleanField(default=False)
    force_handlers = models.BooleanField(default=False)
    use_fact_cache = models.BooleanField(default=False)
    allow_simultaneous = models.BooleanField(default=False)
    prevent_instance_group_fallback = models.BooleanField(default=False)
    start_at_task = models.CharField(max_length=1024, blank=True, default="")
    host_config_key = models.CharField(max_length=1024, blank=True, default="")
    job_slice_count = models.PositiveIntegerField(default=1)
    execution_environment = models.PositiveIntegerField(null=True, blank=True, default=None)
    survey_enabled = models.BooleanField(default=False)
    survey_spec = models.JSONField(default=dict, blank=True)
    webhook_service = models.CharField(max_length=16, blank=True, default="", choices=WEBHOOK_SERVICES)
    webhook_credential = models.ForeignKey(Credential, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    ask_scm_branch_on_launch = models.BooleanField(default=False)
    ask_diff_mode_on_launch = models.BooleanField(default=False)
    ask_execution_environment_on_launch = models.BooleanField(default=False)
    ask_labels_on_launch = models.BooleanField(default=False)
    ask_forks_on_launch = models.BooleanField(default=False)
    ask_job_slice_count_on_launch = models.BooleanField(default=False)
    ask_timeout_on_launch = models.BooleanField(default=False)
    ask_instance_groups_on_launch = models.BooleanField(default=False)
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

    def save(self, *args, **kwargs):
        self.organization = self.project.organization if self.project_id else None
        super().save(*args, **kwargs)


class Job(UnifiedJob, JobOptions):
    job_template = models.ForeignKey(JobTemplate, null=True, on_delete=models.SET_NULL, related_name="jobs")
    # The other values a launch may set (from the template unless prompted for).
    scm_branch = models.CharField(max_length=1024, blank=True, default="")
    diff_mode = models.BooleanField(default=False)
    job_slice_count = models.PositiveIntegerField(default=1)
    execution_environment = models.PositiveIntegerField(null=True, blank=True, default=None)
    labels = models.ManyToManyField("resources.Label", blank=True, related_name="jobs")
    instance_groups = models.ManyToManyField("resources.InstanceGroup", blank=True, related_name="+")
    # Copied from the template at launch, as the real JobTemplate.create_unified_job does
    # (JobOptions' fields); scm_revision is the project's revision the run used.
    force_handlers = models.BooleanField(default=False)
    start_at_task = models.CharField(max_length=1024, blank=True, default="")
    use_fact_cache = models.BooleanField(default=False)
    allow_simultaneous = models.BooleanField(default=False)
    job_slice_number = models.PositiveIntegerField(default=0)
    scm_revision = models.CharField(max_length=1024, blank=True, default="")

    class Meta(UnifiedJob.Meta):
        pass


# What users who do not see everything see (refsvc.svc.access): what their organizations
# hold, what they made or launched, and what their roles let them view.
def _allowed(user, model):
    from refsvc.rbac.registry import allowed_q

    return allowed_q(user, model, "view")


@access.rule(Project)
def _projects(qs, user):
    return qs.filter(Q(organization__in=access.organizations_of(user)) | Q(created_by=user) | _allowed(user, Project))


@access.rule(JobTemplate)
def _job_templates(qs, user):
    return qs.filter(Q(project__organization__in=access.organizations_of(user)) | Q(created_by=user) | _allowed(user, JobTemplate))


@access.rule(Job)
def _jobs(qs, user):
    return qs.filter(Q(project__organization__in=access.organizations_of(user)) | Q(launched_by=user)
                     | Q(job_template__in=access.visible_ids(JobTemplate, user)))


@access.rule(UnifiedJobTemplate)
def _unified_job_templates(qs, user):
    """Those whose object the user sees, kind by kind."""
    from django.apps import apps

    ids = set()
    for model in apps.get_models():
        if issubclass(model, UnifiedIdMixin):
            ids |= set(access.visible(model, user).values_list("id", flat=True))
    return qs.filter(id__in=ids)


def may(user, obj, action="change"):
    """May ``user`` do ``action`` (change, execute, update) on a project, a job template or a
    job (one they made, or of an organization they administer; on a template, a role's grant)?"""
    from refsvc.rbac.registry import has_perm

    if getattr(obj, "created_by_id", None) == user.id:
        return True
    if access.is_org_admin(user, obj.organization):
        return True
    return not isinstance(obj, Job) and has_perm(user, obj, action)


@access.register(Project, JobTemplate)
class TemplateAccess(access.Access):
    def can_add(self, user, data):
        org = data.get("organization") or (data.get("project").organization if data.get("project") else None)
        return access.is_org_admin(user, org)

    def can_change(self, user, obj, data=None):
        return may(user, obj)

    def can_execute(self, user, obj):
        return may(user, obj, "execute")

    def can_update(self, user, obj):
        return may(user, obj, "update")

    def can_attach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        # A job template's credentials; its other sub-lists (labels, instance groups,
        # notification templates, schedules) are changed by a superuser only here.
        return relation == "credentials" and self.model is JobTemplate and may(user, obj)


class UnifiedJobAccess(access.Access):
    """A unified job (a job, an update, an ad hoc command, a workflow job or approval): who may
    change it deletes and cancels it; nobody deletes one that is still running."""

    def can_cancel(self, user, obj):
        return self.can_delete(user, obj)

    def refuse_delete(self, user, obj):
        return "Cannot delete running job resource." if obj.status in ACTIVE else None


@access.register(Job)
class JobAccess(UnifiedJobAccess):
    def can_change(self, user, obj, data=None):
        return may(user, obj)

    def can_delete(self, user, obj):
        return access.allows(user, "change", obj.job_template or obj)

    def can_attach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        return False

    def refuse_attach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        return access.DENIED  # a job's credentials are read only
