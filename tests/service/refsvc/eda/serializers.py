"""EDA's representations (the published schema eda-2.7.json; eda-server's src/aap_eda/api/serializers/, stable-2.7):
a read serializer per object and, where EDA takes other fields than it answers, a create serializer.

What eda-server checks of a credential's inputs is checked here in part (``validate_inputs``): keys the type does not
define, a required field left blank, a value that is neither a string nor a boolean, a boolean field, the choices. Not
checked here: the formats (``ssh_private_key``, ``pem_certificate``, ``url``...), a GPG key, a registry host name."""
import re

from django.contrib.auth import get_user_model
from rest_framework import serializers
from rest_framework.exceptions import APIException

from refsvc.gateway.models import Authorship
from refsvc.gateway.resource_api import resource_summary
from refsvc.rbac.models import Team
from refsvc.svc.models import Organization

from .models import ENCRYPTED, PULL_POLICIES, to_display, AwxToken, CredentialInputSource, CredentialType, DecisionEnvironment, EdaCredential


class Conflict(APIException):
    """eda-server's ``Conflict`` (409, ``{"detail": ...}``)."""

    status_code = 409
    default_detail = "Conflict"


def basic_user(user):
    """eda-server's ``BasicUserSerializer``: who made or changed an object (its fields null without one)."""
    if user is None:
        return {"id": None, "username": "", "first_name": "", "last_name": ""}
    return {"id": user.pk, "username": user.username, "first_name": user.first_name, "last_name": user.last_name}


def resource_of(obj):
    """The shared object's resource (``ansible_id``, ``resource_type``), as the registry keeps it."""
    return resource_summary(obj).get("resource") or {}


def organization_ref(org):
    return {"id": org.pk, "name": org.name, "description": org.description} if org is not None else None


def authorship(obj):
    kept = Authorship.objects.filter(kind=obj._meta.model_name, object_id=obj.pk).first()
    return (kept.created_by_id, kept.modified_by_id) if kept is not None else (None, None)


def check_organization(organization_id):
    if organization_id is None or not Organization.objects.filter(pk=organization_id).exists():
        raise serializers.ValidationError("Organization with id %s does not exist" % organization_id)
    return organization_id


# -- users, organizations, teams (the gateway's, read with EDA's serializers)

class OrganizationSerializer(serializers.ModelSerializer):
    resource = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    modified_by = serializers.SerializerMethodField()

    class Meta:
        model = Organization
        fields = ["id", "name", "description", "resource", "created", "created_by", "modified", "modified_by"]
        read_only_fields = fields

    def get_resource(self, obj) -> dict:
        return resource_of(obj)

    def get_created_by(self, obj) -> int:
        return authorship(obj)[0]

    def get_modified_by(self, obj) -> int:
        return authorship(obj)[1]


class TeamSerializer(OrganizationSerializer):
    organization_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "description", "organization_id", "resource", "created", "created_by", "modified",
                  "modified_by"]
        read_only_fields = fields


class TeamDetailSerializer(TeamSerializer):
    organization = serializers.SerializerMethodField()

    class Meta(TeamSerializer.Meta):
        fields = ["id", "name", "description", "organization", "resource", "created", "created_by", "modified",
                  "modified_by"]
        read_only_fields = fields

    def get_organization(self, obj) -> dict:
        return organization_ref(obj.organization)


class UserListSerializer(serializers.ModelSerializer):
    resource = serializers.SerializerMethodField()

    class Meta:
        model = get_user_model()
        fields = ["id", "username", "first_name", "last_name", "is_superuser", "resource"]
        read_only_fields = fields

    def get_resource(self, obj) -> dict:
        return resource_of(obj)


