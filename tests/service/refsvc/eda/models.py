"""Event-Driven Ansible's objects behind the gateway (/api/eda/v1/): credential types, EDA credentials with
their input sources, decision environments, and a user's controller tokens. The users, organizations and teams
are the gateway's (one database, as the controller's are here).

The fields are those of eda-server's models (src/aap_eda/core/models/, stable-2.7) as the published schema
eda-2.7.json shows them. Secrets (a credential's inputs, an input source's metadata, a controller token) are
kept encrypted with django-ansible-base's Fernet (``ansible_encryption``, keyed by the service's secret), as
eda-server keeps them in its ``EncryptedTextField``.

Who sees what: one rule for every EDA object that belongs to an organization (``org_rule``): a superuser and a
platform auditor see everything (refsvc.svc.access), any other user the objects of the organizations it administers,
or where it (or a team of its) holds one of EDA's organization roles that views them (a member alone sees none);
an administrator of the organization may change them, and so may who holds the permission there through such a role
(``EdaOrgAccess``). Another
app's model that belongs to an organization derives from ``EdaOrgModel`` and declares the same:
``access.rule(Model)(org_rule)`` and ``access.register(Model)(EdaOrgAccess)``.
"""
import yaml
from django.conf import settings
from django.db import models

from refsvc.svc import access
from refsvc.svc.models import Organization

ENCRYPTED = "$encrypted$"


def encrypt(text):
    from ansible_base.lib.utils.encryption import ansible_encryption

    return ansible_encryption.encrypt_string(text) if text else ""


def decrypt(text):
    from ansible_base.lib.utils.encryption import ansible_encryption

    return ansible_encryption.decrypt_string(text) if text else ""


class EdaOrgModel(models.Model):
    """An EDA object of an organization, with who made and last changed it and when (eda-server's
    ``BaseOrgModel`` and ``PrimordialModel``; its ``created_at`` and ``modified_at``)."""

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    modified_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    modified_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class CredentialType(models.Model):
    name = models.TextField(unique=True)
    description = models.TextField(blank=True, default="")
    inputs = models.JSONField(default=dict)
    injectors = models.JSONField(default=dict)
    managed = models.BooleanField(default=False)
    kind = models.TextField(blank=True, default="cloud")
    namespace = models.TextField(null=True, default=None)
    # the platform release that added a managed type (None: every release this service stands for)
    since = models.CharField(max_length=8, null=True, default=None)
    created_at = models.DateTimeField(auto_now_add=True)
    modified_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def secret_fields(self, section="fields"):
        return {f.get("id") for f in (self.inputs or {}).get(section, []) if isinstance(f, dict) and f.get("secret")}


def to_display(credential_type, values, section="fields"):
    """Inputs (or an input source's metadata) as the API shows them: a secret field that has a value reads
    ``$encrypted$`` (eda-server's ``inputs_to_display``; an empty secret is left out)."""
    secret = credential_type.secret_fields(section) if credential_type else set()
    shown = {}
    for key, value in (values or {}).items():
        if key in secret:
            if value:
                shown[key] = ENCRYPTED
        else:
            shown[key] = value
    return shown


class EdaCredential(EdaOrgModel):
    name = models.TextField(unique=True)
    description = models.TextField(blank=True, default="")
    credential_type = models.ForeignKey(CredentialType, null=True, on_delete=models.CASCADE, related_name="credentials")
    # the inputs as YAML, encrypted (eda-server stores yaml.dump of the inputs in an encrypted text field)
    inputs_encrypted = models.TextField(blank=True, default="")
    managed = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]

    @property
    def inputs(self):
        text = decrypt(self.inputs_encrypted)
        return (yaml.safe_load(text) or {}) if text else {}

    @inputs.setter
    def inputs(self, value):
        self.inputs_encrypted = encrypt(yaml.safe_dump(value or {}))

    def inputs_to_display(self):
        return to_display(self.credential_type, self.inputs)


class CredentialInputSource(EdaOrgModel):
    description = models.TextField(blank=True, default="")
    target_credential = models.ForeignKey(EdaCredential, null=True, on_delete=models.CASCADE, related_name="input_sources")
    source_credential = models.ForeignKey(EdaCredential, null=True, on_delete=models.CASCADE,
                                          related_name="target_input_sources")
    input_field_name = models.CharField(max_length=1024)
    metadata_encrypted = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["target_credential", "source_credential", "input_field_name"]
        unique_together = [("target_credential", "input_field_name")]

    @property
    def metadata(self):
        text = decrypt(self.metadata_encrypted)
        return (yaml.safe_load(text) or {}) if text else {}

    @metadata.setter
    def metadata(self, value):
        self.metadata_encrypted = encrypt(yaml.safe_dump(value or {}))


