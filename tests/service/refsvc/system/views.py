import json

from rest_framework import generics, status
from rest_framework.response import Response

from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.views import ApiMixin

from .models import SystemJob, SystemJobTemplate, launch
from .serializers import SystemJobSerializer, SystemJobTemplateSerializer


class SystemJobTemplateList(ApiMixin, generics.ListAPIView):
    serializer_class = SystemJobTemplateSerializer
    filter_backends = [FieldLookupBackend]
    search_fields = ("name", "description")

    def get_queryset(self):
        return access.visible(SystemJobTemplate, self.request.user)


class SystemJobTemplateDetail(ApiMixin, generics.RetrieveAPIView):
    serializer_class = SystemJobTemplateSerializer

    def get_queryset(self):
        return access.visible(SystemJobTemplate, self.request.user)


class SystemJobTemplateLaunch(ApiMixin, generics.GenericAPIView):
    """POST runs a system job of the template (``extra_vars`` as the real launch takes them)."""
    serializer_class = SystemJobSerializer
    http_method_names = ["get", "post", "head", "options"]

    def get_queryset(self):
        return access.visible(SystemJobTemplate, self.request.user)

    def get(self, request, *args, **kwargs):
        self.get_object()
        return Response({"ask_variables_on_launch": False, "variables_needed_to_start": []})

    def post(self, request, *args, **kwargs):
        template = self.get_object()
        extra = request.data.get("extra_vars") if isinstance(request.data, dict) else None
        if isinstance(extra, dict):
            extra = json.dumps(extra)
        job = launch(template, request.user, extra or "")
        data = SystemJobSerializer(job, context=self.get_serializer_context()).data
        data["system_job"] = job.id
        return Response(data, status=status.HTTP_201_CREATED)


class SystemJobList(ApiMixin, generics.ListAPIView):
    serializer_class = SystemJobSerializer
    filter_backends = [FieldLookupBackend]

    def get_queryset(self):
        qs = access.visible(SystemJob, self.request.user)
        if "pk" in self.kwargs:
            qs = qs.filter(system_job_template_id=self.kwargs["pk"])
        return qs


class SystemJobDetail(ApiMixin, generics.RetrieveDestroyAPIView):
    serializer_class = SystemJobSerializer

    def get_queryset(self):
        return access.visible(SystemJob, self.request.user)
