"""/api/v2/settings/<category>/ for system, jobs, bulk, ui, logging, and the `all` and
`changed` views over every category (authentication included)."""
from django.http import Http404
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.svc import runtime
from refsvc.svc.models import RuntimeSetting
from refsvc.svc.serializers import ENCRYPTED
from refsvc.svc.views import ApiMixin, AuthenticationSettingsView

from .registry import CATEGORIES, READ_ONLY, SECRET

SETTING_CATEGORIES = [("all", "All"), ("authentication", "Authentication"), ("bulk", "Bulk Actions"), ("changed", "Changed"), ("jobs", "Jobs"),
                      ("logging", "Logging"), ("system", "System"), ("ui", "UI")]


def fields_of(slug):
    names = [slug] if slug in CATEGORIES else list(CATEGORIES)
    return {key: make() for name in names for key, make in CATEGORIES[name][1].items()}


def stored():
    return {row.key: row.value for row in RuntimeSetting.objects.filter(key__in=list(fields_of("all")))}


def is_k8s():
    """Whether the service acts as one deployed on Kubernetes or OpenShift (the read-only IS_K8S)."""
    return bool(render("system")["IS_K8S"])


def render(slug, changed_only=False):
    values = stored()
    data = {}
    for key, field in fields_of(slug).items():
        if key in values:
            value = values[key]
        elif changed_only:
            continue
        else:
            value = field.default
        data[key] = ENCRYPTED if key in SECRET and value else value
    return data


class CategoryView(ApiMixin, APIView):
    endpoint_access = "settings"

    def slug(self):
        slug = self.kwargs["category"]
        if slug not in dict(SETTING_CATEGORIES):
            raise Http404
        return slug

    def auth_view(self):
        view = AuthenticationSettingsView()
        view.request = self.request
        return view

    def get(self, request, category):
        slug = self.slug()
        data = render(slug, changed_only=slug == "changed")
        if slug in ("all", "changed"):
            auth = self.auth_view().render_settings()
            if slug == "changed":
                defaults = runtime.defaults()
                auth = {k: v for k, v in auth.items() if k in defaults and v != defaults[k]}
            data.update(auth)
        return Response(data)

    def patch(self, request, category):
        slug = self.slug()
        if slug == "changed":
            return Response({"detail": 'Method "%s" not allowed.' % request.method}, status=405)
        if not isinstance(request.data, dict):
            return Response({"__all__": ["Invalid data. Expected a dictionary, but got %s." % type(request.data).__name__]}, status=400)
        fields = fields_of(slug)
        errors, changes = {}, {}
        for key, value in request.data.items():
            if key not in fields or key in READ_ONLY:
                continue  # not a setting of this category, or read-only: ignored, as the real serializer ignores it
            if key in SECRET and isinstance(value, str) and value.startswith(ENCRYPTED):
                continue
            try:
                changes[key] = fields[key].run_validation(value)
            except serializers.ValidationError as exc:
                errors[key] = exc.detail
        auth_data = {k: v for k, v in request.data.items() if slug == "all" and k in self.auth_view().render_settings()}
        if errors:
            return Response(errors, status=400)
        if auth_data:
            answer = self.auth_view().patch(_Data(request, auth_data))
            if answer.status_code != 200:
                return answer
        runtime.store(changes)
        return self.get(request, category)

    def put(self, request, category):
        return self.patch(request, category)

    def delete(self, request, category):
        slug = self.slug()
        RuntimeSetting.objects.filter(key__in=[key for key in fields_of(slug) if key not in READ_ONLY]).delete()
        if slug == "all":
            self.auth_view().delete(request)
        return Response(status=204)


class _Data:
    """A request whose data is a part of another's."""

    def __init__(self, request, data):
        self._request, self.data = request, data

    def __getattr__(self, name):
        return getattr(self._request, name)
