from rest_framework import generics

from refsvc.svc import access
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.views import ApiMixin

from .models import SystemJobTemplate
from .serializers import SystemJobTemplateSerializer


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
