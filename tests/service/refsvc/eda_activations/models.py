"""EDA's projects, rulebooks, rulebook activations and their instances, event streams and
audit records, as eda-server's models keep them (``aap_eda/core/models``), over the EDA app's
organizations, credentials, decision environments and controller tokens.

Who sees and changes them: the EDA app's one rule (``refsvc.eda.models.org_rule``: the objects
of the user's organizations) and its access class, whose administrator of the organization also
syncs a project and enables, disables and restarts an activation."""

from django.conf import settings
from django.db import models

from refsvc.eda.models import EdaOrgAccess, EdaOrgModel, org_rule
from refsvc.svc import access

ORGANIZATION = "svc.Organization"
CREDENTIAL = "eda.EdaCredential"
DECISION_ENVIRONMENT = "eda.DecisionEnvironment"
CONTROLLER_TOKEN = "eda.AwxToken"
USER = settings.AUTH_USER_MODEL

# An activation's and an instance's statuses (eda-server ``ActivationStatus``), and the
# message each has when none other is given (``ACTIVATION_STATUS_MESSAGE_MAP``).
PENDING, STARTING, RUNNING, STOPPING, STOPPED = "pending", "starting", "running", "stopping", "stopped"
DELETING, COMPLETED, FAILED, ERROR = "deleting", "completed", "failed", "error"
UNRESPONSIVE, WORKERS_OFFLINE = "unresponsive", "workers offline"
STATUS_MESSAGES = {
    PENDING: "Wait for a worker to be available to start activation",
    STARTING: "Worker is starting activation",
    RUNNING: "Container running activation",
    STOPPING: "Activation is being disabled",
    DELETING: "Activation is being deleted",
    COMPLETED: "Activation has completed",
    FAILED: "Activation has failed",
    STOPPED: "Activation has stopped",
    UNRESPONSIVE: "Activation is not responsive",
    ERROR: "Activation is in an error state",
    WORKERS_OFFLINE: "All workers in the node are offline",
}
ENDED = (STOPPED, COMPLETED, FAILED, ERROR)


class Project(EdaOrgModel):
    PENDING, RUNNING, FAILED, COMPLETED = "pending", "running", "failed", "completed"

    name = models.TextField(unique=True)
    description = models.TextField(default="", blank=True)
    url = models.TextField()
    proxy_encrypted = models.TextField(default="", blank=True)  # may hold a password: kept encrypted, as EDA does
    git_hash = models.TextField(default="", blank=True)
    verify_ssl = models.BooleanField(default=True)
    eda_credential = models.ForeignKey(CREDENTIAL, null=True, blank=True, default=None, on_delete=models.SET_NULL,
                                       related_name="+")
    signature_validation_credential = models.ForeignKey(CREDENTIAL, null=True, blank=True, default=None,
                                                        on_delete=models.SET_NULL, related_name="+")
    import_state = models.TextField(default=PENDING)
    import_error = models.TextField(null=True, default=None)
    scm_type = models.TextField(default="git")
    scm_branch = models.TextField(default="", blank=True)
    scm_refspec = models.TextField(default="", blank=True)
    update_revision_on_launch = models.BooleanField(default=False)
    scm_update_cache_timeout = models.IntegerField(default=0)
    last_synced_at = models.DateTimeField(null=True, default=None)

    class Meta:
        ordering = ["id"]

    def proxy_text(self):
        from refsvc.eda.models import decrypt

        return decrypt(self.proxy_encrypted)

    def scm_secrets(self):
        """The source control credential's user and password (or token), for the clone."""
        if self.eda_credential_id is None:
            return "", ""
        inputs = self.eda_credential.inputs
        return str(inputs.get("username") or ""), str(inputs.get("password") or "")