class UserDetailSerializer(UserListSerializer):
    created_at = serializers.DateTimeField(source="date_joined", read_only=True)
    modified_at = serializers.SerializerMethodField()

    class Meta(UserListSerializer.Meta):
        fields = ["id", "username", "email", "first_name", "last_name", "is_superuser", "resource", "created_at",
                  "modified_at"]
        read_only_fields = fields

    def get_modified_at(self, obj) -> str:
        # eda-server's user has a modified_at of its own; the gateway's user keeps none: its last login, else
        # when it was made (as the gateway's own ``modified`` here)
        return serializers.DateTimeField().to_representation(obj.last_login or obj.date_joined)


class UserUpdateIsSuperuserSerializer(serializers.Serializer):
    is_superuser = serializers.BooleanField(required=False)


# -- credential types

class CredentialTypeSerializer(serializers.ModelSerializer):
    class Meta:
        model = CredentialType
        fields = ["name", "namespace", "kind", "description", "inputs", "injectors", "id", "created_at", "modified_at",
                  "managed"]
        read_only_fields = ["id", "created_at", "modified_at", "managed"]


INJECTOR_KEYS = {"env", "extra_vars", "file"}


def schema_errors(schema):
    """eda-server's ``validate_schema``, in part: the shape of a type's ``inputs``."""
    errors = []
    if not isinstance(schema, dict):
        return ["schema must be in dict format"]
    fields = schema.get("fields")
    if not fields:
        return errors
    if not isinstance(fields, list):
        return ["'fields' must be a list"]
    ids = [f.get("id") for f in fields if isinstance(f, dict)]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        errors.append("Duplicate fields: %s found" % duplicates)
    for field in fields:
        if not isinstance(field, dict):
            errors.append("id must exist and be a string")
            continue
        for option in ("id", "label"):
            if not isinstance(field.get(option), str) or not field.get(option):
                errors.append("%s must exist and be a string" % option)
        fid = field.get("id") or ""
        if isinstance(fid, str) and fid.upper().startswith("EDA_"):
            errors.append("%s should not start with EDA_" % fid)
        if isinstance(fid, str) and fid and not re.match(r"^\w+$", fid):
            errors.append("%s can only contain alphanumeric and underscore characters" % fid)
        if field.get("type") and field["type"] not in ("string", "boolean"):
            errors.append("type must be either string or boolean")
    return errors


class CredentialTypeCreateSerializer(serializers.ModelSerializer):
    inputs = serializers.JSONField(required=False, default=dict, help_text="Inputs of the credential type")
    injectors = serializers.JSONField(required=False, default=dict, help_text="Injectors of the credential type")

    class Meta:
        model = CredentialType
        fields = ["name", "description", "inputs", "injectors"]

    def validate_inputs(self, value):
        errors = schema_errors(value)
        if errors:
            raise serializers.ValidationError(errors)
        return value

    def validate_injectors(self, value):
        """eda-server's ``validate_injectors`` (its words), in part: the templates' keys are not checked against the
        inputs here, nor the reserved and duplicate names."""
        if not isinstance(value, dict):
            raise serializers.ValidationError(["Injectors must be in Key-Value pairs format"])
        errors = []
        if not set(value) <= INJECTOR_KEYS:
            errors.append("Injectors must have keys defined in %s" % sorted(INJECTOR_KEYS))
        errors += ["%s must be a dict type" % key for key in sorted(INJECTOR_KEYS)
                   if value.get(key) and not isinstance(value[key], dict)]
        if errors:
            raise serializers.ValidationError(errors)
        return value


class CredentialTypeRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = CredentialType
        fields = ["id", "name", "namespace", "kind"]


class CredentialTypeTestSerializer(serializers.Serializer):
    inputs = serializers.JSONField(help_text="Inputs of the credential type for test")
    metadata = serializers.JSONField(required=False, help_text="Metadata of the credential type for testing")


# -- EDA credentials

