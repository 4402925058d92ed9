"""What the gateway keeps of its own besides the rows it shares with the controller."""
from ansible_base.lib.abstract_models.common import CreatableModel, ModifiableModel
from django.conf import settings
from django.db import models


class SharedDescription(models.Model):
    """The gateway's description of one of its organizations or teams, kept apart from the
    controller's copy's own (the row's ``description``) when the controller is the service's.

    AWX 24.6.1's django-ansible-base (2024.7.1, ``ansible_base/resource_registry/shared_types.py``)
    shares an organization's name only and a team's name and organization: the controller's copy has
    a description of its own, which the gateway's never reaches (its resource API ignores it) and
    which a PATCH at the controller changes (``immutablesharedfields`` in AWX's
    ``awx/api/views/__init__.py`` guards the declared fields only)."""

    kind = models.CharField(max_length=32)
    object_id = models.BigIntegerField()
    description = models.TextField(blank=True, default="")

    class Meta:
        app_label = "gateway"
        unique_together = [("kind", "object_id")]


class Authorship(models.Model):
    """Who made and who last changed one of the users, organizations or teams the gateway shares with the
    controller (the 2.7 schema's ``created_by`` and ``modified_by``; django-ansible-base's ``CreatableModel`` and
    ``ModifiableModel`` keep them on the row, which these Django and controller rows have not): recorded by
    refsvc/gateway/signals.py as those models record them."""

    kind = models.CharField(max_length=32)
    object_id = models.BigIntegerField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    modified_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        app_label = "gateway"
        unique_together = [("kind", "object_id")]


# -- The gateway's routing: where it listens, what it forwards where (/api/gateway/v1/http_ports/,
# service_types/, service_clusters/, service_nodes/, service_keys/, services/, routes/,
# ui_plugin_routes/, ca_certificates/). The fields and what a new object gets are those ansible.platform's
# modules send and its integration targets show of a real gateway; the rest is chosen (tests/service/README.md).

class HttpPort(CreatableModel, ModifiableModel):
    name = models.CharField(max_length=512, unique=True)
    number = models.PositiveIntegerField(unique=True)
    use_https = models.BooleanField(default=False)
    is_api_port = models.BooleanField(default=False)

    class Meta:
        app_label = "gateway"


class ServiceType(CreatableModel, ModifiableModel):
    name = models.CharField(max_length=512, unique=True)
    ping_url = models.CharField(max_length=512, blank=True, default="")
    login_path = models.CharField(max_length=512, blank=True, default="")
    logout_path = models.CharField(max_length=512, blank=True, default="")
    service_index_path = models.CharField(max_length=512, blank=True, default="")

    class Meta:
        app_label = "gateway"


class ServiceCluster(CreatableModel, ModifiableModel):
    name = models.CharField(max_length=512, unique=True)
    service_type = models.ForeignKey(ServiceType, on_delete=models.CASCADE, related_name="clusters")
    auth_type = models.CharField(max_length=16, default="JWT")
    upstream_hostname = models.CharField(max_length=512, blank=True, default="")
    dns_discovery_type = models.CharField(max_length=16, default="STRICT_DNS")
    dns_lookup_family = models.CharField(max_length=16, default="AUTO")
    outlier_detection_enabled = models.BooleanField(default=False)
    outlier_detection_consecutive_5xx = models.PositiveIntegerField(default=5)
    outlier_detection_interval_seconds = models.PositiveIntegerField(default=10)
    outlier_detection_base_ejection_time_seconds = models.PositiveIntegerField(default=30)
    outlier_detection_max_ejection_percent = models.PositiveIntegerField(default=10)
    health_checks_enabled = models.BooleanField(default=False)
    health_check_timeout_seconds = models.PositiveIntegerField(default=5)
    health_check_interval_seconds = models.PositiveIntegerField(default=5)
    health_check_unhealthy_threshold = models.PositiveIntegerField(default=3)
    health_check_healthy_threshold = models.PositiveIntegerField(default=1)
    healthy_panic_threshold = models.PositiveIntegerField(default=50)
    # "The unique service ID provided by the service" (the published schemas: read-only, nullable): a real gateway
    # has it from the service the cluster runs; this one asks no service for it, so it stays null.
    service_id = models.UUIDField(null=True, blank=True, default=None, editable=False)

    class Meta:
        app_label = "gateway"


