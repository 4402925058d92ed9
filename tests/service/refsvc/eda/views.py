"""Event-Driven Ansible's API behind the gateway (/api/eda/v1/), as the published schema eda-2.7.json describes it
and eda-server's views (src/aap_eda/api/views/, stable-2.7) answer.

Every request authenticates as at the gateway (its token, its session, Basic while the gateway's setting has it
on: the layout's DRF authentication classes). Lists answer eda-server's page (``count``, ``next``, ``previous``,
``page_size``, ``page``, ``results``; ``?page=``, ``?page_size=``) and filter on the parameters the schema names
for each list (``filters`` of a view: the parameter and its lookup, eda-server's filter sets), nothing else.

Another app adds its views on the same bases (``EdaList``, ``EdaDetail``, ``EdaView``) and its URLs under
/api/eda/v1/ in its own ``urls.py`` (``path("api/eda/v1/projects/", ...)``; refsvc/urls.py serves the patterns of
every installed app)."""
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from rest_framework import generics, permissions, status
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.filters import BaseFilterBackend
from rest_framework.metadata import SimpleMetadata
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import clone_request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView, exception_handler as drf_exception_handler

from refsvc.rbac.models import Team
from refsvc.svc import access
from refsvc.svc.models import Organization

from . import serializers as es
from .models import AwxToken, CredentialInputSource, CredentialType, DecisionEnvironment, EdaCredential

V1 = "/api/eda/v1/"
WWW_AUTHENTICATE = 'Bearer realm="api"'
# What else refers to an EDA credential or a decision environment (the activations, projects and event streams of
# another app add theirs): functions of the object answering [{"type", "id", "name", "uri"}].
CREDENTIAL_REFERENCES = []
DECISION_ENVIRONMENT_REFERENCES = []


def release():
    from refsvc.gateway.preferences import release as gateway_release

    return gateway_release()


class Pagination(PageNumberPagination):
    """eda-server's ``DefaultPagination``: the page's number and size beside the links (relative to the host); 20 a
    page (its ``PAGE_SIZE``), and no largest ``page_size``."""

    page_size_query_param = "page_size"
    page_size = 20
    max_page_size = None

    def get_next_link(self):
        if not self.page.has_next():
            return None
        return replace_query_param(self.request.get_full_path(), self.page_query_param, self.page.next_page_number())

    def get_previous_link(self):
        if not self.page.has_previous():
            return None
        url = self.request.get_full_path()
        number = self.page.previous_page_number()
        return remove_query_param(url, self.page_query_param) if number <= 0 else replace_query_param(
            url, self.page_query_param, number)

    def get_paginated_response(self, data):
        return Response({"count": self.page.paginator.count, "next": self.get_next_link(),
                         "previous": self.get_previous_link(), "page_size": self.get_page_size(self.request),
                         "page": self.page.number, "results": data})


TRUE = ("true", "1", "yes", "on")
FALSE = ("false", "0", "no", "off")


class FilterBackend(BaseFilterBackend):
    """The list's own filters (``view.filters``: a parameter and its lookup, or a method of the view taking the
    queryset and the parameter's values), as eda-server's filter sets take them; other parameters are ignored."""

    def filter_queryset(self, request, queryset, view):
        for name, lookup in getattr(view, "filters", {}).items():
            values = [v for v in request.query_params.getlist(name) if v != ""]
            if not values:
                continue
            if callable(lookup):
                queryset = lookup(queryset, values)
                continue
            value = values[-1]
            if lookup.endswith("__bool"):
                lookup = lookup[:-6]
                if value.lower() not in TRUE + FALSE:
                    raise ParseError({name: ["Select a valid choice."]})
                value = value.lower() in TRUE
            elif lookup.endswith("_id") or lookup.endswith("__id"):
                try:
                    value = int(value)
                except ValueError:
                    raise ParseError({name: ["Enter a number."]})
            queryset = queryset.filter(**{lookup: value})
        search = request.query_params.get("search")
        if search and getattr(view, "search_fields", None):
            q = Q()
            for field in view.search_fields:
                q |= Q(**{field + "__icontains": search})
            queryset = queryset.filter(q)
        return queryset


