import uuid

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from oauthlib.common import generate_token
from oauth2_provider.models import set_token_value
from rest_framework import generics, serializers, status
from rest_framework.exceptions import AuthenticationFailed, ParseError
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from . import access, runtime
from .auth import WWW_AUTHENTICATE
from .filters import FieldLookupBackend
from .models import Credential, CredentialType, Host, Inventory, OAuth2AccessToken, OAuth2Application, OAuth2RefreshToken, Organization
from .oauth2 import access_expiry
from .serializers import (
    CredentialSerializer,
    CredentialTypeSerializer,
    HostSerializer,
    InventorySerializer,
    OrganizationSerializer,
    TokenSerializer,
    UserSerializer,
)

NOT_PROVIDED = "Authentication credentials were not provided. To establish a login session, visit /api/login/."
INSTALL_UUID = "00000000-0000-4000-8000-000000000000"


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None and response.status_code == 401:
        # The real service answers every authentication failure the same way.
        response.data = {"detail": NOT_PROVIDED}
        response["WWW-Authenticate"] = WWW_AUTHENTICATE
    return response


class ApiMixin:
    anonymous_allowed = False
    model = None

    def perform_authentication(self, request):
        # A bad Basic password is not reported as such: the request goes on
        # unauthenticated and the permission check answers "not provided".
        # PermissionDenied (CSRF) still answers 403 with its own text.
        try:
            request.user
        except AuthenticationFailed:
            pass

    def get_authenticate_header(self, request):
        return WWW_AUTHENTICATE

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["X-API-Product-Name"] = settings.PRODUCT_NAME
        # Set by the API view for an authenticated request only: never on the
        # login page's answers, nor on 401s.
        if request.user and request.user.is_authenticated:
            response["X-API-Product-Version"] = settings.PRODUCT_VERSION
        try:
            authenticator = request.successful_authenticator
        except Exception:
            authenticator = None
        request._request.svc_auth = getattr(authenticator, "kind", None) or "anonymous"
        if getattr(self, "deprecated", False):
            # As the real generic views mark the endpoints they deprecate (the legacy roles).
            response["Warning"] = '299 awx "This resource has been deprecated and will be removed in a future release."'
        return response

    def can_write_metadata(self, request, method):
        user = request.user
        if not (user and user.is_authenticated):
            return False
        if method == "POST":
            return self.model is not None and access.allows(user, "offer_add", self.model)
        return True

    def check_access(self, action, target, *args, **kwargs):
        """The one way a view asks whether the user may do ``action`` (add, change, delete,
        attach, unattach, or a special action its access class declares) on ``target``."""
        access.check(self.request.user, action, target, *args, **kwargs)


# ---------------------------------------------------------------- roots

@method_decorator(ensure_csrf_cookie, name="dispatch")
class ApiRootView(ApiMixin, APIView):
    anonymous_allowed = True

    # The real root sets csrftoken (awxkit reads it from here before its login).
    @method_decorator(ensure_csrf_cookie)
    def get(self, request):
        data = {"description": "AWX REST API", "current_version": "/api/v2/", "available_versions": {"v2": "/api/v2/"}}
        # AWX 24.6.1 leaves its OAuth2 root out when asked under its URL prefix (behind the gateway).
        if settings.CONTROLLER_OAUTH2 and not getattr(request, "svc_controller", False):
            data["oauth2"] = "/api/o/"
        data.update({"custom_logo": "", "custom_login_info": "", "login_redirect_override": ""})
        return Response(data)


class ApiV2RootView(ApiMixin, APIView):
    anonymous_allowed = True

    def get(self, request):
        names = [
            "ping", "instances", "instance_groups", "config", "settings", "me", "dashboard", "organizations", "users",
            "execution_environments", "projects", "project_updates", "teams", "credentials", "credential_types",
            "credential_input_sources", "applications", "tokens", "metrics", "inventory",
            "constructed_inventories", "inventory_sources", "inventory_updates", "groups", "hosts", "host_metrics",
            "job_templates", "jobs", "ad_hoc_commands", "system_job_templates", "system_jobs", "schedules", "roles",
            "notification_templates", "notifications", "labels", "unified_job_templates", "unified_jobs",
            "activity_stream", "workflow_job_templates", "workflow_jobs", "workflow_approvals",
            "workflow_job_template_nodes", "workflow_job_nodes", "mesh_visualizer", "bulk", "analytics", "receptor_addresses",
        ]
        names += ["role_definitions", "role_team_assignments", "role_user_assignments"]
        if not settings.CONTROLLER_OAUTH2:
            names = [n for n in names if n not in ("applications", "tokens")]
        data = {n: "/api/v2/%s/" % n for n in names}
        data["inventory"] = "/api/v2/inventories/"
        # AWX 24.6.1's ApiVersionRootView (awx/api/views/root.py) names the constructed inventories' list
        # "constructed_inventory" (the recorded root of the real AWX, and its root behind the gateway, say so).
        # Its service_index (django-ansible-base's resource API) and host_metric_summary_monthly are not
        # served here, and not listed.
        data["constructed_inventory"] = data.pop("constructed_inventories")
        return Response(data)


