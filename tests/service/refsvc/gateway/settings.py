"""Settings of the gateway layout: the service's own settings (refsvc.settings, the
controller), plus django-ansible-base's apps with the settings its
``ansible_base.lib.dynamic_config`` helper derives for them.

The controller and the gateway are one Django project over one database: the users,
organizations and teams the gateway manages are the rows the controller's API lists, as
on the platform, where the controller keeps read-only copies of the gateway's."""
from refsvc.settings import *  # noqa: F401,F403
from refsvc import settings as _base
from ansible_base.lib.dynamic_config.settings_logic import get_dab_settings

SERVICE_LAYOUT = "gateway"
# The service has one OAuth2 provider (django-oauth-toolkit's models are swapped once), and here it is
# the gateway's: the controller answers as it does once AWX removed its own provider (AWX's commit
# "Remove oauth provider", after 24.6.1; the controller of AAP 2.6): no tokens/, applications/ or o/.
CONTROLLER_OAUTH2 = False
ROOT_URLCONF = "refsvc.gateway.urlconf"

INSTALLED_APPS = list(_base.INSTALLED_APPS) + [
    "ansible_base.lib",
    "ansible_base.authentication",
    "ansible_base.oauth2_provider",
    "ansible_base.resource_registry",
    # Its activity stream (activitystream/): what django-ansible-base's auditable models record.
    "ansible_base.activitystream",
    # Its OpenAPI document (docs/schema/), drf-spectacular's.
    "ansible_base.api_documentation",
    "drf_spectacular",
    "refsvc.gateway",
    "refsvc.gateway.dab_rbac",
    # Event-Driven Ansible's API at /api/eda/v1/ (its URLs are served with the other apps', refsvc/urls.py).
    "refsvc.eda",
    # EDA's projects, rulebooks, activations and event streams, on the EDA app (refsvc/eda_activations/).
    "refsvc.eda_activations",
]
# The users, organizations and teams the gateway shares with the platform's other services, each with its
# ansible_id (/api/gateway/v1/service-index/; refsvc/gateway/resource_api.py).
ANSIBLE_BASE_RESOURCE_CONFIG_MODULE = "refsvc.gateway.resource_api"

# The controller's API answers under /api/controller/ (the remount goes first so that
# every other middleware, the request log included, sees the controller's own paths).
MIDDLEWARE = ["refsvc.gateway.middleware.LayoutMiddleware"] + list(_base.MIDDLEWARE)
# django-ansible-base records who made and changed its objects through django-crum.
MIDDLEWARE.insert(MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1, "crum.CurrentRequestUserMiddleware")

# The gateway's users as a view set: django-ansible-base then serves authenticators/<id>/users/ with it.
ANSIBLE_BASE_USER_VIEWSET = "refsvc.gateway.views.UserViewSet"

# The gateway's objects are the service's: its organizations (svc) and teams (rbac).
ANSIBLE_BASE_ORGANIZATION_MODEL = "svc.Organization"
ANSIBLE_BASE_TEAM_MODEL = "rbac.Team"

# Authentication at the gateway: its personal tokens (django-ansible-base's OAuth2
# provider), its session, and Basic while GATEWAY_BASIC_AUTH_ENABLED is on.
REST_FRAMEWORK = dict(_base.REST_FRAMEWORK)
# drf-spectacular describes the API (docs/schema/), as django-ansible-base's settings would have it.
REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"] = "drf_spectacular.openapi.AutoSchema"
REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = [
    "refsvc.gateway.auth.GatewayTokenAuthentication",
    "refsvc.svc.auth.SessionAuthentication",
    "refsvc.gateway.auth.GatewayBasicAuthentication",
]

OAUTH2_PROVIDER = dict(_base.OAUTH2_PROVIDER)
# django-ansible-base's default lifetime of a token (a year), not AWX 24's (1,000 years).
OAUTH2_PROVIDER["ACCESS_TOKEN_EXPIRE_SECONDS"] = 31536000
for _key in list(globals()):
    if _key.startswith("OAUTH2_PROVIDER_") and _key.endswith("_MODEL"):
        del globals()[_key]

