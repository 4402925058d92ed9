from refsvc.jobs.serializers import UnifiedJobSerializer
from refsvc.svc.serializers import ResourceSerializer

from .models import SystemJob, SystemJobTemplate


class SystemJobTemplateSerializer(ResourceSerializer):
    type_name = "system_job_template"
    url_base = "system_job_templates"

    class Meta:
        model = SystemJobTemplate
        fields = ResourceSerializer.base_fields + ("name", "description", "job_type")
        read_only_fields = ("name", "description", "job_type")

    def get_related(self, obj):
        base = "/api/v2/system_job_templates/%d/" % obj.pk
        names = ("jobs", "schedules", "launch", "notification_templates_started", "notification_templates_success",
                 "notification_templates_error")
        return dict((name, base + name + "/") for name in names)

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data.update({"last_job_run": None, "last_job_failed": False, "next_job_run": None, "status": "ok",
                     "execution_environment": None})
        data["job_type"] = obj.job_type
        return data


class SystemJobSerializer(UnifiedJobSerializer):
    type_name = "system_job"
    url_base = "system_jobs"
    unified_values = ("name", "description", "launch_type", "status", "execution_environment", "failed", "started",
                      "finished", "canceled_on", "elapsed", "job_args", "job_cwd", "job_env", "job_explanation",
                      "execution_node", "launched_by", "work_unit_id", "result_traceback", "event_processing_finished")

    class Meta:
        model = SystemJob
        fields = ResourceSerializer.base_fields
        read_only_fields = fields

    def get_related(self, obj):
        base = self.get_url(obj)
        related = {"events": base + "events/", "notifications": base + "notifications/", "cancel": base + "cancel/"}
        if obj.system_job_template_id:
            related["system_job_template"] = "/api/v2/system_job_templates/%d/" % obj.system_job_template_id
            related["unified_job_template"] = related["system_job_template"]
        return related

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data.update({"unified_job_template": obj.system_job_template_id, "system_job_template": obj.system_job_template_id,
                     "job_type": obj.job_type, "extra_vars": obj.extra_vars, "result_stdout": obj.result_stdout})
        return data
