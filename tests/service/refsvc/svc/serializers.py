import json

import yaml
from django.conf import settings
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.models import User
from rest_framework import serializers

from . import credential_inputs, named_urls
from .models import Credential, CredentialType, Host, Inventory, OAuth2AccessToken, Organization, UserProfile, resource_summary

ENCRYPTED = "$encrypted$"
HIDDEN_TOKEN = "************"
SCOPE_ERROR = "Must be a simple space-separated string with allowed scopes ['read', 'write']."


def user_summary(user):
    if user is None:
        return None
    return {"id": user.id, "username": user.username, "first_name": user.first_name, "last_name": user.last_name}


def profile_of(user):
    """The user's profile; an unsaved default one if none was stored (reads never write)."""
    try:
        return user.svc_profile
    except UserProfile.DoesNotExist:
        profile = UserProfile(user=user)
        user.svc_profile = profile
        return profile


class ResourceSerializer(serializers.ModelSerializer):
    """Common shape of every object: id, type, url, related, summary_fields, created, modified."""

    type_name = None
    url_base = None

    id = serializers.IntegerField(read_only=True)
    type = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    related = serializers.SerializerMethodField()
    summary_fields = serializers.SerializerMethodField()
    created = serializers.DateTimeField(read_only=True)
    modified = serializers.DateTimeField(read_only=True)

    base_fields = ("id", "type", "url", "related", "summary_fields", "created", "modified")

    def get_type(self, obj):
        return self.type_name

    def get_url(self, obj):
        return "/api/v2/%s/%d/" % (self.url_base, obj.pk)

    def get_related(self, obj):
        return {}

    def get_summary_fields(self, obj):
        return {}

    def to_representation(self, obj):
        data = super().to_representation(obj)
        view = self.context.get("view")
        request = self.context.get("request")
        # BaseSerializer.get_related: a detail view's or a POST's answer names the object's named URL first.
        if view is not None and (hasattr(view, "retrieve") or (request is not None and request.method == "POST")):
            url = named_urls.named_url_of(self.url_base, obj)
            if url and isinstance(data.get("related"), dict):
                data["related"] = dict([("named_url", url)] + list(data["related"].items()))
        return data

    def to_internal_value(self, data):
        # Clients (awx.awx) send null for optional text fields: treat it as empty.
        if hasattr(data, "copy"):
            data = data.copy()
            for name, field in self.fields.items():
                if name in data and data[name] is None and isinstance(field, serializers.CharField) and not field.allow_null:
                    data[name] = ""
        return super().to_internal_value(data)

    def unique_error(self, model, fields, attrs, message):
        values = {}
        for f in fields:
            if f in attrs:
                values[f] = attrs[f]
            elif self.instance is not None:
                values[f] = getattr(self.instance, f)
            else:
                return
        qs = model.objects.filter(**values)
        if self.instance is not None:
            qs = qs.exclude(pk=self.instance.pk)
        if qs.exists():
            raise serializers.ValidationError({"__all__": [message]})


def validate_variables(value):
    if value in (None, ""):
        return ""
    if isinstance(value, dict):
        return json.dumps(value)
    try:
        json.loads(value)
        return value
    except ValueError:
        pass
    try:
        parsed = yaml.safe_load(value)
    except yaml.YAMLError as exc:
        raise serializers.ValidationError("Cannot parse as JSON (error: %s) or YAML." % exc)
    if parsed is not None and not isinstance(parsed, dict):
        raise serializers.ValidationError("Input type `%s` is not a dictionary" % type(parsed).__name__)
    return value


