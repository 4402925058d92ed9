from django.apps import AppConfig


class AdHocConfig(AppConfig):
    name = "refsvc.adhoc"
    label = "adhoc"
    default_auto_field = "django.db.models.BigAutoField"
