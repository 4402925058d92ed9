"""Single sign-on settings, applied from refsvc.settings by ``configure(globals())``.

The apps, middleware and URLs are always there (so the database has social_django's tables
and the service starts without identity providers); the backends are wired only when
``svcctl start --with-idp`` wrote ``INSTANCE_DIR/sso.json`` (see tests/idp/idpctl.py).
"""
import json

PIPELINE = (
    "social_core.pipeline.social_auth.social_details",
    "social_core.pipeline.social_auth.social_uid",
    "social_core.pipeline.social_auth.auth_allowed",
    "social_core.pipeline.social_auth.social_user",
    "social_core.pipeline.user.get_username",
    "social_core.pipeline.social_auth.associate_by_email",
    "social_core.pipeline.user.create_user",
    "refsvc.sso.pipeline.mark_external",
    "social_core.pipeline.social_auth.associate_user",
    "social_core.pipeline.social_auth.load_extra_data",
    "social_core.pipeline.user.user_details",
    "refsvc.sso.pipeline.mark_login",
)


def configure(s: dict) -> None:
    s["INSTALLED_APPS"] += ["social_django", "refsvc.sso"]
    s["MIDDLEWARE"] += ["refsvc.sso.middleware.SsoErrorMiddleware"]
    # "get": GET /sso/login/<backend>/ starts a login, as on the real service's version;
    # "post": POST with CSRF only (GET answers 405), as social-auth-app-django 6 and later.
    s["RUNTIME_DEFAULTS"]["SSO_LOGIN_VARIANT"] = "get"
    s.update(
        SOCIAL_AUTH_URL_NAMESPACE="social",
        SOCIAL_AUTH_PIPELINE=PIPELINE,
        SOCIAL_AUTH_LOGIN_REDIRECT_URL="/sso/complete/",
        SOCIAL_AUTH_LOGIN_ERROR_URL="/sso/error/",
        SOCIAL_AUTH_INACTIVE_USER_URL="/sso/inactive/",
        SOCIAL_AUTH_REDIRECT_IS_HTTPS=True,
        SOCIAL_AUTH_RAISE_EXCEPTIONS=False,
        SOCIAL_AUTH_REQUESTS_TIMEOUT=10,
    )
    path = s["INSTANCE_DIR"] / "sso.json"
    if not path.exists():
        return
    wiring = json.loads(path.read_text())
    s["AUTHENTICATION_BACKENDS"] += [
        "social_core.backends.open_id_connect.OpenIdConnectAuth",
        "social_core.backends.saml.SAMLAuth",
    ]
    saml = wiring["saml"]
    s.update(
        SOCIAL_AUTH_VERIFY_SSL=wiring["ca"],
        SOCIAL_AUTH_OIDC_OIDC_ENDPOINT=wiring["oidc"]["endpoint"],
        SOCIAL_AUTH_OIDC_KEY=wiring["oidc"]["key"],
        SOCIAL_AUTH_OIDC_SECRET=wiring["oidc"]["secret"],
        SOCIAL_AUTH_SAML_SP_ENTITY_ID=saml["sp_entity_id"],
        SOCIAL_AUTH_SAML_SP_PUBLIC_CERT=saml["sp_cert"],
        SOCIAL_AUTH_SAML_SP_PRIVATE_KEY=saml["sp_key"],
        SOCIAL_AUTH_SAML_ORG_INFO={"en-US": {"name": "svc", "displayname": "Reference service",
                                             "url": saml["sp_entity_id"]}},
        SOCIAL_AUTH_SAML_TECHNICAL_CONTACT={"givenName": "Operators", "emailAddress": "ops@example.test"},
        SOCIAL_AUTH_SAML_SUPPORT_CONTACT={"givenName": "Operators", "emailAddress": "ops@example.test"},
        SOCIAL_AUTH_SAML_SECURITY_CONFIG={"wantAssertionsSigned": True, "wantMessagesSigned": True,
                                          "requestedAuthnContext": False},
        SOCIAL_AUTH_SAML_ENABLED_IDPS={saml["idp_name"]: {
            "entity_id": saml["entity_id"],
            "url": saml["url"],
            "x509cert": saml["x509cert"],
            "attr_user_permanent_id": "urn:oid:0.9.2342.19200300.100.1.1",
            "attr_username": "urn:oid:0.9.2342.19200300.100.1.1",
            "attr_email": "urn:oid:0.9.2342.19200300.100.1.3",
            "attr_first_name": "urn:oid:2.5.4.42",
            "attr_last_name": "urn:oid:2.5.4.4",
        }},
    )
