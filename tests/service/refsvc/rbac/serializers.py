from django.contrib.auth.models import User
from rest_framework import serializers

from refsvc.svc.models import resource_summary
from refsvc.svc.serializers import ResourceSerializer, user_summary

from . import managed, registry
from .models import Role, RoleDefinition, RoleTeamAssignment, RoleUserAssignment, Team

DOES_NOT_EXIST = 'Invalid pk "%s" - object does not exist.'


def org_summary(org):
    return {"id": org.id, "name": org.name, "description": org.description} if org is not None else None


class TeamSerializer(ResourceSerializer):
    type_name = "team"
    url_base = "teams"

    class Meta:
        model = Team
        fields = ResourceSerializer.base_fields + ("name", "description", "organization")
        validators = []

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {n: base + n + "/" for n in ("projects", "users", "credentials", "roles", "object_roles", "activity_stream", "access_list")}
        related["organization"] = "/api/v2/organizations/%d/" % obj.organization_id
        if obj.created_by_id:
            related["created_by"] = "/api/v2/users/%d/" % obj.created_by_id
        return related

    def get_summary_fields(self, obj):
        return {
            "organization": org_summary(obj.organization),
            "resource": resource_summary("team", obj.pk),
            "created_by": user_summary(obj.created_by),
            "object_roles": registry.object_roles(obj),
            "user_capabilities": {"edit": True, "delete": True},
        }

    def validate(self, attrs):
        self.unique_error(Team, ("name", "organization"), attrs, "Team with this Name and Organization already exists.")
        return attrs


class RoleSerializer(serializers.ModelSerializer):
    type = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    related = serializers.SerializerMethodField()
    summary_fields = serializers.SerializerMethodField()
    name = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    type_name = "role"

    class Meta:
        model = Role
        fields = ("id", "type", "url", "related", "summary_fields", "name", "description")

    def get_type(self, obj):
        return "role"

    def get_url(self, obj):
        return "/api/v2/roles/%d/" % obj.pk

    def _kind(self, obj):
        model = obj.content_type.model_class()
        return registry.kind_of(model) if model is not None else None

    def get_name(self, obj):
        return registry.ROLE_NAMES.get(obj.role_field, obj.role_field)

    def get_description(self, obj):
        kind = self._kind(obj)
        return registry.role_description(kind, obj.role_field) if kind else ""

    def get_related(self, obj):
        related = {"users": self.get_url(obj) + "users/", "teams": self.get_url(obj) + "teams/"}
        kind = self._kind(obj)
        if kind is not None:
            related[kind.key] = "/api/v2/%s/%d/" % (kind.url, obj.object_id)
        return related

    def get_summary_fields(self, obj):
        kind = self._kind(obj)
        target = obj.content_object
        if kind is None or target is None:
            return {}
        return {
            "resource_name": target.name,
            "resource_type": kind.key,
            "resource_type_display_name": kind.verbose.title(),
            "resource_id": obj.object_id,
        }


class PermissionsField(serializers.ListField):
    def __init__(self, **kwargs):
        super().__init__(child=serializers.CharField(), **kwargs)

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        known = set(managed.all_permissions())
        errors = {}
        out = []
        for i, value in enumerate(values):
            codename = value.rsplit(".", 1)[-1]
            match = [p for p in known if p.rsplit(".", 1)[-1] == codename]
            if not match:
                errors[i] = [DOES_NOT_EXIST % value]
            else:
                out.append(match[0])
        if errors:
            raise serializers.ValidationError(errors)
        return out


class ContentTypeField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", "The type of resource this applies to")
        super().__init__(choices=sorted((k.label, k.verbose.title()) for k in registry.KINDS), **kwargs)

    def to_internal_value(self, data):
        if data in (None, ""):
            return None
        model = str(data).rsplit(".", 1)[-1]
        for kind in registry.KINDS:
            if kind.codename == model:
                return kind.label
        self.fail("invalid_choice", input=data)


