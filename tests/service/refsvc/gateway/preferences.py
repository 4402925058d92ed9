"""The gateway's settings: /api/gateway/v1/settings/ (its categories), settings/<category>/ (GET, PUT; DELETE
puts a category's settings back to their defaults), ``all`` being every category at once, and
settings/<category>/<name>/ (one setting: GET, DELETE).

What the gateway answers, and the source of each fact, is in tests/service/README.md ("The gateway's settings and
feature flags").
In short: a PUT names only the settings it changes; a name the category does not have, a value that does not
convert to the setting's type and a change of a read-only setting answer 400 (nothing is written); a value equal
to the current one, and ``$encrypted$`` for a secret, are no change; the answer is the whole category. A
superuser writes; a superuser and a platform auditor read; any other user gets 403.

Two settings are the test bed's own runtime settings, so that they act on the gateway here:
``gateway_basic_auth_enabled`` (Basic at the gateway, ``GATEWAY_BASIC_AUTH_ENABLED``) and ``SESSION_COOKIE_AGE``
(the session's lifetime, shared with the controller in this one-process layout); ``RUNTIME_FEATURE_FLAGS``
(read-only) is the runtime setting of that name, which the feature flags' views read."""
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.http import Http404
from django.urls import path, re_path
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc import runtime

from . import models as m
from .serializers import V1
from .views import GatewayMixin

ENCRYPTED = "$encrypted$"

# Settings bound to the test bed's runtime settings (refsvc/svc/runtime.py): gateway setting -> runtime name.
RUNTIME_BOUND = {
    "gateway_basic_auth_enabled": "GATEWAY_BASIC_AUTH_ENABLED",
    "SESSION_COOKIE_AGE": "SESSION_COOKIE_AGE",
    "RUNTIME_FEATURE_FLAGS": "RUNTIME_FEATURE_FLAGS",
}


class Setting:
    def __init__(self, section, name, kind, default, secret=False, read_only=False, min_value=None, max_value=None,
                 releases=None):
        self.section, self.name, self.kind, self.default = section, name, kind, default
        self.secret, self.read_only = secret, read_only
        self.min_value, self.max_value = min_value, max_value
        # the releases whose gateway has the setting (None: every one)
        self.releases = releases

    def present(self):
        """Whether the gateway has the setting in the release it stands for (GATEWAY_RELEASE)."""
        return self.releases is None or release() in self.releases

    def convert(self, value):
        """The value in the setting's type, or a ValueError with the gateway's words."""
        text = None if value is None else str(value)
        if self.kind == "bool":
            if text is not None and text.lower() in ("true", "1", "yes"):
                return True
            if text is not None and text.lower() in ("false", "0", "no", ""):
                return False
            raise ValueError("Value %s cannot be converted to bool" % text)
        if self.kind in ("int", "float"):
            cast = int if self.kind == "int" else float
            try:
                converted = cast(text)
            except (TypeError, ValueError):
                raise ValueError("Value %s cannot be converted to %s" % (text, self.kind))
            if self.min_value is not None and converted < self.min_value:
                raise ValueError("Ensure this value is greater than or equal to %s." % self.min_value)
            if self.max_value is not None and converted > self.max_value:
                raise ValueError("Ensure this value is less than or equal to %s." % self.max_value)
            return converted
        if self.kind == "list":
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise ValueError("Expected a list of strings.")
            return value
        if text is None:
            raise ValueError("This field may not be null.")
        if self.kind == "url" and text:
            try:
                URLValidator()(text)
            except ValidationError:
                raise ValueError("%s is not a valid URL" % text)
        return text


def release():
    """The release the gateway stands for ("2.6", "2.7"; the runtime setting GATEWAY_RELEASE)."""
    return ".".join(str(runtime.get("GATEWAY_RELEASE")).split(".")[:2])


def _s(section, name, kind, default, **kwargs):
    return Setting(section, name, kind, default, **kwargs)


