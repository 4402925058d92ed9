from django.apps import AppConfig


class ConfigConfig(AppConfig):
    name = "refsvc.config"
    label = "config"
    default_auto_field = "django.db.models.BigAutoField"
