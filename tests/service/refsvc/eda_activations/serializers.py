"""EDA's representations of projects, rulebooks, activations and their instances, event
streams and audit records (the published schema eda-2.7.json; eda-server's
``aap_eda/api/serializers/``): a read form per object, a write form where EDA takes other
fields than it answers, with eda-server's checks and words.

Not done here: what eda-server adds to an activation's rulesets and credentials when it maps
event streams (a source swapped for a ``pg_listener``, its system Postgres credential), and
the extra vars it takes from the credentials' injectors (its ``extra_var`` is kept as given)."""

import uuid
from urllib.parse import urljoin, urlsplit

import yaml
from rest_framework import serializers
from rest_framework.validators import UniqueValidator

from refsvc.eda.models import AwxToken, DecisionEnvironment, EdaCredential, encrypt
from refsvc.eda.serializers import (
    EdaCredentialRefSerializer, EdaCredentialSerializer, basic_user, check_organization, organization_ref,
)

from . import scm
from .models import Activation, EventStream, Project, Rulebook

ENCRYPTED = "$encrypted$"
SOURCE_CONTROL, GPG, REGISTRY, AAP = ("Source Control", "GPG Public Key", "Container Registry",
                                      "Red Hat Ansible Automation Platform")
# eda-server enums: EventStreamCredentialType and CustomEventStreamCredentialType
EVENT_STREAM_TYPES = ["HMAC Event Stream", "Basic Event Stream", "Token Event Stream", "OAuth2 Event Stream",
                      "OAuth2 JWT Event Stream", "ECDSA Event Stream", "mTLS Event Stream", "GitLab Event Stream",
                      "GitHub Event Stream", "ServiceNow Event Stream", "Dynatrace Event Stream"]
SCM_SCHEMES = ("http", "https", "git", "ssh", "git+ssh")
TOKEN_ACTIONS = {"run_job_template", "run_workflow_template"}
SOURCE_MAPPING_KEYS = ["event_stream_id", "event_stream_name", "source_name", "rulebook_hash"]
RESTART_POLICIES = ["always", "on-failure", "never"]
LOG_LEVELS = ["debug", "info", "error"]


# What EDA 1.3.0 (AAP 2.7) answers and 1.2.0 (AAP 2.6) does not (eda-2.6.json against eda-2.7.json): left out
# while the gateway stands for 2.6 (GATEWAY_RELEASE).
NEWER = {
    "project": ("update_revision_on_launch", "scm_update_cache_timeout", "last_synced_at"),
    "activation": ("restart_on_project_update", "enable_persistence", "rule_engine_credential_id",
                   "rule_engine_credential"),
    "activation_list": ("restart_on_project_update", "enable_persistence", "rule_engine_credential_id", "project"),
}


def released(data, form):
    from refsvc.eda.views import release

    if release() == "2.6":
        for key in NEWER[form]:
            data.pop(key, None)
    return data


# -- checks (eda-server's ``aap_eda/core/validators.py``, their words)

def check_credential_type(credential_id, names, negative=False):
    credential = EdaCredential.objects.filter(pk=credential_id).select_related("credential_type").first()
    if credential is None:
        raise serializers.ValidationError("EdaCredential with id %s does not exist" % credential_id)
    name = credential.credential_type.name if credential.credential_type else None
    if negative and name in names:
        raise serializers.ValidationError("The type of credential can not be one of %s" % names)
    if not negative and name not in names:
        raise serializers.ValidationError("The type of credential can only be one of %s" % names)
    return credential


def check_scm_url(url):
    """Git URLs of http(s), git, ssh and git+ssh, and ``git@host:path``; file and other
    schemes are refused (``check_if_scm_url_valid``; its finer checks of hosts and paths are
    not made here)."""
    if url.startswith("git@"):
        if ":" not in url[4:]:
            raise serializers.ValidationError("Invalid source control URL: Missing ':' separator in SSH URL")
        return url
    scheme = urlsplit(url).scheme.lower()
    if scheme not in SCM_SCHEMES:
        raise serializers.ValidationError("Invalid source control URL: Unsupported scheme '%s'" % scheme)
    if not urlsplit(url).netloc:
        raise serializers.ValidationError("Invalid source control URL: Missing hostname")
    for char in "^|{};`":
        if char in url:
            raise serializers.ValidationError("Invalid source control URL: Contains invalid character '%s'" % char)
    return url


