"""POST /projects/<id>/update/ and /inventory_sources/<id>/update/ start an update (202);
the updates read, cancel and show their output as jobs do."""
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import generics, renderers
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.jobs import projects
from refsvc.jobs.models import ACTIVE, Project
from refsvc.jobs.views import AnsiRenderer, TextRenderer
from refsvc.resources.models import InventorySource
from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.views import ApiMixin

from . import runner
from .models import InventoryUpdate, ProjectUpdate
from .serializers import inventory_update_data, project_update_data


def new_project_update(project, user, launch_type="manual"):
    return ProjectUpdate.objects.create(
        name=project.name, description=project.description, project=project, launched_by=user,
        launch_type=launch_type, status="pending", job_type="check" if launch_type in ("manual", "workflow") else "run",
        local_path=projects.scm_local_path(project), scm_type=project.scm_type, scm_url=project.scm_url,
        scm_branch=project.scm_branch, scm_refspec=project.scm_refspec, scm_clean=project.scm_clean,
        scm_track_submodules=project.scm_track_submodules, scm_delete_on_update=project.scm_delete_on_update,
        timeout=project.timeout,
    )


def start_project_update(project, user):
    """Create an update of ``project`` now and start it once the transaction is committed."""
    update = new_project_update(project, user)
    transaction.on_commit(lambda: runner.start("project_update", update))
    return update


def new_inventory_update(source, user):
    fields = ("source", "source_path", "source_vars", "scm_branch", "enabled_var", "enabled_value", "host_filter",
              "limit", "overwrite", "overwrite_vars", "verbosity", "timeout")
    return InventoryUpdate.objects.create(
        name="%s - %s" % (source.inventory.name, source.name), description=source.description,
        inventory_source=source, inventory=source.inventory, launched_by=user, status="pending",
        **{name: getattr(source, name) for name in fields})


def can_update(obj):
    """Projects with an SCM type and inventory sources other than `file` can be updated (as on the real service)."""
    if isinstance(obj, Project):
        return bool(obj.scm_type)
    if obj.source == "scm":
        return obj.source_project_id is not None
    return bool(obj.source) and obj.source != "file"


class StartUpdate(ApiMixin, APIView):
    """GET tells can_update; POST starts an update (405 when it cannot)."""

    kind = None  # "project_update" or "inventory_update"

    def get_template(self):
        if self.kind == "project_update":
            return get_object_or_404(access.visible(Project, self.request.user), pk=self.kwargs["pk"])
        return get_object_or_404(access.visible(InventorySource, self.request.user), pk=self.kwargs["pk"])

    def get(self, request, pk):
        return Response({"can_update": can_update(self.get_template())})

    def post(self, request, pk):
        obj = self.get_template()
        self.check_access("update", obj)
        if not can_update(obj):
            return self.http_method_not_allowed(request)
        with transaction.atomic():
            if self.kind == "project_update":
                update = new_project_update(obj, request.user)
                data = {"project_update": update.id}
                data.update(project_update_data(update))
            else:
                update = new_inventory_update(obj, request.user)
                data = {"inventory_update": update.id}
                data.update(inventory_update_data(update))
        runner.start(self.kind, update)
        return Response(data, status=202, headers={"Location": data["url"]})


class UpdateViews:
    """The model of the update and how to reach the ones a user sees."""

    model = None

    def get_queryset(self):
        user = self.request.user
        qs = access.visible(self.model, user)
        parent = "project_id" if self.model is ProjectUpdate else "inventory_source_id"
        if "parent" in self.kwargs:
            qs = qs.filter(**{parent: self.kwargs["parent"]})
        return qs.order_by("id")

    def data_of(self, obj):
        return project_update_data(obj) if self.model is ProjectUpdate else inventory_update_data(obj)


class UpdateList(UpdateViews, ApiMixin, generics.ListAPIView):
    filter_backends = [FieldLookupBackend]

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response([self.data_of(obj) for obj in page])


class UpdateDetail(UpdateViews, ApiMixin, APIView):
    def get(self, request, pk):
        return Response(self.data_of(get_object_or_404(self.get_queryset(), pk=pk)))

    def delete(self, request, pk):
        obj = get_object_or_404(self.get_queryset(), pk=pk)
        self.check_access("delete", obj)
        obj.delete()
        return Response(status=204)


class UpdateCancel(UpdateViews, ApiMixin, APIView):
    def get(self, request, pk):
        obj = get_object_or_404(self.get_queryset(), pk=pk)
        return Response({"can_cancel": obj.status in ACTIVE})

    def post(self, request, pk):
        obj = get_object_or_404(self.get_queryset(), pk=pk)
        self.check_access("cancel", obj)
        if obj.status not in ACTIVE:
            return self.http_method_not_allowed(request)
        self.model.objects.filter(pk=obj.pk).update(cancel_flag=True, canceled_on=timezone.now())
        return Response(status=202)


class UpdateStdout(UpdateViews, ApiMixin, APIView):
    """?format=txt (or ansi): the output as text; JSON otherwise ({"range", "content"})."""

    renderer_classes = [renderers.JSONRenderer, TextRenderer, AnsiRenderer]

    def get(self, request, pk):
        text = get_object_or_404(self.get_queryset(), pk=pk).result_stdout
        if request.accepted_renderer.format in ("txt", "ansi"):
            return Response(text)
        lines = text.count("\n")
        return Response({"range": {"start": 0, "end": lines, "absolute_end": lines}, "content": text})
