"""The platform's feature flags at the gateway: /api/gateway/v1/feature_flags/ (list, ``?name=``) and
feature_flags/<id>/ (GET; PATCH or PUT of ``value`` toggles a run-time flag), and django-ansible-base's read-only
views of their states (feature_flags/states/, feature_flags_state/).

The flags are django-ansible-base's (its ``feature_flags/definitions/feature_flags.yaml``, the installed release),
made at the first request. A superuser toggles; a superuser and a platform auditor read (django-ansible-base's
``IsSuperuserOrAuditor``), and any authenticated user reads feature_flags_state/. Sources: tests/service/README.md
("The gateway's settings and feature flags")."""
import pathlib

import yaml
from django.urls import path
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from . import models as m
from . import preferences
from .serializers import _Common
from .views import GatewayMixin, _Detail, _List

FIELDS = ["name", "ui_name", "condition", "value", "required", "support_level", "visibility", "toggle_type",
          "description", "support_url", "labels"]


def definitions():
    import ansible_base.feature_flags as dab_flags

    source = pathlib.Path(dab_flags.__file__).parent / "definitions" / "feature_flags.yaml"
    return yaml.safe_load(source.read_text()) or []


def ensure_flags():
    """The flags django-ansible-base defines, made once (a value changed since stays), by no user (``created_by``
    null: the gateway makes them, not the user whose request came first)."""
    from crum import impersonate

    known = set(m.FeatureFlag.objects.values_list("name", "condition"))
    for flag in definitions():
        if (flag["name"], flag.get("condition", "boolean")) in known:
            continue
        with impersonate(None):
            m.FeatureFlag.objects.create(**dict((key, flag[key]) for key in FIELDS if key in flag))


def state(flag):
    """Whether a flag is on: a boolean condition whose value is true."""
    return flag.condition == "boolean" and str(flag.value).lower() == "true"


def is_boolean_text(value):
    return isinstance(value, str) and value.lower() in ("true", "false")


class FeatureFlagSerializer(_Common):
    kind = "feature_flags"
    state = serializers.SerializerMethodField()

    class Meta:
        model = m.FeatureFlag
        fields = ["id", "url", "related", "summary_fields", "created", "created_by", "modified", "modified_by"] + \
            FIELDS + ["state"]
        read_only_fields = [f for f in FIELDS if f != "value"]

    def get_state(self, obj):
        return state(obj)


class _Flags:
    serializer_class = FeatureFlagSerializer

    def get_queryset(self):
        ensure_flags()
        return m.FeatureFlag.objects.order_by("id")


class FeatureFlagList(_Flags, _List):
    http_method_names = ["get", "head", "options"]
    endpoint_access = "settings"


class FeatureFlagDetail(_Flags, _Detail):
    http_method_names = ["get", "put", "patch", "head", "options"]
    endpoint_access = "settings"

    def update(self, request, *args, **kwargs):
        flag = self.get_object()
        value = request.data.get("value") if isinstance(request.data, dict) else None
        if isinstance(value, bool):
            value = str(value)
        if not value:
            return Response({"details": "Invalid request object."}, status=400)
        if not preferences.value("RUNTIME_FEATURE_FLAGS"):
            return Response({"details": "Runtime feature flags toggle is not enabled."}, status=405)
        if flag.toggle_type == "install-time":
            return Response({"details": "Install-time feature flags cannot be toggled at run-time."}, status=405)
        if flag.condition == "boolean" and not is_boolean_text(value):
            return Response({"details": "Feature flag boolean conditional requires using boolean value."}, status=400)
        flag.value = str(value)
        flag.save()
        return Response(self.get_serializer(flag).data)


class StatesList(GatewayMixin, APIView):
    """django-ansible-base 2025.12.3's feature_flags/states/ (``name`` and ``state`` of each flag, one page; a
    superuser or an auditor reads)."""

    endpoint_access = "settings"

    def get(self, request):
        ensure_flags()
        results = [{"name": f.name, "state": state(f)} for f in m.FeatureFlag.objects.order_by("id")]
        return Response({"count": len(results), "next": None, "previous": None, "results": results})


class StateDetail(GatewayMixin, APIView):
    """One flag's ``name`` and ``state`` (feature_flags/states/<id>/, django-ansible-base's states view's detail, by
    the flag's id; by its name too, chosen here: the states list shows no id)."""

    endpoint_access = "settings"

    def get(self, request, key):
        from django.shortcuts import get_object_or_404

        ensure_flags()
        lookup = {"pk": int(key)} if key.isdigit() else {"name": key}
        flag = get_object_or_404(m.FeatureFlag.objects.order_by("id"), **lookup)
        return Response({"name": flag.name, "state": state(flag)})


class OldStatesView(GatewayMixin, APIView):
    """django-ansible-base's feature_flags_state/: every flag's name and whether it is on."""

    def get(self, request):
        ensure_flags()
        return Response(dict((f.name, state(f)) for f in m.FeatureFlag.objects.order_by("id")))


URLS = [
    path("feature_flags/", FeatureFlagList.as_view()),
    path("feature_flags/states/", StatesList.as_view()),
    path("feature_flags/states/<str:key>/", StateDetail.as_view()),
    path("feature_flags/<int:pk>/", FeatureFlagDetail.as_view()),
    path("feature_flags_state/", OldStatesView.as_view()),
]
