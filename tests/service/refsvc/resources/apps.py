from django.apps import AppConfig


class ResourcesConfig(AppConfig):
    name = "refsvc.resources"
    label = "resources"
    default_auto_field = "django.db.models.BigAutoField"
