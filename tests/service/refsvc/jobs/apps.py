from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "refsvc.jobs"
    label = "jobs"
    default_auto_field = "django.db.models.BigAutoField"