# The settings (name, category, type, default, secret, read-only, bounds): see tests/service/README.md.
SETTINGS = [
    _s("proxy", "gateway_token_name", "str", "X-DAB-JW-TOKEN"),
    _s("proxy", "gateway_access_token_expiration", "int", 600),
    _s("proxy", "jwt_expiration_buffer_in_seconds", "int", 15),
    _s("proxy", "gateway_basic_auth_enabled", "bool", True),
    _s("proxy", "gateway_proxy_url", "url", "https://localhost:9080"),
    _s("proxy", "gateway_proxy_url_ignore_cert", "bool", False),
    _s("proxy", "jwt_private_key", "str", "", secret=True),
    _s("proxy", "jwt_public_key", "str", "", read_only=True),
    _s("proxy", "status_endpoint_backend_timeout_seconds", "int", 5),
    _s("proxy", "status_endpoint_backend_verify", "bool", True),
    _s("proxy", "resource_client_request_timeout", "float", 10.0, min_value=0.0),
    _s("proxy", "request_timeout", "int", 30),
    _s("proxy", "idle_timeout", "int", 15, releases=("2.7",)),
    # 2.6's, which 2.7 has no more (the streaming connections' limits; the category chosen, the schema names none).
    _s("proxy", "max_stream_duration", "int", 3600, releases=("2.6",)),
    _s("proxy", "stream_idle_timeout", "int", 60, releases=("2.6",)),
    _s("proxy", "trusted_header_timeout", "int", 1000, min_value=100, max_value=10000),
    _s("local_login", "password_min_length", "int", 0, min_value=0, max_value=100),
    _s("local_login", "password_min_digits", "int", 0, min_value=0, max_value=100),
    _s("local_login", "password_min_upper", "int", 0, min_value=0, max_value=100),
    _s("local_login", "password_min_special", "int", 0, min_value=0, max_value=100),
    _s("local_login", "allow_admins_to_set_insecure", "bool", False),
    _s("local_login", "LOGIN_REDIRECT_OVERRIDE", "str", ""),
    _s("local_login", "custom_login_info", "str", ""),
    _s("local_login", "custom_logo", "str", ""),
    _s("social_auth", "SOCIAL_AUTH_USERNAME_IS_FULL_EMAIL", "bool", False),
    _s("configuration", "SESSION_COOKIE_AGE", "int", 900, min_value=60, max_value=30000000000),
    _s("configuration", "DEFAULT_PAGE_SIZE", "int", 50),
    _s("configuration", "MAX_PAGE_SIZE", "int", 200),
    _s("configuration", "CSRF_TRUSTED_ORIGINS", "list", []),
    _s("configuration", "AAP_DEPLOYMENT_TYPE", "str", "self-managed", read_only=True),
    _s("configuration", "MANAGE_ORGANIZATION_AUTH", "bool", True),
    _s("configuration", "ORG_ADMINS_CAN_SEE_ALL_USERS", "bool", True),
    _s("oauth2_provider", "ALLOW_OAUTH2_FOR_EXTERNAL_USERS", "bool", False),
    _s("analytics", "INSIGHTS_TRACKING_STATE", "bool", True),
    _s("analytics", "RED_HAT_CONSOLE_URL", "url", "https://console.redhat.com"),
    _s("analytics", "REDHAT_USERNAME", "str", ""),
    _s("analytics", "REDHAT_PASSWORD", "str", "", secret=True),
    _s("analytics", "SUBSCRIPTIONS_USERNAME", "str", ""),
    _s("analytics", "SUBSCRIPTIONS_PASSWORD", "str", "", secret=True),
    _s("analytics", "AUTOMATION_ANALYTICS_GATHER_INTERVAL", "int", 14400, min_value=1800, max_value=30000000000),
    # Category chosen (the schema lists these two right after the analytics settings and names no category).
    _s("analytics", "NOTIFICATION_RSS_FEED_URL", "url", "https://announcements.ansiblecloud.redhat.com/feed.atom",
       read_only=True),
    _s("analytics", "NOTIFICATION_RSS_FEED_ENABLED", "bool", True),
    _s("feature_flags", "RUNTIME_FEATURE_FLAGS", "bool", True, read_only=True, releases=("2.7",)),
    _s("feature_flags", "RUNTIME_FEATURE_FLAGS_UI", "bool", False, read_only=True, releases=("2.7",)),
]
BY_NAME = dict((s.name, s) for s in SETTINGS)


def sections():
    """The categories of the release the gateway stands for (one without a setting there is not one)."""
    return sorted(set(s.section for s in SETTINGS if s.present()))


def of(slug):
    """The settings of a category (``all``: every one); Http404 for a category the gateway does not have."""
    if slug == "all":
        return [s for s in SETTINGS if s.present()]
    if slug not in sections():
        raise Http404
    return [s for s in SETTINGS if s.section == slug and s.present()]


def current(setting, stored=None, bound=None):
    """A setting's value as the gateway holds it (unmasked). ``stored`` and ``bound``: the rows and the runtime
    settings, read once for many (from the database: a change made by this request shows)."""
    if setting.name in RUNTIME_BOUND:
        bound = runtime.load() if bound is None else bound
        return bound.get(RUNTIME_BOUND[setting.name], setting.default)
    if stored is None:
        stored = dict(m.Preference.objects.filter(name=setting.name).values_list("name", "value"))
    return stored.get(setting.name, setting.default)


def value(name):
    """The gateway's value of one setting (for the gateway's other views)."""
    return current(BY_NAME[name])


def render(slug):
    stored = dict(m.Preference.objects.values_list("name", "value"))
    bound = runtime.load()
    data = {}
    for setting in of(slug):
        held = current(setting, stored, bound)
        data[setting.name] = ENCRYPTED if setting.secret and held not in (None, "") else held
    return data


