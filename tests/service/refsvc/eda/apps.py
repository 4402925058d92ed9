from django.apps import AppConfig
from django.db.models.signals import post_migrate


class EdaConfig(AppConfig):
    name = "refsvc.eda"
    label = "eda"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import seed

        # the managed credential types, made and brought up to date at every start (svcctl start migrates)
        post_migrate.connect(seed.after_migrate, sender=self, dispatch_uid="eda-seed")