class PingView(ApiMixin, APIView):
    anonymous_allowed = True

    def get(self, request):
        now = timezone.now().isoformat().replace("+00:00", "Z")
        return Response(
            {
                "ha": False,
                "version": settings.PRODUCT_VERSION,
                "active_node": "localhost",
                "install_uuid": INSTALL_UUID,
                "instances": [
                    {"node": "localhost", "node_type": "hybrid", "uuid": INSTALL_UUID, "heartbeat": now, "capacity": 100, "version": settings.PRODUCT_VERSION}
                ],
                "instance_groups": [{"name": "default", "capacity": 100, "instances": ["localhost"]}],
            }
        )


class ConfigView(ApiMixin, APIView):
    def get(self, request):
        data = (
            {
                "time_zone": settings.TIME_ZONE,
                "license_info": {"license_type": "open", "valid_key": True, "subscription_name": "OPEN", "product_name": "AWX"},
                "version": settings.PRODUCT_VERSION,
                "eula": "",
                "analytics_status": "off",
                "analytics_collectors": {},
                "become_methods": [["sudo", "Sudo"], ["su", "Su"]],
                "ui_next": False,
            }
        )
        # ApiV2ConfigView: the projects' paths for those who see everything or administer an organization
        # (the organization auditor and project admin roles, which also see them there, are not modelled).
        user = request.user
        if access.sees_all(user) or user.svc_admin_of_organizations.exists():
            data.update(project_base_dir="/var/lib/awx/projects", project_local_paths=[], custom_virtualenvs=[])
        return Response(data)


# ---------------------------------------------------------------- generic resources

class ResourceList(ApiMixin, generics.ListCreateAPIView):
    filter_backends = [FieldLookupBackend]
    search_fields = ("name", "description")

    def get_queryset(self):
        return access.visible(self.model, self.request.user)

    def extra_save_kwargs(self):
        return {}

    def perform_create(self, serializer):
        self.check_access("add", self.model, serializer.validated_data)
        serializer.save(**self.extra_save_kwargs())


class ResourceDetail(ApiMixin, generics.RetrieveUpdateDestroyAPIView):
    def get_queryset(self):
        return access.visible(self.model, self.request.user)

    def change_data(self, serializer):
        return serializer.validated_data

    def perform_update(self, serializer):
        data = self.change_data(serializer)
        self.check_access("change", serializer.instance, data)
        self.check_access("move", serializer.instance, data)
        serializer.save()

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        instance.delete()


# ---------------------------------------------------------------- sub-lists

def get_object_or_400(queryset, pk):
    try:
        return queryset.get(pk=pk)
    except queryset.model.DoesNotExist:
        raise ParseError("%s matching query does not exist." % queryset.model.__name__)


def association(request, sub_name):
    """(id, disassociate, None) of a POST to an association sub-list that takes an id as a
    number or a numeric string, or (None, None, the real error answer)."""
    data = request.data
    if not isinstance(data, dict):
        return None, None, Response("invalid type for post data", status=400)
    disassociate = "disassociate" in data
    sub_id = data.get("id")
    if not sub_id:
        msg = '"id" is required to disassociate' if disassociate else "%s 'id' field is missing." % sub_name
        return None, None, Response({"msg": msg}, status=400)
    if not isinstance(sub_id, int):
        try:
            sub_id = int(sub_id)
        except (TypeError, ValueError):
            return None, None, Response({"msg": '"id" field must be an integer.'}, status=400)
    return sub_id, disassociate, None


