"""Teams and the two permission systems of the service: the legacy object roles
(one Role per object and role field, granted to users and teams) and the role
definitions with their user and team assignments."""
from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q

from refsvc.svc import access
from refsvc.svc.models import Organization, TimestampedModel


class Team(TimestampedModel):
    name = models.CharField(max_length=512)
    description = models.TextField(blank=True, default="")
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="teams")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]
        unique_together = [("name", "organization")]


class Role(models.Model):
    """The `role_field` role of one object; held by users and by teams (whose members then hold it)."""

    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE, related_name="+")
    object_id = models.PositiveIntegerField()
    content_object = GenericForeignKey("content_type", "object_id")
    role_field = models.CharField(max_length=64)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="svc_roles")
    teams = models.ManyToManyField(Team, blank=True, related_name="granted_roles")

    class Meta:
        ordering = ["id"]
        unique_together = [("content_type", "object_id", "role_field")]


class RoleDefinition(TimestampedModel):
    name = models.TextField(unique=True)
    description = models.TextField(blank=True, default="")
    permissions = models.JSONField(default=list)  # ["awx.view_jobtemplate", ...]
    content_type = models.CharField(max_length=64, null=True, blank=True, default=None)  # "awx.jobtemplate"
    managed = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    modified_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]


class Assignment(models.Model):
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    role_definition = models.ForeignKey(RoleDefinition, on_delete=models.CASCADE, related_name="+")
    content_type = models.CharField(max_length=64, null=True, blank=True, default=None)
    object_id = models.CharField(max_length=64, null=True, blank=True, default=None)

    class Meta:
        abstract = True
        ordering = ["id"]

    def target(self):
        """The object the role is assigned on (None for a system role, or once deleted)."""
        from . import registry

        kind = registry.BY_LABEL.get(self.content_type or "")
        if kind is None or not self.object_id or kind.model is None:
            return None
        return kind.model.objects.filter(pk=self.object_id).first()


class RoleUserAssignment(Assignment):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="svc_role_assignments")

    class Meta(Assignment.Meta):
        unique_together = [("role_definition", "user", "content_type", "object_id")]


class RoleTeamAssignment(Assignment):
    # (not "role_assignments": django-ansible-base's RoleTeamAssignment, whose models the gateway layout has, names it so)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="svc_role_assignments")

    class Meta(Assignment.Meta):
        unique_together = [("role_definition", "team", "content_type", "object_id")]


@access.rule(Team)
def _teams(qs, user):
    from . import registry

    return qs.filter(Q(organization__in=access.organizations_of(user)) | registry.allowed_q(user, Team, "view"))


@access.register(Team)
class TeamAccess(access.Shared, access.Access):
    """A team is made by who may change its organization, and changed by who holds change on it
    (who also adds and removes its members, ``users``)."""

    def can_add(self, user, data):
        from . import registry

        return registry.has_perm(user, data.get("organization"), "change")

    def can_offer_add(self, user):
        from refsvc.svc.models import Organization

        return Organization.objects.filter(admins=user).exists()

    def can_change(self, user, obj, data=None):
        from . import registry

        return registry.has_perm(user, obj, "change")


@access.rule(Role)
def _roles(qs, user):
    """The roles of the objects on which the user holds a role."""
    from . import registry

    team_ids = registry._teams_of(user)
    held = Role.objects.filter(Q(members=user) | Q(teams__in=team_ids)).values_list("content_type_id", "object_id")
    q = Q(pk__in=[])
    for ct, oid in set(held):
        q |= Q(content_type_id=ct, object_id=oid)
    return qs.filter(q)


@access.register(Role)
class RoleAccess(access.Access):
    """Giving and taking a legacy role, to a user (relation ``users``) or a team (``teams``), from
    the role's lists or the user's and team's ``roles``: who may change the role's object (the real
    RoleAccess.can_attach, which asks the object's admin_role)."""

    def can_attach(self, user, obj, sub=None, relation=None, data=None, **kwargs):
        from . import registry

        target = obj.content_object
        return target is not None and registry.has_perm(user, target, "change")

    def can_grant_private(self, user, obj):
        """A credential without organization: only a superuser gives its roles to another user."""
        return False

    def refuse_ingress(self, user, obj, what=None, data=None):
        # The member and admin roles of an organization or a team are memberships, which the
        # platform's ingress alone changes while local resource management is off.
        kind = obj.content_type.model
        if access.local_resource_management() or obj.role_field not in ("member_role", "admin_role") \
                or kind not in ("organization", "team"):
            return None
        return {"msg": access.MEMBERSHIP_REFUSED % kind}


@access.register(RoleDefinition)
class RoleDefinitionAccess(access.Access):
    """Role definitions are made, changed and deleted by a superuser only."""

    def can_offer_add(self, user):
        return False


@access.register(RoleUserAssignment, RoleTeamAssignment)
class AssignmentAccess(access.Access):
    """A role assignment is given and taken by who may change its object (a system role's, by a
    superuser only); roles on execution environments, instance groups and notification templates
    are given by a superuser only here."""

    def can_add(self, user, data):
        from . import registry

        target = data.get("object")
        return target is not None and registry.has_perm(user, target, "change")

    def can_delete(self, user, obj):
        return self.can_add(user, {"object": obj.target()})

    def can_name_object(self, user, kind):
        """May ``user`` name an object of ``kind`` (a registry kind) in an assignment?"""
        return kind.key not in ("execution_environment", "instance_group", "notification_template")