class Metadata(SimpleMetadata):
    """OPTIONS as DRF's ``SimpleMetadata`` answers it (eda-server's views keep DRF's metadata), each method's
    fields from the serializer that method takes (``request_serializers`` of the view)."""

    def determine_metadata(self, request, view):
        data = super().determine_metadata(request, view)
        if "actions" not in data and getattr(view, "request_serializers", None) and request.method == "OPTIONS":
            actions = self.determine_actions(request, view)
            if actions:
                data["actions"] = actions
        return data

    def determine_actions(self, request, view):
        actions = {}
        for method in {"PUT", "POST"} & set(view.allowed_methods):
            view.request = clone_request(request, method)
            try:
                view.check_permissions(view.request)
                if not view.may_write(method):
                    continue
                serializer = view.request_serializer(method)()
                actions[method] = self.get_serializer_info(serializer)
            except (PermissionDenied, Http404, Exception):  # noqa: B014 (as DRF: a method not offered)
                pass
            finally:
                view.request = request
        return actions


class EdaPermission(permissions.BasePermission):
    """A signed-in user; a token of read scope only reads (django-ansible-base's scope check, as at the gateway)."""

    def has_permission(self, request, view):
        if getattr(view, "anonymous_allowed", False):
            return True
        if not (request.user and request.user.is_authenticated):
            return False
        from ansible_base.oauth2_provider.permissions import OAuth2ScopePermission

        return OAuth2ScopePermission().has_permission(request, view)


def exception_handler(exc, context):
    """DRF's own answers (eda-server keeps them): the errors about no one field under ``non_field_errors``, where the
    controller's views, which set the service's ``NON_FIELD_ERRORS_KEY``, say ``__all__``."""
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "__all__" in response.data:
        response.data["non_field_errors"] = response.data.pop("__all__")
    return response


def authenticators():
    """The gateway's three ways in (refsvc/gateway/settings.py), named here: django-ansible-base's settings helper
    puts its own token and session classes before them in the layout's defaults, which carry no ``kind`` for the
    request log (the gateway's own views log such requests as anonymous)."""
    from refsvc.gateway.auth import GatewayBasicAuthentication, GatewayTokenAuthentication
    from refsvc.svc.auth import SessionAuthentication

    return [GatewayTokenAuthentication, SessionAuthentication, GatewayBasicAuthentication]


class EdaView:
    """What every EDA view shares: its authentication (the gateway's), permission, page, filters, OPTIONS."""

    authentication_classes = authenticators()
    permission_classes = [EdaPermission]
    pagination_class = Pagination
    filter_backends = [FilterBackend]
    metadata_class = Metadata
    anonymous_allowed = False
    filters = {}
    search_fields = ()
    model = None
    # the serializer of what the view answers, and those of what each method takes
    serializer_class = None
    request_serializers = {}

    def get_exception_handler(self):
        return exception_handler

    def get_authenticate_header(self, request):
        return WWW_AUTHENTICATE

    def perform_authentication(self, request):
        # as the gateway: bad credentials go on anonymous (the permission check answers 401)
        from rest_framework.exceptions import AuthenticationFailed

        try:
            request.user
        except AuthenticationFailed:
            pass

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        try:
            authenticator = request.successful_authenticator
        except Exception:
            authenticator = None
        request._request.svc_auth = getattr(authenticator, "kind", None) or "anonymous"
        return response

    def request_serializer(self, method):
        return self.request_serializers.get(method, self.serializer_class)

    def may_write(self, method):
        user = self.request.user
        if method == "POST" and self.model is not None:
            return access.allows(user, "offer_add", self.model)
        return True

    def check_access(self, action, target, *args, **kwargs):
        access.check(self.request.user, action, target, *args, **kwargs)

    def visible(self, model=None):
        return access.visible(model or self.model, self.request.user)

    def get_queryset(self):
        return self.visible()