class SubList(ApiMixin, generics.ListAPIView):
    """Every sub-list, ``/api/v2/<parent>/<id>/<children>/``: GET lists the children of the parent
    the user sees; POST {"id": N} associates an object, {"id": N, "disassociate": true} removes it
    (204); without "id", a view that allows it creates the object and associates it (201). Who may
    do so is the parent's access class's ``attach`` (``unattach``) with the relation's name, and a
    creation the child's ``add_related``. A view is configured by its attributes (``as_view``
    takes them too); the few whose POST differs (roles, memberships, workflow links) override
    ``post`` and ask the same access classes."""

    filter_backends = [FieldLookupBackend]
    search_fields = ("name", "description")
    parent_model = None
    relation = None          # attribute of the parent giving the related manager
    parent_key = None        # field of the child set to the parent on creation (a 1-n relation)
    allow_create = False
    allow_attach = True
    offers_post = None       # False: OPTIONS never offers POST (the legacy role lists)

    def can_write_metadata(self, request, method):
        if self.offers_post is False:
            return False
        return super().can_write_metadata(request, method)

    def get_parent(self):
        return get_object_or_404(access.visible(self.parent_model, self.request.user), pk=self.kwargs["pk"])

    def related(self, parent):
        return getattr(parent, self.relation)

    def get_queryset(self):
        return self.related(self.get_parent()).all()

    def check_attach(self, parent, sub=None, disassociate=False, data=None):
        self.check_access("unattach" if disassociate else "attach", parent, sub, self.relation, data,
                          **({"parent_key": self.parent_key} if self.parent_key and not disassociate else {}))

    def is_valid_relation(self, parent, sub):
        return None

    def add(self, parent, sub):
        self.related(parent).add(sub)

    def remove(self, parent, sub):
        self.related(parent).remove(sub)

    def create_data(self, parent, data):
        data = data.copy()
        if self.parent_key:
            data[self.parent_key] = parent.pk
        return data

    def post(self, request, *args, **kwargs):
        if not isinstance(request.data, dict):
            return Response("invalid type for post data", status=400)
        parent = self.get_parent()
        sub_id = request.data.get("id", None)
        title = self.model._meta.verbose_name.title()
        if "disassociate" in request.data:
            if not sub_id:
                return Response({"msg": '"id" is required to disassociate'}, status=400)
            if not isinstance(sub_id, int) or isinstance(sub_id, bool):
                return Response({"msg": '"id" field must be an integer.'}, status=400)
            sub = self.model.objects.filter(pk=sub_id).first()
            if sub is None:
                return Response({"detail": "%s matching query does not exist." % self.model.__name__}, status=400)
            self.check_attach(parent, sub, disassociate=True)
            with transaction.atomic():
                if self.parent_key:
                    sub.delete()
                else:
                    self.remove(parent, sub)
                self.after_remove(sub)
            return Response(status=204)
        if sub_id and (not isinstance(sub_id, int) or isinstance(sub_id, bool)):
            return Response({"msg": '"id" field must be an integer.'}, status=400)
        if not sub_id:
            if not self.allow_create:
                return Response({"msg": "%s 'id' field is missing." % title}, status=400)
            serializer = self.get_serializer(data=self.create_data(parent, request.data))
            serializer.is_valid(raise_exception=True)
            self.check_access("add_related", self.model, serializer.validated_data)
            with transaction.atomic():
                kwargs = {"created_by": request.user} if hasattr(self.model, "created_by") else {}
                sub = serializer.save(**kwargs)
                if not self.parent_key:
                    self.add(parent, sub)
            data = self.get_serializer(sub).data
            return Response(data, status=201, headers={"Location": data["url"]})
        sub = self.model.objects.filter(pk=sub_id).first()
        if sub is None:
            return Response({"detail": "%s matching query does not exist." % self.model.__name__}, status=400)
        self.check_attach(parent)
        errors = self.is_valid_relation(parent, sub)
        if errors is not None:
            return Response(errors, status=400)
        self.check_attach(parent, sub)
        if not self.parent_key:
            self.add(parent, sub)
        return Response(status=204)

    def after_remove(self, sub):
        pass


# ---------------------------------------------------------------- shared resources behind a gateway

