"""Settings categories beyond authentication: a subset of the real registry's
settings per category, each with its type and default. Values set through the
API are stored as runtime settings (svc.RuntimeSetting) under their own name."""
from rest_framework import serializers

LOGGERS = ["awx", "activity_stream", "job_events", "system_tracking", "broadcast_websocket"]


def boolean(default):
    return lambda: serializers.BooleanField(default=default)


def integer(default, min_value=None):
    return lambda: serializers.IntegerField(default=default, min_value=min_value)


def string(default="", allow_null=False):
    return lambda: serializers.CharField(default=default, allow_blank=True, allow_null=allow_null, trim_whitespace=False)


def string_list(default):
    return lambda: serializers.ListField(child=serializers.CharField(), default=list(default))


def mapping(default):
    return lambda: serializers.DictField(default=dict(default))


def choice(default, choices, allow_null=False):
    return lambda: serializers.ChoiceField(choices=choices, default=default, allow_null=allow_null, allow_blank=allow_null)


CATEGORIES = {
    "system": ("System", {
        "ACTIVITY_STREAM_ENABLED": boolean(True),
        "ACTIVITY_STREAM_ENABLED_FOR_INVENTORY_SYNC": boolean(False),
        "ORG_ADMINS_CAN_SEE_ALL_USERS": boolean(True),
        "MANAGE_ORGANIZATION_AUTH": boolean(True),
        "TOWER_URL_BASE": string("https://towerhost"),
        "REMOTE_HOST_HEADERS": string_list(["REMOTE_ADDR", "REMOTE_HOST"]),
        "PROXY_IP_ALLOWED_LIST": string_list([]),
        "CUSTOM_VENV_PATHS": string_list([]),
        "INSIGHTS_TRACKING_STATE": boolean(False),
        "AUTOMATION_ANALYTICS_GATHER_INTERVAL": integer(14400, 1800),
        # Read-only: whether the service is deployed on Kubernetes or OpenShift (svcctl start --set IS_K8S=true).
        "IS_K8S": boolean(False),
    }),
    "jobs": ("Jobs", {
        "AD_HOC_COMMANDS": string_list(["command", "shell", "yum", "apt", "apt_key", "apt_repository", "apt_rpm", "service",
                                        "group", "user", "mount", "ping", "selinux", "setup", "win_ping", "win_service",
                                        "win_updates", "win_group", "win_user"]),
        "ALLOW_JINJA_IN_EXTRA_VARS": choice("template", [("always", "Always"), ("never", "Never"), ("template", "Only On Job Template Definitions")]),
        "AWX_ISOLATION_BASE_PATH": string("/tmp"),
        "AWX_ISOLATION_SHOW_PATHS": string_list([]),
        "AWX_TASK_ENV": mapping({}),
        "PROJECT_UPDATE_VVV": boolean(False),
        "AWX_ROLES_ENABLED": boolean(True),
        "AWX_COLLECTIONS_ENABLED": boolean(True),
        "AWX_SHOW_PLAYBOOK_LINKS": boolean(False),
        "GALAXY_IGNORE_CERTS": boolean(False),
        "STDOUT_MAX_BYTES_DISPLAY": integer(1048576, 0),
        "EVENT_STDOUT_MAX_BYTES_DISPLAY": integer(1024, 0),
        "SCHEDULE_MAX_JOBS": integer(10, 1),
        "AWX_ANSIBLE_CALLBACK_PLUGINS": string_list([]),
        "DEFAULT_JOB_TIMEOUT": integer(0, 0),
        "DEFAULT_JOB_IDLE_TIMEOUT": integer(0, 0),
        "DEFAULT_INVENTORY_UPDATE_TIMEOUT": integer(0, 0),
        "DEFAULT_PROJECT_UPDATE_TIMEOUT": integer(0, 0),
        "ANSIBLE_FACT_CACHE_TIMEOUT": integer(0, 0),
        "MAX_FORKS": integer(200),
    }),
    "bulk": ("Bulk Actions", {
        "BULK_JOB_MAX_LAUNCH": integer(100),
        "BULK_HOST_MAX_CREATE": integer(100),
        "BULK_HOST_MAX_DELETE": integer(250),
    }),
    "ui": ("UI", {
        "PENDO_TRACKING_STATE": choice("off", [("off", "Off"), ("anonymous", "Anonymous"), ("detailed", "Detailed")]),
        "CUSTOM_LOGIN_INFO": string(""),
        "CUSTOM_LOGO": string(""),
        "MAX_UI_JOB_EVENTS": integer(4000, 100),
        "UI_LIVE_UPDATES_ENABLED": boolean(True),
    }),
    "logging": ("Logging", {
        "LOG_AGGREGATOR_HOST": string(None, allow_null=True),
        "LOG_AGGREGATOR_PORT": lambda: serializers.IntegerField(default=None, allow_null=True),
        "LOG_AGGREGATOR_TYPE": choice(None, [("logstash", "logstash"), ("splunk", "splunk"), ("loggly", "loggly"),
                                             ("sumologic", "sumologic"), ("other", "other")], allow_null=True),
        "LOG_AGGREGATOR_USERNAME": string(""),
        "LOG_AGGREGATOR_PASSWORD": string(""),
        "LOG_AGGREGATOR_LOGGERS": string_list(LOGGERS),
        "LOG_AGGREGATOR_INDIVIDUAL_FACTS": boolean(False),
        "LOG_AGGREGATOR_ENABLED": boolean(False),
        "LOG_AGGREGATOR_TOWER_UUID": string(""),
        "LOG_AGGREGATOR_PROTOCOL": choice("https", [("https", "HTTPS/HTTP"), ("tcp", "TCP"), ("udp", "UDP")]),
        "LOG_AGGREGATOR_TCP_TIMEOUT": integer(5),
        "LOG_AGGREGATOR_VERIFY_CERT": boolean(True),
        "LOG_AGGREGATOR_LEVEL": choice("INFO", [(x, x) for x in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")]),
        "LOG_AGGREGATOR_RSYSLOGD_DEBUG": boolean(False),
    }),
}
SECRET = {"LOG_AGGREGATOR_PASSWORD"}
READ_ONLY = {"IS_K8S"}
