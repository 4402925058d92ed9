"""The gateway's routing API: its HTTP ports, service types, service clusters, their nodes and keys, the
services (API routes), routes and UI plugin routes it forwards, and the CA certificates it trusts
(/api/gateway/v1/<kind>/ and <kind>/<id>/, as ansible.platform's modules use them). Every user reads;
a superuser writes (the views' ``superuser`` access rule, as for the gateway's other objects)."""
import base64
import hashlib
import re
import secrets

from django.db.models import ProtectedError
from django.urls import path
from rest_framework import serializers
from rest_framework.validators import UniqueValidator

from refsvc.svc import runtime

from . import models as m
from . import preferences
from .serializers import _Common, _url
from .views import _Detail, _List

ENCRYPTED = "$encrypted$"


def _summary(obj, *fields):
    return dict((f, {"id": getattr(obj, f).pk, "name": getattr(obj, f).name}) for f in fields)


def release_at_least(release):
    """Whether the gateway stands for ``release`` or a later one (the runtime setting GATEWAY_RELEASE)."""
    wanted = tuple(int(part) for part in release.split("."))
    return tuple(int(part) for part in str(runtime.get("GATEWAY_RELEASE")).split(".")) >= wanted


class _Routing(_Common):
    refs = ()     # the foreign keys, shown as ids with a summary and a related link each
    kinds = {"http_port": "http_ports", "service_cluster": "service_clusters", "service_type": "service_types"}

    def get_related(self, obj):
        return dict((f, _url(self.kinds[f], getattr(obj, f + "_id"))) for f in self.refs)

    def get_summary_fields(self, obj):
        return _summary(obj, *self.refs)


COMMON = ("id", "url", "related", "summary_fields", "created", "created_by", "modified", "modified_by")


def _fields(model, *extra):
    return list(COMMON) + [
        f.name for f in model._meta.get_fields() if f.concrete and f.name not in COMMON
    ] + list(extra)


class HttpPortSerializer(_Routing):
    kind = "http_ports"

    class Meta:
        model = m.HttpPort
        fields = _fields(m.HttpPort)

    def validate(self, data):
        if data.get("is_api_port"):
            others = m.HttpPort.objects.filter(is_api_port=True)
            if self.instance is not None:
                others = others.exclude(pk=self.instance.pk)
            if others.exists():
                raise serializers.ValidationError({"is_api_port": ["Only one port can be the API port."]})
        elif self.instance is not None and self.instance.is_api_port and data.get("is_api_port") is False:
            # ansible.platform 2.6.20250924's http_ports_test: the API port stays one
            raise serializers.ValidationError({"is_api_port": ["The API port cannot stop being the API port."]})
        return data


class ServiceTypeSerializer(_Routing):
    kind = "service_types"

    class Meta:
        model = m.ServiceType
        fields = _fields(m.ServiceType)


class ServiceClusterSerializer(_Routing):
    kind = "service_clusters"
    refs = ("service_type",)
    auth_type = serializers.ChoiceField(["JWT", "BASIC", "TOKEN"], default="JWT")
    dns_discovery_type = serializers.ChoiceField(["STRICT_DNS", "LOGICAL_DNS"], default="STRICT_DNS")
    dns_lookup_family = serializers.ChoiceField(["ALL", "V4_ONLY", "V6_ONLY", "V4_PREFERRED", "AUTO"], default="AUTO")
    effective_health_check_timeout_seconds = serializers.SerializerMethodField()

    class Meta:
        model = m.ServiceCluster
        fields = _fields(m.ServiceCluster, "effective_health_check_timeout_seconds")

    def get_fields(self):
        fields = super().get_fields()
        if not release_at_least("2.7"):
            fields.pop("effective_health_check_timeout_seconds", None)
        return fields

    def get_effective_health_check_timeout_seconds(self, obj) -> str:
        """The 2.7 schema's description: the largest of the cluster's ``health_check_timeout_seconds``, the highest
        ``request_timeout_seconds`` of its routes and the global ``request_timeout`` setting, as text (as the
        routes' effective timeouts). Which routes count is not said there; here the cluster's routes, services
        (API routes) and UI plugin routes, all of which the 2.7 schema gives a ``request_timeout_seconds``."""
        given = [obj.health_check_timeout_seconds, preferences.value("request_timeout")]
        for model in (m.Route, m.Service, m.UIPluginRoute):
            given += model.objects.filter(service_cluster=obj, request_timeout_seconds__isnull=False).values_list(
                "request_timeout_seconds", flat=True)
        return str(max(given))

    def validate_healthy_panic_threshold(self, value):
        if value > 100:
            raise serializers.ValidationError("Ensure this value is less than or equal to 100.")
        return value

    validate_outlier_detection_max_ejection_percent = validate_healthy_panic_threshold


