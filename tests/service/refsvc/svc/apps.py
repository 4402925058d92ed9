from django.apps import AppConfig


class SvcConfig(AppConfig):
    name = "refsvc.svc"
    label = "svc"
    default_auto_field = "django.db.models.BigAutoField"
