"""The gateway's representations of the users, organizations and teams it shares with the
controller (the fields the platform's gateway answers with, as ansible.platform's modules and
django-ansible-base's common serializers read them)."""
from ansible_base.authentication.models import Authenticator, AuthenticatorUser
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from rest_framework import serializers

from refsvc.gateway import controller
from refsvc.gateway.models import Authorship, SharedDescription
from refsvc.gateway.resource_api import resource_summary
from refsvc.rbac.models import Team
from refsvc.svc import runtime
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
    created_by = serializers.SerializerMethodField()
    modified = serializers.DateTimeField(read_only=True)
    modified_by = serializers.SerializerMethodField()

    def get_url(self, obj):
        return _url(self.kind, obj.pk)

    def _authorship(self, obj):
        if not hasattr(obj, "_gateway_authorship"):
            obj._gateway_authorship = Authorship.objects.filter(kind=obj._meta.model_name, object_id=obj.pk).first()
        return obj._gateway_authorship

    # The user who made and who last changed the object (the 2.7 schema's; null: made by no user, or before the
    # gateway kept it): the object's own columns (django-ansible-base's CreatableModel, ModifiableModel), else
    # the gateway's record of a row it shares with the controller (Authorship; the controller's own
    # ``created_by`` of a team is the controller's).
    def get_created_by(self, obj) -> int:
        if obj._meta.app_label == "gateway":
            return obj.created_by_id
        kept = self._authorship(obj)
        return kept.created_by_id if kept is not None else None

    def get_modified_by(self, obj) -> int:
        if obj._meta.app_label == "gateway":
            return obj.modified_by_id
        kept = self._authorship(obj)
        return kept.modified_by_id if kept is not None else None

    def get_related(self, obj):
        return {}

    def get_summary_fields(self, obj):
        return resource_summary(obj)


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
        fields = ["id", "url", "related", "summary_fields", "created", "created_by", "modified", "modified_by", "name",
                  "description", "managed"]

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
        fields = ["id", "url", "related", "summary_fields", "created", "created_by", "modified", "modified_by", "name",
                  "description", "organization"]

    def get_related(self, obj):
        return {"organization": _url("organizations", obj.organization_id)}

    def get_summary_fields(self, obj):
        org = obj.organization
        return {**resource_summary(obj),
                "organization": {"id": org.pk, "name": org.name, "description": gateway_description(org)}}


LOCAL_TYPE = "ansible_base.authentication.authenticator_plugins.local"
DEPRECATED = "The '%s' field is deprecated; use 'associated_authenticators' to set the uid of each authenticator."


def _authenticators(ids):
    """The authenticators of ``ids`` (a 400 naming the first missing one, as the gateway's choice field)."""
    found = {}
    for value in ids:
        try:
            found[int(value)] = Authenticator.objects.get(pk=int(value))
        except (TypeError, ValueError, Authenticator.DoesNotExist):
            raise serializers.ValidationError({"authenticators": ['"%s" is not a valid choice.' % value]})
    return found


def _release():
    from refsvc.gateway.preferences import release

    return release()


def _uid_taken(user, provider_id, uid):
    others = AuthenticatorUser.objects.filter(provider__id=provider_id, uid=uid)
    if user is not None and user.pk is not None:
        others = others.exclude(user=user)
    return others.exists()