def user_ref(user):
    return {"id": user.id, "username": user.username, "first_name": user.first_name, "last_name": user.last_name} if user else None


class CommonSerializer(serializers.ModelSerializer):
    """The shape of django-ansible-base objects: id, url, related, summary_fields, created(_by)."""

    url_base = None
    url = serializers.SerializerMethodField()
    related = serializers.SerializerMethodField()
    summary_fields = serializers.SerializerMethodField()
    type_name = None

    def get_url(self, obj):
        return "/api/v2/%s/%d/" % (self.url_base, obj.pk)

    def common_related(self, obj):
        related = {}
        for name in ("created_by", "modified_by"):
            if getattr(obj, name + "_id", None):
                related[name] = "/api/v2/users/%d/" % getattr(obj, name + "_id")
        return related

    def common_summary(self, obj):
        summary = {}
        for name in ("created_by", "modified_by"):
            if getattr(obj, name + "_id", None):
                summary[name] = user_ref(getattr(obj, name))
        return summary


class RoleDefinitionSerializer(CommonSerializer):
    url_base = "role_definitions"
    permissions = PermissionsField()
    content_type = ContentTypeField(allow_null=True, default=None, required=False)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    name = serializers.CharField()

    class Meta:
        model = RoleDefinition
        fields = ("id", "url", "related", "summary_fields", "permissions", "content_type", "modified", "created",
                  "name", "description", "managed", "modified_by", "created_by")
        read_only_fields = ("id", "managed", "created", "modified", "created_by", "modified_by")

    def get_related(self, obj):
        related = self.common_related(obj)
        base = self.get_url(obj)
        related.update({"team_assignments": base + "team_assignments/", "user_assignments": base + "user_assignments/"})
        return related

    def get_summary_fields(self, obj):
        return self.common_summary(obj)

    def validate_name(self, value):
        qs = RoleDefinition.objects.filter(name=value)
        if self.instance is not None:
            qs = qs.exclude(pk=self.instance.pk)
        if qs.exists():
            raise serializers.ValidationError("role definition with this name already exists.")
        return value

    def validate(self, attrs):
        perms = attrs.get("permissions", self.instance.permissions if self.instance else [])
        ct = attrs["content_type"] if "content_type" in attrs else (self.instance.content_type if self.instance else None)
        if ct is None:
            raise serializers.ValidationError({"content_type": "System-wide roles are not enabled"})
        if ct == "shared.team":
            raise serializers.ValidationError("Creating custom roles for teams is disabled")
        if any(p == "shared.member_team" or p.endswith("_team") for p in perms):
            raise serializers.ValidationError("Creating custom roles that include team permissions is disabled")
        kind = registry.BY_LABEL[ct]
        allowed = registry.allowed_permissions(kind)
        codenames = [p.rsplit(".", 1)[-1] for p in perms]
        invalid = [c for c in codenames if c not in allowed]
        if invalid:
            raise serializers.ValidationError({"permissions": "Permissions %s are not valid for %s roles" % (
                ", ".join('"%s"' % c for c in invalid), kind.codename)})
        by_kind = {}
        for c in codenames:
            by_kind.setdefault(allowed[c].key, []).append(c)
        for key, names in by_kind.items():
            k = registry.BY_KEY[key]
            non_add = [c for c in names if not c.startswith("add_")]
            if "view" in k.actions and non_add and not any(c.startswith("view_") for c in non_add):
                raise serializers.ValidationError({"permissions": "Permissions for model %s needs to include view, got: %s" % (
                    kind.verbose, ", ".join(non_add))})
        return attrs

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["permissions"] = list(obj.permissions)
        return data


