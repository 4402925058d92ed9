from rest_framework import serializers

from refsvc.jobs.launch import split_survey_vars
from refsvc.jobs.models import UnifiedJobTemplate
from refsvc.jobs.serializers import (
    WEBHOOK_SERVICES, object_roles, summary, unique_combination, validate_execution_environment, validate_webhook,
)
from refsvc.resources.serializers import prompt_errors, resolve_ujt
from refsvc.svc.serializers import ResourceSerializer, VariablesField, user_summary

from .models import WorkflowApprovalTemplate, WorkflowJobTemplate, WorkflowJobTemplateNode

UJT_URLS = {"job_template": "job_templates", "project": "projects", "workflow_job_template": "workflow_job_templates",
            "workflow_approval_template": "workflow_approval_templates"}


def credential_summary(cred):
    return {"id": cred.id, "name": cred.name, "description": cred.description, "kind": cred.credential_type.namespace,
            "cloud": cred.credential_type.kind == "cloud", "credential_type_id": cred.credential_type_id}


class WorkflowJobTemplateSerializer(ResourceSerializer):
    type_name = "workflow_job_template"
    url_base = "workflow_job_templates"
    extra_vars = VariablesField()
    limit = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    scm_branch = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    job_tags = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    skip_tags = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    webhook_service = serializers.ChoiceField(choices=[("", "---------")] + WEBHOOK_SERVICES, required=False, allow_blank=True, allow_null=True)

    class Meta:
        model = WorkflowJobTemplate
        fields = ResourceSerializer.base_fields + (
            "name", "description", "extra_vars", "organization", "survey_enabled", "allow_simultaneous",
            "ask_variables_on_launch", "inventory", "limit", "scm_branch", "ask_inventory_on_launch",
            "ask_scm_branch_on_launch", "ask_limit_on_launch", "webhook_service", "webhook_credential",
            "ask_labels_on_launch", "ask_skip_tags_on_launch", "ask_tags_on_launch", "skip_tags", "job_tags",
        )
        validators = []

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {n: base + n + "/" for n in (
            "workflow_jobs", "schedules", "launch", "webhook_key", "webhook_receiver", "workflow_nodes", "labels",
            "activity_stream", "notification_templates_started", "notification_templates_success",
            "notification_templates_error", "notification_templates_approvals", "access_list", "object_roles",
            "survey_spec", "copy")}
        if obj.organization_id:
            related["organization"] = "/api/v2/organizations/%d/" % obj.organization_id
        if obj.inventory_id:
            related["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        if obj.webhook_credential_id:
            related["webhook_credential"] = "/api/v2/credentials/%d/" % obj.webhook_credential_id
        if obj.created_by_id:
            related["created_by"] = "/api/v2/users/%d/" % obj.created_by_id
        return related

    def get_summary_fields(self, obj):
        data = {
            "organization": summary(obj.organization, "id", "name", "description"),
            "inventory": summary(obj.inventory, "id", "name", "description"),
            "created_by": user_summary(obj.created_by),
            "object_roles": object_roles(obj),
            "user_capabilities": {"edit": True, "delete": True, "start": True, "schedule": True, "copy": True},
            "labels": {"count": obj.labels.count(), "results": [{"id": lb.id, "name": lb.name} for lb in obj.labels.all()[:10]]},
        }
        for key in ("organization", "inventory"):
            if data[key] is None:
                del data[key]
        if obj.webhook_credential_id:
            data["webhook_credential"] = credential_summary(obj.webhook_credential)
        if obj.survey_spec:
            data["survey"] = {"title": obj.survey_spec.get("name", ""), "description": obj.survey_spec.get("description", "")}
        return data

    def validate_webhook_service(self, value):
        return value or ""

    def validate(self, attrs):
        unique_combination(self, WorkflowJobTemplate, attrs)
        validate_webhook(self, attrs)
        return attrs

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data.update({"last_job_run": None, "last_job_failed": False, "next_job_run": None, "status": "never updated"})
        return data


class UnifiedJobTemplateField(serializers.PrimaryKeyRelatedField):
    def __init__(self, **kwargs):
        super().__init__(queryset=UnifiedJobTemplate.objects.all(), **kwargs)


class RelatedId(serializers.IntegerField):
    """An object's id, where "" means none, as DRF's relational fields take it on the real service."""

    def to_internal_value(self, data):
        return None if data == "" else super().to_internal_value(data)


NODE_PROMPTS = ("inventory", "execution_environment", "job_type", "job_tags", "skip_tags", "limit", "diff_mode",
                "verbosity", "scm_branch", "forks", "job_slice_count", "timeout")


class WorkflowJobTemplateNodeSerializer(ResourceSerializer):
    type_name = "workflow_job_template_node"
    url_base = "workflow_job_template_nodes"
    extra_data = serializers.JSONField(required=False, default=dict)
    unified_job_template = UnifiedJobTemplateField(required=False, allow_null=True)
    identifier = serializers.CharField(max_length=512, required=False)
    job_type = serializers.ChoiceField(choices=[("", "---------"), ("run", "Run"), ("check", "Check")], required=False, allow_null=True, allow_blank=True, default=None)
    verbosity = serializers.ChoiceField(choices=[(0, "0 (Normal)"), (1, "1 (Verbose)"), (2, "2 (More Verbose)"), (3, "3 (Debug)"), (4, "4 (Connection Debug)"), (5, "5 (WinRM Debug)")], required=False, allow_null=True, default=None)
    forks = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)
    job_slice_count = serializers.IntegerField(min_value=0, required=False, allow_null=True, default=None)
    timeout = serializers.IntegerField(required=False, allow_null=True, default=None)
    execution_environment = RelatedId(required=False, allow_null=True)
    diff_mode = serializers.BooleanField(required=False, allow_null=True, default=None)
    job_tags = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    skip_tags = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    limit = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    scm_branch = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    success_nodes = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    failure_nodes = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    always_nodes = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = WorkflowJobTemplateNode
        fields = ResourceSerializer.base_fields + (
            "extra_data", "inventory", "scm_branch", "job_type", "job_tags", "skip_tags", "limit", "diff_mode",
            "verbosity", "execution_environment", "forks", "job_slice_count", "timeout", "workflow_job_template",
            "unified_job_template", "success_nodes", "failure_nodes", "always_nodes", "all_parents_must_converge",
            "identifier",
        )
        validators = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance is not None and not isinstance(self.instance, (list, tuple)) and hasattr(self.instance, "pk"):
            self.fields["workflow_job_template"].read_only = True

    def get_url(self, obj):
        return "/api/v2/workflow_job_template_nodes/%d/" % obj.pk

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {n: base + n + "/" for n in ("credentials", "success_nodes", "failure_nodes", "always_nodes",
                                                "labels", "instance_groups", "create_approval_template")}
        related["workflow_job_template"] = "/api/v2/workflow_job_templates/%d/" % obj.workflow_job_template_id
        ujt = obj.unified_job_template
        if ujt is not None:
            related["unified_job_template"] = "/api/v2/%s/%d/" % (UJT_URLS.get(ujt.kind, ujt.kind + "s"), ujt.pk)
        if obj.inventory_id:
            related["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        return related

    def get_summary_fields(self, obj):
        wfjt = obj.workflow_job_template
        data = {"workflow_job_template": {"id": wfjt.id, "name": wfjt.name, "description": wfjt.description}}
        ujt = obj.unified_job_template
        if ujt is not None:
            data["unified_job_template"] = {"id": ujt.id, "name": ujt.name, "description": "", "unified_job_type": {
                "job_template": "job", "project": "project_update", "workflow_job_template": "workflow_job",
                "inventory_source": "inventory_update", "system_job_template": "system_job",
                "workflow_approval_template": "workflow_approval"}.get(ujt.kind, ujt.kind)}
            approval = WorkflowApprovalTemplate.objects.filter(pk=ujt.id).first() if ujt.kind == "workflow_approval_template" else None
            if approval is not None:
                # WorkflowJobTemplateNodeSerializer.get_summary_fields
                data["unified_job_template"]["timeout"] = approval.timeout
        if obj.inventory_id:
            data["inventory"] = summary(obj.inventory, "id", "name", "description")
        return data

    def validate_execution_environment(self, value):
        return validate_execution_environment(value)

    def validate_extra_data(self, value):
        if value in (None, ""):
            return {}
        if not isinstance(value, dict):
            raise serializers.ValidationError("Input type `%s` is not a dictionary" % type(value).__name__)
        return value

    def validate(self, attrs):
        wfjt = attrs.get("workflow_job_template", getattr(self.instance, "workflow_job_template", None))
        identifier = attrs.get("identifier", getattr(self.instance, "identifier", None))
        if wfjt is not None and identifier is not None:
            qs = WorkflowJobTemplateNode.objects.filter(workflow_job_template=wfjt, identifier=identifier)
            if self.instance is not None:
                qs = qs.exclude(pk=self.instance.pk)
            if qs.exists():
                raise serializers.ValidationError({"__all__": ["Workflow job template node with this Identifier and Workflow job template already exists."]})
        errors = self.prompt_errors(attrs)
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def prompt_errors(self, attrs):
        """The prompts the node's template does not ask for, refused as the real service refuses them; its
        variables are the template's survey's, or any with ask_variables_on_launch. As there, a partial
        update checks them only when it gives the variables, the inventory or the execution environment
        (the prompts kept in columns of their own); a create always does."""
        if self.partial and not {"extra_data", "inventory", "execution_environment"} & set(self.initial_data):
            return {}
        ujt = attrs.get("unified_job_template", getattr(self.instance, "unified_job_template", None))
        target = resolve_ujt(ujt.pk) if ujt is not None else None
        if target is None:
            return {}
        kind, template = target
        errors = prompt_errors(kind, template, dict(attrs, extra_data=None), self.initial_data)
        extra = attrs.get("extra_data") or {}
        if extra and kind in ("job_template", "workflow_job_template") and not template.ask_variables_on_launch:
            rest = split_survey_vars(template, extra)[1]
            if rest:
                errors["extra_data"] = [
                    "Variables {} are not allowed on launch. Check the Prompt on Launch setting on the {} to include "
                    "Extra Variables.".format(", ".join(str(key) for key in rest), kind.replace("_", " ").title())]
        return errors


class WorkflowApprovalTemplateSerializer(ResourceSerializer):
    type_name = "workflow_approval_template"
    url_base = "workflow_approval_templates"
    timeout = serializers.IntegerField(required=False, default=0)

    class Meta:
        model = WorkflowApprovalTemplate
        fields = ResourceSerializer.base_fields + ("name", "description", "timeout")

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data.update({"last_job_run": None, "last_job_failed": False, "next_job_run": None, "status": "never updated", "execution_environment": None})
        return data