class ServiceNode(CreatableModel, ModifiableModel):
    name = models.CharField(max_length=512, unique=True)
    address = models.CharField(max_length=512, unique=True)
    service_cluster = models.ForeignKey(ServiceCluster, on_delete=models.CASCADE, related_name="nodes")
    tags = models.CharField(max_length=512, blank=True, default="")

    class Meta:
        app_label = "gateway"


class ServiceKey(CreatableModel, ModifiableModel):
    name = models.CharField(max_length=512, unique=True, null=True, blank=True)
    service_cluster = models.ForeignKey(ServiceCluster, on_delete=models.CASCADE, related_name="keys")
    is_active = models.BooleanField(default=True)
    algorithm = models.CharField(max_length=8, default="HS256")
    secret = models.TextField()
    secret_length = models.PositiveIntegerField(default=32)

    class Meta:
        app_label = "gateway"


class _Routed(CreatableModel, ModifiableModel):
    """What a service (an API route), a route and a UI plugin route have in common."""

    name = models.CharField(max_length=512, unique=True)
    description = models.TextField(blank=True, default="")
    http_port = models.ForeignKey(HttpPort, on_delete=models.PROTECT, related_name="+")
    service_cluster = models.ForeignKey(ServiceCluster, on_delete=models.PROTECT, related_name="+")
    is_service_https = models.BooleanField(default=False)
    service_port = models.PositiveIntegerField()
    node_tags = models.CharField(max_length=512, blank=True, default="")
    # Automation Platform 2.7's (its published gateway schema): null, the proxy's global setting
    request_timeout_seconds = models.PositiveIntegerField(null=True, blank=True, default=None)
    idle_timeout_seconds = models.PositiveIntegerField(null=True, blank=True, default=None)

    class Meta:
        abstract = True


class Route(_Routed):
    gateway_path = models.CharField(max_length=512, unique=True)
    service_path = models.CharField(max_length=512)
    enable_gateway_auth = models.BooleanField(default=True)
    is_internal_route = models.BooleanField(default=False)
    enable_mtls = models.BooleanField(default=False)

    class Meta:
        app_label = "gateway"


class Service(_Routed):
    api_slug = models.CharField(max_length=64, blank=True, default="")
    service_path = models.CharField(max_length=512)
    enable_gateway_auth = models.BooleanField(default=True)
    is_internal_route = models.BooleanField(default=False)
    enable_mtls = models.BooleanField(default=False)
    order = models.IntegerField(default=50)

    class Meta:
        app_label = "gateway"


class UIPluginRoute(_Routed):
    ui_plugin_path = models.CharField(max_length=512)
    order = models.IntegerField(default=50)

    class Meta:
        app_label = "gateway"


class CACertificate(CreatableModel, ModifiableModel):
    name = models.CharField(max_length=512, unique=True)
    pem_data = models.TextField()
    related_id_reference = models.CharField(max_length=64, blank=True, default="")
    sha256 = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        app_label = "gateway"


# -- The gateway's settings (/api/gateway/v1/settings/<category>/) and feature flags (feature_flags/); what they
# hold and where each fact comes from: refsvc/gateway/preferences.py, refsvc/gateway/feature_flags.py.

class Preference(models.Model):
    """A setting of the gateway changed through its API (one that is not changed has no row: it has its default)."""

    name = models.CharField(max_length=128, unique=True)
    value = models.JSONField(null=True)

    class Meta:
        app_label = "gateway"


class FeatureFlag(CreatableModel, ModifiableModel):
    """A platform feature flag as the gateway keeps it (django-ansible-base's ``AAPFlag``): the definitions come from
    django-ansible-base, the value is the gateway's."""

    name = models.CharField(max_length=64)
    ui_name = models.CharField(max_length=64)
    condition = models.CharField(max_length=64, default="boolean")
    value = models.CharField(max_length=127, default="False")
    required = models.BooleanField(default=False)
    support_level = models.CharField(max_length=25)
    visibility = models.BooleanField(default=False)
    toggle_type = models.CharField(max_length=20, default="run-time")
    description = models.CharField(max_length=500, default="")
    support_url = models.CharField(max_length=250, default="", blank=True)
    labels = models.JSONField(null=True, default=list)

    class Meta:
        app_label = "gateway"
        unique_together = [("name", "condition")]
