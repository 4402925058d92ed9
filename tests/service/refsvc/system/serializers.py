from refsvc.svc.serializers import ResourceSerializer

from .models import SystemJobTemplate


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
