"""The ad hoc command as the real service shows it, and the checks of a launch
(the real AdHocCommandSerializer's fields, then the model's clean_* checks)."""
import yaml
from rest_framework import serializers

from refsvc.jobs.serializers import UnifiedJobSerializer, summary, unified_job_data, validate_execution_environment
from refsvc.svc.models import Credential, Inventory
from refsvc.svc.serializers import ResourceSerializer, VariablesField, user_summary

from .models import VERBOSITY, AdHocCommand

LIST_FIELDS = (
    "name", "launch_type", "status", "execution_environment", "failed", "started", "finished", "canceled_on",
    "elapsed", "job_explanation", "launched_by", "job_type", "inventory", "limit", "credential", "module_name",
    "module_args", "forks", "verbosity", "extra_vars", "become_enabled", "diff_mode",
)
DETAIL_FIELDS = ("job_args", "job_cwd")


def allowed_modules():
    """The AD_HOC_COMMANDS setting (jobs category), as changed through the API or its default."""
    from refsvc.conf.registry import CATEGORIES
    from refsvc.svc.models import RuntimeSetting

    row = RuntimeSetting.objects.filter(key="AD_HOC_COMMANDS").first()
    return list(row.value) if row is not None else CATEGORIES["jobs"][1]["AD_HOC_COMMANDS"]().default


def prohibited_vars(text):
    """The ansible_* variables of ``text`` (extra vars, already checked as a mapping)."""
    data = yaml.safe_load(text) if text else None
    return sorted((k for k in (data or {}) if str(k).startswith("ansible_")), reverse=True)


class AdHocCommandSerializer(UnifiedJobSerializer):
    type_name = "ad_hoc_command"
    url_base = "ad_hoc_commands"
    detail = False
    unified_values = ("execution_node", "controller_node", "work_unit_id", "launched_by")

    name = serializers.CharField(read_only=True)
    inventory = serializers.PrimaryKeyRelatedField(queryset=Inventory.objects.all(), required=False, allow_null=True)
    credential = serializers.PrimaryKeyRelatedField(queryset=Credential.objects.all(), required=False, allow_null=True)
    job_type = serializers.ChoiceField(choices=[("run", "Run"), ("check", "Check")], required=False, default="run")
    verbosity = serializers.ChoiceField(choices=VERBOSITY, required=False, default=0)
    forks = serializers.IntegerField(min_value=0, max_value=2147483647, required=False, default=0)
    module_args = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=False)
    extra_vars = VariablesField(default="")
    execution_environment = serializers.IntegerField(required=False, allow_null=True)

    class Meta:
        model = AdHocCommand
        fields = ResourceSerializer.base_fields + LIST_FIELDS + DETAIL_FIELDS
        read_only_fields = (
            "launch_type", "status", "failed", "started", "finished", "canceled_on", "job_explanation", "launched_by",
            "job_args", "job_cwd",
        )

    def get_fields(self):
        fields = super().get_fields()
        modules = allowed_modules()
        default = "command" if "command" in modules else ""
        fields["module_name"] = serializers.ChoiceField(
            choices=[(m, m) for m in modules], required=not default, allow_blank=bool(default),
            **({"default": default} if default else {}))
        if not self.detail:
            for name in DETAIL_FIELDS:
                fields.pop(name, None)
        return fields

    def validate_execution_environment(self, value):
        return validate_execution_environment(value)

    def validate_extra_vars(self, value):
        removed = prohibited_vars(value)
        if removed:
            raise serializers.ValidationError("%s are prohibited from use in ad hoc commands." % ", ".join(removed))
        return value

    def validate(self, attrs):
        # The model's own checks, all reported together.
        errors = {}
        if attrs.get("inventory") is None:
            errors["inventory"] = ["No valid inventory."]
        cred = attrs.get("credential")
        if cred is not None and cred.credential_type.kind != "ssh":
            errors["credential"] = ["You must provide a machine / SSH credential."]
        attrs["module_name"] = (attrs.get("module_name") or "").strip() or "command"
        if attrs["module_name"] not in allowed_modules():
            errors["module_name"] = ["Unsupported module for ad hoc commands."]
        elif attrs["module_name"] in ("command", "shell") and not attrs.get("module_args"):
            errors["module_args"] = ["No argument passed to %s module." % attrs["module_name"]]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def get_related(self, obj):
        base = self.get_url(obj)
        related = dict((name, base + name + "/") for name in (
            "stdout", "cancel", "relaunch", "events", "activity_stream", "notifications"))
        if obj.launched_by_id:
            related["created_by"] = "/api/v2/users/%d/" % obj.launched_by_id
        if obj.inventory_id:
            related["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        if obj.credential_id:
            related["credential"] = "/api/v2/credentials/%d/" % obj.credential_id
        return related

    def get_summary_fields(self, obj):
        data = {
            "inventory": summary(obj.inventory, "id", "name", "description"),
            "created_by": user_summary(obj.launched_by),
            "user_capabilities": {"delete": True, "start": True},
        }
        if obj.credential is not None:
            data["credential"] = {"id": obj.credential.id, "name": obj.credential.name, "description": obj.credential.description,
                                  "kind": obj.credential.credential_type.namespace, "cloud": False,
                                  "credential_type_id": obj.credential.credential_type_id}
        return dict((k, v) for k, v in data.items() if v is not None)

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["name"] = obj.module_name
        if self.detail:
            data.update(unified_job_data(obj, ("job_env", "result_traceback", "event_processing_finished")))
            data["host_status_counts"] = {}
        return data


class AdHocCommandDetailSerializer(AdHocCommandSerializer):
    detail = True
