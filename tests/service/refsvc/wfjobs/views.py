from django.db import transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import generics, status
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.jobs import runner
from refsvc.jobs.models import ACTIVE
from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.views import ApiMixin
from refsvc.workflows.models import WorkflowJobTemplate

from . import engine, launch
from .models import WorkflowApproval, WorkflowJob, WorkflowJobNode
from .serializers import WorkflowApprovalSerializer, WorkflowJobNodeSerializer, WorkflowJobSerializer


class WorkflowJobTemplateLaunch(ApiMixin, APIView):
    def get_template(self):
        return get_object_or_404(access.visible(WorkflowJobTemplate, self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        return Response(launch.launch_info(self.get_template()))

    def post(self, request, pk):
        wfjt = self.get_template()
        self.check_access("execute", wfjt)
        with transaction.atomic():
            workflow_job, ignored = launch.launch(wfjt, request.data, request.user)
        runner.start(workflow_job, "refsvc.wfjobs.runner")
        data = {"workflow_job": workflow_job.id, "ignored_fields": ignored}
        data.update(WorkflowJobSerializer(workflow_job, context={"request": request}).data)
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})


class ListView(ApiMixin, generics.ListAPIView):
    filter_backends = [FieldLookupBackend]


class WorkflowJobList(ListView):
    model = WorkflowJob
    serializer_class = WorkflowJobSerializer

    def get_queryset(self):
        qs = access.visible(WorkflowJob, self.request.user)
        if "pk" in self.kwargs:
            qs = qs.filter(workflow_job_template_id=self.kwargs["pk"])
        return qs


class WorkflowJobDetail(ApiMixin, generics.RetrieveDestroyAPIView):
    model = WorkflowJob
    serializer_class = WorkflowJobSerializer

    def get_queryset(self):
        return access.visible(WorkflowJob, self.request.user)

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        instance.delete()


class WorkflowJobCancel(ApiMixin, APIView):
    def get_job(self):
        return get_object_or_404(access.visible(WorkflowJob, self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        return Response({"can_cancel": self.get_job().status in ACTIVE})

    def post(self, request, pk):
        workflow_job = self.get_job()
        self.check_access("cancel", workflow_job)
        if workflow_job.status not in ACTIVE:
            return self.http_method_not_allowed(request)
        WorkflowJob.objects.filter(pk=workflow_job.pk).update(cancel_flag=True, canceled_on=timezone.now())
        return Response(status=202)


class NodeJobLookupBackend(FieldLookupBackend):
    """A node's ``job`` is the unified job it started, whatever its kind: ``job__name=X``
    finds a node whose job, approval or project update is named X (the modules look an
    approval up so). The other filters go through the usual backend."""

    RELATIONS = ("job", "approval", "project_update")

    def filter_queryset(self, request, queryset, view):
        from django.core.exceptions import FieldError
        from django.http import QueryDict
        from rest_framework.exceptions import ParseError

        rest = QueryDict(mutable=True)
        for key, values in request.query_params.lists():
            if not key.startswith("job__"):
                rest.setlist(key, values)
                continue
            tail = key[len("job__"):]
            for value in values:
                q = Q()
                for relation in self.RELATIONS:
                    try:
                        queryset.model.objects.filter(**{"%s__%s" % (relation, tail): value}).query
                    except (FieldError, ValueError):
                        continue
                    q |= Q(**{"%s__%s" % (relation, tail): value})
                if not q:
                    raise ParseError("Invalid field name: %s" % tail)
                queryset = queryset.filter(q)
        original = request._request.GET
        request._request.GET = rest
        try:
            return super().filter_queryset(request, queryset, view)
        finally:
            request._request.GET = original


class WorkflowJobNodeList(ListView):
    model = WorkflowJobNode
    serializer_class = WorkflowJobNodeSerializer
    filter_backends = [NodeJobLookupBackend]

    def get_queryset(self):
        qs = access.visible(WorkflowJobNode, self.request.user).select_related("workflow_job", "unified_job_template", "job", "approval")
        if "pk" in self.kwargs:
            get_object_or_404(access.visible(WorkflowJob, self.request.user), pk=self.kwargs["pk"])
            qs = qs.filter(workflow_job_id=self.kwargs["pk"])
        return qs


class WorkflowJobNodeDetail(ApiMixin, generics.RetrieveAPIView):
    model = WorkflowJobNode
    serializer_class = WorkflowJobNodeSerializer

    def get_queryset(self):
        return access.visible(WorkflowJobNode, self.request.user)


class WorkflowJobNodeChildren(WorkflowJobNodeList):
    relationship = None

    def get_queryset(self):
        node = get_object_or_404(access.visible(WorkflowJobNode, self.request.user), pk=self.kwargs["pk"])
        return getattr(node, self.relationship).all()


class WorkflowApprovalList(ListView):
    model = WorkflowApproval
    serializer_class = WorkflowApprovalSerializer

    def get_queryset(self):
        return access.visible(WorkflowApproval, self.request.user)


class WorkflowApprovalDetail(ApiMixin, generics.RetrieveDestroyAPIView):
    model = WorkflowApproval
    serializer_class = WorkflowApprovalSerializer

    def get_queryset(self):
        return access.visible(WorkflowApproval, self.request.user)

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        instance.delete()


class WorkflowApprovalDecision(ApiMixin, APIView):
    """POST /workflow_approvals/<pk>/approve/ or deny/: 204, or 400 once decided."""

    outcome = None

    def get(self, request, pk):
        get_object_or_404(access.visible(WorkflowApproval, request.user), pk=pk)
        return Response({})

    def post(self, request, pk):
        approval = get_object_or_404(access.visible(WorkflowApproval, request.user), pk=pk)
        self.check_access("approve_or_deny", approval)
        with transaction.atomic():
            updated = WorkflowApproval.objects.filter(pk=approval.pk, status="pending").update(
                approved_or_denied_by=request.user)
            if not updated:
                return Response({"error": "This workflow step has already been approved or denied."}, status=400)
            approval.refresh_from_db()
            engine.finish(approval, self.outcome)
        return Response(status=204)
