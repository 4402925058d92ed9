from rest_framework import serializers

from refsvc.svc.serializers import ResourceSerializer, VariablesField, user_summary

from . import projects
from .models import ASK_FIELDS, Job, JobTemplate, Project


def summary(obj, *names):
    return {n: getattr(obj, n) for n in names} if obj is not None else None


class ProjectSerializer(ResourceSerializer):
    type_name = "project"
    url_base = "projects"
    scm_type = serializers.ChoiceField(choices=[("", "Manual"), ("git", "Git")], required=False, allow_blank=True, default="")
    status = serializers.SerializerMethodField()

    class Meta:
        model = Project
        fields = ResourceSerializer.base_fields + (
            "name", "description", "organization", "scm_type", "scm_url", "scm_branch", "local_path", "status",
        )
        validators = []

    def get_status(self, obj):
        return "ok" if projects.directory(obj) is not None else "missing"

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {"playbooks": base + "playbooks/"}
        if obj.organization_id:
            related["organization"] = "/api/v2/organizations/%d/" % obj.organization_id
        return related

    def get_summary_fields(self, obj):
        return {
            "organization": summary(obj.organization, "id", "name", "description"),
            "created_by": user_summary(obj.created_by),
            "user_capabilities": {"edit": True, "delete": True, "start": True, "schedule": True, "copy": True},
        }

    def validate(self, attrs):
        scm_type = attrs.get("scm_type", self.instance.scm_type if self.instance else "")
        local_path = attrs.get("local_path", self.instance.local_path if self.instance else "")
        if scm_type:
            raise serializers.ValidationError({"scm_type": ["Only manual projects (scm_type \"\") are available on this service."]})
        available = projects.local_paths()
        if local_path not in available:
            raise serializers.ValidationError(
                {"local_path": ["Invalid path choice. Available choices are: %s" % ", ".join(available)]}
            )
        self.unique_error(Project, ("name", "organization"), attrs, "Project with this Name and Organization already exists.")
        return attrs


class JobOptionsSerializer(ResourceSerializer):
    extra_vars = VariablesField()
    job_type = serializers.ChoiceField(choices=[("run", "Run"), ("check", "Check")], required=False, default="run")
    verbosity = serializers.ChoiceField(choices=[(i, str(i)) for i in range(6)], required=False, default=0)

    option_fields = (
        "job_type", "inventory", "project", "playbook", "forks", "limit", "verbosity", "extra_vars",
        "job_tags", "skip_tags", "timeout",
    )

    def get_summary_fields(self, obj):
        org = obj.organization
        return {
            "organization": summary(org, "id", "name", "description"),
            "inventory": summary(obj.inventory, "id", "name", "description"),
            "project": summary(obj.project, "id", "name", "description"),
            "created_by": user_summary(getattr(obj, "created_by", None) or getattr(obj, "launched_by", None)),
            "credentials": [
                {"id": c.id, "name": c.name, "description": c.description, "kind": c.credential_type.namespace}
                for c in obj.credentials.all()
            ],
            "user_capabilities": {"edit": True, "delete": True, "start": True, "schedule": True, "copy": True},
        }

    def related_of(self, obj):
        related = {"credentials": self.get_url(obj) + "credentials/"}
        if obj.inventory_id:
            related["inventory"] = "/api/v2/inventories/%d/" % obj.inventory_id
        if obj.project_id:
            related["project"] = "/api/v2/projects/%d/" % obj.project_id
        return related


class JobTemplateSerializer(JobOptionsSerializer):
    type_name = "job_template"
    url_base = "job_templates"

    class Meta:
        model = JobTemplate
        fields = ResourceSerializer.base_fields + ("name", "description") + JobOptionsSerializer.option_fields + tuple(ASK_FIELDS.values())
        validators = []

    def get_related(self, obj):
        related = self.related_of(obj)
        base = self.get_url(obj)
        related.update({"launch": base + "launch/", "jobs": base + "jobs/"})
        return related

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["organization"] = obj.organization.id if obj.organization else None
        last = obj.jobs.order_by("-id").first()
        data["status"] = last.status if last else "never updated"
        data["last_job_run"] = serializers.DateTimeField().to_representation(last.finished) if last and last.finished else None
        data["last_job_failed"] = bool(last and last.failed)
        return data

    def validate(self, attrs):
        def current(name):
            return attrs.get(name, getattr(self.instance, name, None) if self.instance else None)

        errors = {}
        project = current("project")
        playbook = current("playbook")
        if project is None:
            errors["project"] = ["This field is required."]
        elif playbook not in projects.playbooks(project):
            errors["playbook"] = ['Playbook not found for project.']
        if current("inventory") is None and not current("ask_inventory_on_launch"):
            errors["inventory"] = ["Job Templates must have an inventory or allow prompting for it."]
        if errors:
            raise serializers.ValidationError(errors)
        self.unique_error(JobTemplate, ("name",), attrs, "Job template with this Name already exists.")
        return attrs


class JobSerializer(JobOptionsSerializer):
    type_name = "job"
    url_base = "jobs"
    elapsed = serializers.DecimalField(max_digits=12, decimal_places=3, read_only=True, coerce_to_string=False)

    class Meta:
        model = Job
        fields = ResourceSerializer.base_fields + (
            "name", "description", "job_template", "status", "failed", "started", "finished", "canceled_on",
            "elapsed", "job_args", "job_cwd", "job_explanation", "launched_by",
        ) + JobOptionsSerializer.option_fields
        read_only_fields = fields

    def get_related(self, obj):
        related = self.related_of(obj)
        base = self.get_url(obj)
        related.update({"stdout": base + "stdout/", "cancel": base + "cancel/"})
        if obj.job_template_id:
            related["job_template"] = "/api/v2/job_templates/%d/" % obj.job_template_id
        return related

    def get_summary_fields(self, obj):
        data = super().get_summary_fields(obj)
        data["job_template"] = summary(obj.job_template, "id", "name", "description")
        data["launched_by"] = {"id": obj.launched_by.id, "name": obj.launched_by.username, "type": "user"} if obj.launched_by else {}
        data["user_capabilities"] = {"delete": True, "start": True}
        return data

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["organization"] = obj.organization.id if obj.organization else None
        data["unified_job_template"] = obj.job_template_id
        data["launch_type"] = "manual"
        data["execution_node"] = "localhost" if obj.started else ""
        data["launched_by"] = data["summary_fields"]["launched_by"]
        return data