class UserSerializer(_Common):
    kind = "users"
    created = serializers.DateTimeField(source="date_joined", read_only=True)
    modified = serializers.SerializerMethodField()
    password = serializers.CharField(write_only=False, required=False, allow_blank=True, default="")
    # read-only, as the published schemas (2.6, 2.7) have it: the "Platform Auditor" role assignment (auditor.py)
    is_platform_auditor = serializers.BooleanField(read_only=True)
    managed = serializers.SerializerMethodField()
    last_login_from = serializers.SerializerMethodField()
    # The authenticators the user logs in through: django-ansible-base's AuthenticatorUser links (made at a
    # user's first login through an SSO or LDAP authenticator, or given here by a superuser).
    authenticators = serializers.ListField(child=serializers.CharField(), required=False)
    authenticator_uid = serializers.CharField(required=False, allow_blank=True)
    associated_authenticators = serializers.JSONField(required=False)

    class Meta:
        model = get_user_model()
        fields = [
            "id", "url", "related", "summary_fields", "created", "created_by", "modified", "modified_by", "username",
            "email", "first_name", "last_name", "last_login", "last_login_from", "password", "is_superuser", "is_platform_auditor", "managed",
            "authenticators", "authenticator_uid", "associated_authenticators",
        ]
        read_only_fields = ["last_login"]

    def get_modified(self, obj):
        return serializers.DateTimeField().to_representation(obj.last_login or obj.date_joined)

    def get_managed(self, obj):
        return False

    def get_last_login_from(self, obj) -> str:
        """The name of the authenticator the user last logged in through: django-ansible-base's authenticator
        backend stamps a link's ``extra_data["auth_time"]`` at each login through it (``update_user_claims``);
        null when the user never logged in through one (the schema's description)."""
        stamped = [(link.extra_data.get("auth_time"), link.provider.name) for link in self._links(obj)
                   if isinstance(link.extra_data, dict) and link.extra_data.get("auth_time")]
        return max(stamped)[1] if stamped else None

    @staticmethod
    def _links(obj):
        if obj is None or obj.pk is None:
            return []
        return list(obj.authenticator_users.select_related("provider").order_by("id"))

    def to_representation(self, obj):
        data = super().to_representation(obj)
        # a user with no password to log in with (made without one): ansible.platform 2.6.20250924's
        # lookup_test reads "Password Disabled" there
        data["password"] = "$encrypted$" if obj.has_usable_password() else "Password Disabled"
        profile = UserProfile.objects.filter(user=obj).first()
        data["is_platform_auditor"] = bool(profile and profile.is_system_auditor)
        if runtime.get("GATEWAY_USER_LINKS_SHOWN"):     # else write-only, as the published schemas have them
            data.update(self._shown_links(obj))
        if _release() == "2.6":
            # 2.6's read-only boolean (2.7's schema has it no more); false: the reference gateway checks every
            # user's password itself, none at a controller.
            data["use_controller_password"] = False
        warnings = getattr(self, "_warnings", None)
        if warnings:
            data["warnings"] = list(warnings)
        return data

    def _shown_links(self, obj):
        data = {}
        links = self._links(obj)
        data["authenticators"] = [link.provider.id for link in links]
        # the uid of the link the user last logged in through (the real gateway's last_login_from); here the
        # first; a local user without links: its username
        data["authenticator_uid"] = links[0].uid if links else obj.username
        associated = {}
        for link in links:
            associated[str(link.provider.id)] = {"uid": link.uid}
            if link.email:
                associated[str(link.provider.id)]["email"] = link.email
        data["associated_authenticators"] = associated
        return data

    # -- the links, as the gateway's own tests describe them (tests/service/README.md) --

    def _superuser_only(self, field):
        request = self.context.get("request")
        if request is not None and not request.user.is_superuser:
            raise serializers.ValidationError(
                {field: ["Only superusers can manage %s using this field." % field]})

    def validate_associated_authenticators(self, value):
        self._superuser_only("associated_authenticators")
        if not isinstance(value, dict):
            raise serializers.ValidationError("Expected a dictionary of authenticator ids.")
        missing = []
        wanted = {}
        for key, entry in value.items():
            try:
                provider = Authenticator.objects.filter(pk=int(key)).first()
            except (TypeError, ValueError):
                provider = None
            if provider is None:
                missing.append(str(key))
                continue
            if not isinstance(entry, dict) or not entry.get("uid"):
                raise serializers.ValidationError("A uid is needed for authenticator '%s'." % key)
            unknown = sorted(set(entry) - {"uid", "email"})
            if unknown:
                raise serializers.ValidationError("Unknown key(s) for authenticator '%s': %s. Only 'uid' and 'email' "
                                                  "are allowed." % (key, ", ".join(unknown)))
            email = entry.get("email")
            if email:
                try:
                    validate_email(email)
                except DjangoValidationError:
                    raise serializers.ValidationError("The email '%s' for authenticator '%s' is not a valid email "
                                                      "address." % (email, key))
            if _uid_taken(self.instance, provider.id, entry["uid"]):
                raise serializers.ValidationError("The uid '%s' of authenticator '%s' is already in use by another "
                                                  "user." % (entry["uid"], key))
            wanted[provider.id] = (provider, str(entry["uid"]), email or None)
        if missing:
            raise serializers.ValidationError("The following authenticator IDs do not exist: %s" % ", ".join(missing))
        return wanted

    def validate(self, attrs):
        attrs = super().validate(attrs)
        self._warnings = []
        if "associated_authenticators" in attrs:      # it takes precedence over the deprecated pair
            attrs.pop("authenticators", None)
            attrs.pop("authenticator_uid", None)
            return attrs
        if "authenticators" not in attrs and "authenticator_uid" not in attrs:
            return attrs
        self._superuser_only("authenticators" if "authenticators" in attrs else "authenticator_uid")
        for field in ("authenticators", "authenticator_uid"):
            if field in attrs:
                self._warnings.append(DEPRECATED % field)
        current = dict((link.provider.id, link) for link in self._links(self.instance))
        uid = attrs.get("authenticator_uid")
        if "authenticators" not in attrs:
            if not uid:
                raise serializers.ValidationError({"authenticator_uid": ["The authenticator_uid cannot be empty."]})
            if len(current) > 1:
                self._warnings.append("The user has multiple authenticators: the uid is set on the authenticator from "
                                      "'last_login_from'; use associated_authenticators to set each.")
            return attrs
        wanted = _authenticators(attrs["authenticators"])
        new = [pk for pk in wanted if pk not in current]
        removing = [pk for pk in current if pk not in wanted]
        if not wanted:
            if uid:
                raise serializers.ValidationError(
                    {"authenticator_uid": ["The authenticator_uid should be empty when removing all authenticators."]})
        elif len(new) > 1:
            raise serializers.ValidationError({"authenticators": [
                "Cannot add multiple new authenticators with one authenticator_uid; use associated_authenticators."]})
        elif new and not uid:
            raise serializers.ValidationError(
                {"authenticator_uid": ["An authenticator_uid must be provided when adding a new authenticator."]})
        elif uid is not None and not uid or (uid is None and not removing):
            raise serializers.ValidationError({"authenticator_uid": ["The authenticator_uid cannot be empty."]})
        for pk in wanted:
            if uid and _uid_taken(self.instance, pk, uid):
                errors = {"authenticator_uid": ["The uid '%s' is already in use at authenticator %s." % (uid, pk)]}
                if pk in new:
                    errors["authenticators"] = ["Authenticator %s already links uid '%s' to another user." % (pk, uid)]
                raise serializers.ValidationError(errors)
        attrs["authenticators"] = wanted
        return attrs

    def _link(self, user, wanted_links=None, ids=None, uid=None):
        """Make the user's links: ``wanted_links`` {id: (authenticator, uid, email)} replaces them all; ``ids``
        {id: authenticator} with ``uid`` (the deprecated pair) keeps the listed ones, their uid set to ``uid`` when
        given (chosen here), and makes the new one; ``uid`` alone sets the first link's."""
        links = dict((link.provider.id, link) for link in self._links(user))
        if wanted_links is None and ids is None:
            if uid and links:
                first = self._links(user)[0]
                first.uid = uid
                first.save()
            return
        if wanted_links is None:
            wanted_links = dict((pk, (provider, uid or (links[pk].uid if pk in links else None),
                                      links[pk].email if pk in links else None)) for pk, provider in ids.items())
        for pk, link in links.items():
            if pk not in wanted_links:
                link.delete()
        for pk, (provider, link_uid, email) in wanted_links.items():
            if provider.type == LOCAL_TYPE:
                link_uid = user.username        # a local authenticator's uid is the username
            link = links.get(pk)
            if link is None:
                AuthenticatorUser.objects.create(user=user, provider=provider, uid=link_uid, email=email)
            elif (link.uid, link.email) != (link_uid, email):
                link.uid, link.email = link_uid, email
                link.save()

    def _save(self, user, validated):
        password = validated.pop("password", None)
        wanted_links = validated.pop("associated_authenticators", None)
        ids = validated.pop("authenticators", None)
        uid = validated.pop("authenticator_uid", None)
        renamed = user.pk is not None and "username" in validated and validated["username"] != user.username
        for key, value in validated.items():
            setattr(user, key, value)
        if password and password != "$encrypted$":
            user.set_password(password)
        elif user.pk is None:
            user.set_unusable_password()
        user.save()
        if renamed:     # a local authenticator's uid follows the username
            for link in self._links(user):
                if link.provider.type == LOCAL_TYPE:
                    link.uid = user.username
                    link.save()
        self._link(user, wanted_links, ids, uid)
        return user

    def create(self, validated):
        return self._save(self.Meta.model(), validated)

    def update(self, instance, validated):
        return self._save(instance, validated)


