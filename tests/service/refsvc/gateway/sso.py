"""Single sign-on at the gateway: django-ansible-base's authenticators.

On the platform every SSO method lives at the gateway as an Authenticator (ansible_base.authentication)
whose plugin is a social-auth backend: its login starts at ``/api/gateway/social/login/<slug>/``, the
identity provider sends the user back to ``/api/gateway/social/complete/<slug>/``, and the gateway's
session cookie is set there. The login page lists the enabled authenticators at
``/api/gateway/v1/ui_auth/`` (anonymous).

``configure(globals())`` (from refsvc/gateway/settings.py) wires django-ansible-base's own pieces as
its ``get_dab_settings`` would: its authentication backend and middleware, its social-auth pipeline,
strategy and storage, and its ``LOGIN_ERROR_URL`` (the AWX layout's ``/sso/`` settings are taken out).
``wire(directory, url)`` (from ``svcctl start --layout gateway --with-idp``) creates or updates one OIDC
and one SAML authenticator for the test identity providers (tests/idp), through django-ansible-base's
own serializer, as ``POST /api/gateway/v1/authenticators/`` does; and one LDAP authenticator for the
test directory (slapd), with two authenticator maps on its groups (``POST .../authenticator_maps/``).
The LDAP authenticator is no social-auth backend: the gateway's login form (``/api/gateway/v1/login/``,
Django's ``authenticate()``) reaches it through django-ansible-base's backend. Nothing here imports Django models at
import time: the settings module imports it.
"""
import json

# The authenticators made for tests/idp: slugs given as ansible.platform's authenticator module may
# give them (the API makes a random one otherwise); names as an administrator would write them.
OIDC = {"name": "Test OIDC", "slug": "test-oidc",
        "type": "ansible_base.authentication.authenticator_plugins.oidc"}
SAML = {"name": "Test SAML", "slug": "test-saml",
        "type": "ansible_base.authentication.authenticator_plugins.saml"}
LDAP = {"name": "Test LDAP", "slug": "test-ldap",
        "type": "ansible_base.authentication.authenticator_plugins.ldap"}
# The maps on the directory's groups (triggers compare the group DNs the plugin's group search finds).
# Organization and team maps name a role definition, checked and granted at login with the service's own
# RBAC (refsvc/gateway/role_maps.py).
LDAP_MAPS = [
    # Only members of the directory's groups may log in (revoke: a user the trigger does not
    # match is denied, not skipped).
    {"name": "Directory groups may log in", "map_type": "allow", "revoke": True, "order": 1,
     "groups": ("admins", "users")},
    # The admins group makes superusers, and leaving it takes superuser away at the next login.
    {"name": "Directory admins are superusers", "map_type": "is_superuser", "revoke": True, "order": 2,
     "groups": ("admins",)},
    # The directory's users are members of the Default organization.
    {"name": "Directory users are members of Default", "map_type": "organization", "organization": "Default",
     "role": "Organization Member", "order": 3, "groups": ("users",)},
    # Its admins administer a team the login makes (the authenticator creates the objects its maps name).
    {"name": "Directory admins administer the Directory team", "map_type": "team", "organization": "Default",
     "team": "Directory admins", "role": "Team Admin", "order": 4, "groups": ("admins",)},
]
SOCIAL_PREFIX = "/api/gateway/social/"
AUTHENTICATOR_BACKEND = "ansible_base.authentication.backend.AnsibleBaseAuth"
DAB_MIDDLEWARE = [
    "ansible_base.authentication.middleware.SocialExceptionHandlerMiddleware",
    "ansible_base.authentication.middleware.AuthenticatorBackendMiddleware",
]


def callback_url(url, slug):
    return "%s%scomplete/%s/" % (url, SOCIAL_PREFIX, slug)