PULL_POLICIES = ["always", "missing", "never"]


class DecisionEnvironment(EdaOrgModel):
    name = models.TextField(unique=True)
    description = models.TextField(blank=True, default="")
    image_url = models.TextField()
    eda_credential = models.ForeignKey(EdaCredential, null=True, blank=True, default=None, on_delete=models.SET_NULL,
                                       related_name="decision_environments")
    pull_policy = models.CharField(max_length=16, default="always", choices=[(p, p) for p in PULL_POLICIES])

    class Meta:
        ordering = ["id"]


class AwxToken(models.Model):
    """A controller token a user keeps at EDA (``users/me/awx-tokens/``): what an activation that launches
    controller jobs uses."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="eda_awx_tokens")
    name = models.TextField()
    description = models.TextField(blank=True, default="")
    token_encrypted = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    modified_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        unique_together = [("user", "name")]

    @property
    def token(self):
        return decrypt(self.token_encrypted)

    @token.setter
    def token(self, value):
        self.token_encrypted = encrypt(value)


# -- who sees and changes them

def eda_codename(model):
    """django-ansible-base's name of an EDA model's permissions: ``eda.<action>_<model name, lower case>``."""
    return model._meta.model_name


def organizations_granting(user, action, model):
    """Ids of the organizations on which the user holds ``eda.<action>_<model>`` through a role assignment of its own
    or of one of its teams (EDA's organization roles: Organization Editor, Auditor...)."""
    from refsvc.rbac.models import RoleTeamAssignment, RoleUserAssignment
    from refsvc.rbac.registry import _teams_of

    wanted = "eda.%s_%s" % (action, eda_codename(model))
    assignments = list(RoleUserAssignment.objects.filter(user=user, content_type="shared.organization")
                       .select_related("role_definition"))
    teams = _teams_of(user)
    if teams:
        assignments += list(RoleTeamAssignment.objects.filter(team__in=teams, content_type="shared.organization")
                            .select_related("role_definition"))
    return {int(a.object_id) for a in assignments if wanted in (a.role_definition.permissions or ())}


def org_rule(qs, user):
    """The one rule of EDA's objects of an organization: those of the organizations the user administers, or where
    it holds a role that views them (superusers and platform auditors see all, before any rule). Membership alone
    gives none: EDA's Organization Member has no permission on EDA's objects (eda-server's ORG_ROLES)."""
    from django.db.models import Q

    return qs.filter(Q(organization__in=Organization.objects.filter(admins=user).values("id"))
                     | Q(organization__in=organizations_granting(user, "view", qs.model)))


class EdaOrgAccess(access.Access):
    """An administrator of the object's organization adds, changes and deletes it (and copies it), and so does who
    holds the permission there through a role (``eda.add_<model>``, ``change``, ``delete``); who sees it tests it."""

    def _may(self, user, org_id, action):
        if org_id is None:
            return False
        if Organization.objects.filter(pk=org_id, admins=user).exists():
            return True
        return int(org_id) in organizations_granting(user, action, self.model)

    def can_add(self, user, data):
        return self._may(user, (data or {}).get("organization_id"), "add")

    def can_change(self, user, obj, data=None):
        return self._may(user, obj.organization_id, "change") and (
            not data or "organization_id" not in data or self._may(user, data["organization_id"], "add"))

    def can_delete(self, user, obj):
        return self._may(user, obj.organization_id, "delete")

    def can_copy(self, user, obj):
        return self._may(user, obj.organization_id, "add")

    def can_test(self, user, obj):
        return True

    def can_offer_add(self, user):
        return Organization.objects.filter(admins=user).exists() or bool(organizations_granting(user, "add", self.model))


for _model in (EdaCredential, CredentialInputSource, DecisionEnvironment):
    access.rule(_model)(org_rule)
    access.register(_model)(EdaOrgAccess)


@access.rule(CredentialType)
def _credential_types(qs, user):
    return qs


@access.register(CredentialType)
class CredentialTypeAccess(access.Access):
    """Any signed-in user reads the credential types; only a superuser writes them (eda-server's
    ``AuthenticatedReadAdminChange``)."""

    def can_test(self, user, obj):
        return True


@access.rule(AwxToken)
def _awx_tokens(qs, user):
    return qs.filter(user=user)


@access.register(AwxToken)
class AwxTokenAccess(access.Access):
    """A user's own controller tokens: its own to add, read and delete, a superuser's too (the list is
    always the caller's own, ``users/me/``)."""

    def can_add(self, user, data):
        return True

    def can_delete(self, user, obj):
        return obj.user_id == user.id

    def can_offer_add(self, user):
        return True
