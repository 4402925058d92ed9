from django.apps import AppConfig


class BulkConfig(AppConfig):
    name = "refsvc.bulk"
    label = "bulk"
    default_auto_field = "django.db.models.BigAutoField"
