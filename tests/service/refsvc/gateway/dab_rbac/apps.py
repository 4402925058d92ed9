from django.apps import AppConfig


class DabRbacModelsConfig(AppConfig):
    """django-ansible-base's RBAC models (``dab_rbac``) without its RBAC: the resource registry
    (2025.12.3, ``resource_registry/utils/resource_type_processor.py``) imports its RoleDefinition
    whatever is installed, while the gateway's RBAC API is the service's own (refsvc/rbac/gateway.py).
    Nothing of django-ansible-base's RBAC is connected (its app's ``ready`` registers models and
    signals), and its other apps, which ask whether "ansible_base.rbac" is in INSTALLED_APPS, see it
    absent, as before."""

    name = "ansible_base.rbac"
    label = "dab_rbac"
    default_auto_field = "django.db.models.BigAutoField"