def validate_inputs(credential_type, inputs, old_inputs=None, section="fields"):
    """eda-server's ``validate_inputs`` of the ``fields`` (or ``metadata``) section (in part; the module's docstring):
    the errors by ``inputs.<field>``, empty when there are none. A default fills a field left out."""
    schema = credential_type.inputs or {}
    fields = [f for f in schema.get(section, []) if isinstance(f, dict)]
    other = {f.get("id") for f in schema.get("metadata" if section == "fields" else "fields", []) if isinstance(f, dict)}
    required = set(schema.get("required", [])) - other
    keys = {f.get("id") for f in fields}
    if not isinstance(inputs, dict):
        return {"inputs": "Inputs must be a dict"}
    unknown = set(inputs) - keys
    if unknown:
        return {"inputs": "Input keys %s are not defined in the schema. Allowed keys are: %s" % (unknown, keys)}
    errors = {}
    for field in fields:
        name = field["id"]
        where = "inputs.%s" % name
        value = inputs.get(name)
        if value is None:
            if field.get("default"):
                inputs[name] = field["default"]
            elif name in required and not (old_inputs or {}).get(name):
                errors[where] = ["Cannot be blank"]
            continue
        if not isinstance(value, (str, bool)):
            errors[where] = ["Input fields must have a boolean or string value. The value provided in the '%s' field "
                             "is of type %s." % (name, type(value).__name__)]
            continue
        if name in required and isinstance(value, str) and not value.strip():
            errors[where] = ["Cannot be blank"]
            continue
        if field.get("type") == "boolean":
            if value and not isinstance(value, bool):
                errors[where] = ["Must be a boolean"]
            continue
        choices = field.get("choices")
        if isinstance(choices, list) and value and value not in choices:
            errors[where] = ["Must be one of the choices: %s" % choices]
    return errors


def merge_inputs(new, old):
    """eda-server's ``inputs_to_store_dict``: the stored inputs updated with those sent, ``$encrypted$`` keeping a
    secret as it was."""
    merged = dict(old or {})
    merged.update((k, v) for k, v in (new or {}).items() if v != ENCRYPTED)
    return merged


class EdaCredentialSerializer(serializers.ModelSerializer):
    inputs = serializers.SerializerMethodField()
    credential_type = serializers.SerializerMethodField()
    organization = serializers.SerializerMethodField()
    references = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    modified_by = serializers.SerializerMethodField()

    class Meta:
        model = EdaCredential
        fields = ["id", "name", "description", "managed", "inputs", "credential_type", "organization", "references",
                  "created_at", "modified_at", "created_by", "modified_by"]
        read_only_fields = ["id", "created_at", "modified_at", "managed", "organization"]

    def get_inputs(self, obj) -> dict:
        return obj.inputs_to_display()

    def get_credential_type(self, obj) -> dict:
        return CredentialTypeRefSerializer(obj.credential_type).data if obj.credential_type else None

    def get_organization(self, obj) -> dict:
        return organization_ref(obj.organization)

    def get_references(self, obj) -> list:
        # eda-server fills them only for a detail asked with ?refs=true (get_references)
        return self.context.get("references")

    def get_created_by(self, obj) -> dict:
        return basic_user(obj.created_by)

    def get_modified_by(self, obj) -> dict:
        return basic_user(obj.modified_by)


class EdaCredentialCreateSerializer(serializers.ModelSerializer):
    credential_type_id = serializers.IntegerField(error_messages={"null": "Credential Type is needed",
                                                                  "required": "Credential Type is required"})
    organization_id = serializers.IntegerField(validators=[check_organization],
                                               error_messages={"null": "Organization is needed",
                                                               "required": "Organization is required"})
    inputs = serializers.JSONField()

    class Meta:
        model = EdaCredential
        fields = ["name", "description", "inputs", "credential_type_id", "organization_id"]

    def validate_credential_type_id(self, value):
        if not CredentialType.objects.filter(pk=value).exists():
            raise serializers.ValidationError("CredentialType with id %s does not exist" % value)
        return value

    def validate(self, data):
        credential_type = CredentialType.objects.get(pk=data["credential_type_id"])
        errors = validate_inputs(credential_type, data.get("inputs", {}))
        if errors:
            raise serializers.ValidationError(errors)
        return data

    def create(self, validated):
        inputs = validated.pop("inputs", {})
        credential = EdaCredential(**validated)
        credential.inputs = inputs
        credential.save()
        return credential