class Rulebook(models.Model):
    name = models.TextField()
    description = models.TextField(null=True, default="", blank=True)
    rulesets = models.TextField(default="", blank=True)
    rulesets_sha256 = models.CharField(max_length=64, default="", blank=True)
    project = models.ForeignKey(Project, null=True, on_delete=models.CASCADE, related_name="rulebooks")
    organization = models.ForeignKey(ORGANIZATION, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    modified_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        unique_together = [("project", "name")]


class EventStream(EdaOrgModel):
    name = models.TextField(unique=True)
    owner = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    eda_credential = models.ForeignKey(CREDENTIAL, null=True, on_delete=models.SET_NULL, related_name="+")
    event_stream_type = models.TextField(default="", blank=True)
    uuid = models.UUIDField(unique=True)
    test_mode = models.BooleanField(default=False)
    additional_data_headers = models.TextField(default="", blank=True)
    test_content_type = models.TextField(default="", blank=True)
    test_content = models.TextField(default="", blank=True)
    test_error_message = models.TextField(default="", blank=True)
    test_headers = models.TextField(default="", blank=True)
    events_received = models.BigIntegerField(default=0)
    last_event_received_at = models.DateTimeField(null=True, default=None)

    class Meta:
        ordering = ["-created_at"]


class Activation(EdaOrgModel):
    name = models.TextField(unique=True)
    description = models.TextField(default="", blank=True)
    is_enabled = models.BooleanField(default=True)
    git_hash = models.TextField(default="", blank=True)
    restart_on_project_update = models.BooleanField(default=False)
    decision_environment = models.ForeignKey(DECISION_ENVIRONMENT, null=True, on_delete=models.SET_NULL,
                                             related_name="+")
    project = models.ForeignKey(Project, null=True, on_delete=models.SET_NULL, related_name="activations")
    rulebook = models.ForeignKey(Rulebook, null=True, on_delete=models.SET_NULL, related_name="activations")
    extra_var = models.TextField(null=True, blank=True)
    restart_policy = models.TextField(default="on-failure")
    status = models.TextField(default=PENDING)
    status_message = models.TextField(null=True, default=None)
    current_job_id = models.TextField(null=True, default=None)
    restart_count = models.IntegerField(default=0)
    failure_count = models.IntegerField(default=0)
    rulebook_name = models.TextField(default="")
    rulebook_rulesets = models.TextField(default="")
    rulebook_rulesets_sha256 = models.CharField(max_length=64, default="", blank=True)
    ruleset_stats = models.JSONField(default=dict)
    user = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    awx_token = models.ForeignKey(CONTROLLER_TOKEN, null=True, blank=True, default=None, on_delete=models.SET_NULL,
                                  related_name="+")
    log_level = models.TextField(default="debug")
    eda_credentials = models.ManyToManyField(CREDENTIAL, blank=True, related_name="+")
    k8s_service_name = models.TextField(null=True, default=None, blank=True)
    event_streams = models.ManyToManyField(EventStream, blank=True, related_name="activations")
    source_mappings = models.TextField(default="", blank=True)
    skip_audit_events = models.BooleanField(default=False)
    log_tracking_id = models.TextField(default="", blank=True)
    enable_persistence = models.BooleanField(default=False)
    rule_engine_credential = models.ForeignKey(CREDENTIAL, null=True, blank=True, default=None,
                                               on_delete=models.SET_NULL, related_name="+")
    edited_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    edited_at = models.DateTimeField(null=True, default=None)
    status_updated_at = models.DateTimeField(null=True, default=None)

    class Meta:
        ordering = ["-created_at", "-id"]

    def latest_instance(self):
        return self.instances.order_by("-id").first()


class RulebookProcess(models.Model):
    """One run of an activation, an activation instance in the API (eda-server's model and its name, which
    its permissions carry: ``eda.view_rulebookprocess``)."""

    name = models.TextField(default="")
    status = models.TextField(default=PENDING)
    status_message = models.TextField(null=True, default=None)
    git_hash = models.TextField(default="")
    activation = models.ForeignKey(Activation, null=True, on_delete=models.CASCADE, related_name="instances")
    organization = models.ForeignKey(ORGANIZATION, on_delete=models.CASCADE, related_name="+")
    queue_name = models.TextField(null=True, default=None)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(null=True, default=None)
    ended_at = models.DateTimeField(null=True, default=None)

    class Meta:
        ordering = ["id"]


class RulebookProcessLog(models.Model):
    activation_instance = models.ForeignKey(RulebookProcess, on_delete=models.CASCADE, related_name="logs")
    log = models.TextField()
    log_timestamp = models.BigIntegerField(default=0)
    log_created_at = models.DateTimeField(null=True, default=None)

    class Meta:
        ordering = ["id"]


class AuditRule(models.Model):
    """A rule that fired. The reference service runs no rulebook: none is ever made, and the
    lists answer empty; the models give them their filters and fields."""

    name = models.TextField()
    status = models.TextField(default="", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    fired_at = models.DateTimeField()
    rule_uuid = models.UUIDField(null=True)
    ruleset_uuid = models.UUIDField(null=True)
    ruleset_name = models.TextField(default="", blank=True)
    activation_instance = models.ForeignKey(RulebookProcess, null=True, on_delete=models.SET_NULL,
                                            related_name="+")
    job_instance_id = models.IntegerField(null=True)
    organization = models.ForeignKey(ORGANIZATION, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["-fired_at"]


class AuditAction(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.TextField()
    status = models.TextField(default="", blank=True)
    url = models.URLField(default="", blank=True)
    fired_at = models.DateTimeField()
    rule_fired_at = models.DateTimeField(null=True)
    audit_rule = models.ForeignKey(AuditRule, null=True, on_delete=models.CASCADE, related_name="actions")
    status_message = models.TextField(null=True, default=None)

    class Meta:
        ordering = ["-fired_at"]


class AuditEvent(models.Model):
    id = models.UUIDField(primary_key=True)
    source_name = models.TextField()
    source_type = models.TextField()
    payload = models.JSONField(null=True)
    audit_actions = models.ManyToManyField(AuditAction, related_name="audit_events")
    received_at = models.DateTimeField()
    rule_fired_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["-received_at"]


class ActivationAccess(EdaOrgAccess):
    """Who syncs a project, and enables, disables and restarts an activation: an administrator of its
    organization, or who holds eda-server's ``sync_project``, ``enable_activation``,
    ``disable_activation``, ``restart_activation`` there through one of EDA's organization roles
    (Organization Operator, Contributor...)."""

    def can_sync(self, user, obj):
        return self._may(user, obj.organization_id, "sync")

    def can_enable(self, user, obj):
        return self._may(user, obj.organization_id, "enable")

    def can_disable(self, user, obj):
        return self._may(user, obj.organization_id, "disable")

    def can_restart(self, user, obj):
        return self._may(user, obj.organization_id, "restart")


for _model in (Project, Rulebook, EventStream, Activation, RulebookProcess, AuditRule):
    access.rule(_model)(org_rule)
for _model in (Project, EventStream, Activation):
    access.register(_model)(ActivationAccess)


@access.rule(RulebookProcessLog)
def _instance_logs(qs, user):
    return qs.filter(activation_instance__in=org_rule(RulebookProcess.objects.all(), user))
