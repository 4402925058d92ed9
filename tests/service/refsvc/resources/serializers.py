import datetime
import re

import dateutil.parser
import dateutil.rrule
from dateutil.tz import datetime_exists, tzutc
from django.utils import timezone
from rest_framework import serializers

from refsvc.conf.views import is_k8s
from refsvc.svc.models import Credential, Host
from refsvc.svc.serializers import ResourceSerializer, VariablesField, user_summary

from . import notifications
from .models import (
    NODE_STATES, NODE_TYPES, NOTIFICATION_TYPES, PULL_CHOICES, SOURCE_CHOICES,
    CredentialInputSource, ExecutionEnvironment, Group, Instance, InstanceGroup, InventorySource, Label, ReceptorAddress,
    NotificationTemplate, Schedule,
)

CLOUD_INVENTORY_SOURCES = [c for c, _ in SOURCE_CHOICES if c not in ("file", "constructed")]


def summary(obj, *names):
    if obj is None:
        return None
    return {n: getattr(obj, n) for n in names}


def org_summary(org):
    return summary(org, "id", "name", "description")


def credential_summary(cred, kubernetes=True):
    """A credential in summary_fields; SUMMARIZABLE_FK_FIELDS gives an input source's two without kubernetes."""
    if cred is None:
        return None
    ct = cred.credential_type
    data = {
        "id": cred.id, "name": cred.name, "description": cred.description, "kind": ct.namespace,
        "cloud": ct.kind == "cloud", "kubernetes": ct.kind == "kubernetes", "credential_type_id": ct.id,
    }
    if not kubernetes:
        del data["kubernetes"]
    return data


class Base(ResourceSerializer):
    """Adds created_by (related and summary) like the real serializers."""

    capabilities = None

    def get_fields(self):
        # Writable model fields carry the model's default (shown by OPTIONS, used on creation).
        fields = super().get_fields()
        model = self.Meta.model
        for name, field in fields.items():
            if field.read_only or field.required or field.default is not serializers.empty:
                continue
            try:
                model_field = model._meta.get_field(field.source or name)
            except Exception:
                continue
            if model_field.has_default() and not callable(model_field.default):
                field.default = model_field.default
        return fields

    def related_links(self, obj):
        return {}

    def summary_extra(self, obj):
        return {}

    def get_related(self, obj):
        related = {}
        if getattr(obj, "created_by_id", None):
            related["created_by"] = "/api/v2/users/%d/" % obj.created_by_id
        related.update(self.related_links(obj))
        return related

    def get_summary_fields(self, obj):
        data = {}
        data.update(self.summary_extra(obj))
        if hasattr(obj, "created_by"):
            created_by = user_summary(obj.created_by)
            if created_by:
                data["created_by"] = created_by
        if self.capabilities:
            data["user_capabilities"] = {c: True for c in self.capabilities}
        return data


# ---------------------------------------------------------------- labels

class LabelSerializer(Base):
    type_name = "label"
    url_base = "labels"

    class Meta:
        model = Label
        fields = ResourceSerializer.base_fields + ("name", "organization")
        validators = []

    def related_links(self, obj):
        return {"organization": "/api/v2/organizations/%d/" % obj.organization_id}

    def summary_extra(self, obj):
        return {"organization": org_summary(obj.organization)}

    def validate(self, attrs):
        self.unique_error(Label, ("name", "organization"), attrs, "Label with this Name and Organization already exists.")
        return attrs


# ---------------------------------------------------------------- groups