class EdaCredentialUpdateSerializer(serializers.ModelSerializer):
    organization_id = serializers.IntegerField(required=False, validators=[check_organization])
    inputs = serializers.JSONField(required=False)

    class Meta:
        model = EdaCredential
        fields = ["name", "description", "inputs", "organization_id"]

    def validate(self, data):
        if "inputs" in data:
            old = self.instance.inputs
            merged = merge_inputs(data["inputs"], old)
            # eda-server takes empty inputs in a partial update as no change
            if data["inputs"]:
                errors = validate_inputs(self.instance.credential_type, merged, old)
                if errors:
                    raise serializers.ValidationError(errors)
            data["inputs"] = merged
        return data

    def update(self, instance, validated):
        if "inputs" in validated:
            instance.inputs = validated.pop("inputs")
        for key, value in validated.items():
            setattr(instance, key, value)
        instance.save()
        return instance


class EdaCredentialCopySerializer(serializers.Serializer):
    name = serializers.CharField(help_text="Name of the new credential")

    def validate_name(self, value):
        if EdaCredential.objects.filter(name=value).exists():
            raise serializers.ValidationError("Credential name already exists: %s" % value)
        return value


class EdaCredentialTestSerializer(serializers.Serializer):
    metadata = serializers.JSONField(required=False, help_text="Metadata of the credential for testing")


class EdaCredentialRefSerializer(serializers.ModelSerializer):
    inputs = serializers.SerializerMethodField()

    class Meta:
        model = EdaCredential
        fields = ["id", "name", "description", "inputs", "managed", "credential_type_id", "organization_id"]

    def get_inputs(self, obj) -> dict:
        return obj.inputs_to_display()


# -- credential input sources

class CredentialInputSourceSerializer(serializers.ModelSerializer):
    metadata = serializers.SerializerMethodField()
    organization = serializers.SerializerMethodField()
    references = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    modified_by = serializers.SerializerMethodField()
    source_credential = serializers.IntegerField(source="source_credential_id", allow_null=True, read_only=True)
    target_credential = serializers.IntegerField(source="target_credential_id", allow_null=True, read_only=True)

    class Meta:
        model = CredentialInputSource
        fields = ["id", "description", "metadata", "references", "created_by", "modified_by", "input_field_name",
                  "source_credential", "target_credential", "created_at", "modified_at", "organization"]

    def get_metadata(self, obj) -> dict:
        # eda-server's _get_metadata: the source type's metadata fields, its secret ones $encrypted$
        source = obj.source_credential
        return to_display(source.credential_type if source else None, obj.metadata, "metadata")

    def get_organization(self, obj) -> dict:
        return organization_ref(obj.organization)

    def get_references(self, obj) -> list:
        return None

    def get_created_by(self, obj) -> dict:
        return basic_user(obj.created_by)

    def get_modified_by(self, obj) -> dict:
        return basic_user(obj.modified_by)


