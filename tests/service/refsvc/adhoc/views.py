"""/api/v2/ad_hoc_commands/ (POST launches), its detail, stdout/, cancel/ and
relaunch/, and /api/v2/inventories/<id>/ad_hoc_commands/."""
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import generics, status
from rest_framework.exceptions import PermissionDenied
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


def may_run(user, inventory, credential):
    """The real service's check: ad hoc on the inventory, use of the credential."""
    from refsvc.rbac.registry import has_perm

    if user.is_superuser:
        return True
    if not (access.can_change(user, inventory) or has_perm(user, inventory, "adhoc")):
        return False
    return credential is None or access.can_change(user, credential) or has_perm(user, credential, "use")


def may_change(user, command):
    return user.is_superuser or command.launched_by_id == user.id or (
        command.inventory is not None and access.can_change(user, command.inventory))


def launch(request, data, launch_type="manual"):
    """Create and start a command from ``data``; the 201 answer, or raises."""
    serializer = AdHocCommandSerializer(data=data, context={"request": request})
    serializer.is_valid(raise_exception=True)
    values = serializer.validated_data
    if not may_run(request.user, values["inventory"], values.get("credential")):
        raise PermissionDenied()
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
        return launch(request, request.data)


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
        return launch(request, data)


class AdHocCommandDetail(ApiMixin, generics.RetrieveDestroyAPIView):
    model = AdHocCommand
    serializer_class = AdHocCommandDetailSerializer

    def get_queryset(self):
        return commands(self.request.user)

    def perform_destroy(self, instance):
        if not may_change(self.request.user, instance):
            raise PermissionDenied()
        if instance.status in ACTIVE:
            raise PermissionDenied("Cannot delete running job resource.")
        instance.delete()


class AdHocCommandCancel(ApiMixin, APIView):
    def command(self):
        return get_object_or_404(commands(self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        return Response({"can_cancel": self.command().status in ACTIVE})

    def post(self, request, pk):
        command = self.command()
        if not may_change(request.user, command):
            raise PermissionDenied()
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
        return launch(request, data, "relaunch")


class AdHocCommandStdout(JobStdout):
    def get_queryset(self):
        return commands(self.request.user)