def configure(s: dict) -> None:
    """Settings of the gateway's single sign-on (``s``: the settings module's globals)."""
    # Django's authenticate() reaches the authenticators through django-ansible-base's backend; the
    # session login of the gateway (the controller's login page here) keeps the model backend.
    s["AUTHENTICATION_BACKENDS"] = ["django.contrib.auth.backends.ModelBackend", AUTHENTICATOR_BACKEND]
    middleware = [m for m in s["MIDDLEWARE"] if m != "refsvc.sso.middleware.SsoErrorMiddleware"]
    at = middleware.index("django.contrib.auth.middleware.AuthenticationMiddleware")
    s["MIDDLEWARE"] = middleware[:at] + [m for m in DAB_MIDDLEWARE if m not in middleware] + middleware[at:]
    # The AWX layout's social-auth settings (refsvc/sso/conf.py) are not the gateway's: social-auth
    # reads SOCIAL_AUTH_X before X, so they would win over django-ansible-base's.
    for name in ("SOCIAL_AUTH_LOGIN_ERROR_URL", "SOCIAL_AUTH_INACTIVE_USER_URL", "SOCIAL_AUTH_OIDC_OIDC_ENDPOINT",
                 "SOCIAL_AUTH_OIDC_KEY", "SOCIAL_AUTH_OIDC_SECRET", "SOCIAL_AUTH_SAML_ENABLED_IDPS",
                 "SOCIAL_AUTH_SAML_SP_ENTITY_ID", "SOCIAL_AUTH_SAML_SP_PUBLIC_CERT",
                 "SOCIAL_AUTH_SAML_SP_PRIVATE_KEY", "SOCIAL_AUTH_SAML_ORG_INFO",
                 "SOCIAL_AUTH_SAML_TECHNICAL_CONTACT", "SOCIAL_AUTH_SAML_SUPPORT_CONTACT",
                 "SOCIAL_AUTH_SAML_SECURITY_CONFIG"):
        s.pop(name, None)
    # django-ansible-base's pipeline (get_dab_settings), and the request log's login mark at its end,
    # without its last step, the authenticator maps (create_user_claims_pipeline): its module needs
    # django-flags, not installed here (see tests/service/README.md). A user the identity provider lets
    # through is let in, as with no maps.
    s["SOCIAL_AUTH_PIPELINE"] = tuple(
        step for step in s["SOCIAL_AUTH_PIPELINE"] if not step.endswith(".create_user_claims_pipeline")
    ) + ("refsvc.sso.pipeline.mark_login",)
    s["SOCIAL_AUTH_LOGIN_REDIRECT_URL"] = "/"
    # The platform's system user (``_system``), a name no authenticator may give a user: django-ansible-base
    # reads it in every SSO login (check_system_username) and defines no default.
    s.setdefault("SYSTEM_USERNAME", "_system")
    s.setdefault("LOGIN_ERROR_URL", "/?auth_failed")
    # The authenticator maps (ansible_base.authentication.utils.claims) ask django-flags whether group
    # names compare case-insensitively; the flag is as django-ansible-base defines it
    # (feature_flags/definitions/feature_flags.yaml), read from the settings alone: its database
    # source would need django-flags' app and ansible_base.feature_flags, not installed here.
    s["FLAG_SOURCES"] = ("flags.sources.SettingsFlagsSource",)
    s["FLAGS"] = {"FEATURE_CASE_INSENSITIVE_AUTH_MAPS_ENABLED": [{"condition": "boolean", "value": True}]}
    path = s["INSTANCE_DIR"] / "sso.json"
    if path.exists():
        # The test identity providers' CA (a gateway trusts its system's store; the authenticators'
        # VERIFY_SSL stays on). social-auth reads SOCIAL_AUTH_VERIFY_SSL before the configuration's.
        s["SOCIAL_AUTH_VERIFY_SSL"] = json.loads(path.read_text())["ca"]
    else:
        s.pop("SOCIAL_AUTH_VERIFY_SSL", None)


def _serialize(serializer_class, instance, data, path):
    from django.contrib.auth.models import User
    from django.test import RequestFactory
    from rest_framework.request import Request

    # As the API view gives it: the request (the serializer checks its method) of the administrator.
    request = Request(RequestFactory().generic("PUT" if instance else "POST", path))
    request.user = User.objects.filter(is_superuser=True).order_by("id").first()
    serializer = serializer_class(instance=instance, data=data, context={"request": request})
    if not serializer.is_valid():
        # The errors name fields, never their values (a bind password stays out of the message).
        raise RuntimeError("%s %s: %s" % (path.rstrip("/").rsplit("/", 1)[-1], data["name"], serializer.errors))
    return serializer.save()


def _save(data):
    from ansible_base.authentication.models import Authenticator
    from ansible_base.authentication.serializers import AuthenticatorSerializer

    instance = Authenticator.objects.filter(slug=data["slug"]).first()
    return _serialize(AuthenticatorSerializer, instance, data, "/api/gateway/v1/authenticators/")


def _save_map(authenticator, data):
    from ansible_base.authentication.models import AuthenticatorMap
    from ansible_base.authentication.serializers import AuthenticatorMapSerializer

    instance = AuthenticatorMap.objects.filter(authenticator=authenticator, name=data["name"]).first()
    return _serialize(AuthenticatorMapSerializer, instance, dict(data, authenticator=authenticator.id),
                      "/api/gateway/v1/authenticator_maps/")