class GroupSerializer(Base):
    type_name = "group"
    url_base = "groups"
    capabilities = ("copy", "edit", "delete")
    variables = VariablesField()

    class Meta:
        model = Group
        fields = ResourceSerializer.base_fields + ("name", "description", "inventory", "variables")
        validators = []

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None and not isinstance(self.instance, (list, tuple)) and hasattr(self.instance, "pk"):
            fields["inventory"].read_only = True  # fixed once created
        return fields

    def related_links(self, obj):
        base = self.get_url(obj)
        links = {n: base + n + "/" for n in (
            "variable_data", "hosts", "potential_children", "children", "all_hosts", "job_events",
            "job_host_summaries", "activity_stream", "inventory_sources", "ad_hoc_commands")}
        links["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        return links

    def summary_extra(self, obj):
        inv = obj.inventory
        return {"inventory": inventory_summary(inv)}

    def validate_name(self, value):
        if value in ("all", "_meta"):
            raise serializers.ValidationError("Invalid group name.")
        return value

    def validate_inventory(self, value):
        if value.kind == "smart":
            raise serializers.ValidationError({"detail": "Cannot create Group for Smart Inventory"})
        return value

    def validate(self, attrs):
        name = attrs.get("name", self.instance.name if self.instance else "")
        inventory = attrs.get("inventory", self.instance.inventory if self.instance else None)
        if Host.objects.filter(name=name, inventory=inventory).exists():
            raise serializers.ValidationError("A Host with that name already exists.")
        self.unique_error(Group, ("name", "inventory"), attrs, "Group with this Name and Inventory already exists.")
        return attrs


def inventory_summary(inv):
    if inv is None:
        return None
    return {
        "id": inv.id, "name": inv.name, "description": inv.description, "has_active_failures": False,
        "total_hosts": inv.hosts.count(), "hosts_with_active_failures": 0, "total_groups": inv.groups.count(),
        "has_inventory_sources": inv.inventory_sources.exists(), "total_inventory_sources": inv.inventory_sources.count(),
        "inventory_sources_with_failures": 0, "organization_id": inv.organization_id, "kind": inv.kind,
    }


# ---------------------------------------------------------------- inventory sources

class InventorySourceSerializer(Base):
    type_name = "inventory_source"
    url_base = "inventory_sources"
    capabilities = ("start", "schedule", "edit", "delete")
    source = serializers.ChoiceField(choices=SOURCE_CHOICES, required=False, allow_null=True, default=None)
    source_vars = VariablesField(default="")
    verbosity = serializers.ChoiceField(choices=[(0, "0 (WARNING)"), (1, "1 (INFO)"), (2, "2 (DEBUG)")], required=False, default=1)
    credential = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1,
                                          help_text="Cloud credential to use for inventory updates.")
    timeout = serializers.IntegerField(required=False, default=0, min_value=-2147483648, max_value=2147483647)
    update_cache_timeout = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2147483647)
    custom_virtualenv = serializers.SerializerMethodField()
    last_job_run = serializers.SerializerMethodField()
    last_job_failed = serializers.SerializerMethodField()
    next_job_run = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    last_update_failed = serializers.SerializerMethodField()
    last_updated = serializers.SerializerMethodField()

    class Meta:
        model = InventorySource
        fields = ResourceSerializer.base_fields + (
            "name", "description", "source", "source_path", "source_vars", "scm_branch", "credential", "enabled_var",
            "enabled_value", "host_filter", "overwrite", "overwrite_vars", "custom_virtualenv", "timeout", "verbosity",
            "limit", "last_job_run", "last_job_failed", "next_job_run", "status", "execution_environment", "inventory",
            "update_on_launch", "update_cache_timeout", "source_project", "last_update_failed", "last_updated",
        )
        validators = []
        extra_kwargs = {"inventory": {"required": True}}

    def get_fields(self):
        fields = super().get_fields()
        if isinstance(self.instance, InventorySource):
            fields["inventory"].read_only = True
        return fields

    def get_custom_virtualenv(self, obj):
        return None

    def get_last_job_run(self, obj):
        return None

    def get_last_job_failed(self, obj):
        return False

    def get_next_job_run(self, obj):
        nxt = obj.schedules.filter(enabled=True, next_run__isnull=False).order_by("next_run").first()
        return serializers.DateTimeField().to_representation(nxt.next_run) if nxt else None

    def get_status(self, obj):
        from refsvc.updates.serializers import source_status

        return source_status(obj)

    def get_last_update_failed(self, obj):
        return False

    def get_last_updated(self, obj):
        return None

    def cloud_credential(self, obj):
        for cred in obj.credentials.all():
            if cred.credential_type.kind != "vault":
                return cred
        return None

    def to_representation(self, obj):
        data = super().to_representation(obj)
        cred = self.cloud_credential(obj)
        data["credential"] = cred.id if cred else None
        return data

    def related_links(self, obj):
        base = self.get_url(obj)
        links = {n: base + n + "/" for n in (
            "update", "inventory_updates", "schedules", "activity_stream", "hosts", "groups",
            "notification_templates_started", "notification_templates_success", "notification_templates_error", "credentials")}
        links["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        if obj.source_project_id:
            links["source_project"] = "/api/v2/projects/%d/" % obj.source_project_id
        if obj.execution_environment_id:
            links["execution_environment"] = "/api/v2/execution_environments/%d/" % obj.execution_environment_id
        cred = self.cloud_credential(obj)
        if cred:
            links["credential"] = "/api/v2/credentials/%d/" % cred.id
        return links

    def summary_extra(self, obj):
        data = {"organization": org_summary(obj.inventory.organization), "inventory": inventory_summary(obj.inventory)}
        if obj.source_project_id:
            p = obj.source_project
            data["source_project"] = {"id": p.id, "name": p.name, "description": p.description, "status": "ok", "scm_type": p.scm_type}
        if obj.execution_environment_id:
            data["execution_environment"] = summary(obj.execution_environment, "id", "name", "description", "image")
        cred = self.cloud_credential(obj)
        creds = []
        if cred:
            data["credential"] = {"id": cred.id, "name": cred.name, "description": cred.description,
                                  "kind": cred.credential_type.namespace, "cloud": True, "credential_type_id": cred.credential_type_id}
            creds.append(dict(data["credential"]))
        data["credentials"] = creds
        # SUMMARIZABLE_FK_FIELDS['last_job'], only when there is one (the last finished update)
        last = obj.inventory_updates.filter(status__in=("successful", "failed", "error", "canceled")).order_by("-id").first()
        if last is not None:
            when = serializers.DateTimeField().to_representation
            data["last_job"] = {"id": last.id, "name": last.name, "description": last.description,
                                "finished": when(last.finished) if last.finished else None, "status": last.status,
                                "failed": last.failed, "license_error": False,
                                "canceled_on": when(last.canceled_on) if last.canceled_on else None}
        return data

    def validate_inventory(self, value):
        if value and value.kind == "smart":
            raise serializers.ValidationError({"detail": "Cannot create Inventory Source for Smart Inventory"})
        return value

    def validate_source_project(self, value):
        if value and value.scm_type == "":
            raise serializers.ValidationError("Cannot use manual project for SCM-based inventory.")
        return value

    def validate(self, attrs):
        def current(name):
            if name in attrs:
                return attrs[name]
            return getattr(self.instance, name) if self.instance else None

        if self.instance is None and not attrs.get("source"):
            raise serializers.ValidationError({"source": ["This field cannot be null."]})
        if "source" in attrs and attrs["source"] is None:
            raise serializers.ValidationError({"source": ["This field cannot be null."]})
        if current("source") == "scm":
            if ("source" in attrs or "source_project" in attrs) and current("source_project") is None:
                raise serializers.ValidationError({"source_project": ["Project required for scm type sources."]})
        else:
            redundant = [f for f in ("source_project", "source_path") if attrs.get(f)]
            if redundant:
                raise serializers.ValidationError({"detail": ["Cannot set %s if not SCM type." % " ".join(redundant)]})
        cred_id = attrs.pop("credential", serializers.empty)
        if cred_id not in (serializers.empty, None):
            cred = Credential.objects.filter(pk=cred_id).first()
            if cred is None:
                raise serializers.ValidationError({"credential": ['Invalid pk "%s" - object does not exist.' % cred_id]})
            attrs["_credential"] = cred
        elif cred_id is None:
            attrs["_credential"] = None
        inventory = current("inventory")
        qs = InventorySource.objects.filter(name=current("name"), inventory=inventory)
        if self.instance is not None:
            qs = qs.exclude(pk=self.instance.pk)
        if qs.exists():
            raise serializers.ValidationError({"__all__": ["InventorySource with this (name, inventory) combination already exists."]})
        return attrs

    def _set_credential(self, obj, attrs):
        if "_credential" in attrs:
            cred = attrs["_credential"]
            for existing in list(obj.credentials.all()):
                if existing != cred:
                    obj.credentials.remove(existing)
            if cred is not None:
                obj.credentials.add(cred)

    def create(self, validated_data):
        extra = {k: validated_data.pop(k) for k in list(validated_data) if k.startswith("_")}
        obj = super().create(validated_data)
        self._set_credential(obj, extra)
        return obj

    def update(self, instance, validated_data):
        extra = {k: validated_data.pop(k) for k in list(validated_data) if k.startswith("_")}
        obj = super().update(instance, validated_data)
        self._set_credential(obj, extra)
        return obj


# ---------------------------------------------------------------- credential input sources

class CredentialInputSourceSerializer(Base):
    type_name = "credential_input_source"
    url_base = "credential_input_sources"
    capabilities = ("delete",)
    metadata = serializers.JSONField(required=False, default=dict)

    class Meta:
        model = CredentialInputSource
        fields = ResourceSerializer.base_fields + ("description", "input_field_name", "metadata", "target_credential", "source_credential")
        validators = []
        extra_kwargs = {"input_field_name": {"required": True}, "target_credential": {"required": True}, "source_credential": {"required": True}}

    def related_links(self, obj):
        return {
            "source_credential": "/api/v2/credentials/%d/" % obj.source_credential_id,
            "target_credential": "/api/v2/credentials/%d/" % obj.target_credential_id,
        }

    def summary_extra(self, obj):
        return {"source_credential": credential_summary(obj.source_credential, kubernetes=False),
                "target_credential": credential_summary(obj.target_credential, kubernetes=False)}

    def validate(self, attrs):
        def current(name):
            return attrs[name] if name in attrs else getattr(self.instance, name)

        errors = {}
        target, source = current("target_credential"), current("source_credential")
        if target.credential_type.kind == "external":
            errors["target_credential"] = ["Target must be a non-external credential"]
        if source.credential_type.kind != "external":
            errors["source_credential"] = ["Source must be an external credential"]
        defined = sorted(f["id"] for f in (target.credential_type.inputs or {}).get("fields", []))
        if current("input_field_name") not in defined:
            errors["input_field_name"] = ["Input field must be defined on target credential (options are {}).".format(", ".join(defined))]
        if errors:
            raise serializers.ValidationError(errors)
        self.unique_error(CredentialInputSource, ("target_credential", "input_field_name"), attrs,
                          "Credential input source with this Target credential and Input field name already exists.")
        return attrs


# ---------------------------------------------------------------- execution environments

class ExecutionEnvironmentSerializer(Base):
    type_name = "execution_environment"
    url_base = "execution_environments"
    capabilities = ("edit", "delete", "copy")
    pull = serializers.ChoiceField(choices=PULL_CHOICES, required=False, allow_blank=True, default="")
    managed = serializers.BooleanField(read_only=True)

    class Meta:
        model = ExecutionEnvironment
        fields = ResourceSerializer.base_fields + ("name", "description", "organization", "image", "managed", "credential", "pull")
        validators = []

    def related_links(self, obj):
        base = self.get_url(obj)
        links = {"activity_stream": base + "activity_stream/", "unified_job_templates": base + "unified_job_templates/", "copy": base + "copy/"}
        if obj.organization_id:
            links["organization"] = "/api/v2/organizations/%d/" % obj.organization_id
        if obj.credential_id:
            links["credential"] = "/api/v2/credentials/%d/" % obj.credential_id
        return links

    def summary_extra(self, obj):
        data = {}
        if obj.organization_id:
            data["organization"] = org_summary(obj.organization)
        if obj.credential_id:
            data["credential"] = credential_summary(obj.credential)
        return data

    def validate_credential(self, value):
        if value and value.credential_type.kind != "registry":
            raise serializers.ValidationError("Only Container Registry credentials can be associated with an Execution Environment")
        return value

    def validate(self, attrs):
        if self.instance is not None:
            org = attrs.get("organization")
            if org and org.pk != self.instance.organization_id:
                raise serializers.ValidationError({"organization": ["Cannot change the organization of an execution environment"]})
        return attrs


# ---------------------------------------------------------------- instances and instance groups

class InstanceSerializer(Base):
    type_name = "instance"
    url_base = "instances"
    node_type = serializers.ChoiceField(choices=NODE_TYPES, required=False, default="execution")
    node_state = serializers.ChoiceField(choices=NODE_STATES, required=False, default="installed")
    capacity_adjustment = serializers.DecimalField(max_digits=3, decimal_places=2, min_value=0, required=False, default=1.0, coerce_to_string=True)
    consumed_capacity = serializers.SerializerMethodField()
    percent_capacity_remaining = serializers.SerializerMethodField()
    jobs_running = serializers.SerializerMethodField()
    jobs_total = serializers.SerializerMethodField()
    peers = serializers.PrimaryKeyRelatedField(many=True, required=False, queryset=ReceptorAddress.objects.all())
    reverse_peers = serializers.SerializerMethodField()
    listener_port = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=65535)
    peers_from_control_nodes = serializers.BooleanField(required=False)
    protocol = serializers.SerializerMethodField()
    health_check_pending = serializers.SerializerMethodField()
    health_check_started = serializers.SerializerMethodField()

    class Meta:
        model = Instance
        fields = (
            "id", "type", "url", "related", "summary_fields", "uuid", "hostname", "created", "modified", "last_seen",
            "health_check_started", "health_check_pending", "last_health_check", "errors", "capacity_adjustment",
            "version", "capacity", "consumed_capacity", "percent_capacity_remaining", "jobs_running", "jobs_total",
            "cpu", "memory", "cpu_capacity", "mem_capacity", "enabled", "managed_by_policy", "node_type", "node_state",
            "managed", "ip_address", "peers", "reverse_peers", "listener_port", "peers_from_control_nodes", "protocol",
        )
        read_only_fields = ("uuid", "version", "capacity", "cpu", "memory", "cpu_capacity", "mem_capacity", "last_seen",
                            "last_health_check", "errors", "managed", "ip_address")
        validators = []

    @staticmethod
    def canonical(obj):
        if obj is None or obj.pk is None:
            return None
        return obj.receptor_addresses.filter(canonical=True).first()

    def to_representation(self, obj):
        data = super().to_representation(obj)
        address = self.canonical(obj)
        data["listener_port"] = address.port if address else None
        data["peers_from_control_nodes"] = address.peers_from_control_nodes if address else False
        return data

    def get_consumed_capacity(self, obj):
        return 0

    def get_percent_capacity_remaining(self, obj):
        return 100.0 if obj.capacity else 0.0

    def get_jobs_running(self, obj):
        return 0

    def get_jobs_total(self, obj):
        return 0

    def get_reverse_peers(self, obj):
        return sorted(set(Instance.objects.filter(peers__instance=obj).values_list("id", flat=True)))

    def get_protocol(self, obj):
        return "tcp"

    def get_health_check_pending(self, obj):
        return False

    def get_health_check_started(self, obj):
        return None

    def related_links(self, obj):
        base = self.get_url(obj)
        links = {"jobs": base + "jobs/", "instance_groups": base + "instance_groups/", "peers": base + "peers/",
                 "receptor_addresses": base + "receptor_addresses/"}
        if obj.node_type != "hop":
            links["health_check"] = base + "health_check/"
        return links

    def validate_hostname(self, value):
        if self.instance is not None and self.instance.hostname != value:
            raise serializers.ValidationError("Cannot change hostname.")
        return value

    def validate_node_type(self, value):
        if self.instance is None:
            if value not in ("execution", "hop"):
                raise serializers.ValidationError("Can only create execution or hop nodes.")
        elif self.instance.node_type != value:
            raise serializers.ValidationError("Cannot change node type.")
        return value

    def validate_node_state(self, value):
        if self.instance is None:
            if value not in ("provisioning", "installed"):
                raise serializers.ValidationError("net new execution node creation must be in installed or provisioning node_state")
        elif self.instance.node_state != value:
            if not is_k8s():
                raise serializers.ValidationError("Can only change the state on Kubernetes or OpenShift.")
            if value != "deprovisioning":
                raise serializers.ValidationError("Can only change instances to the 'deprovisioning' state.")
            if self.instance.managed:
                raise serializers.ValidationError("Cannot deprovision managed nodes.")
        return value

    def validate(self, attrs):
        if self.instance is None and not is_k8s():
            raise serializers.ValidationError({"__all__": ["Can only create instances on Kubernetes or OpenShift."]})
        self.unique_error(Instance, ("hostname",), attrs, "Instance with this Hostname already exists.")
        current = self.canonical(self.instance)
        errors = {}
        if "listener_port" in attrs:
            port = attrs["listener_port"]
            if self.instance is not None and self.instance.managed and port != (current.port if current else None):
                errors["listener_port"] = ["Cannot change listener port for managed nodes."]
            elif current is not None and port is not None and port != current.port:
                errors["listener_port"] = ["Cannot change listener port."]
        port = attrs["listener_port"] if "listener_port" in attrs else (current.port if current else None)
        if attrs.get("peers_from_control_nodes") and port is None:
            errors["peers_from_control_nodes"] = ["Cannot enable peers_from_control_nodes if listener_port is not set."]
        if "peers" in attrs:
            errors.update(self.peer_errors(attrs["peers"]))
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def peer_errors(self, peers):
        obj = self.instance
        if obj is not None and not is_k8s() and set(p.id for p in peers) != set(obj.peers.values_list("id", flat=True)):
            return {"peers": ["Cannot change peers."]}
        if obj is not None and obj.managed and obj.node_type in ("control", "hybrid"):
            if set(p.id for p in peers) != set(obj.peers.values_list("id", flat=True)):
                return {"peers": ["Setting peers manually for managed nodes is not allowed."]}
            return {}
        owners = [p.instance_id for p in peers]
        if obj is not None and obj.pk in owners:
            return {"peers": ["Instance cannot peer to its own address."]}
        if len(set(owners)) != len(owners):
            return {"peers": ["Cannot peer to the same instance more than once."]}
        if obj is not None:
            for other in Instance.objects.filter(pk__in=owners, peers__instance=obj).distinct():
                return {"peers": ["Instance %s is already peered to this instance." % other.hostname]}
        return {}

    def save_links(self, obj, port_given, port, peers_from, peers):
        address = self.canonical(obj)
        if port_given and port is None and address is not None:
            address.delete()
            address = None
        elif port_given and port is not None and address is None:
            address = ReceptorAddress.objects.create(instance=obj, address=obj.hostname, port=port, canonical=True,
                                                     peers_from_control_nodes=bool(peers_from))
        if address is not None and peers_from is not None and address.peers_from_control_nodes != peers_from:
            address.peers_from_control_nodes = peers_from
            address.save()
        if peers is not None:
            obj.peers.set(peers)
        return obj

    def pop_links(self, validated_data):
        port_given = "listener_port" in validated_data
        return (port_given, validated_data.pop("listener_port", None), validated_data.pop("peers_from_control_nodes", None),
                validated_data.pop("peers", None))

    def create(self, validated_data):
        links = self.pop_links(validated_data)
        return self.save_links(Instance.objects.create(**validated_data), *links)

    def update(self, instance, validated_data):
        links = self.pop_links(validated_data)
        return self.save_links(super().update(instance, validated_data), *links)


class ReceptorAddressSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    full_address = serializers.SerializerMethodField()

    class Meta:
        model = ReceptorAddress
        fields = ("id", "url", "address", "port", "protocol", "websocket_path", "is_internal", "canonical", "instance",
                  "peers_from_control_nodes", "full_address")
        read_only_fields = fields

    def get_url(self, obj):
        return "/api/v2/receptor_addresses/%d/" % obj.pk

    def get_full_address(self, obj):
        text = obj.address if obj.port is None else "%s:%d" % (obj.address, obj.port)
        return text + ("/" + obj.websocket_path.strip("/") if obj.websocket_path else "")


class InstanceGroupSerializer(Base):
    type_name = "instance_group"
    url_base = "instance_groups"
    capabilities = ("edit", "delete")
    consumed_capacity = serializers.SerializerMethodField()
    percent_capacity_remaining = serializers.SerializerMethodField()
    capacity = serializers.SerializerMethodField()
    jobs_running = serializers.SerializerMethodField()
    jobs_total = serializers.SerializerMethodField()
    instances = serializers.SerializerMethodField()
    is_container_group = serializers.BooleanField(required=False)
    policy_instance_percentage = serializers.IntegerField(default=0, min_value=0, max_value=100, required=False)
    policy_instance_minimum = serializers.IntegerField(default=0, min_value=0, required=False)
    policy_instance_list = serializers.ListField(child=serializers.CharField(), required=False)
    max_concurrent_jobs = serializers.IntegerField(default=0, min_value=0, required=False)
    max_forks = serializers.IntegerField(default=0, min_value=0, required=False)
    pod_spec_override = serializers.CharField(required=False, allow_blank=True, default="")

    class Meta:
        model = InstanceGroup
        fields = (
            "id", "type", "url", "related", "name", "created", "modified", "capacity", "consumed_capacity",
            "percent_capacity_remaining", "jobs_running", "max_concurrent_jobs", "max_forks", "jobs_total", "instances",
            "is_container_group", "credential", "policy_instance_percentage", "policy_instance_minimum",
            "policy_instance_list", "pod_spec_override", "summary_fields",
        )
        validators = []

    def get_capacity(self, obj):
        return sum(i.capacity for i in obj.instances.all() if i.enabled)

    def get_consumed_capacity(self, obj):
        return 0

    def get_percent_capacity_remaining(self, obj):
        return 100.0 if self.get_capacity(obj) else 0.0

    def get_jobs_running(self, obj):
        return 0

    def get_jobs_total(self, obj):
        return 0

    def get_instances(self, obj):
        return obj.instances.count()

    def related_links(self, obj):
        base = self.get_url(obj)
        links = {"jobs": base + "jobs/", "instances": base + "instances/", "access_list": base + "access_list/",
                 "object_roles": base + "object_roles/"}
        if obj.credential_id:
            links["credential"] = "/api/v2/credentials/%d/" % obj.credential_id
        return links

    def summary_extra(self, obj):
        from refsvc.rbac.registry import object_roles

        # The real service lists the roles of every object that has role fields.
        data = {"object_roles": object_roles(obj)}
        if obj.credential_id:
            data["credential"] = credential_summary(obj.credential)
        return data

    def _protected(self):
        return self.instance is not None and self.instance.name in ("default", "controlplane")

    def validate_name(self, value):
        if self.instance is not None and self.instance.name in ("default", "controlplane") and value != self.instance.name:
            raise serializers.ValidationError("%s instance group name may not be changed." % self.instance.name)
        return value

    def validate_policy_instance_list(self, value):
        if self._protected() and self.instance.policy_instance_list != value:
            raise serializers.ValidationError("%s instance group policy_instance_list may not be changed." % self.instance.name)
        for name in value:
            if value.count(name) > 1:
                raise serializers.ValidationError("Duplicate entry {}.".format(name))
            if not Instance.objects.filter(hostname=name).exists():
                raise serializers.ValidationError("{} is not a valid hostname of an existing instance.".format(name))
        if value and self.instance is not None and self.instance.is_container_group:
            raise serializers.ValidationError("Containerized instances may not be managed via the API")
        return value

    def validate_policy_instance_percentage(self, value):
        if self._protected() and value != self.instance.policy_instance_percentage:
            raise serializers.ValidationError(
                "%s instance group policy_instance_percentage may not be changed from the initial value set by the installer." % self.instance.name)
        if value and self.instance is not None and self.instance.is_container_group:
            raise serializers.ValidationError("Containerized instances may not be managed via the API")
        return value

    def validate_is_container_group(self, value):
        if self._protected() and value != self.instance.is_container_group:
            raise serializers.ValidationError("%s instance group is_container_group may not be changed." % self.instance.name)
        return value

    def validate_credential(self, value):
        if value and value.credential_type.kind != "kubernetes":
            raise serializers.ValidationError("Only Kubernetes credentials can be associated with an Instance Group")
        return value

    def validate(self, attrs):
        self.unique_error(InstanceGroup, ("name",), attrs, "Instance group with this Name already exists.")
        if attrs.get("credential") and not attrs.get("is_container_group"):
            raise serializers.ValidationError({"is_container_group": ["is_container_group must be True when associating a credential to an Instance Group"]})
        return attrs


