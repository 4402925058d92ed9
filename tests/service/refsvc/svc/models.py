import uuid

from django.conf import settings
from django.db import models
from oauth2_provider.models import (
    AbstractAccessToken,
    AbstractApplication,
    AbstractDeviceGrant,
    AbstractGrant,
    AbstractIDToken,
    AbstractRefreshToken,
)


# The real service's resource registry keeps a resource id (ansible_id) for its
# shared objects only: organizations, teams and users (model name -> kind).
RESOURCE_KINDS = {"Organization": "organization", "Team": "team", "User": "user"}
ANSIBLE_ID_NAMESPACE = uuid.UUID("6f1b2a3c-0d4e-4f5a-8b6c-7d8e9fa0b1c2")


def ansible_id(kind_key, pk):
    """The resource id of a shared object: the one django-ansible-base's resource registry keeps for it
    where the registry is installed (the gateway layout, refsvc/gateway/resource_api.py), else a stable one
    derived from its kind and primary key."""
    if "ansible_base.resource_registry" in settings.INSTALLED_APPS:
        from ansible_base.resource_registry.models import Resource

        kept = (Resource.objects.filter(content_type__resource_type__name="shared." + kind_key, object_id=str(pk))
                .values_list("ansible_id", flat=True).first())
        if kept is not None:
            return str(kept)
    return str(uuid.uuid5(ANSIBLE_ID_NAMESPACE, "%s:%s" % (kind_key, pk)))


def resource_summary(kind_key, pk):
    """``summary_fields.resource`` of a shared object."""
    return {"ansible_id": ansible_id(kind_key, pk), "resource_type": "shared." + kind_key}


class RuntimeSetting(models.Model):
    """A setting that can be changed while the service runs (shared by all workers)."""

    key = models.CharField(max_length=128, unique=True)
    value = models.JSONField(null=True)


def _runtime_setting_changed(**kwargs):
    from . import runtime

    runtime.changed(**kwargs)


models.signals.post_save.connect(_runtime_setting_changed, sender=RuntimeSetting, dispatch_uid="runtime-setting-saved")
models.signals.post_delete.connect(_runtime_setting_changed, sender=RuntimeSetting, dispatch_uid="runtime-setting-deleted")


class TimestampedModel(models.Model):
    created = models.DateTimeField(auto_now_add=True)
    modified = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class UserProfile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="svc_profile")
    is_system_auditor = models.BooleanField(default=False)
    # None for a local user; the authentication provider ("social", "ldap", ...) otherwise.
    external_account = models.CharField(max_length=32, null=True, blank=True)


class Organization(TimestampedModel):
    name = models.CharField(max_length=512, unique=True)
    description = models.TextField(blank=True, default="")
    max_hosts = models.PositiveIntegerField(default=0)
    default_environment = models.ForeignKey(
        "resources.ExecutionEnvironment", null=True, blank=True, default=None, on_delete=models.SET_NULL, related_name="+"
    )
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="svc_organizations")
    admins = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="svc_admin_of_organizations")

    class Meta:
        ordering = ["id"]


class Inventory(TimestampedModel):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="inventories")
    variables = models.TextField(blank=True, default="")
    kind = models.CharField(max_length=32, blank=True, default="")
    host_filter = models.TextField(blank=True, null=True, default=None)
    prevent_instance_group_fallback = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]
        unique_together = [("name", "organization")]


class Host(TimestampedModel):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    inventory = models.ForeignKey(Inventory, on_delete=models.CASCADE, related_name="hosts")
    enabled = models.BooleanField(default=True)
    instance_id = models.CharField(max_length=1024, blank=True, default="")
    variables = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]
        unique_together = [("name", "inventory")]


class CredentialType(TimestampedModel):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    kind = models.CharField(max_length=32, default="cloud")
    namespace = models.CharField(max_length=1024, null=True, blank=True, default=None)
    managed = models.BooleanField(default=False)
    inputs = models.JSONField(default=dict, blank=True)
    injectors = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["kind", "name"]
        unique_together = [("name", "kind")]


class Credential(TimestampedModel):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.CASCADE, related_name="credentials")
    credential_type = models.ForeignKey(CredentialType, on_delete=models.CASCADE, related_name="credentials")
    inputs = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]
        unique_together = [("organization", "name", "credential_type")]


# The OAuth2 models, all swapped into this app (swapping only some of them
# breaks the toolkit's migrations).
class OAuth2Application(AbstractApplication):
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.CASCADE, related_name="applications")

    class Meta(AbstractApplication.Meta):
        swappable = "OAUTH2_PROVIDER_APPLICATION_MODEL"


class OAuth2AccessToken(AbstractAccessToken):
    description = models.TextField(blank=True, default="")
    last_used = models.DateTimeField(null=True, default=None, blank=True)

    class Meta(AbstractAccessToken.Meta):
        swappable = "OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL"
        ordering = ["id"]


class OAuth2RefreshToken(AbstractRefreshToken):
    class Meta(AbstractRefreshToken.Meta):
        swappable = "OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL"


class OAuth2IDToken(AbstractIDToken):
    class Meta(AbstractIDToken.Meta):
        swappable = "OAUTH2_PROVIDER_ID_TOKEN_MODEL"


class OAuth2Grant(AbstractGrant):
    class Meta(AbstractGrant.Meta):
        swappable = "OAUTH2_PROVIDER_GRANT_MODEL"


class OAuth2DeviceGrant(AbstractDeviceGrant):
    class Meta(AbstractDeviceGrant.Meta):
        swappable = "OAUTH2_PROVIDER_DEVICE_GRANT_MODEL"
