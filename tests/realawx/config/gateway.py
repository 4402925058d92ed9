# AWX 24.6.1 as the controller behind a platform gateway. `realawx start --gateway URL`
# writes this file to <install>/etc/conf.d/gateway.py with @GATEWAY@ (the gateway's URL,
# a Python string) filled in; a start without --gateway removes it. It is read at uwsgi's
# start (AWX_SETTINGS_DIR), after etc/settings.py, and is not in the build's key.
import os as _os

_GATEWAY = @GATEWAY@

# The gateway's JSON web tokens (X-DAB-JW-TOKEN) authenticate: AWX's first authentication
# class, ansible_base.jwt_consumer.awx.auth.AwxJWTAuthentication, fetches the public key from
# <URL>/api/gateway/v1/jwt_key/ (ansible_base/jwt_consumer/common/cert.py) and checks the
# gateway's certificate (REALAWX_EXTRA_CA gives uwsgi its CA).
ANSIBLE_BASE_JWT_KEY = _GATEWAY

# The organizations, users and teams are the gateway's: AWX refuses to create or delete them
# and to change their shared fields (awx/api/views/__init__.py, immutablesharedfields).
ALLOW_LOCAL_RESOURCE_MANAGEMENT = False

# The API also answers under /api/controller/ (awx/urls.py, awx/main/middleware.py), where the
# gateway serves it; its links then say /api/controller/v2/ (awx/api/versioning.py).
OPTIONAL_API_URLPATTERN_PREFIX = 'controller'

# The resource server is the gateway (django-ansible-base's resource_registry); AWX's periodic
# resource sync, which reads it, is a dispatcher task, and the test bed runs no dispatcher.
with open(_os.path.join(_os.environ['REALAWX_HOME'], 'etc', 'resource-server-secret')) as _handle:
    RESOURCE_SERVER = {'URL': _GATEWAY, 'SECRET_KEY': _handle.read().strip(), 'VALIDATE_HTTPS': True}
RESOURCE_SERVICE_PATH = '/api/gateway/v1/service-index/'

CSRF_TRUSTED_ORIGINS = list(CSRF_TRUSTED_ORIGINS) + [_GATEWAY]  # noqa: F821 (etc/settings.py's)