# ---------------------------------------------------------------- notification templates

class NotificationTemplateSerializer(Base):
    type_name = "notification_template"
    url_base = "notification_templates"
    capabilities = ("edit", "delete", "copy")
    notification_type = serializers.ChoiceField(choices=NOTIFICATION_TYPES)
    notification_configuration = serializers.JSONField(required=False, default=dict)
    # NotificationTemplate.default_messages
    messages = serializers.JSONField(required=False, allow_null=True,
                                     default=lambda: {"started": None, "success": None, "error": None, "workflow_approval": None})

    class Meta:
        model = NotificationTemplate
        fields = ResourceSerializer.base_fields + ("name", "description", "organization", "notification_type", "notification_configuration", "messages")
        validators = []
        extra_kwargs = {"organization": {"required": True, "allow_null": False}}

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["notification_configuration"] = notifications.display(obj.notification_type, obj.notification_configuration)
        return data

    def related_links(self, obj):
        base = self.get_url(obj)
        return {"test": base + "test/", "notifications": base + "notifications/", "copy": base + "copy/",
                "organization": "/api/v2/organizations/%d/" % obj.organization_id}

    def summary_extra(self, obj):
        return {"organization": org_summary(obj.organization), "recent_notifications": []}

    def validate_messages(self, messages):
        errors = notifications.check_messages(messages, self.instance.notification_type if self.instance else self.initial_data.get("notification_type", ""))
        if errors:
            raise serializers.ValidationError(errors)
        return messages

    def validate(self, attrs):
        ntype = attrs.get("notification_type") or (self.instance.notification_type if self.instance else None)
        if "notification_configuration" in attrs:
            stored = self.instance.notification_configuration if self.instance else None
            if not isinstance(attrs["notification_configuration"], dict):
                raise serializers.ValidationError({"notification_configuration": ["Expected a dictionary of items but got type \"%s\"." % type(attrs["notification_configuration"]).__name__]})
            errors, config = notifications.check_configuration(ntype, attrs["notification_configuration"], stored)
            if errors:
                raise serializers.ValidationError({"__all__": errors})
            attrs["notification_configuration"] = config
        self.unique_error(NotificationTemplate, ("organization", "name"), attrs, "Notification template with this Organization and Name already exists.")
        return attrs


