# AWX 24.6.1 settings of the real-AWX test bed: what an installer writes to
# /etc/tower/settings.py. awx.settings.production reads this file
# (AWX_SETTINGS_FILE) after awx/settings/defaults.py.
#
# The build copies it into <install>/etc/ and it is part of the cache key:
# the database snapshot is provisioned with these settings. Paths are derived
# from the install directory (this file's parent's parent); the HTTPS port
# comes from REALAWX_PORT, which `realawx start` exports to uwsgi.
import os

_HOME = os.environ.get('REALAWX_HOME') or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PORT = int(os.environ.get('REALAWX_PORT') or 18143)


def _path(*parts):
    return os.path.join(_HOME, *parts)


def _secret(name):
    with open(_path('etc', name)) as handle:
        return handle.read().strip()


DEBUG = False
TEMPLATE_DEBUG = False
SQL_DEBUG = False
SECRET_KEY = _secret('SECRET_KEY')
ALLOWED_HOSTS = ['*']
CSRF_TRUSTED_ORIGINS = ['https://127.0.0.1:%d' % _PORT, 'https://localhost:%d' % _PORT]

# A fixed node name (not the machine's hostname), so that the instance row of
# the provisioned database matches this node wherever the snapshot is restored.
CLUSTER_HOST_ID = 'realawx'
SYSTEM_UUID = '00000000-0000-0000-0000-000000000000'

# PostgreSQL 15, private to this install: unix socket only.
DATABASES = {
    'default': {
        'ATOMIC_REQUESTS': True,
        'ENGINE': 'awx.main.db.profiled_pg',
        'NAME': 'awx',
        'USER': 'awx',
        'PASSWORD': _secret('db-password'),
        'HOST': _path('run', 'pg'),
        'PORT': '5432',
    }
}

# Redis, private to this install: unix socket only.
BROKER_URL = 'unix://' + _path('run', 'redis.sock')
CACHES = {'default': {'BACKEND': 'awx.main.cache.AWXRedisCache', 'LOCATION': BROKER_URL + '?db=1'}}
CHANNEL_LAYERS = {
    'default': {
        'BACKEND': 'channels_redis.core.RedisChannelLayer',
        'CONFIG': {'hosts': [BROKER_URL], 'capacity': 10000, 'group_expiry': 157784760},
    }
}
BROADCAST_WEBSOCKET_SECRET = _secret('broadcast-secret')
BROADCAST_WEBSOCKET_PORT = _PORT
BROADCAST_WEBSOCKET_PROTOCOL = 'https'
BROADCAST_WEBSOCKET_VERIFY_CERT = False

# Everything AWX writes goes under the install directory instead of
# /var/lib/awx and /var/log/tower. (The log handlers' file names are computed
# from LOG_ROOT when defaults.py is imported, too early for this file:
# AWX_LOGGING_MODE=stdout, as in the official image, sends AWX's logs to
# uwsgi's log instead.)
STATIC_ROOT = _path('var', 'public', 'static')
PROJECTS_ROOT = _path('var', 'projects') + '/'
JOBOUTPUT_ROOT = _path('var', 'job_status') + '/'
BASE_VENV_PATH = _path('var', 'venv')
LOG_ROOT = _path('logs') + '/'
LOG_AGGREGATOR_MAX_DISK_USAGE_PATH = _path('var')
AWX_ISOLATION_BASE_PATH = _path('var', 'tmp')
