"""The platform gateway's role definitions and role assignments (/api/gateway/v1/role_definitions/,
role_user_assignments/, role_team_assignments/): django-ansible-base's RBAC API, answered by the
service's own rbac views over the same rows as the controller's /api/v2/ ones, so that an assignment
made at the gateway is what the controller shows.

The memberships the controller keeps as lists (an organization's members and admins, the members of a
team's member and admin roles) are mirrored both ways with the user assignments of the managed role
definitions that mean them (django-ansible-base's names, which the service's managed definitions have
too: "Organization Member", "Organization Admin", "Team Member", "Team Admin"): on the platform the
gateway keeps these assignments and the controller shows them as its memberships. Mirroring is on in
the gateway layout only (connect())."""
from django.contrib.auth.models import User
from django.db.models.signals import m2m_changed, post_delete, post_save
from rest_framework import permissions

from ansible_base.oauth2_provider.permissions import OAuth2ScopePermission
from refsvc.svc.models import Organization, ansible_id

from . import registry, urls, views
from .models import Role, RoleDefinition, RoleTeamAssignment, RoleUserAssignment, Team

V1 = "/api/gateway/v1/"
# The objects the gateway serves itself; the links to any other object name the controller's API.
GATEWAY_KINDS = ("users", "organizations", "teams", "role_definitions", "role_user_assignments",
                 "role_team_assignments")

# (content type, role definition) -> the membership it is: (model, how to get the users' relation)
MEMBERSHIPS = {
    ("shared.organization", "Organization Member"): lambda org: org.members,
    ("shared.organization", "Organization Admin"): lambda org: org.admins,
    ("shared.team", "Team Member"): lambda team: registry.roles_of(team)["member_role"].members,
    ("shared.team", "Team Admin"): lambda team: registry.roles_of(team)["admin_role"].members,
}
TEAM_ROLES = {"member_role": "Team Member", "admin_role": "Team Admin"}


# ---------------------------------------------------------------- the API at the gateway

def gateway_link(value):
    """A link of the controller's API (/api/v2/...) as the gateway gives it."""
    if not isinstance(value, str) or not value.startswith("/api/v2/"):
        return value
    rest = value[len("/api/v2/"):]
    if rest.split("/", 1)[0] in GATEWAY_KINDS:
        return V1 + rest
    return "/api/controller/v2/" + rest


class GatewayLinks:
    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["url"] = gateway_link(data.get("url"))
        data["related"] = {key: gateway_link(value) for key, value in (data.get("related") or {}).items()}
        # An assignment's actor by its resource id: django-ansible-base's ActorAnsibleIdField (source the
        # user or the team) reads it back at the gateway (the 2.7 schema's team_ansible_id, user_ansible_id).
        actor_field = getattr(self, "actor_field", None)
        if actor_field is not None:
            actor_id = getattr(obj, actor_field + "_id", None)
            data[actor_field + "_ansible_id"] = ansible_id(actor_field, actor_id) if actor_id is not None else None
        return data


class GatewayRbacPermission(permissions.BasePermission):
    """An authenticated user (a token of read scope only reads); what each may do is the rbac views' own check."""

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return False
        return OAuth2ScopePermission().has_permission(request, view)


class GatewayRbac:
    permission_classes = [GatewayRbacPermission]
    # The platform's resource server: it gives and takes back the roles on the shared objects that a
    # controller behind it refuses (views.check_locally_managed).
    resource_server = True

    def finalize_response(self, request, response, *args, **kwargs):
        from django.conf import settings

        response = super().finalize_response(request, response, *args, **kwargs)
        response["X-API-Product-Name"] = "Red Hat Ansible Automation Platform"
        if "X-API-Product-Version" in response:
            response["X-API-Product-Version"] = settings.GATEWAY_VERSION
        location = response.get("Location")
        if location:
            response["Location"] = gateway_link(location)
        return response


def at_gateway(view):
    """The rbac view ``view`` as the gateway serves it: its links and headers the gateway's."""
    serializer = view.serializer_class
    serializer = type(serializer.__name__, (GatewayLinks, serializer), {})
    return type(view.__name__, (GatewayRbac, view), {"serializer_class": serializer})


# django-ansible-base's RBAC API, as the controller's /api/v2/ serves it (rbac/urls.py), at the gateway.
DAB_RBAC = ("role_definitions/", "role_user_assignments/", "role_team_assignments/")
URLS = [(path, at_gateway(view)) for path, view in urls.v2 if path.startswith(DAB_RBAC)]
# Its role metadata (the platform's gateway schemas list it at /role_metadata/).
RoleMetadata = type("RoleMetadata", (GatewayRbac, views.RoleMetadata), {})