# ---------------------------------------------------------------- schedules

UTC_NAMES = dateutil.parser.parserinfo().UTCZONE


def coerce_naive_until(value):
    """The rrule with each naive UNTIL read in DTSTART's zone and written in UTC, as the real service
    stores it (Schedule.coerce_naive_until, applied on save)."""
    tzinfos = {x: tzutc() for x in UTC_NAMES}
    start = re.match(r".*?(DTSTART[^\s]*)", value)
    rules = re.split(r"\s+", value)
    for index, rule in enumerate(rules):
        match = re.match(r".*?(?P<until>UNTIL\=[0-9]+T[0-9]+)(?P<utcflag>Z?)", rule)
        if not match or match.group("utcflag") or start is None:
            continue
        naive = match.group("until")
        probe = "%s %s" % (start.group(1), rule.replace(naive, naive + "Z"))
        if rule.lower().startswith("ex"):
            probe += " RRULE:FREQ=MINUTELY;INTERVAL=1;UNTIL=20380601T170000Z"
        local_tz = dateutil.rrule.rrulestr(probe, tzinfos=tzinfos, forceset=True)._rrule[0]._dtstart.tzinfo
        local = datetime.datetime.strptime(naive[len("UNTIL="):], "%Y%m%dT%H%M%S").replace(tzinfo=local_tz)
        rules[index] = rule.replace(naive, "UNTIL=" + local.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    return " ".join(rules)


def rrulestr(value, fast_forward=True):
    """Parse an rrule the way the real service does (forceset; a naive UNTIL is read in DTSTART's zone;
    an HOURLY or MINUTELY rule without COUNT that started over a week ago is parsed from a week ago)."""
    tzinfos = {x: tzutc() for x in UTC_NAMES}
    value = coerce_naive_until(value)
    ruleset = dateutil.rrule.rrulestr(value, tzinfos=tzinfos, forceset=True)
    for r in ruleset._rrule:
        if r._dtstart and r._dtstart.tzinfo is None:
            raise ValueError("A valid TZID must be provided (e.g., America/New_York)")
    if fast_forward:
        try:
            if (timezone.now() - ruleset[0]).days > 7 and any(
                    r._freq in (dateutil.rrule.MINUTELY, dateutil.rrule.HOURLY) and not r._count for r in ruleset._rrule):
                start = (timezone.now() - datetime.timedelta(days=7)).strftime("%Y%m%d")
                return rrulestr(re.sub(r"(DTSTART[^:]*):[^T]+T", r"\1:%sT" % start, value), fast_forward=False)
        except IndexError:
            pass
    return ruleset


def rrule_errors(value):
    by_day_numeric = r".*?BYDAY[\:\=][0-9]+[a-zA-Z]{2}"
    dtstarts = re.findall(r".*?(DTSTART(;[^:]+)?\:[0-9]+T[0-9]+Z?)", value)
    naive = re.findall(r".*?(DTSTART:[0-9]+T[0-9]+) ", value)
    rules = re.findall(r".*?(RULE\:[^\s]*)", value)
    errors = []
    if not dtstarts:
        errors.append("Valid DTSTART required in rrule. Value should start with: DTSTART:YYYYMMDDTHHMMSSZ")
    if naive:
        errors.append("DTSTART cannot be a naive datetime.  Specify ;TZINFO= or YYYYMMDDTHHMMSSZZ.")
    if len(dtstarts) > 1:
        errors.append("Multiple DTSTART is not supported.")
    if "rrule:" not in value.lower():
        errors.append("One or more rule required in rrule.")
    if "exdate:" in value.lower():
        return ["EXDATE not allowed in rrule."]
    if "rdate:" in value.lower():
        return ["RDATE not allowed in rrule."]
    for rule in rules:
        if "interval" not in rule.lower():
            errors.append("INTERVAL required in rrule: %s" % rule)
        elif "secondly" in rule.lower():
            errors.append("SECONDLY is not supported: %s" % rule)
        if re.match(by_day_numeric, rule):
            errors.append("BYDAY with numeric prefix not supported: %s" % rule)
        if "COUNT" in rule and "UNTIL" in rule:
            errors.append("RRULE may not contain both COUNT and UNTIL: %s" % rule)
        count = re.match(r".*?(COUNT\=[0-9]+)", rule)
        if count and int(count.groups()[0].split("=")[1]) > 999:
            errors.append("COUNT > 999 is unsupported: %s" % rule)
    try:
        rrulestr(value)
    except Exception as exc:
        errors.append("rrule parsing failed validation: {}".format(exc))
    return errors


def schedule_times(value):
    """(dtstart, dtend, next_run, timezone name, until) of a valid rrule."""
    ruleset = rrulestr(value)
    now = timezone.now()
    nxt = ruleset.after(now)
    if nxt is not None and not datetime_exists(nxt):
        nxt = ruleset.after(nxt)
    utc = datetime.timezone.utc
    try:
        dtstart = ruleset[0].astimezone(utc)
    except IndexError:
        dtstart = None
    # An end only when every included rule ends (an UNTIL or a COUNT), as the
    # real service's get_end_date scans before it asks for the last occurrence.
    dtend = None
    if ruleset._rrule and all(r._until or r._count for r in ruleset._rrule):
        try:
            dtend = ruleset[-1].astimezone(utc)
        except IndexError:
            dtend = None
    tzname = ""
    until = ""
    for r in ruleset._rrule:
        if r._dtstart:
            tz = r._dtstart.tzinfo
            if tz is tzutc() or isinstance(tz, type(tzutc())):
                tzname = "UTC"
            else:
                fname = getattr(tz, "_filename", "") or ""
                tzname = fname.split("zoneinfo/")[-1] if fname else str(tz)
        if r._until:
            local = r._until.astimezone(r._dtstart.tzinfo) if r._dtstart else r._until
            until = local.replace(tzinfo=None).isoformat()
    return dtstart, dtend, (nxt.astimezone(utc) if nxt else None), tzname, until


class UnifiedJobTemplateField(serializers.IntegerField):
    def to_representation(self, value):
        return value.id if value is not None else None


class ScheduleSerializer(Base):
    type_name = "schedule"
    url_base = "schedules"
    capabilities = ("edit", "delete")
    unified_job_template = UnifiedJobTemplateField()
    rrule = serializers.CharField(max_length=255)
    extra_data = serializers.JSONField(required=False, default=dict)
    job_type = serializers.ChoiceField(choices=[("", "---------"), ("run", "Run"), ("check", "Check")], required=False, allow_null=True, allow_blank=True, default=None)
    verbosity = serializers.ChoiceField(choices=[(0, "0 (Normal)"), (1, "1 (Verbose)"), (2, "2 (More Verbose)"), (3, "3 (Debug)"), (4, "4 (Connection Debug)"), (5, "5 (WinRM Debug)")], required=False, allow_null=True, default=None)
    diff_mode = serializers.BooleanField(required=False, allow_null=True, default=None)
    forks = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)
    job_slice_count = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)
    timeout = serializers.IntegerField(required=False, allow_null=True, default=None)
    timezone = serializers.SerializerMethodField()
    until = serializers.SerializerMethodField()

    class Meta:
        model = Schedule
        fields = ResourceSerializer.base_fields + (
            "name", "description", "rrule", "extra_data", "inventory", "scm_branch", "job_type", "job_tags", "skip_tags",
            "limit", "diff_mode", "verbosity", "execution_environment", "forks", "job_slice_count", "timeout",
            "unified_job_template", "enabled", "dtstart", "dtend", "next_run", "timezone", "until",
        )
        read_only_fields = ("dtstart", "dtend", "next_run")
        validators = []
        extra_kwargs = {n: {"required": False, "allow_null": True, "default": None} for n in ("scm_branch", "job_tags", "skip_tags", "limit")}

    def get_timezone(self, obj):
        try:
            return schedule_times(obj.rrule)[3]
        except Exception:
            return ""

    def get_until(self, obj):
        try:
            return schedule_times(obj.rrule)[4]
        except Exception:
            return ""

    def related_links(self, obj):
        base = self.get_url(obj)
        links = {"unified_jobs": base + "jobs/", "credentials": base + "credentials/", "labels": base + "labels/",
                 "instance_groups": base + "instance_groups/"}
        ujt, kind = ujt_of(obj)
        if ujt is not None:
            links["unified_job_template"] = "/api/v2/%ss/%d/" % (kind, ujt.id)
            if kind == "job_template" and ujt.project_id:
                links["project"] = "/api/v2/projects/%d/" % ujt.project_id
        inv = obj.inventory or getattr(ujt, "inventory", None)
        if inv is not None:
            links["inventory"] = "/api/v2/inventories/%d/" % inv.id
        return links

    def summary_extra(self, obj):
        ujt, kind = ujt_of(obj)
        data = {}
        if ujt is not None:
            data["unified_job_template"] = {"id": ujt.id, "name": ujt.name, "description": ujt.description, "unified_job_type": UJ_TYPES[kind]}
        inv = obj.inventory or getattr(ujt, "inventory", None)
        if inv is not None:
            data["inventory"] = inventory_summary(inv)
        if obj.execution_environment_id:
            data["execution_environment"] = summary(obj.execution_environment, "id", "name", "description", "image")
        # ScheduleSerializer.get_summary_fields: no credentials or labels (their sub-lists have them)
        return data

    def validate_rrule(self, value):
        errors = rrule_errors(value)
        if errors:
            raise serializers.ValidationError(errors)
        return value

    def validate_unified_job_template(self, value):
        target = self.context.get("ujt") or resolve_ujt(value)
        if target is None:
            raise serializers.ValidationError('Invalid pk "%s" - object does not exist.' % value)
        kind, obj = target
        if kind == "inventory_source" and obj.source not in CLOUD_INVENTORY_SOURCES:
            raise serializers.ValidationError("Inventory Source must be a cloud resource.")
        if kind == "project" and obj.scm_type == "":
            raise serializers.ValidationError("Manual Project cannot have a schedule set.")
        return target

    def validate(self, attrs):
        request = self.context.get("request")
        if request is not None and request.method == "PATCH" and set(attrs) == {"enabled"} and attrs["enabled"] is False:
            return attrs
        if "unified_job_template" in attrs:
            kind, ujt = attrs.pop("unified_job_template")
        else:
            ujt, kind = ujt_of(self.instance)
        attrs["_ujt"] = (kind, ujt)
        errors = prompt_errors(kind, ujt, attrs, self.initial_data)
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def _apply(self, obj, attrs):
        target = attrs.pop("_ujt", None)
        if target is not None:
            kind, ujt = target
            obj.job_template = ujt if kind == "job_template" else None
            obj.project = ujt if kind == "project" else None
            obj.inventory_source = ujt if kind == "inventory_source" else None
            obj.workflow_job_template = ujt if kind == "workflow_job_template" else None
        for key, value in attrs.items():
            setattr(obj, key, value)
        obj.rrule = coerce_naive_until(obj.rrule)
        obj.dtstart, obj.dtend, obj.next_run = schedule_times(obj.rrule)[:3]
        obj.save()
        return obj

    def create(self, validated_data):
        return self._apply(Schedule(), validated_data)

    def update(self, instance, validated_data):
        return self._apply(instance, validated_data)


