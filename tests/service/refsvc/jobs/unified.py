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


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _kinds():
    """kind: (model, serializer) for every model that shares the unified id space
    (UnifiedIdMixin), with the serializer of its own detail (its ``type_name`` is the kind)."""
    from django.apps import apps

    from refsvc.svc.serializers import ResourceSerializer

    from .models import UnifiedIdMixin

    kinds = {}
    for model in apps.get_models():
        if issubclass(model, UnifiedIdMixin):
            serializer = next(s for s in _subclasses(ResourceSerializer)
                              if s.type_name == model.unified_kind and getattr(getattr(s, "Meta", None), "model", None) is model)
            kinds[model.unified_kind] = (model, serializer)
    return kinds


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
        return access.visible(UnifiedJobTemplate, self.request.user)

    def get_serializer(self, *args, **kwargs):
        kwargs.setdefault("context", self.get_serializer_context())
        return UnifiedSerializer(*args, **kwargs)

    def can_write_metadata(self, request, method):
        return method != "POST" and super().can_write_metadata(request, method)
