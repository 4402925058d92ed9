from django.apps import AppConfig


class RbacConfig(AppConfig):
    name = "refsvc.rbac"
    label = "rbac"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import registry

        registry.connect()
