import uuid

from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import RESOURCE_KINDS, Credential, Organization, ansible_id
from refsvc.svc.serializers import UserSerializer
from refsvc.svc.views import (
    ApiMixin, CreatedByMixin, ResourceDetail, ResourceList, SubList, association, get_object_or_400, immutable_shared_fields,
)

from . import registry
from .models import Role, RoleDefinition, RoleTeamAssignment, RoleUserAssignment, Team
from .serializers import (
    DOES_NOT_EXIST,
    RoleDefinitionSerializer,
    RoleSerializer,
    RoleTeamAssignmentSerializer,
    RoleUserAssignmentSerializer,
    TeamSerializer,
)

PARTICIPATION = "You cannot assign an Organization participation role as a child role for a Team."


# ---------------------------------------------------------------- teams

@immutable_shared_fields
class TeamList(CreatedByMixin, ResourceList):
    model = Team
    serializer_class = TeamSerializer

    def get_queryset(self):
        return access.visible(Team, self.request.user).select_related("organization", "created_by")



@immutable_shared_fields
class TeamDetail(ResourceDetail):
    model = Team
    serializer_class = TeamSerializer

    def get_queryset(self):
        return access.visible(Team, self.request.user)


@immutable_shared_fields
class OrganizationTeams(TeamList):
    """/organizations/<pk>/teams/: the organization's teams; POST creates one in it."""

    def get_parent(self):
        return get_object_or_404(access.visible(Organization, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return super().get_queryset().filter(organization=self.get_parent())

    def create(self, request, *args, **kwargs):
        data = request.data.copy() if hasattr(request.data, "copy") else {}
        data["organization"] = self.get_parent().pk
        serializer = self.get_serializer(data=data)
        serializer.is_valid(raise_exception=True)
        self.perform_create(serializer)
        return Response(serializer.data, status=status.HTTP_201_CREATED, headers={"Location": serializer.data["url"]})


def role_users(role):
    """The users holding a role directly (an organization's member and admin roles are its lists)."""
    target = role.content_object
    if isinstance(target, Organization) and role.role_field in ("member_role", "admin_role"):
        return (target.members if role.role_field == "member_role" else target.admins).all()
    return role.members.all()


def set_role_user(role, user, grant):
    target = role.content_object
    if isinstance(target, Organization) and role.role_field in ("member_role", "admin_role"):
        relation = target.members if role.role_field == "member_role" else target.admins
        if grant:
            relation.add(user)
            if role.role_field == "admin_role":
                target.members.add(user)
        else:
            relation.remove(user)
        return
    if grant:
        role.members.add(user)
    else:
        role.members.remove(user)


class TeamUsers(SubList):
    """/teams/<pk>/users/: the team's members; POST {"id": N} adds, with "disassociate" removes."""
    offers_post = False  # the legacy role lists offer no POST in OPTIONS

    serializer_class = UserSerializer
    search_fields = ("username", "first_name", "last_name", "email")

    def get_parent(self):
        return get_object_or_404(access.visible(Team, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return registry.roles_of(self.get_parent())["member_role"].members.all().order_by("id")

    def post(self, request, pk):
        team = self.get_parent()
        if isinstance(request.data, dict) and not request.data.get("id") and "disassociate" not in request.data:
            # TeamUsersList creates a user from a body without id: AWX's, refused behind a gateway.
            self.check_access("ingress", User, what="add")
        sub_id, disassociate, error = association(request, "User")
        if error:
            return error
        user = get_object_or_400(User.objects.all(), sub_id)
        self.check_access("unattach" if disassociate else "attach", team, user, "users")
        set_role_user(registry.roles_of(team)["member_role"], user, not disassociate)
        return Response(status=204)


# ---------------------------------------------------------------- legacy roles

class RoleList(SubList):
    offers_post = False
    deprecated = True
    model = Role
    serializer_class = RoleSerializer
    search_fields = ("role_field", "content_type__model")

    def get_queryset(self):
        return access.visible(Role, self.request.user).select_related("content_type")


class RoleDetail(ApiMixin, generics.RetrieveAPIView):
    deprecated = True
    model = Role
    serializer_class = RoleSerializer

    def get_queryset(self):
        return access.visible(Role, self.request.user)


class RoleUsers(SubList):
    """/roles/<pk>/users/: POST {"id": N} grants the role, with "disassociate" revokes."""
    offers_post = False  # the legacy role lists offer no POST in OPTIONS
    deprecated = True

    serializer_class = UserSerializer
    search_fields = ("username", "first_name", "last_name", "email")

    def get_parent(self):
        return get_object_or_404(access.visible(Role, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return role_users(self.get_parent()).order_by("id")

    def post(self, request, pk):
        role = self.get_parent()
        sub_id, disassociate, error = association(request, "User")
        if error:
            return error
        user = get_object_or_400(User.objects.all(), sub_id)
        self.check_access("ingress", role, what="attach")
        target = role.content_object
        if isinstance(target, Credential) and not disassociate:
            if target.organization_id and not target.organization.members.filter(pk=user.pk).exists() \
                    and not target.organization.admins.filter(pk=user.pk).exists():
                return Response({"msg": "You cannot grant credential access to a user not in the credentials' organization"}, status=400)
            if not target.organization_id and not access.allows(request.user, "grant_private", role):
                return Response({"msg": "You cannot grant private credential access to another user"}, status=400)
        self.check_access("unattach" if disassociate else "attach", role, user, "users")
        set_role_user(role, user, not disassociate)
        return Response(status=204)


def check_team_grant(role, team):
    target = role.content_object
    if isinstance(target, Organization) and role.role_field in ("member_role", "admin_role"):
        return Response({"msg": PARTICIPATION}, status=400)
    if isinstance(target, Credential) and (not target.organization_id or target.organization_id != team.organization_id):
        return Response({"msg": "You cannot grant credential access to a team not in the credentials' organization"}, status=400)
    return None


class RoleTeams(SubList):
    """/roles/<pk>/teams/: POST {"id": N} grants the role to a team, with "disassociate" revokes."""
    offers_post = False  # the legacy role lists offer no POST in OPTIONS
    deprecated = True

    serializer_class = TeamSerializer

    def get_parent(self):
        return get_object_or_404(access.visible(Role, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return self.get_parent().teams.all().order_by("id")

    def post(self, request, pk):
        role = self.get_parent()
        sub_id, disassociate, error = association(request, "Team")
        if error:
            return error
        team = get_object_or_400(Team.objects.all(), sub_id)
        error = check_team_grant(role, team)
        if error:
            return error
        self.check_access("unattach" if disassociate else "attach", role, team, "teams")
        if disassociate:
            role.teams.remove(team)
        else:
            role.teams.add(team)
        return Response(status=204)


class UserRoles(SubList):
    """/users/<pk>/roles/: the roles the user holds; POST {"id": role} grants, with "disassociate" revokes."""
    offers_post = False  # the legacy role lists offer no POST in OPTIONS
    deprecated = True

    serializer_class = RoleSerializer
    search_fields = ("role_field", "content_type__model")

    def get_parent(self):
        return get_object_or_404(access.visible(User, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        user = self.get_parent()
        org_ct = ContentType.objects.get_for_model(Organization)
        q = Q(members=user)
        for field, relation in (("member_role", "members"), ("admin_role", "admins")):
            org_ids = Organization.objects.filter(**{relation: user}).values_list("id", flat=True)
            q |= Q(content_type=org_ct, role_field=field, object_id__in=list(org_ids))
        return Role.objects.filter(q).distinct().order_by("id").select_related("content_type")

    def post(self, request, pk):
        user = self.get_parent()
        sub_id, disassociate, error = association(request, "Role")
        if error:
            return error
        role = get_object_or_400(Role.objects.all(), sub_id)
        self.check_access("ingress", role, what="attach")
        self.check_access("unattach" if disassociate else "attach", role, user, "users")
        set_role_user(role, user, not disassociate)
        return Response(status=204)


class TeamRoles(SubList):
    """/teams/<pk>/roles/: the roles granted to the team; POST {"id": role} grants, with "disassociate" revokes."""
    offers_post = False  # the legacy role lists offer no POST in OPTIONS
    deprecated = True

    serializer_class = RoleSerializer
    search_fields = ("role_field", "content_type__model")

    def get_parent(self):
        return get_object_or_404(access.visible(Team, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return self.get_parent().granted_roles.all().order_by("id").select_related("content_type")

    def post(self, request, pk):
        team = self.get_parent()
        sub_id, disassociate, error = association(request, "Role")
        if error:
            return error
        role = get_object_or_400(Role.objects.all(), sub_id)
        error = check_team_grant(role, team)
        if error:
            return error
        self.check_access("unattach" if disassociate else "attach", role, team, "teams")
        if disassociate:
            role.teams.remove(team)
        else:
            role.teams.add(team)
        return Response(status=204)


# ---------------------------------------------------------------- role definitions and assignments

MANAGED = "Role is managed by the system"


class ObjectRoles(SubList):
    """/<kind>/<pk>/object_roles/: the legacy roles of one object (GET only, deprecated as on the real service)."""
    offers_post = False  # the legacy role lists offer no POST in OPTIONS

    serializer_class = RoleSerializer
    search_fields = ("role_field", "content_type__model")
    deprecated = True
    parent_model = None

    def get_view_name(self):
        return "%s Object Roles List" % registry.kind_of(self.parent_model).verbose.title()

    def get_queryset(self):
        from refsvc.jobs.models import JobTemplate, Project

        user = self.request.user
        if self.parent_model is Team:
            parent = get_object_or_404(access.visible(Team, user), pk=self.kwargs["pk"])
        elif self.parent_model in (Organization, Credential, Project, JobTemplate) or self.parent_model.__name__ in ("Inventory", "InstanceGroup"):
            parent = get_object_or_404(access.visible(self.parent_model, user), pk=self.kwargs["pk"])
        else:
            parent = get_object_or_404(self.parent_model.objects.all(), pk=self.kwargs["pk"])
            if not (access.sees_all(user) or registry.has_perm(user, parent, "view")):
                raise Http404
        registry.roles_of(parent)
        ct = ContentType.objects.get_for_model(self.parent_model)
        return Role.objects.filter(content_type=ct, object_id=parent.pk).order_by("id").select_related("content_type")


class RoleDefinitionList(ApiMixin, generics.ListCreateAPIView):
    model = RoleDefinition
    serializer_class = RoleDefinitionSerializer
    filter_backends = [FieldLookupBackend]
    search_fields = ("name", "description")
    queryset = RoleDefinition.objects.all()

    def perform_create(self, serializer):
        self.check_access("add", RoleDefinition, serializer.validated_data)
        serializer.save(created_by=self.request.user, modified_by=self.request.user)


class RoleDefinitionDetail(ApiMixin, generics.RetrieveUpdateDestroyAPIView):
    model = RoleDefinition
    serializer_class = RoleDefinitionSerializer
    queryset = RoleDefinition.objects.all()

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        serializer.fields["content_type"].read_only = True
        return serializer

    def perform_update(self, serializer):
        self.check_access("change", serializer.instance, serializer.validated_data)
        if serializer.instance.managed:
            raise ValidationError(MANAGED)
        serializer.save(modified_by=self.request.user)

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        if instance.managed:
            raise ValidationError(MANAGED)
        instance.delete()


NOT_MANAGED_LOCALLY = "Not managed locally, use the resource server instead"


def check_locally_managed(view, rd):
    """A controller behind a platform gateway (ALLOW_LOCAL_RESOURCE_MANAGEMENT False) neither gives nor takes
    back a role definition with a permission on its shared objects (organizations, teams) other than
    ``view``: the gateway does. django-ansible-base 2024.7.1 (AWX 24.6.1's) ``ansible_base/rbac/validators.py``
    ``check_locally_managed``, called by ``BaseAssignmentSerializer.create`` (``rbac/api/serializers.py``) and
    ``BaseAssignmentViewSet.perform_destroy`` (``rbac/api/views.py``): 400 with its words. The gateway's own
    assignment views (``GatewayRbac.resource_server``) are the resource server's."""
    if getattr(view, "resource_server", False) or access.local_resource_management():
        return
    for permission in rd.permissions or ():
        prefix, _, codename = permission.partition(".")
        if prefix == "shared" and not codename.startswith("view"):
            raise ValidationError(NOT_MANAGED_LOCALLY)


def _by_ansible_id(value, candidates, kind_key, field):
    for obj in candidates:
        if ansible_id(kind_key, obj.pk) == str(value):
            return obj
    raise ValidationError({field: DOES_NOT_EXIST % value})


class AssignmentList(ApiMixin, generics.ListCreateAPIView):
    filter_backends = [FieldLookupBackend]
    search_fields = ()
    actor_field = None
    # django-ansible-base's filters of these lists by resource id (its ansible_id_backend): ?user_ansible_id= or
    # ?team_ansible_id= (the actor), ?object_ansible_id= (the object); a value that is no UUID is refused (400), one
    # that names nothing finds nothing.
    rest_filters_reserved_names = ("user_ansible_id", "team_ansible_id", "object_ansible_id")

    def can_write_metadata(self, request, method):
        return True

    def get_queryset(self):
        qs = self.model.objects.all().select_related("role_definition", self.actor_field, "created_by")
        user = self.request.user
        if not access.sees_all(user):
            qs = qs.filter(user=user) if self.actor_field == "user" else qs.filter(team__in=access.visible(Team, user))
        return AssignmentList.by_resource_ids(self, qs)     # the detail view shares this queryset

    def by_resource_ids(self, qs):
        params = getattr(self.request, "query_params", {})
        actor_key = self.actor_field + "_ansible_id"
        for key in (actor_key, "object_ansible_id"):
            value = params.get(key)
            if not value:
                continue
            try:
                uuid.UUID(value)
            except ValueError:
                raise ValidationError("Invalid UUID format for %s: %s" % (key, value))
            if key == actor_key:
                model = User if self.actor_field == "user" else Team
                found = [obj.pk for obj in model.objects.all() if ansible_id(self.actor_field, obj.pk) == value]
                qs = qs.filter(**{self.actor_field + "__in": found})
                continue
            named = [("shared." + kind, str(obj.pk)) for kind, model in (("organization", Organization), ("team", Team),
                                                                          ("user", User))
                     for obj in model.objects.all() if ansible_id(kind, obj.pk) == value]
            qs = qs.filter(content_type=named[0][0], object_id=named[0][1]) if named else qs.none()
        return qs

    def actor_queryset(self):
        if self.actor_field == "user":
            return access.visible(User, self.request.user)
        return access.visible(Team, self.request.user)

    def perform_create(self, serializer):
        data = serializer.validated_data
        user = self.request.user
        rd = data["role_definition"]
        field = self.actor_field
        aid_field = field + "_ansible_id"
        msg = "Provide exactly one of %s or %s_ansible_id" % (field, field)
        if data.get(field) and data.get(aid_field):
            raise ValidationError({field: msg, aid_field: msg})
        if data.get(field):
            actor = data[field]
            if not self.actor_queryset().filter(pk=actor.pk).exists():
                raise ValidationError({field: [DOES_NOT_EXIST % actor.pk]})
        elif data.get(aid_field):
            actor = _by_ansible_id(data[aid_field], self.actor_queryset(), field, aid_field)
        else:
            raise ValidationError({field: msg, aid_field: msg})
        obj = None
        if data.get("object_id") and data.get("object_ansible_id"):
            msg = "Provide exactly one of object_id or object_id_ansible_id"
            raise ValidationError({"object_id": msg, "object_id_ansible_id": msg})
        kind = registry.BY_LABEL.get(rd.content_type or "")
        if data.get("object_id"):
            if kind is None:
                raise ValidationError({"object_id": "System role does not allow for object assignment"})
            visible = self.visible_objects(kind)
            try:
                obj = visible.filter(pk=int(data["object_id"])).first()
            except (TypeError, ValueError):
                raise ValidationError({"object_id": ["Incorrect type. Expected pk value, received str."]})
            if obj is None:
                raise ValidationError({"object_id": [DOES_NOT_EXIST % data["object_id"]]})
        elif data.get("object_ansible_id"):
            if kind is None:
                raise ValidationError({"object_ansible_id": "System role does not allow for object assignment"})
            obj = self.shared_object(data["object_ansible_id"])
            if registry.kind_of(obj) is not kind:
                raise ValidationError({"object_ansible_id": "Object type of %s does not match role type of %s" % (
                    type(obj).__name__.lower(), kind.codename)})
        if kind is not None and obj is None:
            raise ValidationError({"object_id": "Object must be specified for this role assignment"})
        self.check_access("add", self.model, {"object": obj})
        if field == "team" and kind is not None and kind.key == "organization" and "shared.member_organization" in rd.permissions:
            raise ValidationError("Assigning organization member permission to teams is not allowed")
        if obj is not None:
            check_locally_managed(self, rd)
        values = {"role_definition": rd, field: actor, "content_type": rd.content_type,
                  "object_id": str(obj.pk) if obj is not None else None}
        try:
            with transaction.atomic():
                serializer.instance = self.model.objects.create(created_by=user, **values)
        except IntegrityError:
            serializer.instance = self.model.objects.get(**values)

    def shared_object(self, value):
        """The organization, team or user (the objects with a resource id) whose resource id is ``value``."""
        for key in RESOURCE_KINDS.values():
            candidates = self.visible_objects(registry.BY_KEY[key]) if key in registry.BY_KEY else access.visible(User, self.request.user)
            for obj in candidates:
                if ansible_id(key, obj.pk) == str(value):
                    return obj
        raise ValidationError({"object_ansible_id": DOES_NOT_EXIST % value})

    def visible_objects(self, kind):
        user = self.request.user
        if not access.allows(user, "name_object", self.model, kind):
            return kind.model.objects.none()
        return access.visible(kind.model, user)


class AssignmentDetail(ApiMixin, generics.RetrieveDestroyAPIView):
    actor_field = None

    def get_queryset(self):
        return AssignmentList.get_queryset(self)

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        if instance.object_id:
            check_locally_managed(self, instance.role_definition)
        instance.delete()


class RoleUserAssignmentList(AssignmentList):
    model = RoleUserAssignment
    serializer_class = RoleUserAssignmentSerializer
    actor_field = "user"


class RoleUserAssignmentDetail(AssignmentDetail):
    model = RoleUserAssignment
    serializer_class = RoleUserAssignmentSerializer
    actor_field = "user"


class RoleTeamAssignmentList(AssignmentList):
    model = RoleTeamAssignment
    serializer_class = RoleTeamAssignmentSerializer
    actor_field = "team"


class RoleTeamAssignmentDetail(AssignmentDetail):
    model = RoleTeamAssignment
    serializer_class = RoleTeamAssignmentSerializer
    actor_field = "team"


# ---------------------------------------------------------------- role metadata

class RoleMetadata(ApiMixin, generics.GenericAPIView):
    """django-ansible-base's role metadata: for each kind a role definition may be of, the permissions it may
    give (``allowed_permissions``: "shared.organization" -> ["shared.view_organization", "awx.view_inventory", ...]),
    the kinds in the order of their model names."""

    def get(self, request):
        allowed = {}
        for kind in sorted(registry.KINDS, key=lambda k: k.codename):
            perms = registry.allowed_permissions(kind)
            allowed[kind.label] = sorted("%s.%s" % (perms[p].prefix, p) for p in perms)
        return Response({"allowed_permissions": allowed})
