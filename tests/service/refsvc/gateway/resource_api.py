"""The gateway's resource registry (django-ansible-base's ``ansible_base.resource_registry``, served at
/api/gateway/v1/service-index/): the objects it shares with the platform's other services and is the
source of (``is_provider``), its users, organizations and teams, each with the shared serializer of its
kind. The gateway's service type is "aap", the one of the registry's four (aap, awx, galaxy, eda) that
is none of the other services' (django-ansible-base's docs/apps/resource_registry.md and its
``ResourceRegistry`` check of the service type)."""
from django.contrib.auth import get_user_model

from ansible_base.resource_registry.registry import ResourceConfig, ServiceAPIConfig, SharedResource
from ansible_base.resource_registry.shared_types import OrganizationType, TeamType, UserType
from refsvc.rbac.models import Team
from refsvc.svc.models import Organization


class APIConfig(ServiceAPIConfig):
    service_type = "aap"


RESOURCE_LIST = (
    ResourceConfig(get_user_model(), shared_resource=SharedResource(serializer=UserType, is_provider=True),
                   name_field="username"),
    ResourceConfig(Organization, shared_resource=SharedResource(serializer=OrganizationType, is_provider=True)),
    ResourceConfig(Team, shared_resource=SharedResource(serializer=TeamType, is_provider=True)),
)


def resource_summary(obj):
    """``summary_fields`` of one of the shared objects: its ``resource`` (ansible_id and resource type) as the
    registry keeps it, as the platform's services show it (AWX's answers recorded in tests/recorded/); empty for
    any other object."""
    from ansible_base.resource_registry.models import Resource

    if obj is None or obj.pk is None or obj._meta.concrete_model._meta.label not in SHARED_LABELS:
        return {}
    try:
        return {"resource": Resource.get_resource_for_object(obj).summary_fields()}
    except Resource.DoesNotExist:
        return {}


SHARED_LABELS = {config.model._meta.label for config in RESOURCE_LIST}
