"""Who has access to an object, at the gateway (the platform's gateway schemas' role_user_access/ and
role_team_access/; django-ansible-base's ``UserAccessViewSet`` and its kin in ``rbac/api/views.py``), read from the
service's role assignments, the gateway's RBAC (refsvc/rbac/gateway.py).

- ``role_user_access/<type>/<pk>/``: the users with a permission on the object (``<type>`` a role type, "shared.team",
  or one permission, "shared.view_team"), superusers included, each with ``object_role_assignments``: the
  assignments that give it, of type "direct" (on the object), "indirect" (on its organization), "team" (a team's
  role that does) or "global" (a system role);
- ``role_user_access/<type>/<pk>/<user>/``: those assignments of one user (its id or ansible_id), as the gateway
  shows assignments, with ``intermediary_roles`` the team's own for a "team" one;
- ``role_team_access/...``: the same of teams (no "team" type: a team's roles are its own).
A caller sees the list of an object it may view."""
from django.contrib.auth.models import User
from django.http import Http404
from django.urls import path
from rest_framework import generics
from rest_framework.exceptions import PermissionDenied

from refsvc.svc.models import ansible_id

from . import registry, views
from .gateway import GatewayRbac, V1, at_gateway
from .models import RoleTeamAssignment, RoleUserAssignment, Team


def _target(model_name, pk):
    """(kind, object, codename or None) of the URL."""
    kind = registry.BY_LABEL.get(model_name)
    codename = None
    if kind is None:
        prefix, _, codename = model_name.partition(".")
        kind = next((k for k in registry.KINDS if k.prefix == prefix and codename in k.perms()), None)
    if kind is None:
        raise Http404("The slug %s is not a valid permission or type identifier" % model_name)
    obj = kind.model.objects.filter(pk=pk).first() if str(pk).isdigit() else None
    if obj is None:
        raise Http404("The primary key %s was not found for model %s" % (pk, kind.cls_name))
    return kind, obj, codename


def _gives(definition, kind, codename):
    """Whether a role definition gives a permission (``codename``, else any) on objects of ``kind``."""
    names = [p.split(".", 1)[-1] for p in definition.permissions or ()]
    if codename is not None:
        return codename in names
    return any(name.endswith("_" + kind.codename) for name in names)


def _type_of(assignment, kind, obj):
    if assignment.content_type is None:
        return "global"
    if assignment.content_type == kind.label and assignment.object_id == str(obj.pk):
        return "direct"
    if assignment.content_type == registry.ORG.label and assignment.object_id == str(registry.org_id_of(obj)):
        return "indirect"
    if assignment.content_type == "shared.team":
        return "team"
    return None


def assignments_to(model, actor_field, actor, kind, obj, codename):
    """The assignments of ``actor`` that give it the permission on ``obj``."""
    found = []
    for a in model.objects.filter(**{actor_field: actor}).select_related("role_definition").order_by("id"):
        kind_of = _type_of(a, kind, obj)
        if kind_of in ("global", "direct", "indirect") and _gives(a.role_definition, kind, codename):
            found.append(a)
        elif kind_of == "team" and "shared.member_team" in (a.role_definition.permissions or ()):
            team = Team.objects.filter(pk=a.object_id).first()
            if team is not None and (team == obj or assignments_to(RoleTeamAssignment, "team", team, kind, obj, codename)):
                found.append(a)
    return found


def _summary(assignments, kind, obj):
    return [{"type": _type_of(a, kind, obj),
             "role_definition": {"name": a.role_definition.name, "url": "%srole_definitions/%d/" % (V1, a.role_definition_id)}}
            for a in assignments]


class _Access(GatewayRbac, generics.GenericAPIView):
    actor = "user"          # or "team"

    @property
    def model(self):
        return RoleUserAssignment if self.actor == "user" else RoleTeamAssignment

    def target(self):
        kind, obj, codename = _target(self.kwargs["model_name"], self.kwargs["pk"])
        if not registry.has_perm(self.request.user, obj, "view"):
            raise PermissionDenied
        return kind, obj, codename


class AccessList(_Access):
    def get(self, request, model_name, pk):
        kind, obj, codename = self.target()
        rows = []
        actors = User.objects.order_by("id") if self.actor == "user" else Team.objects.order_by("id")
        for actor in actors:
            given = assignments_to(self.model, self.actor, actor, kind, obj, codename)
            if not given and not getattr(actor, "is_superuser", False):
                continue
            key = ansible_id(self.actor, actor.pk)
            row = {"id": actor.pk, "url": "%s%ss/%d/" % (V1, self.actor, actor.pk),
                   "related": {"details": "%srole_%s_access/%s/%s/%s/" % (V1, self.actor, model_name, obj.pk, key)}}
            if self.actor == "user":
                row.update(username=actor.username, is_superuser=actor.is_superuser, first_name=actor.first_name,
                           last_name=actor.last_name)
            else:
                row.update(name=actor.name, organization=actor.organization_id)
            row["object_role_assignments"] = _summary(given, kind, obj)
            rows.append(row)
        return self.get_paginated_response(self.paginate_queryset(rows))


class AccessAssignments(_Access):
    def get(self, request, model_name, pk, actor_pk):
        kind, obj, codename = self.target()
        actors = User.objects.all() if self.actor == "user" else Team.objects.all()
        actor = actors.filter(pk=actor_pk).first() if actor_pk.isdigit() else next(
            (a for a in actors if ansible_id(self.actor, a.pk) == actor_pk), None)
        if actor is None:
            raise Http404
        given = assignments_to(self.model, self.actor, actor, kind, obj, codename)
        public = at_gateway(views.RoleUserAssignmentList if self.actor == "user" else views.RoleTeamAssignmentList)
        page = self.paginate_queryset(given)
        data = public.serializer_class(page, many=True, context=self.get_serializer_context()).data
        if self.actor == "user":
            for item, a in zip(data, page):
                team = Team.objects.filter(pk=a.object_id).first() if _type_of(a, kind, obj) == "team" else None
                item["intermediary_roles"] = _summary(
                    assignments_to(RoleTeamAssignment, "team", team, kind, obj, codename), kind, obj) if team else []
        return self.get_paginated_response(data)


URLS = [
    path("role_%s_access/<str:model_name>/<str:pk>/%s" % (actor, tail),
         view.as_view(actor=actor))
    for actor in ("user", "team")
    for tail, view in (("", AccessList), ("<str:actor_pk>/", AccessAssignments))
]