class EdaList(EdaView, generics.ListCreateAPIView):
    def create(self, request, *args, **kwargs):
        serializer = self.request_serializer("POST")(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        self.check_access("add", self.model, serializer.validated_data)
        with transaction.atomic():
            obj = serializer.save(**self.save_kwargs(created=True))
        return Response(self.answer(obj), status=status.HTTP_201_CREATED)

    def save_kwargs(self, created=False):
        fields = {f.name for f in self.model._meta.get_fields()}
        kwargs = {}
        if "created_by" in fields and created:
            kwargs["created_by"] = self.request.user
        if "modified_by" in fields:
            kwargs["modified_by"] = self.request.user
        return kwargs

    def answer(self, obj):
        return self.get_serializer(obj).data


class EdaDetail(EdaView, generics.RetrieveUpdateDestroyAPIView):
    http_method_names = ["get", "patch", "delete", "head", "options"]
    answer_serializer = None   # the serializer of a PATCH's answer, when it is not the detail's

    def update(self, request, *args, **kwargs):
        obj = self.get_object()
        refused = self.refuse_update(obj, request.data)
        if refused is not None:
            return refused
        serializer = self.request_serializer("PATCH")(obj, data=request.data, partial=True,
                                                      context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        self.check_access("change", obj, serializer.validated_data)
        with transaction.atomic():
            obj = serializer.save(**EdaList.save_kwargs(self))
        return Response((self.answer_serializer or self.serializer_class)(obj, context=self.get_serializer_context()).data)

    def refuse_update(self, obj, data):
        """A refusal of the object's own before the data is read (a managed object): its answer, or None."""
        return None

    def destroy(self, request, *args, **kwargs):
        obj = self.get_object()
        self.check_access("delete", obj)
        refused = self.refuse_destroy(obj)
        if refused is not None:
            return refused
        obj.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)

    def refuse_destroy(self, obj):
        return None


def only_from(first, view):
    """``view`` where the release the gateway stands for has it (404 before ``first``)."""

    class Released(view):
        def dispatch(self, request, *args, **kwargs):
            if release() < first:
                from django.http import JsonResponse

                return JsonResponse({"detail": "Not found."}, status=404)
            return super().dispatch(request, *args, **kwargs)

    Released.__name__ = view.__name__
    return Released


def not_found(model_name, pk):
    from rest_framework.exceptions import NotFound

    raise NotFound("%s with ID=%s does not exist." % (model_name, pk))


# -- roots

class ApiRootView(EdaView, APIView):
    """eda-server's ``ApiRootView`` (not in the schema): the version of its API, as absolute URLs."""

    anonymous_allowed = True

    def get(self, request):
        v1 = request.build_absolute_uri(V1)
        return Response({"current_version": v1, "available_versions": {"v1": v1}})


# The lists eda-server's v1 root names (its URL names, by reverse of those without parameters), each app adding its
# own; here: the name and the path under /api/eda/v1/.
ROOT = {
    "config": "config/", "status": "status/", "session-login": "auth/session/login/",
    "session-logout": "auth/session/logout/", "token-refresh": "auth/token/refresh/", "current-user": "users/me/",
    "user-list": "users/", "controller-token-list": "users/me/awx-tokens/", "credentialtype-list": "credential-types/",
    "edacredential-list": "eda-credentials/", "credentialinputsource-list": "credential-input-sources/",
    "decisionenvironment-list": "decision-environments/", "organization-list": "organizations/", "team-list": "teams/",
    "roledefinition-list": "role_definitions/", "roleuserassignment-list": "role_user_assignments/",
    "roleteamassignment-list": "role_team_assignments/", "role-metadata": "role_metadata/",
}


class ApiV1RootView(EdaView, APIView):
    def get(self, request):
        return Response({name: request.build_absolute_uri(V1 + path) for name, path in sorted(ROOT.items())})


# -- organizations, teams, users (the gateway's; EDA reads them, the platform's ingress changes them)

class OrganizationList(EdaView, generics.ListAPIView):
    model = Organization
    serializer_class = es.OrganizationSerializer
    filters = {"name": "name__istartswith", "description": "description__icontains",
               "resource__ansible_id": lambda qs, values: _by_ansible_id(qs, "organization", values)}

    def get_queryset(self):
        return self.visible().order_by("id")


def _by_ansible_id(queryset, kind, values):
    from refsvc.svc.models import ansible_id

    wanted = values[-1].lower()
    return queryset.filter(pk__in=[pk for pk in queryset.values_list("pk", flat=True) if ansible_id(kind, pk) == wanted])


class OrganizationDetail(EdaView, generics.RetrieveAPIView):
    model = Organization
    serializer_class = es.OrganizationSerializer


class TeamList(EdaView, generics.ListAPIView):
    model = Team
    serializer_class = es.TeamSerializer
    filters = {"name": "name__istartswith", "organization_id": "organization_id", "description": "description__icontains",
               "resource__ansible_id": lambda qs, values: _by_ansible_id(qs, "team", values)}

    def get_queryset(self):
        return self.visible().order_by("id")


class OrganizationTeams(TeamList):
    filters = {k: v for k, v in TeamList.filters.items() if k != "organization_id"}

    def get_queryset(self):
        org = generics.get_object_or_404(self.visible(Organization), pk=self.kwargs["pk"])
        return self.visible().filter(organization=org).order_by("id")


class TeamDetail(EdaView, generics.RetrieveAPIView):
    model = Team
    serializer_class = es.TeamDetailSerializer


# eda-server's words while ALLOW_LOCAL_RESOURCE_MANAGEMENT is off, as behind a gateway: the serializer's
# SharedResourceSerializerMixin says the view's action capitalised, the view's SharedResourceViewMixin as it is.
INGRESS = "%s should be done through the platform ingress"


class UserList(EdaView, generics.ListAPIView):
    model = get_user_model()
    serializer_class = es.UserListSerializer
    filters = {"name": "username__istartswith", "username": "username", "is_superuser": "is_superuser__bool",
               "resource__ansible_id": lambda qs, values: _by_ansible_id(qs, "user", values)}

    def get_queryset(self):
        return self.visible().order_by("id")

    def post(self, request, *args, **kwargs):
        # not in the published schema; eda-server's UserViewSet has create, refused behind a gateway
        raise PermissionDenied(INGRESS % "Create")


class UserDetail(EdaView, generics.RetrieveAPIView):
    model = get_user_model()
    serializer_class = es.UserDetailSerializer
    request_serializers = {"PATCH": es.UserUpdateIsSuperuserSerializer}
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def patch(self, request, *args, **kwargs):
        self.get_object()
        raise PermissionDenied(INGRESS % "Partial_update")

    def delete(self, request, *args, **kwargs):
        # not in the published schema; eda-server's UserViewSet.destroy refuses it first thing
        raise PermissionDenied(INGRESS % "destroy")


class CurrentUser(EdaView, APIView):
    serializer_class = es.UserDetailSerializer

    def get(self, request):
        return Response(es.UserDetailSerializer(request.user).data)


class AwxTokenList(EdaList):
    model = AwxToken
    serializer_class = es.AwxTokenSerializer
    request_serializers = {"POST": es.AwxTokenCreateSerializer}
    search_fields = ("name", "description")

    def get_queryset(self):
        # the caller's own, superusers included (users/me/)
        return AwxToken.objects.filter(user=self.request.user).order_by("id")

    def save_kwargs(self, created=False):
        return {}


class AwxTokenDetail(EdaDetail):
    model = AwxToken
    serializer_class = es.AwxTokenSerializer
    http_method_names = ["get", "delete", "head", "options"]

    def get_queryset(self):
        return AwxToken.objects.filter(user=self.request.user)


# -- credential types

def _types_of_release(queryset):
    """The managed types the release the gateway stands for has (a type ``since`` a later one is left out)."""
    if release() == "2.6":
        return queryset.exclude(since="2.7")
    return queryset


class CredentialTypeList(EdaList):
    model = CredentialType
    serializer_class = es.CredentialTypeSerializer
    request_serializers = {"POST": es.CredentialTypeCreateSerializer}
    filters = {"name": "name__istartswith", "namespace": "namespace__istartswith"}

    def get_queryset(self):
        return _types_of_release(self.visible())

    def create(self, request, *args, **kwargs):
        serializer = es.CredentialTypeCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self.check_access("add", CredentialType, serializer.validated_data)
        data = serializer.validated_data
        # as eda-server's create: a custom type is of kind cloud, a field without a type a string
        for field in (data.get("inputs") or {}).get("fields", []):
            field.setdefault("type", "string")
        obj = CredentialType.objects.create(kind="cloud", **data)
        return Response(es.CredentialTypeSerializer(obj).data, status=status.HTTP_201_CREATED)


class CredentialTypeDetail(EdaDetail):
    model = CredentialType
    serializer_class = es.CredentialTypeSerializer
    request_serializers = {"PATCH": es.CredentialTypeCreateSerializer}

    def get_queryset(self):
        return _types_of_release(self.visible())

    def update(self, request, *args, **kwargs):
        obj = self.get_object()
        self.check_access("change", obj)
        if obj.managed:
            return Response({"errors": "Managed credential type cannot be updated"}, status=status.HTTP_400_BAD_REQUEST)
        if obj.credentials.exists():
            for field in ("inputs", "injectors"):
                if request.data.get(field):
                    return Response({field: ["Modifications to %s are not allowed for credential types that are in use"
                                             % field]}, status=status.HTTP_400_BAD_REQUEST)
        serializer = es.CredentialTypeCreateSerializer(obj, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        obj = serializer.save()
        return Response(es.CredentialTypeSerializer(obj).data)

    def destroy(self, request, *args, **kwargs):
        obj = self.get_object()
        self.check_access("delete", obj)
        if obj.managed:
            return Response({"errors": "Managed credential type cannot be deleted"}, status=status.HTTP_400_BAD_REQUEST)
        if obj.credentials.exists():
            return Response({"errors": "CredentialType %s is used by credentials" % obj.name},
                            status=status.HTTP_409_CONFLICT)
        obj.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


def plugin_test_answer():
    """A test of an external secret manager's lookup (eda-server's ``run_plugin``, which calls the manager): the
    reference service reaches none, so every test fails as a failed lookup answers (400, ``{}``)."""
    return Response({}, status=status.HTTP_400_BAD_REQUEST)


class CredentialTypeTest(EdaView, generics.GenericAPIView):
    model = CredentialType
    serializer_class = es.CredentialTypeTestSerializer
    request_serializers = {"POST": es.CredentialTypeTestSerializer}

    def post(self, request, pk):
        obj = _types_of_release(self.visible()).filter(pk=pk).first()
        if obj is None:
            not_found("Credential Type", pk)
        self.check_access("test", obj)
        es.CredentialTypeTestSerializer(data=request.data).is_valid(raise_exception=True)
        return plugin_test_answer()

    def may_write(self, method):
        return True


# -- EDA credentials

def _split(values):
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


class EdaCredentialList(EdaList):
    model = EdaCredential
    serializer_class = es.EdaCredentialSerializer
    request_serializers = {"POST": es.EdaCredentialCreateSerializer}
    filters = {
        "name": "name__istartswith",
        "credential_type_id": "credential_type_id",
        "credential_type__namespace__in": lambda qs, v: qs.filter(credential_type__namespace__in=_split(v)),
        "credential_type__namespace__not_in": lambda qs, v: qs.exclude(credential_type__namespace__in=_split(v)),
        # repeated, several kinds (eda-server's KindFilterBackend)
        "credential_type__kind": lambda qs, v: qs.filter(credential_type__kind__in=v),
        "credential_type__kind__in": lambda qs, v: qs.filter(credential_type__kind__in=_split(v)),
    }

    def get_queryset(self):
        # eda-server's list leaves out the managed credentials but the rule engine's
        return self.visible().exclude(Q(managed=True) & ~Q(credential_type__name="Event-Driven Ansible Rule Engine"))


def credential_references(obj):
    found = [{"type": "DecisionEnvironment", "id": de.pk, "name": de.name, "uri": "%sdecision-environments/%d/" % (V1, de.pk)}
             for de in DecisionEnvironment.objects.filter(eda_credential=obj).order_by("id")]
    for more in CREDENTIAL_REFERENCES:
        found += more(obj)
    return found


class EdaCredentialDetail(EdaDetail):
    model = EdaCredential
    serializer_class = es.EdaCredentialSerializer
    request_serializers = {"PATCH": es.EdaCredentialUpdateSerializer}

    def retrieve(self, request, *args, **kwargs):
        obj = self.get_object()
        refs = request.query_params.get("refs", "false").lower() in TRUE
        return Response(es.EdaCredentialSerializer(obj, context={"references": credential_references(obj) if refs else None}).data)

    def refuse_update(self, obj, data):
        if obj.managed:
            return Response({"errors": "Managed EDA credential cannot be updated"}, status=status.HTTP_400_BAD_REQUEST)
        return None

    def refuse_destroy(self, obj):
        if obj.managed:
            return Response({"errors": "Managed EDA credential cannot be deleted"}, status=status.HTTP_400_BAD_REQUEST)
        force = self.request.query_params.get("force", "false").lower() in TRUE
        if credential_references(obj) and not force:
            return Response({"detail": "Credential %s is being referenced by other resources and cannot be deleted. If "
                                       "you want to force delete, please add /?force=true query param." % obj.name},
                            status=status.HTTP_409_CONFLICT)
        return None


class EdaCredentialCopy(EdaView, generics.GenericAPIView):
    model = EdaCredential
    serializer_class = es.EdaCredentialCopySerializer

    def may_write(self, method):
        return True

    def post(self, request, pk):
        source = generics.get_object_or_404(self.visible(), pk=pk)
        self.check_access("copy", source)
        serializer = es.EdaCredentialCopySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        copy = EdaCredential(name=serializer.validated_data["name"], description=source.description,
                             credential_type=source.credential_type, organization=source.organization,
                             created_by=request.user, modified_by=request.user)
        copy.inputs = source.inputs
        copy.save()
        return Response(es.EdaCredentialSerializer(copy).data, status=status.HTTP_201_CREATED)


class EdaCredentialTest(EdaView, generics.GenericAPIView):
    model = EdaCredential
    serializer_class = es.EdaCredentialTestSerializer

    def may_write(self, method):
        return True

    def post(self, request, pk):
        obj = generics.get_object_or_404(self.visible(), pk=pk)
        self.check_access("test", obj)
        es.EdaCredentialTestSerializer(data=request.data).is_valid(raise_exception=True)
        return plugin_test_answer()


class EdaCredentialInputSources(EdaView, generics.ListAPIView):
    model = CredentialInputSource
    serializer_class = es.CredentialInputSourceSerializer

    def get_queryset(self):
        if not self.visible(EdaCredential).filter(pk=self.kwargs["pk"]).exists():
            not_found("Credential", self.kwargs["pk"])
        return CredentialInputSource.objects.filter(target_credential_id=self.kwargs["pk"])


# -- credential input sources

class CredentialInputSourceList(EdaList):
    model = CredentialInputSource
    serializer_class = es.CredentialInputSourceSerializer
    request_serializers = {"POST": es.CredentialInputSourceCreateSerializer}
    filters = {"source_credential": "source_credential_id", "target_credential": "target_credential_id"}


class CredentialInputSourceDetail(EdaDetail):
    model = CredentialInputSource
    serializer_class = es.CredentialInputSourceSerializer
    request_serializers = {"PATCH": es.CredentialInputSourceCreateSerializer}


# -- decision environments

class DecisionEnvironmentList(EdaList):
    model = DecisionEnvironment
    serializer_class = es.DecisionEnvironmentSerializer
    request_serializers = {"POST": es.DecisionEnvironmentCreateSerializer}
    filters = {"name": "name__istartswith"}


class DecisionEnvironmentDetail(EdaDetail):
    model = DecisionEnvironment
    serializer_class = es.DecisionEnvironmentReadSerializer
    answer_serializer = es.DecisionEnvironmentSerializer
    request_serializers = {"PATCH": es.DecisionEnvironmentCreateSerializer}

    def refuse_destroy(self, obj):
        force = self.request.query_params.get("force", "false").lower() in TRUE
        used = [ref for more in DECISION_ENVIRONMENT_REFERENCES for ref in more(obj)]
        if used and not force:
            # eda-server's words (views/decision_environment.py)
            return Response({"detail": "Decision Environment is being used by Activations and cannot be deleted. If "
                                       "you want to force delete, please add /?force=True query param."},
                            status=status.HTTP_409_CONFLICT)
        return None


# -- EDA's own session login, logout and token refresh (eda-server's views/auth.py)

class SessionLogin(EdaView, APIView):
    """GET: 204 and the CSRF cookie (the preflight); POST ``{"username", "password"}`` with the CSRF token: a session
    (the gateway's cookie, which then reaches every API behind it), 204; bad credentials: 403."""

    anonymous_allowed = True
    authentication_classes = []
    request_serializers = {"POST": es.LoginSerializer}

    def may_write(self, method):
        return True

    def get(self, request):
        from django.middleware.csrf import get_token

        get_token(request._request)
        response = Response(status=status.HTTP_204_NO_CONTENT)
        response["Cache-Control"] = "max-age=0, no-cache, no-store, must-revalidate, private"
        return response

    def post(self, request):
        from django.contrib.auth import authenticate, login
        from django.middleware.csrf import CsrfViewMiddleware

        reason = CsrfViewMiddleware(lambda r: None).process_view(request._request, None, (), {})
        if reason is not None:
            raise PermissionDenied("CSRF Failed: %s" % getattr(reason, "reason_phrase", "CSRF check failed"))
        serializer = es.LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request._request, username=serializer.validated_data["username"],
                            password=serializer.validated_data["password"])
        if user is None:
            raise PermissionDenied("Invalid credentials or user is disabled.")
        login(request._request, user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionLogout(EdaView, APIView):
    """POST, with the session (and its CSRF token): the session ends, 204."""

    def get_authenticators(self):
        from refsvc.svc.auth import SessionAuthentication

        return [SessionAuthentication()]

    def may_write(self, method):
        return True

    def post(self, request):
        from django.contrib.auth import logout

        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRefresh(EdaView, APIView):
    """``{"refresh"}``: a refresh token eda-server made (HS256 JWT of the service's secret, ``token_type``
    ``refresh``; it gives them to ansible-rulebook) -> ``{"access"}``, a new access token (60 minutes, its default
    ``JWT_ACCESS_TOKEN_LIFETIME_MINUTES``); anything else: 400 "Invalid token"."""

    anonymous_allowed = True
    authentication_classes = []
    request_serializers = {"POST": es.RefreshTokenSerializer}

    def may_write(self, method):
        return True

    def post(self, request):
        serializer = es.RefreshTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response({"access": es.jwt_token(serializer.user.pk, "access")})


# -- config, status, feature flags

# Not in any source here: the version string eda-server answers (its package's version); the API's, from the
# published schema (eda-2.7.json's info.version; 1.2.0 in 2.6's), is answered.
VERSIONS = {"2.6": "1.2.0", "2.7": "1.3.0"}


class ConfigView(EdaView, APIView):
    def get(self, request):
        # deployment_type: eda-server's default setting (podman); an OpenShift install says k8s
        return Response({"time_zone": "UTC", "version": VERSIONS.get(release(), VERSIONS["2.7"]),
                         "deployment_type": "podman"})


class StatusView(EdaView, APIView):
    """eda-server's health: the database and its workers; the reference service has no workers to lose."""

    anonymous_allowed = True

    def get(self, request):
        from django.db import connection

        try:
            connection.ensure_connection()
        except Exception:
            return Response({"status": "failed", "message": "Database connection failed"}, status=500)
        return Response({"status": "good"})


class ServiceMetadata(EdaView, APIView):
    """django-ansible-base's service-index/metadata/, as EDA answers it: the service's id and its type, ``eda``
    (one of the registry's four; the gateway's own index says ``aap``)."""

    def get(self, request):
        if not request.user.is_superuser:
            raise PermissionDenied
        from ansible_base.resource_registry.models import service_id

        return Response({"service_id": service_id(), "service_type": "eda"})


class ServiceIndexRoot(EdaView, APIView):
    """django-ansible-base's ``ServiceIndexRootView``, its links EDA's."""

    def get(self, request):
        base = V1 + "service-index/"
        return Response({"metadata": base + "metadata/", "resources": base + "resources/",
                         "resource-types": base + "resource-types/"})