def check_extra_var(text):
    if not text:
        return text
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        raise serializers.ValidationError("Extra var must be in JSON or YAML format") from None
    if not isinstance(data, dict):
        raise serializers.ValidationError("Extra var is not in object format")
    return text


def proxy_for_display(proxy):
    """A proxy URL with its password as ``$encrypted$`` (eda-server ``get_proxy_for_display``)."""
    if not proxy or not proxy.startswith(("http://", "https://")) or "@" not in proxy:
        return proxy or ""
    parts = urlsplit(proxy)
    credentials, host = parts.netloc.rsplit("@", 1)
    shown = "%s:%s@%s" % (credentials.split(":", 1)[0], ENCRYPTED, host) if ":" in credentials \
        else "%s@%s" % (ENCRYPTED, host)
    return parts._replace(netloc=shown).geturl()


# -- projects

def project_ref(project):
    if project is None:
        return None
    return released({"id": project.pk, "git_hash": project.git_hash, "url": project.url, "scm_type": project.scm_type,
                     "name": project.name, "description": project.description,
                     "organization_id": project.organization_id,
                     "update_revision_on_launch": project.update_revision_on_launch,
                     "scm_update_cache_timeout": project.scm_update_cache_timeout}, "project")


def _project_common(project):
    return {"name": project.name, "description": project.description, "url": project.url,
            "proxy": proxy_for_display(project.proxy_text()), "scm_type": project.scm_type,
            "scm_branch": project.scm_branch, "scm_refspec": project.scm_refspec, "git_hash": project.git_hash,
            "verify_ssl": project.verify_ssl, "update_revision_on_launch": project.update_revision_on_launch,
            "scm_update_cache_timeout": project.scm_update_cache_timeout, "last_synced_at": _time(project.last_synced_at),
            "import_state": project.import_state, "import_error": project.import_error,
            "created_at": _time(project.created_at), "modified_at": _time(project.modified_at),
            "created_by": basic_user(project.created_by), "modified_by": basic_user(project.modified_by)}


def project_data(project):
    """``Project``: the list's, and the answer to a create, a change and a sync."""
    return released({"id": project.pk, **_project_common(project), "organization_id": project.organization_id,
                     "eda_credential_id": project.eda_credential_id,
                     "signature_validation_credential_id": project.signature_validation_credential_id}, "project")


def project_read(project):
    """``ProjectRead``: the detail, with the organization and credentials embedded."""
    def ref(credential):
        return EdaCredentialRefSerializer(credential).data if credential is not None else None

    return released({"id": project.pk, **_project_common(project), "organization": organization_ref(project.organization),
                     "eda_credential": ref(project.eda_credential),
                     "signature_validation_credential": ref(project.signature_validation_credential)}, "project")


