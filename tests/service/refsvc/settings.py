"""Django settings of the reference service.

The instance directory (database, request log, secret key) comes from the
environment variable SVC_DIR. Settings that change at run time are kept in
the database (see svc.runtime) so that every worker process sees them.
"""
import os
from pathlib import Path

INSTANCE_DIR = Path(os.environ.get("SVC_DIR", Path(__file__).resolve().parent.parent / ".instance")).resolve()

_key_file = INSTANCE_DIR / "secret_key"
SECRET_KEY = _key_file.read_text().strip() if _key_file.exists() else "insecure-reference-service-key"

DEBUG = False
ALLOWED_HOSTS = ["*"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "rest_framework",
    "oauth2_provider",
    # The apps of the service; their URLs are served in this order (refsvc/urls.py):
    # config/ answers before svc's own.
    "refsvc.config",
    "refsvc.svc",
    "refsvc.jobs",
    "refsvc.resources",
    "refsvc.rbac",
    "refsvc.workflows",
    "refsvc.conf",
    "refsvc.adhoc",
    "refsvc.bulk",
    "refsvc.wfjobs",
    "refsvc.updates",
    "refsvc.system",
]

MIDDLEWARE = [
    "refsvc.svc.middleware.RequestLogMiddleware",
    "refsvc.faults.middleware.FaultMiddleware",
    "refsvc.svc.middleware.RuntimeSettingsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "refsvc.svc.middleware.SessionTimeoutMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "refsvc.svc.named_urls.NamedUrlMiddleware",
]

ROOT_URLCONF = "refsvc.urls"
WSGI_APPLICATION = "refsvc.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(INSTANCE_DIR / "db.sqlite3"),
        # Each of the server's threads keeps its connection: opening one (and its PRAGMAs) for
        # every request cost more processor time than the request itself.
        "CONN_MAX_AGE": None,
        "OPTIONS": {
            "timeout": 120,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=120000;",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

PASSWORD_HASHERS = ["refsvc.svc.hashers.CountingPBKDF2PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = []

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English")]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# Sessions (SESSION_COOKIE_NAME and SESSION_COOKIE_AGE are applied per request
# from the runtime settings).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_NAME = "svc_session_id"
SESSION_COOKIE_AGE = 1800
SESSION_SAVE_EVERY_REQUEST = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = False

CSRF_COOKIE_AGE = None
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = False
CSRF_TRUSTED_ORIGINS = ["https://127.0.0.1", "https://localhost", "https://[::1]"]

LOGIN_URL = "/api/login/"
LOGIN_REDIRECT_URL = "/accounts/profile/"

AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]

OAUTH2_PROVIDER_APPLICATION_MODEL = "svc.OAuth2Application"
OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL = "svc.OAuth2AccessToken"
OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL = "svc.OAuth2RefreshToken"
OAUTH2_PROVIDER_ID_TOKEN_MODEL = "svc.OAuth2IDToken"
OAUTH2_PROVIDER_GRANT_MODEL = "svc.OAuth2Grant"
OAUTH2_PROVIDER_DEVICE_GRANT_MODEL = "svc.OAuth2DeviceGrant"
OAUTH2_PROVIDER = {
    "SCOPES": {"read": "Read scope", "write": "Write scope"},
    "DEFAULT_SCOPES": ["write"],
    "ACCESS_TOKEN_EXPIRE_SECONDS": 31536000000,
    "REFRESH_TOKEN_EXPIRE_SECONDS": 2628000,
    # AWX 24.6.1 keeps django-oauth-toolkit's default.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "refsvc.svc.auth.BearerAuthentication",
        "refsvc.svc.auth.SessionAuthentication",
        "refsvc.svc.auth.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["refsvc.svc.permissions.ApiPermission"],
    "DEFAULT_PAGINATION_CLASS": "refsvc.svc.pagination.Pagination",
    "PAGE_SIZE": 25,
    "DEFAULT_METADATA_CLASS": "refsvc.svc.metadata.Metadata",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "refsvc.svc.views.exception_handler",
    # As the real service's settings (awx/settings/defaults.py).
    "NON_FIELD_ERRORS_KEY": "__all__",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

PRODUCT_NAME = "AWX"
PRODUCT_VERSION = "24.6.1"
# The controller's own OAuth2 provider (/api/v2/tokens/, applications/, /api/o/): AWX 24's. The gateway layout
# turns it off (refsvc/gateway/settings.py).
CONTROLLER_OAUTH2 = True

# Defaults of the settings that can change at run time.
RUNTIME_DEFAULTS = {
    "SESSION_COOKIE_NAME": "svc_session_id",
    "SESSION_COOKIE_AGE": 1800,
    "AUTH_BASIC_ENABLED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": 31536000000,
    "REFRESH_TOKEN_EXPIRE_SECONDS": 2628000,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 600,
    "ALLOW_OAUTH2_FOR_EXTERNAL_USERS": False,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# Single sign-on (refsvc.sso): social-auth apps always, the IdP wiring when svcctl wrote it.
from refsvc.sso.conf import configure as _configure_sso  # noqa: E402

_configure_sso(globals())