class CredentialInputSourceCreateSerializer(serializers.ModelSerializer):
    metadata = serializers.JSONField()
    target_credential = serializers.IntegerField()
    source_credential = serializers.IntegerField()
    organization_id = serializers.IntegerField(validators=[check_organization])

    class Meta:
        model = CredentialInputSource
        fields = ["description", "metadata", "target_credential", "source_credential", "input_field_name",
                  "organization_id"]

    def validate(self, data):
        """eda-server's CredentialInputSourceCreateSerializer: the credentials exist (its words), the metadata as the
        source's type says, the field is the target type's (its words), one source per target field (DRF's
        unique-together words); it does not check that the source is of kind external."""
        instance = self.instance
        target = EdaCredential.objects.filter(pk=data.get("target_credential", getattr(instance, "target_credential_id", None))).first()
        source = EdaCredential.objects.filter(pk=data.get("source_credential", getattr(instance, "source_credential_id", None))).first()
        if target is None:
            raise serializers.ValidationError({"target_credential": ["Target Credential does not exist"]})
        if source is None:
            raise serializers.ValidationError({"source_credential": ["Source Credential does not exist"]})
        if "metadata" in data and (data["metadata"] or instance is None):
            old = instance.metadata if instance is not None else {}
            data["metadata"] = merge_inputs(data["metadata"], old)
            errors = validate_inputs(source.credential_type, data["metadata"], old, section="metadata")
            if errors:
                raise serializers.ValidationError(errors)
        name = data.get("input_field_name", getattr(instance, "input_field_name", None))
        fields = {f.get("id") for f in (target.credential_type.inputs if target.credential_type else {}).get("fields", [])}
        if name not in fields:
            raise serializers.ValidationError("Field : %s missing in source credential" % name)
        taken = CredentialInputSource.objects.filter(target_credential=target, input_field_name=name)
        if instance is not None:
            taken = taken.exclude(pk=instance.pk)
        if taken.exists():
            raise serializers.ValidationError("The fields target_credential, input_field_name must make a unique set.")
        return data

    def _apply(self, instance, validated):
        if "metadata" in validated:
            instance.metadata = validated.pop("metadata")
        for key, field in (("target_credential", "target_credential_id"), ("source_credential", "source_credential_id")):
            if key in validated:
                setattr(instance, field, validated.pop(key))
        for key, value in validated.items():
            setattr(instance, key, value)
        instance.save()
        return instance

    def create(self, validated):
        return self._apply(CredentialInputSource(), validated)

    def update(self, instance, validated):
        return self._apply(instance, validated)


# -- decision environments

class DecisionEnvironmentSerializer(serializers.ModelSerializer):
    organization_id = serializers.IntegerField(read_only=True)
    eda_credential_id = serializers.IntegerField(read_only=True, allow_null=True)
    created_by = serializers.SerializerMethodField()
    modified_by = serializers.SerializerMethodField()

    class Meta:
        model = DecisionEnvironment
        fields = ["name", "description", "image_url", "organization_id", "eda_credential_id", "pull_policy",
                  "created_by", "modified_by", "id", "created_at", "modified_at"]
        read_only_fields = ["id", "created_at", "modified_at"]

    def get_created_by(self, obj) -> dict:
        return basic_user(obj.created_by)

    def get_modified_by(self, obj) -> dict:
        return basic_user(obj.modified_by)


class DecisionEnvironmentReadSerializer(DecisionEnvironmentSerializer):
    organization = serializers.SerializerMethodField()
    eda_credential = serializers.SerializerMethodField()

    class Meta(DecisionEnvironmentSerializer.Meta):
        fields = ["id", "name", "description", "image_url", "organization", "eda_credential", "pull_policy",
                  "created_at", "modified_at", "created_by", "modified_by"]

    def get_organization(self, obj) -> dict:
        return organization_ref(obj.organization)

    def get_eda_credential(self, obj) -> dict:
        return EdaCredentialRefSerializer(obj.eda_credential).data if obj.eda_credential else None


IMAGE_NAME = re.compile(r"[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*")
IMAGE_TAG = re.compile(r"[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}")


