"""/api/v2/bulk/ and its actions (the workflow jobs a bulk job launch creates are the
workflow jobs app's)."""
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc.views import ApiMixin

from . import launch, serializers


class NoHead:
    """Observed on AWX 24.6.1: the bulk views' Allow names no HEAD."""

    @property
    def allowed_methods(self):
        return [method for method in super().allowed_methods if method != "HEAD"]


class BulkRoot(NoHead, ApiMixin, APIView):
    def get(self, request):
        return Response({
            "host_create": request.build_absolute_uri("/api/v2/bulk/host_create/"),
            "host_delete": request.build_absolute_uri("/api/v2/bulk/host_delete/"),
            "job_launch": request.build_absolute_uri("/api/v2/bulk/job_launch/"),
        })


class BulkAction(NoHead, ApiMixin, APIView):
    serializer_class = None
    detail = ""
    finish = "create"

    def get(self, request):
        return Response({"detail": self.detail})

    def post(self, request):
        serializer = self.serializer_class(data=request.data, context={"request": request})
        if not serializer.is_valid():
            return Response(serializer.errors, status=400)
        return Response(getattr(serializer, self.finish)(serializer.validated_data), status=201)


class HostCreate(BulkAction):
    serializer_class = serializers.BulkHostCreateSerializer
    detail = "Bulk create hosts with this endpoint"


class HostDelete(BulkAction):
    serializer_class = serializers.BulkHostDeleteSerializer
    detail = "Bulk delete hosts with this endpoint"
    finish = "delete"


class JobLaunch(BulkAction):
    serializer_class = launch.BulkJobLaunchSerializer
    detail = "Specify a list of unified job templates to launch alongside their launchtime parameters"