def immutable_shared_fields(cls):
    """The view asks the access class of its objects what only the platform's ingress may do
    (``access.Shared``) before it creates, deletes or changes one, where AWX's decorator does
    (create, delete, perform_update)."""
    if hasattr(cls, "create"):
        create = cls.create

        def create_refused(self, request, *args, **kwargs):
            self.check_access("ingress", self.model, what="add")
            return create(self, request, *args, **kwargs)

        cls.create = create_refused
    if hasattr(cls, "delete"):
        delete = cls.delete

        def delete_refused(self, request, *args, **kwargs):
            self.check_access("ingress", self.model, what="delete")
            return delete(self, request, *args, **kwargs)

        cls.delete = delete_refused
    if hasattr(cls, "perform_update"):
        perform_update = cls.perform_update

        def shared_fields_kept(self, serializer):
            self.check_access("ingress", serializer.instance, what="change", data=serializer.validated_data)
            return perform_update(self, serializer)

        cls.perform_update = shared_fields_kept
    return cls


class CreatedByMixin:
    def extra_save_kwargs(self):
        return {"created_by": self.request.user}


@immutable_shared_fields
class OrganizationList(ResourceList):
    model = Organization
    serializer_class = OrganizationSerializer


@immutable_shared_fields
class OrganizationDetail(ResourceDetail):
    model = Organization
    serializer_class = OrganizationSerializer


class InventoryList(CreatedByMixin, ResourceList):
    model = Inventory
    serializer_class = InventorySerializer


class InventoryDetail(ResourceDetail):
    model = Inventory
    serializer_class = InventorySerializer

    def update(self, request, *args, **kwargs):
        # The kind of an inventory is set when it is created, as on the real service.
        kind = request.data.get("kind") if isinstance(request.data, dict) else None
        if kind is not None and kind != self.get_object().kind:
            return Response({"error": 'You cannot turn a regular inventory into a "smart" or "constructed" inventory.'},
                            status=405)
        return super().update(request, *args, **kwargs)


class HostList(CreatedByMixin, ResourceList):
    model = Host
    serializer_class = HostSerializer

    def get_queryset(self):
        return super().get_queryset().select_related("inventory", "created_by")


class HostDetail(ResourceDetail):
    model = Host
    serializer_class = HostSerializer


