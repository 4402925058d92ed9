from django.apps import AppConfig


class WfJobsConfig(AppConfig):
    name = "refsvc.wfjobs"
    label = "wfjobs"
    default_auto_field = "django.db.models.BigAutoField"
