from django.apps import AppConfig


class EdaConfig(AppConfig):
    """Event-Driven Ansible's API in the gateway layout; what it has before anyone uses it is made at every start
    (refsvc/eda/seed.py, called by refsvc/svc/prepare.py)."""

    name = "refsvc.eda"
    label = "eda"
    default_auto_field = "django.db.models.BigAutoField"
