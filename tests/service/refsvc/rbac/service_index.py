"""The RBAC part of the gateway's resource index (the platform's gateway schemas' service-index/role-types/,
role-permissions/, role-user-assignments/, role-team-assignments/; django-ansible-base's
``rbac/service_api``, whose views read its own RBAC models): the same lists, read from the service's own rbac,
the one the gateway's role_definitions/ and role_*_assignments/ serve (refsvc/rbac/gateway.py).

The kinds are the registry's (registry.KINDS): a kind's ``api_slug`` is its label ("shared.team", "awx.inventory"),
its service the label's first part, its app label the Django app of the service's model (chosen), its parent
"shared.organization" for a kind an organization holds. The assignments name their users, teams and shared objects
by the resource registry's ansible_id, their role definitions by name. assign/ and unassign/ give and take back a
role as the gateway's role_user_assignments/ and role_team_assignments/ do (their checks, their rows); object-delete/
drops the assignments on an object of a kind (``resource_type``: its role type's "app_label.model") and a key."""
from django.db import transaction
from django.urls import path
from rest_framework import generics, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from ansible_base.resource_registry.views import ResourcesPagination
from refsvc.svc.models import RESOURCE_KINDS, ansible_id

from . import registry, views
from .gateway import GatewayRbac, at_gateway
from .models import RoleDefinition, RoleTeamAssignment, RoleUserAssignment

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


class _AssignBody(serializers.Serializer):
    """What assign/ and unassign/ take, as OPTIONS describes it (the schemas' ServiceRoleUserAssignment and
    ServiceRoleTeamAssignment): the actor's resource id field is added per actor (_Assign.get_serializer)."""

    role_definition = serializers.CharField()
    object_id = serializers.CharField(required=False, allow_null=True)
    object_ansible_id = serializers.CharField(required=False, allow_null=True)
    created_by_ansible_id = serializers.CharField(required=False, allow_null=True)


class _Assign(GatewayRbac, GenericAPIView):
    """POST {role_definition: NAME, user_ansible_id or team_ansible_id: ID, object_id or object_ansible_id: ...}: the
    assignment (201 made, 200 there already); with ``unassign``, taken back (204; 200 when there was none)."""

    public = None       # the gateway's list view of these assignments (refsvc/rbac/gateway.py)
    unassign = False
    http_method_names = ["post", "options"]

    def get_serializer(self, *args, **kwargs):
        body = _AssignBody(*args, **kwargs)
        body.fields[self.public.actor_field + "_ansible_id"] = serializers.CharField()
        return body

    def post(self, request):
        if not request.user.is_superuser:
            raise PermissionDenied
        field = self.public.actor_field
        data = request.data if isinstance(request.data, dict) else {}
        definition = RoleDefinition.objects.filter(name=data.get("role_definition")).first()
        if definition is None:
            raise ValidationError({"role_definition": ["Object with name=%s does not exist." % data.get("role_definition")]})
        body = {"role_definition": definition.pk, field + "_ansible_id": data.get(field + "_ansible_id")}
        for key in ("object_id", "object_ansible_id"):
            if data.get(key) not in (None, ""):
                body[key] = data[key]
        view = self.public()
        view.setup(request._request)
        view.request, view.format_kwarg = request, None
        if self.unassign:
            return self._unassign(view, definition, body)
        serializer = view.get_serializer(data=body)
        serializer.is_valid(raise_exception=True)
        before = set(self.public.model.objects.values_list("pk", flat=True))
        view.perform_create(serializer)
        assignment = serializer.instance
        actor_id = getattr(assignment, field + "_id")
        return Response(_assignment(assignment, field, actor_id), status=200 if assignment.pk in before else 201)

    def _unassign(self, view, definition, body):
        field = self.public.actor_field
        actor = views._by_ansible_id(body[field + "_ansible_id"], view.actor_queryset(), field, field + "_ansible_id")
        kind = registry.BY_LABEL.get(definition.content_type or "")
        obj = None
        if kind is not None and body.get("object_ansible_id"):
            obj = view.shared_object(body["object_ansible_id"])
        elif kind is not None and body.get("object_id"):
            obj = view.visible_objects(kind).filter(pk=str(body["object_id"])).first()
        if kind is not None and obj is None:
            raise ValidationError({"object_id": "Object must be specified for this role assignment"})
        existing = self.public.model.objects.filter(
            role_definition=definition, object_id=str(obj.pk) if obj is not None else None, **{field: actor}).first()
        if existing is None:
            return Response(status=200)
        with transaction.atomic():
            views.AssignmentDetail.perform_destroy(view, existing)
        return Response(status=204)


class ObjectDelete(GatewayRbac, APIView):
    def post(self, request):
        if not request.user.is_superuser:
            raise PermissionDenied
        data = request.data if isinstance(request.data, dict) else {}
        kind_name, key = data.get("resource_type"), data.get("resource_pk")
        if not kind_name or not key:
            return Response({"error": "Both resource_type and resource_pk are required"}, status=400)
        kinds = [k for k in registry.KINDS if "%s.%s" % (k.model._meta.app_label, k.codename) == kind_name]
        if not kinds:
            return Response({"error": "Content type not found: %s" % kind_name}, status=400)
        with transaction.atomic():
            users = RoleUserAssignment.objects.filter(content_type=kinds[0].label, object_id=str(key)).delete()[0]
            teams = RoleTeamAssignment.objects.filter(content_type=kinds[0].label, object_id=str(key)).delete()[0]
        return Response({"message": "Deleted %d role assignments for %s %s" % (users + teams, kind_name, key),
                         "deleted_count": users + teams,
                         "breakdown": {"user_assignments_deleted": users, "team_assignments_deleted": teams}})


URLS = [
    path("service-index/role-types/", RoleTypes.as_view()),
    path("service-index/role-permissions/", RolePermissions.as_view()),
    path("service-index/role-user-assignments/", RoleUserAssignments.as_view()),
    path("service-index/role-team-assignments/", RoleTeamAssignments.as_view()),
    *[path("service-index/role-%s-assignments/%s/" % (actor, verb),
           _Assign.as_view(public=public, unassign=verb == "unassign"))
      for actor, public in (("user", at_gateway(views.RoleUserAssignmentList)),
                            ("team", at_gateway(views.RoleTeamAssignmentList)))
      for verb in ("assign", "unassign")],
    path("service-index/object-delete/", ObjectDelete.as_view()),
]