class ProjectWriteSerializer(serializers.ModelSerializer):
    """``ProjectCreateRequest`` (and, partial, ``PatchedProjectUpdateRequest``)."""

    url = serializers.CharField(validators=[check_scm_url], help_text="Source control repository URL.")
    organization_id = serializers.IntegerField(validators=[check_organization])
    eda_credential_id = serializers.IntegerField(required=False, allow_null=True)
    signature_validation_credential_id = serializers.IntegerField(required=False, allow_null=True)
    proxy = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    description = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    scm_branch = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    scm_refspec = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    scm_type = serializers.ChoiceField(choices=["git"], required=False)
    scm_update_cache_timeout = serializers.IntegerField(required=False, min_value=0, max_value=86400)

    class Meta:
        model = Project
        fields = ["name", "description", "url", "proxy", "organization_id", "eda_credential_id",
                  "signature_validation_credential_id", "verify_ssl", "scm_type", "scm_branch", "scm_refspec",
                  "update_revision_on_launch", "scm_update_cache_timeout"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance is not None:
            # eda-server's ProjectUpdateRequestSerializer says it so (its create, DRF's default words)
            self.fields["name"].validators = [UniqueValidator(Project.objects.all(),
                                                              message="Project with this name already exists.")]

    def validate_eda_credential_id(self, value):
        if value is not None:
            check_credential_type(value, [SOURCE_CONTROL])
        return value

    def validate_signature_validation_credential_id(self, value):
        if value is not None:
            check_credential_type(value, [GPG])
        return value

    def validate(self, data):
        for key in ("description", "scm_branch", "scm_refspec"):
            if key in data and data[key] is None:
                data[key] = ""
        if "proxy" in data:
            proxy = data.pop("proxy") or ""
            current = self.instance.proxy_text() if self.instance is not None else ""
            if ENCRYPTED in proxy:
                if not (current and proxy_for_display(current) == proxy):
                    raise serializers.ValidationError("The password in the proxy field should be unencrypted")
            else:
                data["proxy_encrypted"] = encrypt(proxy)
        return data


# -- rulebooks

def rulebook_data(rulebook):
    return {"id": rulebook.pk, "name": rulebook.name, "description": rulebook.description,
            "rulesets": rulebook.rulesets, "project_id": rulebook.project_id,
            "organization_id": rulebook.organization_id, "created_at": _time(rulebook.created_at),
            "modified_at": _time(rulebook.modified_at)}


def rulebook_ref(rulebook):
    if rulebook is None:
        return None
    return {"id": rulebook.pk, "name": rulebook.name, "description": rulebook.description,
            "organization_id": rulebook.organization_id}


def source_data(source):
    """A rulebook's source: ``source_info`` as YAML text (eda-server's ``YAMLSerializerField``,
    keys in their order)."""
    return {"name": source["name"], "source_info": yaml.dump(source["source_info"], sort_keys=False),
            "rulebook_hash": source["rulebook_hash"]}


# -- event streams

def event_stream_url(stream, base):
    """Where the event stream takes events: the external event stream view of EDA's API
    (``external_event_stream/<uuid>/post/``) under the base URL EDA is configured with
    (``EVENT_STREAM_BASE_URL``; here the service's own URL, a choice: the platform's value is
    its deployment's)."""
    return urljoin(base, "api/eda/v1/external_event_stream/%s/post/" % stream.uuid)


def event_stream_data(stream, base):
    return {"id": stream.pk, "name": stream.name, "test_mode": stream.test_mode,
            "additional_data_headers": stream.additional_data_headers,
            "organization": organization_ref(stream.organization),
            "eda_credential": (EdaCredentialRefSerializer(stream.eda_credential).data
                               if stream.eda_credential is not None else None),
            "event_stream_type": stream.event_stream_type, "uuid": str(stream.uuid),
            "owner": stream.owner.username if stream.owner else "", "url": event_stream_url(stream, base),
            "created_at": _time(stream.created_at), "modified_at": _time(stream.modified_at),
            "test_content_type": stream.test_content_type, "test_content": stream.test_content,
            "test_error_message": stream.test_error_message, "test_headers": stream.test_headers,
            "events_received": stream.events_received,
            "last_event_received_at": _time(stream.last_event_received_at),
            "created_by": basic_user(stream.created_by), "modified_by": basic_user(stream.modified_by)}


class EventStreamWriteSerializer(serializers.ModelSerializer):
    """``EventStreamIn``: the credential must be of an event stream type; its kind is the
    stream's type."""

    organization_id = serializers.IntegerField(validators=[check_organization],
                                               error_messages={"null": "Organization is needed"})
    eda_credential_id = serializers.IntegerField(error_messages={"null": "EdaCredential is needed"})
    uuid = serializers.UUIDField(required=False, allow_null=True)

    class Meta:
        model = EventStream
        fields = ["name", "test_mode", "additional_data_headers", "eda_credential_id", "organization_id", "uuid"]

    def validate_eda_credential_id(self, value):
        check_credential_type(value, EVENT_STREAM_TYPES)
        return value

    def validate_uuid(self, value):
        if value is None:
            return None if self.partial else uuid.uuid4()
        others = EventStream.objects.filter(uuid=value)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise serializers.ValidationError("Event stream with this UUID already exists.")
        return value

    def validate(self, data):
        if "uuid" not in data and self.instance is None:
            data["uuid"] = uuid.uuid4()
        if data.get("uuid", 0) is None:
            data.pop("uuid")
        if "eda_credential_id" in data:
            data["event_stream_type"] = EdaCredential.objects.get(pk=data["eda_credential_id"]).credential_type.kind
        return data


# -- activations

def _credentials(activation):
    return [EdaCredentialSerializer(c).data for c in activation.eda_credentials.filter(managed=False).order_by("id")]


def instance_data(instance):
    return {"id": instance.pk, "name": instance.name, "status": instance.status, "git_hash": instance.git_hash,
            "status_message": instance.status_message, "activation_id": instance.activation_id,
            "organization_id": instance.organization_id, "started_at": _time(instance.started_at),
            "ended_at": _time(instance.ended_at), "queue_name": instance.queue_name}


def instance_log_data(line):
    return {"id": line.pk, "log": line.log, "log_timestamp": line.log_timestamp,
            "log_created_at": _time(line.log_created_at), "activation_instance": line.activation_instance_id}


def _rules_count(activation):
    stats = activation.ruleset_stats or {}
    return (sum(s.get("numberOfRules", 0) for s in stats.values()),
            sum(s.get("rulesTriggered", 0) for s in stats.values()))


def _activation_common(activation, base):
    rules, fired = _rules_count(activation)
    return {"id": activation.pk, "name": activation.name, "description": activation.description,
            "is_enabled": activation.is_enabled, "status": activation.status,
            "restart_on_project_update": activation.restart_on_project_update,
            "extra_var": activation.extra_var or None, "restart_policy": activation.restart_policy,
            "restart_count": activation.restart_count, "rulebook_name": activation.rulebook_name,
            "current_job_id": activation.current_job_id, "rules_count": rules, "rules_fired_count": fired,
            "created_at": _time(activation.created_at), "modified_at": _time(activation.modified_at),
            "edited_at": _time(activation.edited_at), "status_message": activation.status_message,
            "awx_token_id": activation.awx_token_id, "log_level": activation.log_level,
            "eda_credentials": _credentials(activation), "k8s_service_name": activation.k8s_service_name,
            "event_streams": [event_stream_data(s, base) for s in activation.event_streams.order_by("id")],
            "source_mappings": activation.source_mappings, "skip_audit_events": activation.skip_audit_events,
            "log_tracking_id": activation.log_tracking_id, "created_by": basic_user(activation.created_by),
            "modified_by": basic_user(activation.modified_by), "edited_by": basic_user(activation.edited_by),
            "enable_persistence": activation.enable_persistence,
            "rule_engine_credential_id": activation.rule_engine_credential_id}


def activation_list_data(activation, base):
    """``ActivationList``."""
    return released({**_activation_common(activation, base),
                     "decision_environment_id": activation.decision_environment_id,
                     "project": project_ref(activation.project), "project_id": activation.project_id,
                     "rulebook_id": activation.rulebook_id, "organization_id": activation.organization_id},
                    "activation_list")


def activation_read(activation, base):
    """``ActivationRead``: the detail and the answer to a create or a copy."""
    environment = activation.decision_environment
    instances = list(activation.instances.order_by("id"))
    restarted_at = (max(i.started_at for i in instances)
                    if len(instances) > 1 and activation.restart_count > 0 else None)
    engine = activation.rule_engine_credential
    return released({**_activation_common(activation, base),
            "decision_environment": None if environment is None else {
                "id": environment.pk, "name": environment.name, "description": environment.description,
                "image_url": environment.image_url, "pull_policy": environment.pull_policy,
                "organization_id": environment.organization_id},
            "git_hash": activation.git_hash, "project": project_ref(activation.project),
            "rulebook": rulebook_ref(activation.rulebook), "organization": organization_ref(activation.organization),
            "instances": [instance_data(i) for i in instances],
            # YAML text, none an empty text (eda-server's YAMLSerializerField, keys in their order)
            "ruleset_stats": yaml.dump(activation.ruleset_stats, sort_keys=False) if activation.ruleset_stats else "",
            "restarted_at": _time(restarted_at),
            "rule_engine_credential": EdaCredentialSerializer(engine).data if engine is not None else None},
                    "activation")


def _requires_token(rulesets):
    for ruleset in rulesets or []:
        for rule in (ruleset or {}).get("rules") or []:
            if any(key in TOKEN_ACTIONS for key in (rule.get("action") or {})):
                return True
            if any(key in TOKEN_ACTIONS for action in (rule.get("actions") or []) for key in action):
                return True
    return False


def _mapping_error(message):
    return serializers.ValidationError({"source_mappings": [message]})


def check_source_mappings(text, rulebook):
    """The event streams a ``source_mappings`` text names (eda-server
    ``_validate_sources_with_event_streams``, its checks and words)."""
    if not text:
        return []
    try:
        mappings = yaml.safe_load(text)
    except yaml.YAMLError:
        raise _mapping_error("Faild to parse source mappings: '%s'" % text) from None
    if not isinstance(mappings, list):
        raise _mapping_error("Input source mappings should be a list of mappings")
    for mapping in mappings:
        missing = [key for key in SOURCE_MAPPING_KEYS if not isinstance(mapping, dict) or key not in mapping]
        if missing:
            raise _mapping_error("The source mapping %s is missing the required keys: %s" % (mapping, missing))
    if rulebook is None:
        return []
    sources = scm.sources_of(rulebook.rulesets)
    if len(mappings) > len(sources):
        raise _mapping_error("The rulebook has %d source(s) while you have provided %d event streams"
                             % (len(sources), len(mappings)))
    for key, what in (("source_name", "sources"), ("event_stream_name", "event streams")):
        seen, twice = set(), set()
        for mapping in mappings:
            (twice if mapping[key] in seen else seen).add(mapping[key])
        if twice:
            raise _mapping_error("The following %s %s are being used multiple times" % (what, ", ".join(twice)))
    digest = scm.rulebook_hash(rulebook.rulesets)
    if any(mapping["rulebook_hash"] != digest for mapping in mappings):
        raise _mapping_error("Rulebook has changed since the sources were mapped. Please reattach event streams")
    names = [source["name"] for source in sources]
    for mapping in mappings:
        if mapping["source_name"] not in names:
            raise _mapping_error("The source %s does not exist" % mapping["source_name"])
    streams = []
    for mapping in mappings:
        stream = EventStream.objects.filter(pk=mapping["event_stream_id"]).first()
        if stream is None:
            raise _mapping_error("Event stream id %s not found" % mapping["event_stream_id"])
        if stream.name != mapping["event_stream_name"]:
            raise _mapping_error("Event stream %s did not match with name %s in database"
                                 % (mapping["event_stream_name"], stream.name))
        streams.append(stream)
    return streams


class ActivationWriteSerializer(serializers.ModelSerializer):
    """``ActivationCreate`` (and, partial, ``PatchedActivationUpdate``)."""

    organization_id = serializers.IntegerField(validators=[check_organization],
                                               error_messages={"null": "Organization is needed",
                                                               "required": "Organization is required"})
    rulebook_id = serializers.IntegerField(error_messages={"null": "Rulebook is needed",
                                                           "required": "Rulebook is required"})
    decision_environment_id = serializers.IntegerField(error_messages={
        "null": "Decision Environment is needed", "required": "Decision Environment is required"})
    extra_var = serializers.CharField(required=False, allow_null=True, allow_blank=True, validators=[check_extra_var])
    awx_token_id = serializers.IntegerField(required=False, allow_null=True)
    eda_credentials = serializers.ListField(child=serializers.IntegerField(), required=False)
    restart_policy = serializers.ChoiceField(choices=RESTART_POLICIES, required=False)
    log_level = serializers.ChoiceField(choices=LOG_LEVELS, required=False)
    k8s_service_name = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    source_mappings = serializers.CharField(required=False, allow_blank=True)
    rule_engine_credential_id = serializers.IntegerField(required=False, allow_null=True)

    class Meta:
        model = Activation
        fields = ["name", "description", "is_enabled", "restart_on_project_update", "decision_environment_id",
                  "rulebook_id", "extra_var", "organization_id", "restart_policy", "awx_token_id", "log_level",
                  "eda_credentials", "k8s_service_name", "source_mappings", "skip_audit_events",
                  "enable_persistence", "rule_engine_credential_id"]

    def validate_rulebook_id(self, value):
        if not Rulebook.objects.filter(pk=value).exists():
            raise serializers.ValidationError("Rulebook with id %s does not exist" % value)
        return value

    def validate_decision_environment_id(self, value):
        if not DecisionEnvironment.objects.filter(pk=value).exists():
            raise serializers.ValidationError("DecisionEnvironment with id %s does not exist" % value)
        return value

    def validate_awx_token_id(self, value):
        if value is not None and not AwxToken.objects.filter(pk=value).exists():
            raise serializers.ValidationError("AwxToken with id %s does not exist" % value)
        return value

    def validate_eda_credentials(self, value):
        credentials = [check_credential_type(pk, [REGISTRY, GPG, SOURCE_CONTROL], negative=True) for pk in value]
        platform = [c for c in credentials if c.credential_type.name == AAP]
        if len(platform) > 1:
            raise serializers.ValidationError("%d RH AAP credentials are provided instead of 1" % len(platform))
        return value

    def validate_rule_engine_credential_id(self, value):
        if value is not None and not EdaCredential.objects.filter(pk=value).exists():
            raise serializers.ValidationError("EdaCredential with id %s does not exist" % value)
        return value

    def validate(self, data):
        current = self.instance

        def final(key, attribute=None):
            if key in data:
                return data[key]
            return getattr(current, attribute or key) if current is not None else None

        user = self.context["request"].user
        token_id = final("awx_token_id")
        if token_id is not None and "awx_token_id" in data:
            token = AwxToken.objects.filter(pk=token_id).first()
            if token is not None and token.user_id != user.pk:
                raise serializers.ValidationError("The Awx Token does not belong to the user.")
        credential_ids = data.get("eda_credentials")
        if credential_ids is None and current is not None:
            credential_ids = list(current.eda_credentials.values_list("pk", flat=True))
        platform = EdaCredential.objects.filter(pk__in=credential_ids or [], credential_type__name=AAP).exists()
        rulebook = Rulebook.objects.filter(pk=final("rulebook_id")).first()
        if rulebook is not None and not platform and token_id is None:
            try:
                rulesets = yaml.safe_load(rulebook.rulesets)
            except yaml.YAMLError:
                raise serializers.ValidationError("Invalid rulebook data.") from None
            if _requires_token(rulesets):
                raise serializers.ValidationError("The rulebook requires a RH AAP credential.")
        if "source_mappings" in data or "rulebook_id" in data:
            data["event_streams"] = check_source_mappings(final("source_mappings") or "", rulebook)
        if final("enable_persistence") and final("rule_engine_credential_id") is None:
            raise serializers.ValidationError(
                "Persistence is enabled but no default EDA Rule Engine credential found. "
                "Please provide a rule_engine_credential_id.")
        if rulebook is not None and "rulebook_id" in data:
            data.update(rulebook_name=rulebook.name, rulebook_rulesets=rulebook.rulesets,
                        rulebook_rulesets_sha256=scm.rulebook_hash(rulebook.rulesets),
                        git_hash=rulebook.project.git_hash if rulebook.project else "",
                        project_id=rulebook.project_id)
        return data


class ActivationCopySerializer(serializers.Serializer):
    """``ActivationCopy``: the copy's name, which no activation has."""

    name = serializers.CharField()

    def validate_name(self, name):
        if Activation.objects.filter(name=name).exists():
            raise serializers.ValidationError("Activation with name %s already exists" % name)
        return name


# -- audit records (none are made: nothing runs)

def audit_rule_data(rule, detail=False):
    instance = rule.activation_instance
    data = {"id": rule.pk, "name": rule.name, "status": rule.status,
            "activation_instance": {"id": instance.pk, "name": instance.name} if instance else
            {"id": None, "name": "DELETED"},
            "organization": organization_ref(rule.organization), "fired_at": _time(rule.fired_at)}
    if detail:
        data.update(ruleset_name=rule.ruleset_name, created_at=_time(rule.created_at))
    return data


def audit_action_data(action):
    return {"id": str(action.pk), "name": action.name, "status": action.status, "url": action.url,
            "fired_at": _time(action.fired_at), "rule_fired_at": _time(action.rule_fired_at),
            "audit_rule_id": action.audit_rule_id, "status_message": action.status_message}


def audit_event_data(event):
    return {"id": str(event.pk), "source_name": event.source_name, "source_type": event.source_type,
            "payload": yaml.dump(event.payload) if event.payload is not None else None,
            "audit_actions": [str(pk) for pk in event.audit_actions.values_list("pk", flat=True)],
            "received_at": _time(event.received_at), "rule_fired_at": _time(event.rule_fired_at)}


def _time(value):
    return serializers.DateTimeField().to_representation(value) if value is not None else None

