"""/api/v2/ad_hoc_commands/ (POST launches), its detail, stdout/, cancel/ and
relaunch/, and /api/v2/inventories/<id>/ad_hoc_commands/."""
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import generics, status
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.jobs import runner
from refsvc.jobs.views import JobStdout
from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import Inventory
from refsvc.svc.views import ApiMixin

from refsvc.jobs.models import ACTIVE

from .models import AdHocCommand
from .serializers import AdHocCommandDetailSerializer, AdHocCommandSerializer

RUNNER = "refsvc.adhoc.runner"


def commands(user):
    return access.visible(AdHocCommand, user).select_related("inventory", "credential", "launched_by")


def launch(view, data, launch_type="manual"):
    """Create and start a command from ``data`` for the request of ``view``; the 201 answer, or raises."""
    request = view.request
    serializer = AdHocCommandSerializer(data=data, context={"request": request})
    serializer.is_valid(raise_exception=True)
    view.check_access("add", AdHocCommand, serializer.validated_data)
    with transaction.atomic():
        command = serializer.save(launched_by=request.user, status="pending", launch_type=launch_type)
    runner.start(command, RUNNER)
    answer = AdHocCommandSerializer(command, context={"request": request}).data
    return Response(answer, status=status.HTTP_201_CREATED, headers={"Location": answer["url"]})


class AdHocCommandList(ApiMixin, generics.ListAPIView):
    model = AdHocCommand
    serializer_class = AdHocCommandSerializer
    filter_backends = [FieldLookupBackend]

    def get_queryset(self):
        return commands(self.request.user)

    def post(self, request):
        return launch(self, request.data)


class InventoryAdHocCommandList(AdHocCommandList):
    """An inventory's commands; a POST here runs against that inventory."""

    def inventory(self):
        return get_object_or_404(access.visible(Inventory, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return super().get_queryset().filter(inventory=self.inventory())

    def post(self, request, pk):
        data = dict(request.data.items()) if hasattr(request.data, "items") else request.data
        if isinstance(data, dict):
            data["inventory"] = self.inventory().pk
        return launch(self, data)


class AdHocCommandDetail(ApiMixin, generics.RetrieveDestroyAPIView):
    model = AdHocCommand
    serializer_class = AdHocCommandDetailSerializer

    def get_queryset(self):
        return commands(self.request.user)

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        instance.delete()


class AdHocCommandCancel(ApiMixin, APIView):
    def command(self):
        return get_object_or_404(commands(self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        return Response({"can_cancel": self.command().status in ACTIVE})

    def post(self, request, pk):
        command = self.command()
        self.check_access("cancel", command)
        if command.status not in ACTIVE:
            return self.http_method_not_allowed(request)
        AdHocCommand.objects.filter(pk=command.pk).update(cancel_flag=True, canceled_on=timezone.now())
        return Response(status=202)


class AdHocCommandRelaunch(ApiMixin, APIView):
    """GET: the passwords a relaunch needs (none here); POST: the same command again."""

    def command(self):
        return get_object_or_404(commands(self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        self.command()
        return Response({})

    def post(self, request, pk):
        old = self.command()
        data = dict((name, getattr(old, name)) for name in (
            "job_type", "limit", "module_name", "module_args", "forks", "verbosity", "extra_vars", "become_enabled",
            "diff_mode", "execution_environment"))
        data.update(inventory=old.inventory_id, credential=old.credential_id)
        return launch(self, data, "relaunch")


class AdHocCommandStdout(JobStdout):
    def get_queryset(self):
        return commands(self.request.user)