class VariablesField(serializers.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            return json.dumps(data)
        return validate_variables(super().to_internal_value(data))

    def validate_empty_values(self, data):
        if data is None:
            return (True, "")
        return super().validate_empty_values(data)


class OrganizationSerializer(ResourceSerializer):
    type_name = "organization"
    url_base = "organizations"

    class Meta:
        model = Organization
        fields = ResourceSerializer.base_fields + ("name", "description", "max_hosts", "custom_virtualenv", "default_environment")
        validators = []

    max_hosts = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2147483647)
    custom_virtualenv = serializers.SerializerMethodField()

    def get_custom_virtualenv(self, obj):
        return None

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {
            name: base + name + "/"
            for name in (
                "execution_environments", "projects", "inventories", "job_templates", "workflow_job_templates", "users",
                "admins", "teams", "credentials", "applications", "activity_stream", "notification_templates",
                "notification_templates_started", "notification_templates_success", "notification_templates_error",
                "notification_templates_approvals", "object_roles", "access_list", "instance_groups", "galaxy_credentials",
            )
        }
        if not settings.CONTROLLER_OAUTH2:
            del related["applications"]
        if obj.default_environment_id:
            related["default_environment"] = "/api/v2/execution_environments/%d/" % obj.default_environment_id
        return related

    def get_summary_fields(self, obj):
        data = {"resource": resource_summary("organization", obj.pk), "user_capabilities": {"edit": True, "delete": True}}
        ee = obj.default_environment
        if ee is not None:
            data["default_environment"] = {"id": ee.id, "name": ee.name, "description": ee.description, "image": ee.image}
        return data

    def validate(self, attrs):
        request = self.context.get("request")
        if request is not None and not request.user.is_superuser and "max_hosts" in attrs:
            if attrs["max_hosts"] != getattr(self.instance, "max_hosts", 0):
                raise serializers.ValidationError(["Cannot change max_hosts."])
        self.unique_error(Organization, ("name",), attrs, "Organization with this Name already exists.")
        return attrs


class InventorySerializer(ResourceSerializer):
    type_name = "inventory"
    url_base = "inventories"
    variables = VariablesField()
    kind = serializers.ChoiceField(choices=[("", "Hosts have a direct link to this inventory."), ("smart", "Hosts for inventory generated using the host_filter property."), ("constructed", "Parse list of source inventories with the constructed inventory plugin.")], required=False, allow_blank=True, allow_null=True)

    class Meta:
        model = Inventory
        fields = ResourceSerializer.base_fields + (
            "name", "description", "organization", "kind", "host_filter", "variables", "has_active_failures",
            "total_hosts", "hosts_with_active_failures", "total_groups", "has_inventory_sources",
            "total_inventory_sources", "inventory_sources_with_failures", "pending_deletion", "prevent_instance_group_fallback",
        )
        validators = []

    total_hosts = serializers.SerializerMethodField()
    total_groups = serializers.SerializerMethodField()
    has_inventory_sources = serializers.SerializerMethodField()
    total_inventory_sources = serializers.SerializerMethodField()
    has_active_failures = serializers.SerializerMethodField()
    hosts_with_active_failures = serializers.SerializerMethodField()
    inventory_sources_with_failures = serializers.SerializerMethodField()
    pending_deletion = serializers.SerializerMethodField()

    def get_total_hosts(self, obj):
        return obj.hosts.count()

    def get_total_groups(self, obj):
        return obj.groups.count()

    def get_has_inventory_sources(self, obj):
        return obj.inventory_sources.exists()

    def get_total_inventory_sources(self, obj):
        return obj.inventory_sources.count()

    def get_has_active_failures(self, obj):
        return False

    def get_hosts_with_active_failures(self, obj):
        return 0

    def get_inventory_sources_with_failures(self, obj):
        return 0

    def get_pending_deletion(self, obj):
        return False

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {"organization": "/api/v2/organizations/%d/" % obj.organization_id}
        names = ["hosts", "variable_data", "script", "activity_stream", "job_templates", "ad_hoc_commands", "access_list",
                 "object_roles", "instance_groups", "copy", "labels"]
        if obj.kind in ("", "constructed"):
            # InventorySerializer.get_related: not for a smart inventory
            names += ["groups", "root_groups", "update_inventory_sources", "inventory_sources", "tree"]
        for name in names:
            related[name] = base + name + "/"
        if obj.kind == "constructed":
            related["input_inventories"] = base + "input_inventories/"
        return related

    def get_summary_fields(self, obj):
        org = obj.organization
        return {
            "organization": {"id": org.id, "name": org.name, "description": org.description},
            "created_by": user_summary(obj.created_by),
            "user_capabilities": {"edit": True, "delete": True, "copy": True, "adhoc": True},
            "labels": {"count": obj.labels.count(), "results": [{"id": lb.id, "name": lb.name} for lb in obj.labels.all()[:10]]},
        }

    def validate_kind(self, value):
        return value or ""

    def validate(self, attrs):
        self.unique_error(Inventory, ("name", "organization"), attrs, "Inventory with this Name and Organization already exists.")
        return attrs