_dab = get_dab_settings(
    installed_apps=INSTALLED_APPS,
    rest_framework=REST_FRAMEWORK,
    spectacular_settings={},
    authentication_backends=list(AUTHENTICATION_BACKENDS),  # noqa: F405
    middleware=MIDDLEWARE,
    oauth2_provider=OAUTH2_PROVIDER,
    caches=None,
    templates=TEMPLATES,  # noqa: F405
)
for _key, _value in _dab.items():
    if _key in ("REST_FRAMEWORK", "MIDDLEWARE", "INSTALLED_APPS", "AUTHENTICATION_BACKENDS", "TEMPLATES",
                "ANSIBLE_BASE_ORGANIZATION_MODEL", "ANSIBLE_BASE_TEAM_MODEL"):
        continue  # ours, as set above (its defaults would make an application's organization a Django group)
    globals()[_key] = _value
# The roles authenticator maps grant are given at login by the service's own RBAC (refsvc/gateway/role_maps.py).
ANSIBLE_BASE_AUTHENTICATOR_RECONCILE_MODULE = "refsvc.gateway.role_maps"
# The grants (not used by the tests yet) stay django-oauth-toolkit's own models.
OAUTH2_PROVIDER_GRANT_MODEL = "oauth2_provider.Grant"
OAUTH2_PROVIDER_DEVICE_GRANT_MODEL = "oauth2_provider.DeviceGrant"

RUNTIME_DEFAULTS = dict(_base.RUNTIME_DEFAULTS)
RUNTIME_DEFAULTS.update(
    {
        "SESSION_COOKIE_NAME": "gateway_sessionid",
        "GATEWAY_BASIC_AUTH_ENABLED": True,
        "ACCESS_TOKEN_EXPIRE_SECONDS": 31536000,
        # The gateway's read-only setting that allows toggling run-time feature flags (refsvc/gateway/feature_flags.py).
        "RUNTIME_FEATURE_FLAGS": True,
        # Whether a user's answers show its links (authenticators, authenticator_uid, associated_authenticators):
        # the gateway's own tests of its user serializer show them; the platform's published schemas (2.6, 2.7) make
        # the three fields write-only. Off (svcctl start --set GATEWAY_USER_LINKS_SHOWN=false), the answers are as
        # the schemas say, and the links are read at authenticator_users/.
        "GATEWAY_USER_LINKS_SHOWN": True,
        # The platform release the gateway stands for where releases differ (the routes' timeouts are 2.7's):
        # svcctl start --layout gateway --set GATEWAY_RELEASE=2.6.
        "GATEWAY_RELEASE": "2.7",
    }
)
GATEWAY_VERSION = "2.5"

# django-ansible-base's tables are made from its models (migrate --run-syncdb): its
# migrations would have to come after the service's organizations and before the service's
# own OAuth2 models, whose foreign keys follow the OAUTH2_PROVIDER_*_MODEL settings. The resource
# registry's and the activity stream's migrations need no more than the users and the content types: they run
# (the registry's give the service its ServiceID).
LOGGING = dict(LOGGING)  # noqa: F405
# The authenticator plugins whose libraries are not installed (RADIUS, TACACS+) say so at every
# start (LDAP's, django-auth-ldap and python-ldap, are).
LOGGING["loggers"] = {"ansible_base.authentication.urls": {"level": "CRITICAL"}}
MIGRATION_MODULES = {"dab_oauth2_provider": None, "dab_authentication": None, "dab_rbac": None}

# A real controller behind the gateway (svcctl start --layout gateway --controller URL, which
# writes DIR/controller.json): /api/controller/ is forwarded to it (refsvc/gateway/controller.py)
# instead of being served by the service's own apps.
def _controller():
    import json as _json

    try:
        return _json.loads((INSTANCE_DIR / "controller.json").read_text())  # noqa: F405
    except (OSError, ValueError):
        return None


GATEWAY_CONTROLLER = _controller()


# A real Automation Hub behind the gateway (svcctl start --layout gateway --hub HUB_DIR, which copies
# HUB_DIR/gateway.json, as tests/hub/hubctl.py start --trust-gateway writes it, to DIR/hub.json): its
# paths are forwarded to it (refsvc/gateway/hub.py).
def _hub():
    import json as _json

    try:
        return _json.loads((INSTANCE_DIR / "hub.json").read_text())  # noqa: F405
    except (OSError, ValueError):
        return None


GATEWAY_HUB = _hub()

# Single sign-on through django-ansible-base's authenticators (refsvc/gateway/sso.py).
from refsvc.gateway.sso import configure as _configure_sso  # noqa: E402

_configure_sso(globals())