# ---------------------------------------------------------------- assignments <-> memberships

def _object(content_type, object_id):
    model = {"shared.organization": Organization, "shared.team": Team}.get(content_type)
    if model is None or not object_id:
        return None
    return model.objects.filter(pk=object_id).first()


def _assignment_saved(sender, instance, created, raw=False, **kwargs):
    if not created or raw:
        return
    relation = MEMBERSHIPS.get((instance.content_type, instance.role_definition.name))
    target = _object(instance.content_type, instance.object_id)
    if relation is not None and target is not None:
        relation(target).add(instance.user)


def _assignment_deleted(sender, instance, **kwargs):
    try:
        name = instance.role_definition.name
        user = instance.user
    except (RoleDefinition.DoesNotExist, User.DoesNotExist):
        return          # deleted along with its role definition or user: so is the membership
    relation = MEMBERSHIPS.get((instance.content_type, name))
    target = _object(instance.content_type, instance.object_id)
    if relation is not None and target is not None:
        relation(target).remove(user)


def _mirror(content_type, name, target_ids, user_ids, giving):
    """Create (or delete) the assignments of the definition ``name`` of the users to the objects."""
    definition = RoleDefinition.objects.filter(name=name, content_type=content_type).first()
    if definition is None:
        return
    for target_id in target_ids:
        for user_id in user_ids:
            values = {"role_definition": definition, "user_id": user_id, "content_type": content_type,
                      "object_id": str(target_id)}
            if giving:
                if not RoleUserAssignment.objects.filter(**values).exists():
                    RoleUserAssignment.objects.create(**values)
            else:
                for assignment in RoleUserAssignment.objects.filter(**values):
                    assignment.delete()


def _organization_changed(name):
    def changed(sender, instance, action, reverse, pk_set, **kwargs):
        if action not in ("post_add", "post_remove", "pre_clear"):
            return
        giving = action == "post_add"
        if action == "pre_clear":
            field = "members" if name == "Organization Member" else "admins"
            pk_set = set(getattr(instance, field).values_list("pk", flat=True)) if not reverse else set(
                Organization.objects.filter(**{field: instance}).values_list("pk", flat=True))
        orgs, users = (pk_set, [instance.pk]) if reverse else ([instance.pk], pk_set)
        _mirror("shared.organization", name, orgs, users, giving)

    return changed


def _role_members_changed(sender, instance, action, reverse, pk_set, **kwargs):
    if action not in ("post_add", "post_remove", "pre_clear"):
        return
    giving = action == "post_add"
    if reverse:     # user.svc_roles.add(role, ...)
        roles = Role.objects.filter(pk__in=pk_set) if action != "pre_clear" else instance.svc_roles.all()
        pairs = [(role, [instance.pk]) for role in roles]
    else:
        users = pk_set if action != "pre_clear" else set(instance.members.values_list("pk", flat=True))
        pairs = [(instance, users)]
    team_type = registry.BY_KEY["team"]
    for role, users in pairs:
        name = TEAM_ROLES.get(role.role_field)
        if name is None or role.content_type.model_class() is not team_type.model:
            continue
        _mirror("shared.team", name, [role.object_id], users, giving)


def _object_deleted(sender, instance, **kwargs):
    """The assignments to a deleted organization or team go with it (as django-ansible-base's object roles)."""
    content_type = "shared.organization" if sender is Organization else "shared.team"
    for model in (RoleUserAssignment, RoleTeamAssignment):
        model.objects.filter(content_type=content_type, object_id=str(instance.pk)).delete()


def connect():
    post_save.connect(_assignment_saved, sender=RoleUserAssignment, dispatch_uid="gateway-rbac-assigned")
    post_delete.connect(_assignment_deleted, sender=RoleUserAssignment, dispatch_uid="gateway-rbac-unassigned")
    m2m_changed.connect(_organization_changed("Organization Member"), sender=Organization.members.through,
                        dispatch_uid="gateway-rbac-org-members", weak=False)
    m2m_changed.connect(_organization_changed("Organization Admin"), sender=Organization.admins.through,
                        dispatch_uid="gateway-rbac-org-admins", weak=False)
    m2m_changed.connect(_role_members_changed, sender=Role.members.through, dispatch_uid="gateway-rbac-team-roles")
    for model in (Organization, Team):
        post_delete.connect(_object_deleted, sender=model, dispatch_uid="gateway-rbac-deleted-%s" % model.__name__)