class HostSerializer(ResourceSerializer):
    type_name = "host"
    url_base = "hosts"
    variables = VariablesField()

    class Meta:
        model = Host
        fields = ResourceSerializer.base_fields + ("name", "description", "inventory", "enabled", "instance_id", "variables")
        validators = []

    def get_related(self, obj):
        base = self.get_url(obj)
        return {"inventory": "/api/v2/inventories/%d/" % obj.inventory_id, "variable_data": base + "variable_data/",
                "groups": base + "groups/", "all_groups": base + "all_groups/"}

    def get_summary_fields(self, obj):
        inv = obj.inventory
        summary = {
            "inventory": {"id": inv.id, "name": inv.name, "description": inv.description, "kind": inv.kind, "organization_id": inv.organization_id},
            "created_by": user_summary(obj.created_by),
            "user_capabilities": {"edit": True, "delete": True},
            "groups": {"count": obj.groups.count(), "results": [{"id": g.id, "name": g.name} for g in obj.groups.order_by("id")[:5]]},
        }
        if obj.created_by is None:
            # a host made through bulk/host_create has no maker, and AWX leaves the key out
            # (BaseSerializer.get_summary_fields adds created_by only when there is one)
            del summary["created_by"]
        return summary

    def validate(self, attrs):
        name = attrs.get("name", self.instance.name if self.instance else "")
        inventory = attrs.get("inventory", self.instance.inventory if self.instance else None)
        if inventory is not None and inventory.groups.filter(name=name).exists():
            raise serializers.ValidationError("A Group with that name already exists.")
        self.unique_error(Host, ("name", "inventory"), attrs, "Host with this Name and Inventory already exists.")
        return attrs


class CredentialTypeSerializer(ResourceSerializer):
    type_name = "credential_type"
    url_base = "credential_types"

    class Meta:
        model = CredentialType
        fields = ResourceSerializer.base_fields + ("name", "description", "kind", "namespace", "managed", "inputs", "injectors")
        read_only_fields = ("managed",)


def secret_fields(credential_type):
    return {f["id"] for f in (credential_type.inputs or {}).get("fields", []) if f.get("secret")}