class InventoryHostList(HostList):
    """/api/v2/inventories/<pk>/hosts/"""

    attach_metadata = True  # the real list creates and attaches: its OPTIONS offer "id"

    def get_parent(self):
        return get_object_or_404(access.visible(Inventory, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return super().get_queryset().filter(inventory=self.get_parent())

    def create(self, request, *args, **kwargs):
        data = request.data.copy()
        data["inventory"] = self.get_parent().pk
        serializer = self.get_serializer(data=data)
        serializer.is_valid(raise_exception=True)
        self.perform_create(serializer)
        return Response(serializer.data, status=status.HTTP_201_CREATED, headers={"Location": serializer.data["url"]})


class CredentialTypeList(ResourceList):
    model = CredentialType
    serializer_class = CredentialTypeSerializer


class CredentialTypeDetail(ResourceDetail):
    model = CredentialType
    serializer_class = CredentialTypeSerializer


class CredentialList(CreatedByMixin, ResourceList):
    model = Credential
    serializer_class = CredentialSerializer

    def get_queryset(self):
        return super().get_queryset().select_related("credential_type", "organization", "created_by")


class CredentialDetail(ResourceDetail):
    model = Credential
    serializer_class = CredentialSerializer


@immutable_shared_fields
class UserList(ResourceList):
    model = User
    serializer_class = UserSerializer
    search_fields = ("username", "first_name", "last_name", "email")

    def get_queryset(self):
        return super().get_queryset().order_by("id")


@immutable_shared_fields
class UserDetail(ResourceDetail):
    model = User
    serializer_class = UserSerializer

    def get_queryset(self):
        return super().get_queryset().order_by("id")

    def change_data(self, serializer):
        # A system auditor flag counts as changed only when the request names it.
        data = dict(serializer.validated_data)
        if "is_system_auditor" not in self.request.data:
            data.pop("is_system_auditor", None)
        return data


class MeView(ApiMixin, generics.ListAPIView):
    serializer_class = UserSerializer

    def get_queryset(self):
        return User.objects.filter(pk=self.request.user.pk)


class OrganizationUsersView(ApiMixin, generics.ListAPIView):
    """/api/v2/organizations/<pk>/users/ and /admins/: list, and POST {"id": N}
    (with "disassociate": true to remove); a POST of a new user's fields (no id) creates the
    user in the organization, which its admins may do."""

    serializer_class = UserSerializer
    filter_backends = [FieldLookupBackend]
    relation = "members"
    attach_metadata = create_metadata = True

    def can_write_metadata(self, request, method):
        org = access.visible(Organization, request.user).filter(pk=self.kwargs["pk"]).first()
        return method == "POST" and org is not None and access.allows(request.user, "attach", org, relation=self.relation)

    def get_parent(self):
        return get_object_or_404(access.visible(Organization, self.request.user), pk=self.kwargs["pk"])

    def get_queryset(self):
        return getattr(self.get_parent(), self.relation).all().order_by("id")

    def post(self, request, pk):
        org = self.get_parent()
        self.check_access("attach", org, relation=self.relation)
        relation = getattr(org, self.relation)
        if "id" not in request.data:
            # OrganizationUsersList and OrganizationAdminsList: their create is AWX's, refused behind a gateway.
            self.check_access("ingress", User, what="add")
            # A body without id creates the user and adds it, as the real sublist does.
            serializer = UserSerializer(data=request.data, context=self.get_serializer_context())
            serializer.is_valid(raise_exception=True)
            user = serializer.save()
            relation.add(user)
            if self.relation == "admins":
                org.members.add(user)
            data = UserSerializer(user, context=self.get_serializer_context()).data
            return Response(data, status=201, headers={"Location": data["url"]})
        try:
            user_id = int(request.data.get("id"))
        except (TypeError, ValueError):
            return Response({"detail": '"id" field must be an integer.'}, status=400)
        user = User.objects.filter(pk=user_id).first()
        if user is None:
            return Response({"detail": "User matching query does not exist."}, status=400)
        if request.data.get("disassociate"):
            relation.remove(user)
        else:
            relation.add(user)
            if self.relation == "admins":
                org.members.add(user)
        return Response(status=204)


# ---------------------------------------------------------------- tokens

def create_token(user, scope, description, application=None):
    """An access token (and, for an application, a refresh token) whose secrets
    the creation response shows once (the view asked the access class ``mint`` first)."""
    secret = generate_token()
    token = OAuth2AccessToken(user=user, scope=scope, description=description or "", application=application, expires=access_expiry())
    set_token_value(token, secret)
    token.save()
    token._svc_secret = secret
    if application is not None:
        refresh_secret = generate_token()
        refresh = OAuth2RefreshToken(user=user, application=application, access_token=token)
        set_token_value(refresh, refresh_secret)
        refresh.save()
        token._svc_refresh_secret = refresh_secret
    return token


def token_application(request):
    """The application named in a token creation body (an id), or None."""
    value = request.data.get("application")
    if value in (None, ""):
        return None
    try:
        return access.visible(OAuth2Application, request.user).get(pk=int(value))
    except (TypeError, ValueError, OAuth2Application.DoesNotExist):
        raise serializers.ValidationError({"application": ['Invalid pk "%s" - object does not exist.' % value]})


class TokenList(ApiMixin, generics.ListCreateAPIView):
    model = OAuth2AccessToken
    personal = False
    serializer_class = TokenSerializer
    filter_backends = [FieldLookupBackend]
    search_fields = ("description",)

    def get_target_user(self):
        return self.request.user

    def get_queryset(self):
        return access.visible(OAuth2AccessToken, self.request.user).select_related("user", "application")

    def can_write_metadata(self, request, method):
        return bool(request.user and request.user.is_authenticated)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        target = self.get_target_user()
        self.check_access("add", OAuth2AccessToken, {"user": target})
        application = None if self.personal else token_application(request)
        self.check_access("mint", OAuth2AccessToken, {"user": target})
        with transaction.atomic():
            token = create_token(target, serializer.validated_data["scope"], serializer.validated_data.get("description"), application)
        data = TokenSerializer(token, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": data["url"]})


class UserTokenList(TokenList):
    """/api/v2/users/<id or username>/tokens/ and .../personal_tokens/."""

    def get_target_user(self):
        key = self.kwargs["user"]
        users = access.visible(User, self.request.user)
        if key.isdigit():
            user = users.filter(pk=int(key)).first()
        else:
            user = users.filter(username=key).first()
        if user is None:
            raise Http404
        return user

    def get_queryset(self):
        target = self.get_target_user()
        self.check_access("read_tokens_of", OAuth2AccessToken, target)
        qs = OAuth2AccessToken.objects.filter(user=target).select_related("user", "application")
        if self.personal:
            qs = qs.filter(application__isnull=True)
        return qs


class TokenDetail(ApiMixin, generics.RetrieveUpdateDestroyAPIView):
    model = OAuth2AccessToken
    serializer_class = TokenSerializer

    def get_queryset(self):
        return access.visible(OAuth2AccessToken, self.request.user).select_related("user", "application")

    def perform_update(self, serializer):
        self.check_access("change", serializer.instance)
        serializer.save()

    def perform_destroy(self, instance):
        self.check_access("delete", instance)
        instance.revoke()


# ---------------------------------------------------------------- settings

def _bool(name):
    def check(value):
        if not isinstance(value, bool):
            raise serializers.ValidationError("Must be a valid boolean.")
        return value

    return check


def _int(minimum, maximum):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise serializers.ValidationError("A valid integer is required.")
        if value < minimum:
            raise serializers.ValidationError("Ensure this value is greater than or equal to %d." % minimum)
        if value > maximum:
            raise serializers.ValidationError("Ensure this value is less than or equal to %d." % maximum)
        return value

    return check


AUTH_SETTINGS = {
    "AUTH_BASIC_ENABLED": _bool("AUTH_BASIC_ENABLED"),
    "ALLOW_OAUTH2_FOR_EXTERNAL_USERS": _bool("ALLOW_OAUTH2_FOR_EXTERNAL_USERS"),
    "SESSION_COOKIE_AGE": _int(60, 30000000000),
}
OAUTH2_KEYS = {
    "ACCESS_TOKEN_EXPIRE_SECONDS": _int(1, 31536000000 * 10),
    "REFRESH_TOKEN_EXPIRE_SECONDS": _int(1, 31536000000 * 10),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": _int(1, 31536000000 * 10),
}


class SettingsListView(ApiMixin, APIView):
    def get(self, request):
        from refsvc.conf.views import SETTING_CATEGORIES

        results = [{"url": "/api/v2/settings/%s/" % slug, "slug": slug, "name": name} for slug, name in SETTING_CATEGORIES]
        return Response({"count": len(results), "next": None, "previous": None, "results": results})


class AuthenticationSettingsView(ApiMixin, APIView):
    endpoint_access = "settings"

    def render_settings(self):
        values = runtime.refresh()
        data = {k: values[k] for k in AUTH_SETTINGS}
        data["OAUTH2_PROVIDER"] = {k: values[k] for k in OAUTH2_KEYS}
        data["SESSION_COOKIE_NAME"] = values["SESSION_COOKIE_NAME"]
        data["SESSIONS_PER_USER"] = -1
        data["DISABLE_LOCAL_AUTH"] = False
        data["AUTH_BASIC_ENABLED"] = values["AUTH_BASIC_ENABLED"]
        data["LOGIN_REDIRECT_OVERRIDE"] = ""
        return data

    def get(self, request):
        return Response(self.render_settings())

    def patch(self, request):
        errors = {}
        changes = {}
        data = request.data
        if not isinstance(data, dict):
            return Response({"detail": "Expected a JSON object."}, status=400)
        for key, value in data.items():
            if key in AUTH_SETTINGS:
                try:
                    changes[key] = AUTH_SETTINGS[key](value)
                except serializers.ValidationError as exc:
                    errors[key] = exc.detail
            elif key == "OAUTH2_PROVIDER":
                if not isinstance(value, dict):
                    errors[key] = ["Expected a dictionary of items but got type \"%s\"." % type(value).__name__]
                    continue
                for sub, subvalue in value.items():
                    if sub not in OAUTH2_KEYS:
                        errors.setdefault(key, []).append("Invalid key names: %s" % sub)
                        continue
                    try:
                        changes[sub] = OAUTH2_KEYS[sub](subvalue)
                    except serializers.ValidationError as exc:
                        errors.setdefault(key, []).extend(exc.detail)
            elif key in ("SESSIONS_PER_USER", "DISABLE_LOCAL_AUTH", "LOGIN_REDIRECT_OVERRIDE", "SESSION_COOKIE_NAME"):
                continue  # shown, but fixed here
            else:
                errors[key] = ["Unknown setting."]
        if errors:
            return Response(errors, status=400)
        runtime.store(changes)
        return Response(self.render_settings())

    def put(self, request):
        return self.patch(request)

    def delete(self, request):
        from .models import RuntimeSetting

        RuntimeSetting.objects.filter(key__in=list(AUTH_SETTINGS) + list(OAUTH2_KEYS)).delete()
        return Response(status=204)


def not_found(request, exception=None):
    return JsonResponse({"detail": "The requested resource could not be found."}, status=404)
