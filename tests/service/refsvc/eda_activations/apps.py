from django.apps import AppConfig


class EdaActivationsConfig(AppConfig):
    name = "refsvc.eda_activations"
    label = "eda_activations"
    default_auto_field = "django.db.models.BigAutoField"
