from django.apps import AppConfig


class RbacConfig(AppConfig):
    name = "refsvc.rbac"
    label = "rbac"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import registry

        registry.connect()
        from django.conf import settings

        if getattr(settings, "SERVICE_LAYOUT", "awx") == "gateway":
            # The gateway's assignments of the membership roles are the controller's memberships.
            from . import gateway

            gateway.connect()
