"""/api/v2/unified_job_templates/: projects, job templates, inventory sources, workflow
job templates and approval templates in one list, each shown as its own detail shows it
(the real UnifiedJobTemplateSerializer hands every object to its type's serializer).
Ordered by name; ``type`` filters on the kind (several kinds separated by commas), and
``organization`` is the object's organization (an inventory source's is its inventory's
when it was created, an approval template has none)."""
from rest_framework import generics

from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.views import ApiMixin

from .models import UnifiedJobTemplate


def _kinds():
    from refsvc.resources.models import InventorySource
    from refsvc.resources.serializers import InventorySourceSerializer
    from refsvc.workflows.models import WorkflowApprovalTemplate, WorkflowJobTemplate
    from refsvc.workflows.serializers import WorkflowApprovalTemplateSerializer, WorkflowJobTemplateSerializer

    from .models import JobTemplate, Project
    from .serializers import JobTemplateSerializer, ProjectSerializer

    return {
        "project": (Project, ProjectSerializer),
        "job_template": (JobTemplate, JobTemplateSerializer),
        "inventory_source": (InventorySource, InventorySourceSerializer),
        "workflow_job_template": (WorkflowJobTemplate, WorkflowJobTemplateSerializer),
        "workflow_approval_template": (WorkflowApprovalTemplate, WorkflowApprovalTemplateSerializer),
    }


def visible_ids(user):
    """The unified job templates ``user`` sees, as a queryset of UnifiedJobTemplate."""
    qs = UnifiedJobTemplate.objects.all()
    if access._sees_all(user):
        return qs
    from refsvc.resources.models import InventorySource
    from refsvc.resources.views import visible as resources_visible
    from refsvc.workflows.views import visible_nodes, visible_wfjts

    from .models import JobTemplate, Project
    from .views import visible

    ids = set(visible(Project, user).values_list("id", flat=True))
    ids |= set(visible(JobTemplate, user).values_list("id", flat=True))
    ids |= set(resources_visible(InventorySource, user).values_list("id", flat=True))
    ids |= set(visible_wfjts(user).values_list("id", flat=True))
    ids |= set(visible_nodes(user).filter(unified_job_template__kind="workflow_approval_template")
               .values_list("unified_job_template_id", flat=True))
    return qs.filter(id__in=ids)


class UnifiedSerializer:
    """Hands each row to the serializer of its kind."""

    def __init__(self, rows, many=False, context=None):
        self.rows = rows if many else [rows]
        self.many = many
        self.context = context or {}

    @property
    def data(self):
        kinds = _kinds()
        by_kind = {}
        for row in self.rows:
            by_kind.setdefault(row.kind, []).append(row.pk)
        objects = {}
        for kind, pks in by_kind.items():
            model, _ = kinds[kind]
            objects.update({(kind, o.pk): o for o in model.objects.filter(pk__in=pks)})
        out = []
        for row in self.rows:
            obj = objects.get((row.kind, row.pk))
            if obj is None:
                continue
            out.append(kinds[row.kind][1](obj, context=self.context).data)
        return out if self.many else out[0]


class UnifiedJobTemplateList(ApiMixin, generics.ListAPIView):
    model = UnifiedJobTemplate
    filter_backends = [FieldLookupBackend]
    search_fields = ("name", "description")
    filter_aliases = {"type": "kind__in"}

    def get_queryset(self):
        return visible_ids(self.request.user)

    def get_serializer(self, *args, **kwargs):
        kwargs.setdefault("context", self.get_serializer_context())
        return UnifiedSerializer(*args, **kwargs)

    def can_write_metadata(self, request, method):
        return method != "POST" and super().can_write_metadata(request, method)
