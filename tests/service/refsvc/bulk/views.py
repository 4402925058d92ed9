"""/api/v2/bulk/ and its actions, and the workflow jobs a bulk job launch creates."""
from django.db.models import Q
from django.shortcuts import get_object_or_404
from rest_framework import generics
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc.views import ApiMixin

from . import launch, serializers
from .models import WorkflowJob


class BulkRoot(ApiMixin, APIView):
    def get(self, request):
        return Response({
            "host_create": request.build_absolute_uri("/api/v2/bulk/host_create/"),
            "host_delete": request.build_absolute_uri("/api/v2/bulk/host_delete/"),
            "job_launch": request.build_absolute_uri("/api/v2/bulk/job_launch/"),
        })


class BulkAction(ApiMixin, APIView):
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


def visible_workflow_jobs(user):
    qs = WorkflowJob.objects.select_related("organization", "inventory", "launched_by")
    if user.is_superuser:
        return qs
    return qs.filter(Q(launched_by=user) | Q(organization__admins=user)).distinct()


class WorkflowJobList(ApiMixin, generics.ListAPIView):
    def get_queryset(self):
        return visible_workflow_jobs(self.request.user)

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([launch.representation(launch.refresh(wfj)) for wfj in page])


class WorkflowJobDetail(ApiMixin, APIView):
    def get(self, request, pk):
        wfj = get_object_or_404(visible_workflow_jobs(request.user), pk=pk)
        return Response(launch.representation(launch.refresh(wfj)))


class WorkflowJobNodes(ApiMixin, generics.ListAPIView):
    def get_queryset(self):
        wfj = get_object_or_404(visible_workflow_jobs(self.request.user), pk=self.kwargs["pk"])
        return wfj.nodes.select_related("job")

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([launch.node_representation(node) for node in page])