def store(changes):
    bound = dict((RUNTIME_BOUND[name], v) for name, v in changes.items() if name in RUNTIME_BOUND)
    if bound:
        runtime.store(bound)
    for name, v in changes.items():
        if name not in RUNTIME_BOUND:
            m.Preference.objects.update_or_create(name=name, defaults={"value": v})


# A setting's kind as OPTIONS names its type.
TYPES = {"bool": "boolean", "int": "integer", "float": "float", "list": "list", "url": "string", "str": "string"}


class CategoryList(GatewayMixin, APIView):
    """The categories: ``all`` first, then the others by name, each ``{"url", "name"}``, as one page."""

    endpoint_access = "settings"

    def get(self, request):
        results = [{"url": "%ssettings/%s/" % (V1, slug), "name": slug} for slug in ["all"] + sections()]
        return Response({"count": len(results), "next": None, "previous": None, "results": results})


class CategoryDetail(GatewayMixin, APIView):
    endpoint_access = "settings"
    http_method_names = ["get", "put", "delete", "head", "options"]

    def get(self, request, slug):
        return Response(render(slug))

    def put(self, request, slug):
        settings = dict((s.name, s) for s in of(slug))
        data = request.data
        if not isinstance(data, dict):
            return Response({"detail": "Invalid data. Expected a dictionary, but got %s." % type(data).__name__},
                            status=400)
        shown = render(slug)
        errors, changes = {}, {}
        for name, given in data.items():
            setting = settings.get(name)
            if setting is None:
                # The gateway names the category it was asked, None for ``all``.
                errors[name] = "Invalid key for category %s" % (None if slug == "all" else slug)
                continue
            if given == shown[name] or (setting.secret and given == ENCRYPTED):
                continue
            if setting.read_only:
                errors[name] = "Cannot change read-only setting %s" % name
                continue
            try:
                changes[name] = setting.convert(given)
            except ValueError as exc:
                errors[name] = str(exc)
        if errors:
            return Response(errors, status=400)
        store(changes)
        return Response(render(slug))

    def options(self, request, slug):
        """The category's settings as OPTIONS describes writable fields (GET, and PUT for a superuser): each with
        its type, default and whether it is read-only; none required (a PUT names the settings it changes)."""
        data = self.metadata_class().determine_metadata(request, self)
        described = dict((setting.name, dict({"type": TYPES[setting.kind], "label": setting.name,
                                               "required": False, "default": setting.default},
                                              **({"read_only": True} if setting.read_only else {})))
                         for setting in of(slug))
        data["actions"] = {"GET": described}
        if request.user.is_superuser:
            data["actions"]["PUT"] = described
        return Response(data)

    def delete(self, request, slug):
        reset([s.name for s in of(slug) if not s.read_only])
        return Response(render(slug))


def reset(names):
    """Puts the settings ``names`` back to their defaults."""
    m.Preference.objects.filter(name__in=names).delete()
    defaults = runtime.defaults()
    bound = [RUNTIME_BOUND[n] for n in names if n in RUNTIME_BOUND]
    if bound:
        runtime.store(dict((key, defaults[key]) for key in bound if key in defaults))


class SettingDetail(GatewayMixin, APIView):
    """One setting of a category (the 2.7 schema's ``SettingPreference``): GET its ``section``, ``name`` and
    ``value`` (a secret masked); DELETE puts it back to its default (204), in a named category only (the schema:
    a name is unique within a category, not across them). Through ``all``, GET names the setting's own
    category. A setting the category does not have: 404; a read-only one is not reverted (400)."""

    endpoint_access = "settings"
    http_method_names = ["get", "delete", "head", "options"]

    def _setting(self, slug, name):
        found = [s for s in of(slug) if s.name == name]
        if not found:
            raise Http404
        return found[0]

    def get(self, request, slug, name):
        setting = self._setting(slug, name)
        held = current(setting)
        return Response({"section": setting.section, "name": setting.name,
                         "value": ENCRYPTED if setting.secret and held not in (None, "") else held})

    def delete(self, request, slug, name):
        if slug == "all":
            return Response({"detail": "A setting is reverted in its own category, not in all."}, status=400)
        setting = self._setting(slug, name)
        if setting.read_only:
            return Response({name: "Cannot change read-only setting %s" % name}, status=400)
        reset([name])
        return Response(status=204)


URLS = [
    path("settings/", CategoryList.as_view()),
    re_path(r"^settings/(?P<slug>[a-z0-9_]+)/$", CategoryDetail.as_view()),
    re_path(r"^settings/(?P<slug>[a-z0-9_]+)/(?P<name>[A-Za-z0-9_]+)/$", SettingDetail.as_view()),
]