class AppUrlSerializer(serializers.Serializer):
    """An OAuth2 application's name and URL (``app_urls/``; the 2.7 schema's ``AppUrl``), the
    application's own fields (django-ansible-base's ``OAuth2Application``); ``url`` is the application's."""

    id = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()
    related = serializers.SerializerMethodField()
    summary_fields = serializers.SerializerMethodField()
    created = serializers.DateTimeField(read_only=True)
    created_by = serializers.IntegerField(source="created_by_id", read_only=True)
    modified = serializers.DateTimeField(read_only=True)
    modified_by = serializers.IntegerField(source="modified_by_id", read_only=True)
    name = serializers.CharField(read_only=True)
    app_url = serializers.CharField(read_only=True, allow_null=True)

    def get_url(self, obj):
        return _url("applications", obj.pk)

    def get_related(self, obj):
        return {}

    def get_summary_fields(self, obj):
        return {}


class AuthenticatorUserSerializer(serializers.ModelSerializer):
    """A user's link to an authenticator (``authenticator_users/``; the 2.7 schema's ``AuthenticatorUser``):
    django-ansible-base's ``AuthenticatorUser``; ``provider`` is the authenticator's slug (its key)."""

    url = serializers.SerializerMethodField()
    related = serializers.SerializerMethodField()
    summary_fields = serializers.SerializerMethodField()
    provider = serializers.CharField(source="provider_id", read_only=True)
    created = serializers.DateTimeField(read_only=True)
    modified = serializers.DateTimeField(read_only=True)

    class Meta:
        model = AuthenticatorUser
        fields = ["id", "url", "related", "summary_fields", "provider", "user", "claims", "last_login_map_results",
                  "access_allowed", "uid", "created", "modified"]
        read_only_fields = fields

    def get_url(self, obj):
        return _url("authenticator_users", obj.pk)

    def get_related(self, obj):
        return {"user": _url("users", obj.user_id), "authenticator": _url("authenticators", obj.provider.pk)}

    def get_summary_fields(self, obj):
        return {"user": {"id": obj.user_id, "username": obj.user.username},
                "authenticator": {"id": obj.provider.pk, "name": obj.provider.name, "type": obj.provider.type}}