class AssignmentSerializer(CommonSerializer):
    actor_field = None
    content_type = serializers.CharField(read_only=True)
    object_id = serializers.CharField(required=False, allow_null=True, allow_blank=True,
                                      help_text="Primary key of the object this assignment applies to, null value indicates system-wide assignment")
    object_ansible_id = serializers.UUIDField(required=False, allow_null=True,
                                              help_text="Resource id of the object this role applies to. Alternative to the object_id field.")
    role_definition = serializers.PrimaryKeyRelatedField(queryset=RoleDefinition.objects.all(),
                                                         help_text="The role definition which defines permissions conveyed by this assignment")

    def get_related(self, obj):
        related = self.common_related(obj)
        related["role_definition"] = "/api/v2/role_definitions/%d/" % obj.role_definition_id
        actor = getattr(obj, self.actor_field)
        related[self.actor_field] = "/api/v2/%ss/%d/" % (self.actor_field, actor.pk)
        kind = registry.BY_LABEL.get(obj.content_type or "")
        if kind is not None and obj.object_id:
            related["content_object"] = "/api/v2/%s/%s/" % (kind.url, obj.object_id)
        return related

    def get_summary_fields(self, obj):
        summary = self.common_summary(obj)
        rd = obj.role_definition
        summary["role_definition"] = {"id": rd.id, "name": rd.name, "description": rd.description, "managed": rd.managed}
        actor = getattr(obj, self.actor_field)
        if self.actor_field == "user":
            summary["user"] = user_ref(actor)
        else:
            summary["team"] = {"id": actor.id, "name": actor.name, "description": actor.description}
        target = self.content_object(obj)
        if target is not None:
            summary["content_object"] = content_object_summary(obj.content_type, target)
        return summary

    @staticmethod
    def content_object(obj):
        return obj.target()


def content_object_summary(content_type, target):
    """An assignment's object as the real service sums it up (the model's summary_fields(),
    from SUMMARIZABLE_FK_FIELDS): id, name, description, and what its kind adds."""
    kind = registry.BY_LABEL[content_type].key
    if kind == "instance_group":
        return {"id": target.id, "name": target.name, "is_container_group": bool(getattr(target, "is_container_group", False))}
    data = {"id": target.id, "name": target.name, "description": getattr(target, "description", "")}
    if kind == "project":
        from refsvc.updates.serializers import project_status

        data.update(status=project_status(target), scm_type=target.scm_type, allow_override=target.allow_override)
    elif kind == "credential":
        ctype = target.credential_type
        data.update(kind=ctype.namespace, cloud=ctype.kind == "cloud", kubernetes=ctype.kind == "kubernetes",
                    credential_type_id=ctype.id)
    elif kind == "execution_environment":
        data["image"] = target.image
    return data


def _actor_field(queryset):
    return serializers.PrimaryKeyRelatedField(queryset=queryset, required=False)


class RoleUserAssignmentSerializer(AssignmentSerializer):
    actor_field = "user"
    url_base = "role_user_assignments"
    user = _actor_field(User.objects.all())
    user_ansible_id = serializers.UUIDField(required=False, allow_null=True,
                                            help_text="Resource id of the user who will receive permissions from this assignment. Alternative to user field.")

    class Meta:
        model = RoleUserAssignment
        fields = ("id", "url", "related", "summary_fields", "created", "created_by", "content_type", "object_id",
                  "object_ansible_id", "role_definition", "user", "user_ansible_id")
        read_only_fields = ("id", "created", "created_by")
        validators = []


class RoleTeamAssignmentSerializer(AssignmentSerializer):
    actor_field = "team"
    url_base = "role_team_assignments"
    team = _actor_field(Team.objects.all())
    # Not nullable on the real service (user_ansible_id is): an assignment read back has no team_ansible_id.
    team_ansible_id = serializers.UUIDField(required=False,
                                            help_text="Resource id of the team who will receive permissions from this assignment. Alternative to team field.")

    class Meta:
        model = RoleTeamAssignment
        fields = ("id", "url", "related", "summary_fields", "created", "created_by", "content_type", "object_id",
                  "object_ansible_id", "role_definition", "team", "team_ansible_id")
        read_only_fields = ("id", "created", "created_by")
        validators = []
