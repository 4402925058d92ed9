"""The RBAC part of the gateway's resource index (the platform's gateway schemas' service-index/role-types/,
role-permissions/, role-user-assignments/, role-team-assignments/; django-ansible-base's
``rbac/service_api``, whose views read its own RBAC models): the same lists, read from the service's own rbac,
the one the gateway's role_definitions/ and role_*_assignments/ serve (refsvc/rbac/gateway.py).

The kinds are the registry's (registry.KINDS): a kind's ``api_slug`` is its label ("shared.team", "awx.inventory"),
its service the label's first part, its app label the Django app of the service's model (chosen), its parent
"shared.organization" for a kind an organization holds. The assignments name their users, teams and shared objects
by the resource registry's ansible_id, their role definitions by name. Assigning and unassigning through the index
(assign/, unassign/) and object-delete/ are not built."""
from django.urls import path
from rest_framework import generics
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from ansible_base.resource_registry.views import ResourcesPagination
from refsvc.svc.models import RESOURCE_KINDS, ansible_id

from . import registry
from .gateway import GatewayRbac
from .models import RoleTeamAssignment, RoleUserAssignment

SHARED_KEYS = set(RESOURCE_KINDS.values())


class _Listed(GatewayRbac, generics.GenericAPIView):
    """A page of ``rows()`` (dicts), as the index pages its lists."""

    pagination_class = ResourcesPagination
    superuser_only = False

    def rows(self):
        raise NotImplementedError

    def get(self, request):
        if self.superuser_only and not request.user.is_superuser:
            raise PermissionDenied
        page = self.paginate_queryset(self.rows())
        return self.get_paginated_response(page)


class RoleTypes(_Listed):
    def rows(self):
        return [{
            "api_slug": kind.label,
            "service": kind.prefix,
            "app_label": kind.model._meta.app_label,
            "model": kind.codename,
            "parent_content_type": registry.ORG.label if kind in registry.ORG_CHILDREN else None,
            "pk_field_type": "integer",
        } for kind in registry.KINDS]


class RolePermissions(_Listed):
    def rows(self):
        return [{
            "api_slug": "%s.%s" % (kind.prefix, codename),
            "codename": codename,
            "content_type": kind.label,
            "name": "Can %s %s" % (codename.rsplit("_", 1)[0], kind.verbose),
        } for kind in registry.KINDS for codename in sorted(kind.perms())]


def _assignment(assignment, actor_key, actor_id):
    kind = registry.BY_LABEL.get(assignment.content_type or "")
    shared = kind is not None and kind.key in SHARED_KEYS and assignment.object_id
    return {
        "created": assignment.created.isoformat().replace("+00:00", "Z"),
        "created_by_ansible_id": ansible_id("user", assignment.created_by_id) if assignment.created_by_id else None,
        "object_id": assignment.object_id,
        "object_ansible_id": ansible_id(kind.key, assignment.object_id) if shared else None,
        "content_type": assignment.content_type,
        "role_definition": assignment.role_definition.name,
        actor_key + "_ansible_id": ansible_id(actor_key, actor_id),
    }


class RoleUserAssignments(_Listed):
    superuser_only = True

    def rows(self):
        return [_assignment(a, "user", a.user_id)
                for a in RoleUserAssignment.objects.select_related("role_definition").order_by("id")]


class RoleTeamAssignments(_Listed):
    superuser_only = True

    def rows(self):
        return [_assignment(a, "team", a.team_id)
                for a in RoleTeamAssignment.objects.select_related("role_definition").order_by("id")]


URLS = [
    path("service-index/role-types/", RoleTypes.as_view()),
    path("service-index/role-permissions/", RolePermissions.as_view()),
    path("service-index/role-user-assignments/", RoleUserAssignments.as_view()),
    path("service-index/role-team-assignments/", RoleTeamAssignments.as_view()),
]