UJ_TYPES = {"job_template": "job", "project": "project_update", "inventory_source": "inventory_update",
            "workflow_job_template": "workflow_job"}


def ujt_of(schedule):
    if schedule is None:
        return None, None
    if schedule.job_template_id:
        return schedule.job_template, "job_template"
    if schedule.project_id:
        return schedule.project, "project"
    if schedule.inventory_source_id:
        return schedule.inventory_source, "inventory_source"
    if schedule.workflow_job_template_id:
        return schedule.workflow_job_template, "workflow_job_template"
    return None, None


def resolve_ujt(pk):
    """A unified job template id: a job template, an inventory source, a project or a workflow job template."""
    from refsvc.jobs.models import JobTemplate, Project
    from refsvc.workflows.models import WorkflowJobTemplate

    for kind, model in (("job_template", JobTemplate), ("inventory_source", InventorySource), ("project", Project),
                        ("workflow_job_template", WorkflowJobTemplate)):
        obj = model.objects.filter(pk=pk).first()
        if obj is not None:
            return kind, obj
    return None


PROMPT_FIELDS = {
    # schedule field -> job template flag (None: no template here prompts for it)
    "inventory": "ask_inventory_on_launch", "limit": "ask_limit_on_launch", "job_tags": "ask_tags_on_launch",
    "skip_tags": "ask_skip_tags_on_launch", "job_type": "ask_job_type_on_launch", "verbosity": "ask_verbosity_on_launch",
    "scm_branch": "ask_scm_branch_on_launch", "diff_mode": "ask_diff_mode_on_launch", "forks": "ask_forks_on_launch",
    "job_slice_count": "ask_job_slice_count_on_launch", "timeout": "ask_timeout_on_launch",
    "execution_environment": "ask_execution_environment_on_launch",
}


# What a workflow job template prompts for (its ask mapping on the real service).
WORKFLOW_PROMPTS = ("inventory", "limit", "scm_branch", "job_tags", "skip_tags")


def prompt_errors(kind, ujt, attrs, initial):
    errors = {}
    for name, flag in PROMPT_FIELDS.items():
        if name not in initial or attrs.get(name) in (None, ""):
            continue
        if attrs[name] == getattr(ujt, name, None):
            continue  # the template's own value: neither accepted nor refused
        prompts = kind == "job_template" or (kind == "workflow_job_template" and name in WORKFLOW_PROMPTS)
        allowed = prompts and flag is not None and getattr(ujt, flag, False)
        if not allowed:
            errors[name] = ["Field is not configured to prompt on launch."]
    extra = attrs.get("extra_data") or {}
    if extra and not (kind in ("job_template", "workflow_job_template") and getattr(ujt, "ask_variables_on_launch", False)):
        errors["extra_data"] = ["Variables {} provided, but this template cannot accept variables.".format(", ".join(sorted(extra)))]
    return errors
