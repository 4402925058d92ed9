from django.apps import AppConfig


class UpdatesConfig(AppConfig):
    name = "refsvc.updates"
    label = "updates"
    default_auto_field = "django.db.models.BigAutoField"
