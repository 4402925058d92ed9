"""The gateway's representations of the users, organizations and teams it shares with the
controller (the fields the platform's gateway answers with, as ansible.platform's modules and
django-ansible-base's common serializers read them)."""
from django.contrib.auth import get_user_model
from rest_framework import serializers

from refsvc.gateway import controller
from refsvc.gateway.models import SharedDescription
from refsvc.rbac.models import Team
from refsvc.svc.models import Organization, UserProfile

V1 = "/api/gateway/v1/"


def _url(kind, pk):
    return "%s%s/%d/" % (V1, kind, pk)


class _Common(serializers.ModelSerializer):
    kind = None
    url = serializers.SerializerMethodField()
    related = serializers.SerializerMethodField()
    summary_fields = serializers.SerializerMethodField()
    created = serializers.DateTimeField(read_only=True)
    modified = serializers.DateTimeField(read_only=True)

    def get_url(self, obj):
        return _url(self.kind, obj.pk)

    def get_related(self, obj):
        return {}

    def get_summary_fields(self, obj):
        return {}


def descriptions_apart():
    """Whether the gateway keeps its descriptions apart from the rows (``SharedDescription``): with the
    service's own controller, whose copies are the same rows; a real controller behind the gateway
    keeps its copies in its own database."""
    return not controller.enabled()


def gateway_description(obj):
    """The gateway's description of an organization or a team."""
    if not descriptions_apart():
        return obj.description
    kept = SharedDescription.objects.filter(kind=obj._meta.model_name, object_id=obj.pk).first()
    return kept.description if kept is not None else ""


class _Described(_Common):
    """An organization or a team: its description is the gateway's own (``descriptions_apart``); a new
    object's copy at the controller starts with an empty one, as the copy AWX 24.6.1's resource API makes."""

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["description"] = gateway_description(obj)
        return data

    def _keep(self, obj, description):
        if description is not None:
            SharedDescription.objects.update_or_create(
                kind=obj._meta.model_name, object_id=obj.pk, defaults={"description": description or ""})
        return obj

    def create(self, validated):
        description = validated.pop("description", "") if descriptions_apart() else None
        return self._keep(super().create(validated), description)

    def update(self, instance, validated):
        description = validated.pop("description", None) if descriptions_apart() else None
        return self._keep(super().update(instance, validated), description)


class OrganizationSerializer(_Described):
    kind = "organizations"
    managed = serializers.SerializerMethodField()

    class Meta:
        model = Organization
        fields = ["id", "url", "related", "summary_fields", "created", "modified", "name", "description", "managed"]

    def get_managed(self, obj):
        return False

    def get_related(self, obj):
        return {
            "teams": _url("organizations", obj.pk) + "teams/",
            "users": _url("organizations", obj.pk) + "users/",
            "admins": _url("organizations", obj.pk) + "admins/",
        }


class TeamSerializer(_Described):
    kind = "teams"

    class Meta:
        model = Team
        fields = ["id", "url", "related", "summary_fields", "created", "modified", "name", "description", "organization"]

    def get_related(self, obj):
        return {"organization": _url("organizations", obj.organization_id)}

    def get_summary_fields(self, obj):
        org = obj.organization
        return {"organization": {"id": org.pk, "name": org.name, "description": gateway_description(org)}}


class UserSerializer(_Common):
    kind = "users"
    created = serializers.DateTimeField(source="date_joined", read_only=True)
    modified = serializers.SerializerMethodField()
    password = serializers.CharField(write_only=False, required=False, allow_blank=True, default="")
    is_platform_auditor = serializers.BooleanField(required=False, default=False)
    managed = serializers.SerializerMethodField()
    authenticators = serializers.SerializerMethodField()
    authenticator_uid = serializers.SerializerMethodField()

    class Meta:
        model = get_user_model()
        fields = [
            "id", "url", "related", "summary_fields", "created", "modified", "username", "email", "first_name",
            "last_name", "last_login", "password", "is_superuser", "is_platform_auditor", "managed",
            "authenticators", "authenticator_uid",
        ]
        read_only_fields = ["last_login"]

    def get_modified(self, obj):
        return serializers.DateTimeField().to_representation(obj.last_login or obj.date_joined)

    def get_managed(self, obj):
        return False

    # The authenticators the user logs in through (django-ansible-base's AuthenticatorUser links, made at
    # a user's first login through an SSO or LDAP authenticator), and the uid the first of them gave; a
    # local user has none, and its username.
    def _links(self, obj):
        return list(obj.authenticator_users.order_by("id").values_list("provider__id", "uid"))

    def get_authenticators(self, obj):
        return [provider for provider, _uid in self._links(obj)]

    def get_authenticator_uid(self, obj):
        links = self._links(obj)
        return links[0][1] if links else obj.username

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["password"] = "$encrypted$"
        profile = UserProfile.objects.filter(user=obj).first()
        data["is_platform_auditor"] = bool(profile and profile.is_system_auditor)
        return data

    def _save(self, user, validated):
        password = validated.pop("password", None)
        auditor = validated.pop("is_platform_auditor", None)
        for key, value in validated.items():
            setattr(user, key, value)
        if password and password != "$encrypted$":
            user.set_password(password)
        elif user.pk is None:
            user.set_unusable_password()
        user.save()
        if auditor is not None:
            UserProfile.objects.update_or_create(user=user, defaults={"is_system_auditor": auditor})
        return user

    def create(self, validated):
        return self._save(self.Meta.model(), validated)

    def update(self, instance, validated):
        return self._save(instance, validated)