def wire_ldap(ldap: dict):
    """The LDAP authenticator for the test directory (``sso.json``'s ``ldap``, tests/idp/idpctl.py) and its
    maps, with the configuration django-ansible-base's plugin takes (its keys are django-auth-ldap's
    settings, AUTH_LDAP_ left out): StartTLS against the directory's CA, the service account's bind, a
    one-level search of the people for ``uid``, and the groupOfNames groups under the groups' branch."""
    import ldap as python_ldap

    authenticator = _save(dict(LDAP, enabled=True, configuration={
        "SERVER_URI": [ldap["server_uri"]],
        "BIND_DN": ldap["bind_dn"],
        "BIND_PASSWORD": ldap["bind_password"],
        "START_TLS": ldap["start_tls"],
        # Names of python-ldap's options (the plugin turns them into its numbers); with START_TLS and
        # OPT_X_TLS_REQUIRE_CERT it sets OPT_X_TLS_NEWCTX itself, so that these apply to the connection.
        "CONNECTION_OPTIONS": {
            "OPT_REFERRALS": 0,
            "OPT_NETWORK_TIMEOUT": 10,
            "OPT_X_TLS_CACERTFILE": ldap["ca"],
            "OPT_X_TLS_REQUIRE_CERT": python_ldap.OPT_X_TLS_DEMAND,
        },
        "USER_SEARCH": [ldap["user_search_base"], "SCOPE_ONELEVEL", "(uid=%(user)s)"],
        "USER_ATTR_MAP": {"email": "mail", "first_name": "givenName", "last_name": "sn"},
        "GROUP_SEARCH": [ldap["group_search_base"], "SCOPE_SUBTREE", "(objectClass=groupOfNames)"],
        "GROUP_TYPE": "GroupOfNamesType",
        "GROUP_TYPE_PARAMS": {"name_attr": "cn"},
    }))
    for spec in LDAP_MAPS:
        data = {key: value for key, value in spec.items() if key != "groups"}
        data["triggers"] = {"groups": {"has_or": [ldap["groups"][name] for name in spec["groups"]]}}
        _save_map(authenticator, data)
    return authenticator


def wire(directory, url) -> dict:
    """Create (or bring up to date) the authenticators of the test identity providers from
    ``DIR/sso.json`` (tests/idp/idpctl.py); returns what the providers must know of the gateway:
    the OIDC redirect URI and the SAML service provider's metadata URL."""
    wiring = json.loads((directory / "sso.json").read_text())
    oidc, saml = wiring["oidc"], wiring["saml"]
    _save(dict(OIDC, enabled=True, configuration={
        "OIDC_ENDPOINT": oidc["endpoint"],
        "KEY": oidc["key"],
        "SECRET": oidc["secret"],
        "VERIFY_SSL": True,
        "CALLBACK_URL": callback_url(url, OIDC["slug"]),
    }))
    saml_authenticator = _save(dict(SAML, enabled=True, configuration={
        "SP_ENTITY_ID": url,
        "SP_PUBLIC_CERT": _pem("CERTIFICATE", saml["sp_cert"]),
        "SP_PRIVATE_KEY": saml["sp_key"],
        "ORG_INFO": {"en-US": {"name": "gateway", "displayname": "Reference gateway", "url": url}},
        "TECHNICAL_CONTACT": {"givenName": "Operators", "emailAddress": "ops@example.test"},
        "SUPPORT_CONTACT": {"givenName": "Operators", "emailAddress": "ops@example.test"},
        "SECURITY_CONFIG": {"wantAssertionsSigned": True, "wantMessagesSigned": True,
                            "requestedAuthnContext": False},
        "IDP_URL": saml["url"],
        "IDP_X509_CERT": _pem("CERTIFICATE", saml["x509cert"]),
        "IDP_ENTITY_ID": saml["entity_id"],
        "IDP_ATTR_USER_PERMANENT_ID": "urn:oid:0.9.2342.19200300.100.1.1",
        "IDP_ATTR_USERNAME": "urn:oid:0.9.2342.19200300.100.1.1",
        "IDP_ATTR_EMAIL": "urn:oid:0.9.2342.19200300.100.1.3",
        "IDP_ATTR_FIRST_NAME": "urn:oid:2.5.4.42",
        "IDP_ATTR_LAST_NAME": "urn:oid:2.5.4.4",
        "CALLBACK_URL": callback_url(url, SAML["slug"]),
    }))
    if "ldap" in wiring:
        wire_ldap(wiring["ldap"])
    return {
        "oidc_redirect_uris": [callback_url(url, OIDC["slug"])],
        "sp_metadata_url": "%s/api/gateway/v1/authenticators/%d/metadata/" % (url, saml_authenticator.id),
    }