class AuthenticatorUserMoveSerializer(serializers.Serializer):
    """The body of ``authenticator_users/<id>/move/`` (the 2.6 and 2.7 schemas' ``AuthenticatorUserMove``, which the
    answer repeats)."""

    new_authenticator = serializers.IntegerField(help_text="Id of the authenticator the link goes to.")
    keep_memberships = serializers.BooleanField(
        help_text="Whether the user keeps its role assignments (else the new authenticator's maps give them).")
    merge_with_user = serializers.IntegerField(required=False, allow_null=True,
                                               help_text="Id of a user the moved account is merged into.")
    new_uid = serializers.CharField(required=False, allow_null=True, allow_blank=False,
                                    help_text="The user's id at the new authenticator (else the link's uid).")
    merge_accounts_with_same_uid = serializers.BooleanField(
        help_text="Whether to merge into the user the new authenticator links to the same uid (not with "
                  "merge_with_user).")
    remove_other_authenticators = serializers.BooleanField(
        help_text="Whether the user's other links to the old authenticator are deleted.")

    def validate_new_authenticator(self, value):
        found = Authenticator.objects.filter(pk=value).first()
        if found is None:
            raise serializers.ValidationError('Invalid pk "%s" - object does not exist.' % value)
        return value

    def validate_merge_with_user(self, value):
        if value is not None and not get_user_model().objects.filter(pk=value).exists():
            raise serializers.ValidationError('Invalid pk "%s" - object does not exist.' % value)
        return value

    def validate(self, attrs):
        if attrs.get("merge_with_user") is not None and attrs.get("merge_accounts_with_same_uid"):
            message = "merge_with_user and merge_accounts_with_same_uid are mutually exclusive."
            raise serializers.ValidationError({"merge_with_user": [message], "merge_accounts_with_same_uid": [message]})
        link = self.context["link"]
        if attrs["new_authenticator"] == link.provider.pk:
            raise serializers.ValidationError(
                {"new_authenticator": ["The user is already linked to this authenticator."]})
        return attrs

    def move(self):
        """Moves the link (django-ansible-base's ``move_authenticator_user_to`` of the old authenticator's plugin:
        the old link deleted, a merged user's relations copied to the user merged into; the merged user itself stays), then links
        the user at the new authenticator with the new uid (else the old one)."""
        from ansible_base.authentication.authenticator_plugins.utils import get_authenticator_class
        from django.db import transaction

        from refsvc.rbac.models import RoleUserAssignment

        attrs = self.validated_data
        link = self.context["link"]
        old_user, old_provider = link.user, link.provider
        new_provider = Authenticator.objects.get(pk=attrs["new_authenticator"])
        uid = attrs.get("new_uid") or link.uid
        taken = AuthenticatorUser.objects.filter(provider=new_provider, uid=uid).exclude(user=old_user).first()
        if attrs.get("merge_with_user") is not None:
            new_user = get_user_model().objects.get(pk=attrs["merge_with_user"])
        elif taken is not None and attrs["merge_accounts_with_same_uid"]:
            new_user = taken.user
        elif taken is not None:
            raise serializers.ValidationError({"new_uid": [
                "The uid '%s' of authenticator %s is linked to another user; merge the accounts to move this user "
                "there." % (uid, new_provider.pk)]})
        else:
            new_user = old_user
        with transaction.atomic():
            try:
                plugin = get_authenticator_class(old_provider.type)(database_instance=old_provider)
            except ImportError:     # a plugin whose library is missing: the link is deleted all the same
                link.delete()
            else:
                plugin.move_authenticator_user_to(new_user, link)
            AuthenticatorUser.objects.get_or_create(provider=new_provider, user=new_user, uid=uid)
            if attrs["remove_other_authenticators"]:
                AuthenticatorUser.objects.filter(user=old_user, provider=old_provider).delete()
            if not attrs["keep_memberships"]:
                # the memberships (the user's role assignments, which the gateway mirrors as the organizations' and
                # teams' members and admins) go; the new authenticator's maps give them at the next login
                for assignment in RoleUserAssignment.objects.filter(user=new_user):
                    assignment.delete()
        return dict(attrs)