class ServiceNodeSerializer(_Routing):
    kind = "service_nodes"
    refs = ("service_cluster",)

    class Meta:
        model = m.ServiceNode
        fields = _fields(m.ServiceNode)


class ServiceKeySerializer(_Routing):
    """A key the gateway signs the tokens it gives a cluster's services with. The gateway makes its secret, of
    ``secret_length`` random bytes; the secret is read-only and read back as ``$encrypted$``.
    ``mark_previous_inactive`` (written only, and required) makes the cluster's other keys inactive. The name may
    be left out. What is read-only, written only and required is as the published schemas (2.6, 2.7) say."""

    kind = "service_keys"
    refs = ("service_cluster",)
    name = serializers.CharField(max_length=512, required=False, allow_null=True,
                                 validators=[UniqueValidator(queryset=m.ServiceKey.objects.all())])
    algorithm = serializers.ChoiceField(["HS256", "HS384", "HS512"], default="HS256")
    secret = serializers.CharField(read_only=True)
    # written only, as the published schemas have it: the length asked for the secret the gateway makes
    secret_length = serializers.IntegerField(required=False, write_only=True, min_value=16, max_value=512)
    mark_previous_inactive = serializers.BooleanField(write_only=True)

    class Meta:
        model = m.ServiceKey
        fields = _fields(m.ServiceKey, "mark_previous_inactive")

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["secret"] = ENCRYPTED
        return data

    def _previous(self, key, mark):
        if mark and key.is_active:
            m.ServiceKey.objects.filter(service_cluster=key.service_cluster).exclude(pk=key.pk).update(is_active=False)
        return key

    def create(self, validated):
        mark = validated.pop("mark_previous_inactive", False)
        length = validated.get("secret_length") or 32
        validated["secret"] = base64.urlsafe_b64encode(secrets.token_bytes(length)).decode()
        return self._previous(super().create(validated), mark)

    def update(self, instance, validated):
        mark = validated.pop("mark_previous_inactive", False)
        validated.pop("secret_length", None)
        return self._previous(super().update(instance, validated), mark)


# The timeouts of a route, a service and a UI plugin route (the 2.7 gateway schema): each null (the proxy's global
# setting of that name) or at least that setting, up to its maximum; the effective one is the larger of the two,
# as text. A gateway standing for 2.6 (GATEWAY_RELEASE) has none of these fields.
TIMEOUTS = {"request_timeout_seconds": ("request_timeout", 604800, "effective_timeout_seconds"),
            "idle_timeout_seconds": ("idle_timeout", 86400, "effective_idle_timeout_seconds")}


class _RoutedSerializer(_Routing):
    refs = ("http_port", "service_cluster")
    effective_timeout_seconds = serializers.SerializerMethodField()
    effective_idle_timeout_seconds = serializers.SerializerMethodField()

    def get_fields(self):
        fields = super().get_fields()
        if not release_at_least("2.7"):
            for name, (_setting, _maximum, effective) in TIMEOUTS.items():
                fields.pop(name, None)
                fields.pop(effective, None)
        return fields

    @staticmethod
    def _effective(obj, field):
        setting = preferences.value(TIMEOUTS[field][0])
        given = getattr(obj, field)
        return str(setting if given is None else max(given, setting))

    def get_effective_timeout_seconds(self, obj):
        return self._effective(obj, "request_timeout_seconds")

    def get_effective_idle_timeout_seconds(self, obj):
        return self._effective(obj, "idle_timeout_seconds")

    def validate(self, data):
        data = super().validate(data)
        errors = {}
        for field, (setting, maximum, _effective) in TIMEOUTS.items():
            given = data.get(field)
            if given is None:
                continue
            least = preferences.value(setting)
            if given < least or given > maximum:
                errors[field] = ["Ensure this value is between the global %s setting (%d) and %d." % (setting, least, maximum)]
        if errors:
            raise serializers.ValidationError(errors)
        return data


class ServiceSerializer(_RoutedSerializer):
    """An API route: /api/<api_slug>/ at the gateway to the cluster's ``service_path``. ``api_slug`` and
    ``is_service_https`` are required (as of a route and a UI plugin route), as the published schemas say."""

    kind = "services"
    gateway_path = serializers.SerializerMethodField()

    class Meta:
        model = m.Service
        fields = _fields(m.Service, "gateway_path", "effective_timeout_seconds", "effective_idle_timeout_seconds")
        extra_kwargs = {"is_service_https": {"required": True}, "api_slug": {"required": True}}

    def get_gateway_path(self, obj):
        return "/api/%s/" % obj.api_slug if obj.api_slug else ""