def unwire() -> None:
    """A start without the identity providers: their authenticators go."""
    from ansible_base.authentication.models import Authenticator

    Authenticator.objects.filter(slug__in=[OIDC["slug"], SAML["slug"], LDAP["slug"]]).delete()


def adapt() -> None:
    """django-ansible-base 2025.12.3 with the libraries installed here (newer than its extras pin):
    two adjustments, made once (refsvc/gateway/apps.py calls this when the app is ready).

    - Its Fernet256 (it encrypts the authenticators' secrets: an OIDC client secret, a SAML key) sets
      the keys of older cryptography releases' Fernet, not the cipher object that cryptography's
      Fernet now builds in __init__ (``_aes``): the same AES-256 key, made after its own __init__.
    - Its SAML configuration check builds social-core 4's ``SAMLIdentityProvider(name, **config)``;
      social-core 7 takes the backend first (used only in its error messages).
    - Its authenticator's user link (``AuthenticatorUser.create_social_auth(user, uid, slug)``) takes
      no ``id_key``, which social-core 7's pipeline passes (social-auth-app-django 8's column, which the
      link's table has): passed on. And social-auth-app-django 8's ``get_social_auth`` compares the
      link's ``provider`` with the name it was given, while django-ansible-base's ``provider`` is the
      Authenticator (a foreign key by slug): compared by slug.
    - The platform's system user (``SYSTEM_USERNAME``, ``_system``) is a django-ansible-base user, with the
      ``created_by`` and ``modified_by`` its models record; the service's users are Django's own, which
      have neither, so django-ansible-base cannot make it. There is no system user here: what an SSO
      login creates (the authenticator's user link) has no ``created_by``, as with SYSTEM_USERNAME unset.
    - The login page's list (``ui_auth/``, ``UIAuth``) defines ``get(self)`` without the request when
      ``ansible_base.api_documentation`` (drf-spectacular, not installed here; the platform serves its
      API schema) is not installed, so DRF's call fails; its other ``get`` takes the request.
    """
    import inspect

    from ansible_base.authentication.authenticator_plugins import saml as dab_saml
    from ansible_base.lib.utils import encryption
    from cryptography.hazmat.primitives.ciphers import algorithms
    from social_core.backends.saml import SAMLIdentityProvider

    original = encryption.Fernet256.__init__
    if not getattr(original, "refsvc_adapted", False):
        def __init__(self, *args, **kwargs):
            original(self, *args, **kwargs)
            if not hasattr(self, "_aes"):
                self._aes = algorithms.AES(self._encryption_key)

        __init__.refsvc_adapted = True
        encryption.Fernet256.__init__ = __init__

    if dab_saml.SAMLIdentityProvider is SAMLIdentityProvider and \
            "backend" in inspect.signature(SAMLIdentityProvider.__init__).parameters:
        class IdentityProvider(SAMLIdentityProvider):
            def __init__(self, name, **kwargs):
                super().__init__(None, name, **kwargs)

        dab_saml.SAMLIdentityProvider = IdentityProvider

    from ansible_base.authentication.models import Authenticator, AuthenticatorUser

    if "id_key" not in inspect.signature(AuthenticatorUser.create_social_auth).parameters:
        def create_social_auth(cls, user, uid, slug, id_key=""):
            provider = Authenticator.objects.get(slug=slug)
            return super(AuthenticatorUser, cls).create_social_auth(user, uid, provider, id_key=id_key)

        AuthenticatorUser.create_social_auth = classmethod(create_social_auth)

        def get_social_auth(cls, provider, uid, id_key=None):
            query = cls._manager().filter(provider__slug=provider, uid=str(uid))
            if id_key is not None:
                query = query.filter(id_key=id_key)
            return query.first()

        AuthenticatorUser.get_social_auth = classmethod(get_social_auth)

    from ansible_base.lib.utils import models as dab_models
    from django.contrib.auth import get_user_model

    if not getattr(dab_models.get_system_user, "refsvc_adapted", False):
        with_system_user = dab_models.get_system_user

        def get_system_user():
            fields = {f.name for f in get_user_model()._meta.get_fields()}
            return with_system_user() if {"created_by", "modified_by"} <= fields else None

        get_system_user.refsvc_adapted = True
        dab_models.get_system_user = get_system_user

    from ansible_base.authentication.views.ui_auth import UIAuth

    if len(inspect.signature(UIAuth.get).parameters) == 1:
        def get(self, request, format=None):
            return self._get()

        UIAuth.get = get


def _pem(kind, body):
    body = "".join(body.split())
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN %s-----\n%s\n-----END %s-----\n" % (kind, "\n".join(lines), kind)
