"""The gateway's own API (/api/, /api/gateway/, /api/gateway/v1/): its roots, login,
logout, me, and the users, organizations and teams it shares with the controller.
Tokens, applications and authenticators are django-ansible-base's views (urlconf.py)."""
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from ansible_base.oauth2_provider.permissions import OAuth2ScopePermission
from rest_framework import generics, permissions
from rest_framework.request import clone_request
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.rbac.models import Team
from refsvc.svc import access, login as controller_login
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import Organization
from refsvc.svc.views import ApiMixin, ApiRootView as ControllerApiRootView

from . import serializers as gs

V1 = gs.V1


class GatewayPermission(permissions.BasePermission):
    """Authenticated users; the view's access class decides who may send the method (``superuser``:
    all read, a superuser writes; the gateway's own RBAC is not modelled)."""

    def has_permission(self, request, view):
        if getattr(view, "anonymous_allowed", False):
            return True
        if not (request.user and request.user.is_authenticated):
            return False
        # django-ansible-base's scope check: a token of read scope cannot write.
        if not OAuth2ScopePermission().has_permission(request, view):
            return False
        return access.allows(request.user, "use", view.endpoint_access, request.method)


class GatewayMixin(ApiMixin):
    permission_classes = [GatewayPermission]
    endpoint_access = "superuser"

    def can_write_metadata(self, request, method):
        """OPTIONS lists the writable fields for whom GatewayPermission lets send ``method``."""
        return GatewayPermission().has_permission(clone_request(request, method), self)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["X-API-Product-Name"] = "Red Hat Ansible Automation Platform"
        if "X-API-Product-Version" in response:
            response["X-API-Product-Version"] = settings.GATEWAY_VERSION
        return response


class ApiRootView(GatewayMixin, APIView):
    """GET /api/ at the gateway names the APIs behind it; through /api/controller/ the
    same path (after the remount) is the controller's root."""

    anonymous_allowed = True

    def dispatch(self, request, *args, **kwargs):
        if getattr(request, "svc_controller", False):
            return ControllerApiRootView.as_view()(request, *args, **kwargs)
        return super().dispatch(request, *args, **kwargs)

    @method_decorator(ensure_csrf_cookie)
    def get(self, request):
        return Response({"apis": {"gateway": "/api/gateway/", "controller": "/api/controller/"}})


class GatewayRootView(GatewayMixin, APIView):
    anonymous_allowed = True

    def get(self, request):
        return Response(
            {
                "description": "AAP gateway REST API",
                "current_version": V1,
                "available_versions": {"v1": V1},
            }
        )


class GatewayV1RootView(GatewayMixin, APIView):
    anonymous_allowed = True

    def get(self, request):
        names = [
            "activitystream", "applications", "authenticator_maps", "authenticator_plugins", "authenticators",
            "feature_flags", "feature_flags_state", "login", "logout", "me", "organizations", "ping", "role_definitions", "role_team_assignments",
            "role_user_assignments", "settings", "status", "teams", "tokens", "users",
        ]
        from .routing import NAMES

        return Response({name: V1 + name + "/" for name in sorted(names + NAMES)})


class PingView(GatewayMixin, APIView):
    anonymous_allowed = True

    def get(self, request):
        return Response({"version": settings.GATEWAY_VERSION, "pong": True, "status": "good", "db_connected": True})


class JwtKeyView(APIView):
    """The public key of the tokens the gateway gives the services it forwards to (PEM), where
    django-ansible-base's jwt_consumer fetches it (``ANSIBLE_BASE_JWT_KEY`` the gateway's URL:
    ``<url>/api/gateway/v1/jwt_key/``, ``ansible_base/jwt_consumer/common/cert.py``)."""

    authentication_classes = []
    permission_classes = []

    def get(self, request):
        from django.http import Http404, HttpResponse

        from refsvc.gateway import controller

        if not controller.enabled():
            raise Http404
        return HttpResponse(controller.public_key(), content_type="text/plain")


# The login and logout pages: the controller's (a Django session login with CSRF), at the
# gateway's paths; the session cookie is the gateway's (gateway_sessionid).
def login_view(request):
    response = controller_login.login_view(request)
    if response.get("Content-Type", "").startswith("text/html"):
        response.content = response.content.replace(b'action="/api/login/"', b'action="%slogin/"' % V1.encode())
    return response


logout_view = controller_login.logout_view


class MeView(GatewayMixin, generics.ListAPIView):
    serializer_class = gs.UserSerializer

    def get_queryset(self):
        return get_user_model().objects.filter(pk=self.request.user.pk)


class _List(GatewayMixin, generics.ListCreateAPIView):
    filter_backends = [FieldLookupBackend]


class _Detail(GatewayMixin, generics.RetrieveUpdateDestroyAPIView):
    pass


class UserList(_List):
    serializer_class = gs.UserSerializer
    queryset = get_user_model().objects.order_by("id")


class UserDetail(_Detail):
    serializer_class = gs.UserSerializer
    queryset = get_user_model().objects.all()


class OrganizationList(_List):
    serializer_class = gs.OrganizationSerializer
    queryset = Organization.objects.order_by("id")


class OrganizationDetail(_Detail):
    serializer_class = gs.OrganizationSerializer
    queryset = Organization.objects.all()


class TeamList(_List):
    serializer_class = gs.TeamSerializer
    queryset = Team.objects.select_related("organization").order_by("id")


class TeamDetail(_Detail):
    serializer_class = gs.TeamSerializer
    queryset = Team.objects.select_related("organization")