class RouteSerializer(_RoutedSerializer):
    kind = "routes"

    class Meta:
        model = m.Route
        fields = _fields(m.Route, "effective_timeout_seconds", "effective_idle_timeout_seconds")
        extra_kwargs = {"is_service_https": {"required": True}}


class UIPluginRouteSerializer(_RoutedSerializer):
    """A route to a UI plugin: ``ui_plugin_path`` is kept without its leading and trailing slashes, the
    gateway path is /plugin/<cluster>/<ui_plugin_path>/. The fields are the published schemas'
    ``UIPluginRoute`` (2.6 and 2.7): a route's ``service_path``, ``enable_gateway_auth`` and
    ``is_internal_route`` are not among them."""

    kind = "ui_plugin_routes"
    gateway_path = serializers.SerializerMethodField()

    class Meta:
        model = m.UIPluginRoute
        fields = _fields(m.UIPluginRoute, "gateway_path", "effective_timeout_seconds", "effective_idle_timeout_seconds")
        extra_kwargs = {"is_service_https": {"required": True}}

    def validate_ui_plugin_path(self, value):
        value = value.strip("/")
        if not value:
            raise serializers.ValidationError("This field may not be blank.")
        return value

    def get_gateway_path(self, obj):
        return "/plugin/%s/%s/" % (re.sub(r"[^\w-]+", "-", obj.service_cluster.name).strip("-").lower(), obj.ui_plugin_path)


class CACertificateSerializer(_Routing):
    """A CA certificate (PEM) and its SHA-256 fingerprint, required of a new one as the published schemas (2.6,
    2.7) say; a change of ``pem_data`` without one gets the gateway's of its first certificate."""

    kind = "ca_certificates"

    class Meta:
        model = m.CACertificate
        fields = _fields(m.CACertificate)
        extra_kwargs = {"sha256": {"required": True}}

    def validate_pem_data(self, value):
        match = re.search(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", value, re.S)
        try:
            base64.b64decode("".join(match.group(1).split()), validate=True)
        except Exception:
            raise serializers.ValidationError("Not a PEM encoded certificate.")
        return value

    def validate(self, data):
        pem = data.get("pem_data", getattr(self.instance, "pem_data", ""))
        if not data.get("sha256") and (self.instance is None or "pem_data" in data):
            match = re.search(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", pem, re.S)
            der = base64.b64decode("".join(match.group(1).split()))
            data["sha256"] = hashlib.sha256(der).hexdigest()
        return data


KINDS = [
    ("http_ports", m.HttpPort, HttpPortSerializer),
    ("service_types", m.ServiceType, ServiceTypeSerializer),
    ("service_clusters", m.ServiceCluster, ServiceClusterSerializer),
    ("service_nodes", m.ServiceNode, ServiceNodeSerializer),
    ("service_keys", m.ServiceKey, ServiceKeySerializer),
    ("services", m.Service, ServiceSerializer),
    ("routes", m.Route, RouteSerializer),
    ("ui_plugin_routes", m.UIPluginRoute, UIPluginRouteSerializer),
    ("ca_certificates", m.CACertificate, CACertificateSerializer),
]


class _InUse(_Detail):
    """An object another one uses (a port or a cluster a route refers to) is not deleted, nor is the API
    port (ansible.platform 2.6.20250924's http_ports_test: deleting it fails); deleting a service type
    deletes the clusters of that type (its service_types_test: the cluster is gone)."""

    def perform_destroy(self, instance):
        if getattr(instance, "is_api_port", False):
            raise serializers.ValidationError({"detail": "%s is the API port and cannot be deleted." % instance.name})
        try:
            instance.delete()
        except ProtectedError as exc:
            used = sorted("%s %s" % (o._meta.verbose_name, o.name) for o in exc.protected_objects)
            raise serializers.ValidationError({"detail": "%s is in use by %s." % (instance.name, ", ".join(used))})


def _views(kind, model, serializer):
    attrs = {"serializer_class": serializer, "queryset": model.objects.order_by("id")}
    listed = type(model.__name__ + "List", (_List,), attrs)
    detail = type(model.__name__ + "Detail", (_InUse,), dict(attrs, queryset=model.objects.all()))
    return [path(kind + "/", listed.as_view()), path(kind + "/<int:pk>/", detail.as_view())]


URLS = [url for kind, model, serializer in KINDS for url in _views(kind, model, serializer)]
NAMES = [kind for kind, _model, _serializer in KINDS]