class CredentialSerializer(ResourceSerializer):
    type_name = "credential"
    url_base = "credentials"
    inputs = serializers.JSONField(required=False, default=dict)
    user = serializers.PrimaryKeyRelatedField(
        queryset=User.objects.all(), required=False, default=None, write_only=True, allow_null=True,
        help_text="Write-only field used to add user to owner role. If provided, do not give either team or organization. Only valid for creation.",
    )
    team = serializers.IntegerField(
        required=False, default=None, write_only=True, allow_null=True,
        help_text="Write-only field used to add team to owner role. If provided, do not give either user or organization. Only valid for creation.",
    )

    class Meta:
        model = Credential
        fields = ResourceSerializer.base_fields + ("name", "description", "organization", "credential_type", "inputs", "user", "team")
        validators = []
        extra_kwargs = {"organization": {"required": False, "default": None, "allow_null": True}}

    def get_fields(self):
        fields = super().get_fields()
        if isinstance(self.instance, Credential):
            fields.pop("user", None)
            fields.pop("team", None)
        return fields

    def owner_users(self, obj):
        from refsvc.resources.models import CredentialOwner

        return [link.user for link in CredentialOwner.objects.filter(credential=obj).select_related("user")]

    def create(self, validated_data):
        from refsvc.resources.models import CredentialOwner

        user = validated_data.pop("user", None)
        validated_data.pop("team", None)
        credential = super().create(validated_data)
        if user is not None:
            CredentialOwner.objects.create(credential=credential, user=user)
        return credential

    def validate_owners(self, attrs):
        owners = set()
        for field in ("user", "team", "organization"):
            if field in attrs:
                if attrs[field]:
                    owners.add(field)
                else:
                    attrs.pop(field)
        if not owners:
            raise serializers.ValidationError({"detail": ["Missing 'user', 'team', or 'organization'."]})
        if len(owners) > 1:
            raise serializers.ValidationError(
                {"detail": ["Only one of 'user', 'team', or 'organization' should be provided, received {} fields.".format(", ".join(sorted(owners)))]}
            )
        if "team" in owners:
            # No teams are served here: every team id is unknown.
            raise serializers.ValidationError({"team": ['Invalid pk "%s" - object does not exist.' % attrs["team"]]})
        ct = attrs.get("credential_type")
        if ct is not None and ct.kind == "galaxy" and owners != {"organization"}:
            raise serializers.ValidationError({"organization": ["Galaxy credentials must be owned by an Organization."]})

    def to_representation(self, obj):
        data = super().to_representation(obj)
        secrets = secret_fields(obj.credential_type)
        data["inputs"] = {k: (ENCRYPTED if k in secrets and v not in ("", None) else v) for k, v in (obj.inputs or {}).items()}
        data["kind"] = obj.credential_type.namespace
        data["cloud"] = obj.credential_type.kind == "cloud"
        data["kubernetes"] = obj.credential_type.kind == "kubernetes"
        data["managed"] = False
        return data

    def get_related(self, obj):
        related = {"credential_type": "/api/v2/credential_types/%d/" % obj.credential_type_id}
        base = self.get_url(obj)
        for name in ("activity_stream", "access_list", "object_roles", "owner_users", "owner_teams", "copy", "input_sources"):
            related[name] = base + name + "/"
        if obj.organization_id:
            related["organization"] = "/api/v2/organizations/%d/" % obj.organization_id
        else:
            users = self.owner_users(obj)
            if users:
                related["user"] = "/api/v2/users/%d/" % users[0].id
        return related

    def get_summary_fields(self, obj):
        ct = obj.credential_type
        summary = {"credential_type": {"id": ct.id, "name": ct.name, "description": ct.description}, "created_by": user_summary(obj.created_by)}
        owners = [
            {"id": u.id, "type": "user", "name": u.username, "description": " ".join([u.first_name, u.last_name]), "url": "/api/v2/users/%d/" % u.id}
            for u in self.owner_users(obj)
        ]
        if obj.organization_id:
            org = obj.organization
            summary["organization"] = {"id": org.id, "name": org.name, "description": org.description}
            owners.append({"id": org.id, "type": "organization", "name": org.name, "description": org.description, "url": "/api/v2/organizations/%d/" % org.id})
        summary["owners"] = owners
        return summary

    def validate_inputs(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("Must be an object.")
        return value

    def validate(self, attrs):
        if self.instance is None:
            self.validate_owners(attrs)
        ct = attrs.get("credential_type") or (self.instance.credential_type if self.instance else None)
        inputs = attrs.get("inputs")
        if ct is not None and inputs is not None:
            if self.instance is not None:
                # "$encrypted$" keeps the stored secret.
                merged = dict(inputs)
                for k, v in inputs.items():
                    if v == ENCRYPTED and k in (self.instance.inputs or {}):
                        merged[k] = self.instance.inputs[k]
                attrs["inputs"] = merged
            credential_inputs.check(ct, attrs["inputs"], creating=self.instance is None)
        self.unique_error(Credential, ("organization", "name", "credential_type"), attrs, "Credential with this Organization, Name and Credential type already exists.")
        return attrs


class UserSerializer(ResourceSerializer):
    type_name = "user"
    url_base = "users"
    password = serializers.CharField(required=False, default="", write_only=True, allow_blank=True, allow_null=True, trim_whitespace=False)
    is_system_auditor = serializers.BooleanField(required=False, default=False)
    created = serializers.DateTimeField(source="date_joined", read_only=True)
    modified = serializers.SerializerMethodField()
    external_account = serializers.SerializerMethodField()
    auth = serializers.SerializerMethodField()
    ldap_dn = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ResourceSerializer.base_fields + (
            "username", "first_name", "last_name", "email", "is_superuser", "is_system_auditor",
            "password", "ldap_dn", "last_login", "external_account", "auth",
        )
        read_only_fields = ("last_login",)

    def get_modified(self, obj):
        # BaseSerializer.get_modified: a user's is its last login (null before the first)
        return serializers.DateTimeField().to_representation(obj.last_login) if obj.last_login else None

    def get_external_account(self, obj):
        return profile_of(obj).external_account

    def get_auth(self, obj):
        # The user's single sign-on identities (social_django), as the real service lists them.
        social = getattr(obj, "social_auth", None)
        return [{"provider": link.provider, "uid": link.uid} for link in social.all()] if social is not None else []

    def get_ldap_dn(self, obj):
        return ""

    def get_related(self, obj):
        # AWX 24.6.1 (awx/api/serializers.py UserSerializer.get_related) links teams, organizations,
        # admin_of_organizations, projects, credentials, roles, activity_stream, access_list and the token
        # lists; the ones served here.
        base = self.get_url(obj)
        related = {"organizations": base + "organizations/", "roles": base + "roles/"}
        if settings.CONTROLLER_OAUTH2:
            related.update({name: base + name + "/" for name in ("tokens", "personal_tokens", "authorized_tokens")})
        return related

    def get_summary_fields(self, obj):
        data = {"resource": resource_summary("user", obj.pk)}
        request = self.context.get("request")
        if request is not None and request.user.is_authenticated:
            # UserSerializer.show_capabilities (edit, delete) as UserAccess decides them: a user edits
            # itself and is not deleted by itself.
            from . import access

            data["user_capabilities"] = {
                "edit": access.allows(request.user, "change", obj),
                "delete": access.allows(request.user, "delete", obj),
            }
        return data

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["is_system_auditor"] = profile_of(obj).is_system_auditor
        # AWX 24.6.1's UserSerializer.to_representation: the password is shown as $encrypted$.
        data["password"] = ENCRYPTED
        return data

    def _save_extra(self, user, password, auditor):
        if password not in (None, "", ENCRYPTED):
            user.set_password(password)
            user.save(update_fields=["password"])
            # As the real UserSerializer: the requesting session's key is cycled (the old
            # session deleted, the new one in the answer's cookie), whoever's password it was.
            request = self.context.get("request")
            if request is not None and hasattr(request, "session"):
                update_session_auth_hash(request, user)
        if auditor is not None:
            profile = profile_of(user)
            if profile.is_system_auditor != auditor:
                profile.is_system_auditor = auditor
                profile.save()

    def create(self, validated_data):
        password = validated_data.pop("password", "")
        auditor = validated_data.pop("is_system_auditor", False)
        user = User(**validated_data)
        user.set_unusable_password()
        user.save()
        self._save_extra(user, password, auditor)
        return user

    def update(self, instance, validated_data):
        password = validated_data.pop("password", "")
        auditor = validated_data.pop("is_system_auditor", None) if "is_system_auditor" in self.initial_data else None
        validated_data.pop("is_system_auditor", None)
        instance = super().update(instance, validated_data)
        self._save_extra(instance, password, auditor)
        return instance


class TokenSerializer(ResourceSerializer):
    type_name = "o_auth2_access_token"
    url_base = "tokens"
    modified = serializers.DateTimeField(source="updated", read_only=True)
    token = serializers.SerializerMethodField()
    refresh_token = serializers.SerializerMethodField()
    scope = serializers.CharField(required=False, default="write", allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True, allow_null=True, default="")
    user = serializers.PrimaryKeyRelatedField(read_only=True)
    application = serializers.PrimaryKeyRelatedField(read_only=True)
    expires = serializers.DateTimeField(read_only=True)

    class Meta:
        model = OAuth2AccessToken
        fields = ResourceSerializer.base_fields + ("description", "user", "token", "refresh_token", "application", "expires", "scope")

    def get_token(self, obj):
        secret = getattr(obj, "_svc_secret", None)
        return secret if secret else HIDDEN_TOKEN

    def get_refresh_token(self, obj):
        if obj.application_id is None:
            return None
        secret = getattr(obj, "_svc_refresh_secret", None)
        return secret if secret else HIDDEN_TOKEN

    def get_related(self, obj):
        related = {"user": "/api/v2/users/%d/" % obj.user_id, "activity_stream": self.get_url(obj) + "activity_stream/"}
        if obj.application_id:
            related["application"] = "/api/v2/applications/%d/" % obj.application_id
        return related

    def get_summary_fields(self, obj):
        summary = {"user": user_summary(obj.user)}
        if obj.application_id:
            summary["application"] = {"id": obj.application.id, "name": obj.application.name}
        return summary

    def validate_scope(self, value):
        words = (value or "").split()
        if not words or any(w not in ("read", "write") for w in words) or value != " ".join(words):
            raise serializers.ValidationError(SCOPE_ERROR)
        return value

    def validate_description(self, value):
        return value or ""