def check_image_url(image_url):
    """eda-server's ``check_if_de_valid``, in part: ``<host>[:port]/<path>[:tag]`` (the host name is not checked)."""
    host, _, path = image_url.partition("/")
    if not host:
        raise serializers.ValidationError({"image_url": "Image url %s is malformed; no host name found" % image_url})
    if not path:
        raise serializers.ValidationError({"image_url": "Image url %s is malformed; no image path found" % image_url})
    digest = "@sha256" in path or "@sha512" in path
    name, _, tag = path.partition("@" if digest else ":")
    tag = tag.split("@", 1)[0] if tag else None
    if not IMAGE_NAME.fullmatch(name):
        raise serializers.ValidationError(
            {"image_url": "Image url %s is malformed; '%s' does not match OCI name standard" % (image_url, name)})
    if not digest and tag is not None and not IMAGE_TAG.fullmatch(tag):
        raise serializers.ValidationError(
            {"image_url": "Image url %s is malformed; '%s' does not match OCI tag standard" % (image_url, tag)})


class DecisionEnvironmentCreateSerializer(serializers.ModelSerializer):
    organization_id = serializers.IntegerField(validators=[check_organization],
                                               error_messages={"null": "Organization is needed",
                                                               "required": "Organization is required"})
    eda_credential_id = serializers.IntegerField(required=False, allow_null=True)
    pull_policy = serializers.ChoiceField(choices=PULL_POLICIES, required=False)

    class Meta:
        model = DecisionEnvironment
        fields = ["name", "description", "image_url", "organization_id", "eda_credential_id", "pull_policy"]

    def validate_eda_credential_id(self, value):
        # eda-server's check_credential_registry_username_password: a Container Registry credential
        if value is None:
            return value
        credential = EdaCredential.objects.filter(pk=value).select_related("credential_type").first()
        if credential is None:
            raise serializers.ValidationError("EdaCredential with id %s does not exist" % value)
        if credential.credential_type is None or credential.credential_type.kind != "registry":
            raise serializers.ValidationError("The type of credential can only be one of ['Container Registry']")
        return value

    def validate(self, data):
        image_url = data.get("image_url") or getattr(self.instance, "image_url", "")
        check_image_url(image_url)
        return data


# -- a user's controller tokens

class AwxTokenSerializer(serializers.ModelSerializer):
    user_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = AwxToken
        fields = ["id", "name", "description", "user_id", "created_at", "modified_at"]


class AwxTokenCreateSerializer(serializers.ModelSerializer):
    token = serializers.CharField(write_only=True, style={"input_type": "password"})

    class Meta:
        model = AwxToken
        fields = ["name", "description", "token"]

    def validate(self, data):
        user = self.context["request"].user
        if AwxToken.objects.filter(user=user, name=data.get("name")).exists():
            raise Conflict("Token with this name already exists.")
        return data

    def create(self, validated):
        token = AwxToken(user=self.context["request"].user, name=validated["name"],
                         description=validated.get("description", ""))
        token.token = validated["token"]
        token.save()
        return token


# -- EDA's own login and tokens

class LoginSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, write_only=True)


def jwt_token(user_id, token_type):
    """eda-server's ``get_jwt_token``: HS256 of the service's secret, ``user_id``, ``exp``, ``token_type``."""
    import datetime

    import jwt
    from django.conf import settings

    lifetime = datetime.timedelta(minutes=60) if token_type == "access" else datetime.timedelta(days=365)
    payload = {"user_id": user_id, "exp": datetime.datetime.now(datetime.timezone.utc) + lifetime, "token_type": token_type}
    return jwt.encode(payload, settings.SECRET_KEY, "HS256")


class RefreshTokenSerializer(serializers.Serializer):
    refresh = serializers.CharField()

    def validate(self, data):
        import jwt
        from django.conf import settings

        try:
            claims = jwt.decode(data["refresh"], settings.SECRET_KEY, ["HS256"])
            if claims.get("token_type") != "refresh" or "user_id" not in claims:
                raise ValueError
            self.user = get_user_model().objects.get(pk=claims["user_id"])
        except (jwt.PyJWTError, ValueError, get_user_model().DoesNotExist):
            raise serializers.ValidationError("Invalid token")
        return data
