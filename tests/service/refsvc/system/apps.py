from django.apps import AppConfig


class SystemConfig(AppConfig):
    name = "refsvc.system"
    label = "system"
    default_auto_field = "django.db.models.BigAutoField"
