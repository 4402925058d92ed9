"""The gateway's own API (/api/, /api/gateway/, /api/gateway/v1/): its roots, login,
logout, me, and the users, organizations and teams it shares with the controller.
Tokens, applications and authenticators are django-ansible-base's views (urlconf.py)."""
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from ansible_base.oauth2_provider.permissions import OAuth2ScopePermission
from rest_framework import generics, permissions, serializers as drf_serializers, viewsets
from rest_framework.request import clone_request
from rest_framework.response import Response
from rest_framework.views import APIView

from refsvc.rbac.models import Team
from refsvc.svc import access, login as controller_login
from refsvc.svc.filters import FieldLookupBackend
from refsvc.svc.models import Organization
from refsvc.svc.views import ApiMixin, ApiRootView as ControllerApiRootView

from . import hub, serializers as gs

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

    # The fields are the published schemas' (api_root_view: description and apis, both required); the text of
    # the description is not known from any source here and is chosen. With a real Hub behind the gateway
    # (refsvc/gateway/hub.py) the Hub is listed as "galaxy": its path is the platform's (/api/galaxy/), the
    # key is chosen (django-ansible-base's service type of the Hub is "galaxy"; no source here shows a real
    # gateway's answer with its Hub).
    @method_decorator(ensure_csrf_cookie)
    def get(self, request):
        apis = {"gateway": "/api/gateway/", "controller": "/api/controller/"}
        if hub.enabled():
            apis["galaxy"] = "/api/galaxy/"
        return Response({"description": "AAP gateway REST API", "apis": apis})


class GatewayRootView(GatewayMixin, APIView):
    """The published schemas' api_gateway_root_view: current_version and available_versions only."""

    anonymous_allowed = True

    def get(self, request):
        return Response({"current_version": V1, "available_versions": {"v1": V1}})


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
        """The 2.7 schema's ``Ping``: ``pong`` the time (a date-time), the database's and the proxy's state. The
        reference gateway has no proxy of its own: it answers for itself (connected, 200); the exception fields
        are empty when there is none."""
        from django.db import connection
        from django.utils import timezone

        try:
            connection.ensure_connection()
            db_connected, db_exception = True, ""
        except Exception as exc:
            db_connected, db_exception = False, type(exc).__name__
        return Response({"version": settings.GATEWAY_VERSION, "pong": timezone.now().isoformat(),
                         "status": "good" if db_connected else "failed", "db_connected": db_connected,
                         "db_exception": db_exception, "proxy_connected": True, "proxy_status_code": 200,
                         "proxy_exception_type": ""})


class JwtClaimsView(GatewayMixin, APIView):
    """The claims of the gateway's token for the user of an ansible_id (the schemas' jwt_claims/{user_ansible_id}/,
    "accessible by service tokens or superusers": a superuser here), the token's times (iat, exp) left out; 404 for
    an id of no user."""

    def get(self, request, user_ansible_id):
        from ansible_base.resource_registry.models import Resource
        from django.http import Http404

        from rest_framework.exceptions import PermissionDenied

        from refsvc.gateway import controller

        if not request.user.is_superuser:
            raise PermissionDenied
        try:
            wanted = uuid.UUID(user_ansible_id)
        except ValueError:
            raise Http404
        resource = Resource.objects.filter(ansible_id=wanted, content_type__resource_type__name="shared.user").first()
        user = resource.content_object if resource is not None else None
        if user is None:
            raise Http404
        return Response(controller.claims_for(user))


class JwtKeyView(APIView):
    """The public key of the tokens the gateway gives the services it forwards to (PEM, as text), where
    django-ansible-base's jwt_consumer fetches it (``ANSIBLE_BASE_JWT_KEY`` the gateway's URL:
    ``<url>/api/gateway/v1/jwt_key/``, ``ansible_base/jwt_consumer/common/cert.py``, which reads the
    answer's text). Every gateway has its key pair (svcctl makes it at start)."""

    authentication_classes = []
    permission_classes = []

    def get(self, request):
        from django.http import HttpResponse

        from refsvc.gateway import controller

        return HttpResponse(controller.public_key(), content_type="text/plain")


class StatusView(GatewayMixin, APIView):
    """The status of the platform's services (the 2.7 schema's ``Status``): the gateway's overall
    ``status``, the ``time`` and one entry per service cluster of its routing with its nodes
    (``?service_keys=true``: a dictionary by service name instead of a list). The reference gateway
    does not probe its nodes: a node is ``good``."""

    def get(self, request):
        from django.utils import timezone

        from .models import ServiceCluster

        services = []
        for cluster in ServiceCluster.objects.select_related("service_type").prefetch_related("nodes").order_by("id"):
            nodes = {node.name: {"status": "good", "url": node.address} for node in cluster.nodes.order_by("id")}
            services.append({"service_name": cluster.service_type.name, "status": "good", "nodes": nodes})
        if request.query_params.get("service_keys", "").lower() in ("1", "true", "yes"):
            services = {service["service_name"]: service for service in services}
        return Response({"status": "good", "time": timezone.now().isoformat(), "services": services})


@access.register("own_session")
class OwnSessionAccess(access.Access):
    """The caller's own session: every signed-in user reads and extends it."""

    def can_use(self, user, method):
        return True


class SessionView(GatewayMixin, APIView):
    """The caller's session (the 2.7 schema's ``session_view``): GET its time left, POST extends it by
    ``SESSION_COOKIE_AGE``; a request authenticated otherwise (a token, Basic) has no session: 404."""

    endpoint_access = "own_session"

    def _session(self, request):
        from django.http import Http404

        session = getattr(request._request, "session", None)
        # a session that holds the signed-in user (a token's or Basic's request has none of its own)
        if session is None or not session.session_key or session.get("_auth_user_id") != str(request.user.pk):
            raise Http404
        return session

    def get(self, request):
        from django.utils import timezone

        session = self._session(request)
        now = timezone.now()
        expires = session.get_expiry_date()
        return Response({"now": now.isoformat(), "expires_on": expires.isoformat(),
                         "expires_in_seconds": max(0, int((expires - now).total_seconds()))})

    def post(self, request):
        session = self._session(request)
        session.set_expiry(None)
        session.modified = True
        return Response({"message": "Session extended."})


class AppUrlList(GatewayMixin, generics.ListAPIView):
    """The OAuth2 applications' names and URLs (the 2.7 schema's ``AppUrl``), for any signed-in user."""

    serializer_class = gs.AppUrlSerializer
    filter_backends = [FieldLookupBackend]

    def get_queryset(self):
        from ansible_base.oauth2_provider.models import OAuth2Application

        return OAuth2Application.objects.order_by("id")


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


class UserViewSet(GatewayMixin, viewsets.ReadOnlyModelViewSet):
    """The users as a view set, for django-ansible-base's ``authenticators/<id>/users/``
    (``ANSIBLE_BASE_USER_VIEWSET``, ``ansible_base/authentication/views/authenticator_users.py``)."""

    serializer_class = gs.UserSerializer
    queryset = get_user_model().objects.order_by("id")
    filter_backends = [FieldLookupBackend]


class UserDetail(_Detail):
    serializer_class = gs.UserSerializer
    queryset = get_user_model().objects.all()


class _DescribedList(_List):
    """Organizations and teams: while the gateway keeps their descriptions apart
    (``serializers.descriptions_apart``), a filter on ``description`` (and its lookups, such as
    ``description__icontains``) is one on the descriptions it shows."""

    def _description_filters(self):
        if not gs.descriptions_apart():
            return []
        return [key for key in self.request.query_params if key == "description" or key.startswith("description__")]

    @property
    def rest_filters_reserved_names(self):
        return self._description_filters()

    def get_queryset(self):
        from refsvc.gateway.models import SharedDescription

        queryset = super().get_queryset()
        for key in self._description_filters():
            for value in self.request.query_params.getlist(key):
                kept = SharedDescription.objects.filter(kind=queryset.model._meta.model_name, **{key: value})
                queryset = queryset.filter(pk__in=kept.values("object_id"))
        return queryset


class OrganizationList(_DescribedList):
    serializer_class = gs.OrganizationSerializer
    queryset = Organization.objects.order_by("id")


class OrganizationDetail(_Detail):
    serializer_class = gs.OrganizationSerializer
    queryset = Organization.objects.all()


class TeamList(_DescribedList):
    serializer_class = gs.TeamSerializer
    queryset = Team.objects.select_related("organization").order_by("id")


class TeamDetail(_Detail):
    serializer_class = gs.TeamSerializer
    queryset = Team.objects.select_related("organization")


# ---------------------------------------------------------------- the memberships' sub-lists
# An organization's users and admins, a team's users and admins (the 2.7 schema's
# organizations/<id>/users/, .../admins/, teams/<id>/users/, .../admins/, each with associate/ and
# disassociate/), and an organization's teams, a user's organizations and teams (lists only). As
# django-ansible-base's association router answers them (ansible_base/lib/routers/
# association_resource_router.py): POST {"instances": [ids]} to associate/ or disassociate/, 204; an
# empty list 400; a disassociated id that is not in the relation 400. The memberships are the
# controller's (an organization's members and admins, a team's member and admin roles), mirrored with
# the role assignments (refsvc/rbac/gateway.py).

def _team_role(field):
    from refsvc.rbac import registry

    return lambda team: registry.roles_of(team)[field].members


MEMBERSHIPS = {
    # (parent model, relation name): the users' manager of a parent
    (Organization, "users"): lambda org: org.members,
    (Organization, "admins"): lambda org: org.admins,
    (Team, "users"): _team_role("member_role"),
    (Team, "admins"): _team_role("admin_role"),
}


class _SubList(GatewayMixin, generics.ListAPIView):
    parent_model = None
    filter_backends = [FieldLookupBackend]

    def parent(self):
        from django.shortcuts import get_object_or_404

        return get_object_or_404(self.parent_model, pk=self.kwargs["pk"])


class MembersList(_SubList):
    """The users of a membership (``relation``: users, admins) of an organization or a team."""

    serializer_class = gs.UserSerializer
    relation = None

    def get_queryset(self):
        return MEMBERSHIPS[(self.parent_model, self.relation)](self.parent()).all().order_by("id")


class _InstancesSerializer:
    @staticmethod
    def instances(request, queryset):
        from rest_framework import serializers as drf

        field = drf.PrimaryKeyRelatedField(queryset=queryset, many=True)
        data = request.data.get("instances") if isinstance(request.data, dict) else None
        if data is None:
            raise drf.ValidationError({"instances": ["This field is required."]})
        try:
            found = field.run_validation(data)
        except drf.ValidationError as exc:
            raise drf.ValidationError({"instances": exc.detail})
        return found


class _Instances(drf_serializers.Serializer):
    """What associate/ and disassociate/ take: {"instances": [ids]} (the schemas' UserAssociate), as OPTIONS
    describes it."""

    instances = drf_serializers.ListField(child=drf_serializers.IntegerField())


class MembersChange(GatewayMixin, generics.GenericAPIView):
    """POST {"instances": [user ids]} adds them to (``associate``) or removes them from the membership."""

    serializer_class = _Instances
    http_method_names = ["post", "options"]
    parent_model = None
    relation = None
    associate = True

    def post(self, request, pk):
        from django.shortcuts import get_object_or_404
        from rest_framework import serializers as drf, status

        manager = MEMBERSHIPS[(self.parent_model, self.relation)](get_object_or_404(self.parent_model, pk=pk))
        queryset = get_user_model().objects.all() if self.associate else manager.all()
        users = _InstancesSerializer.instances(request, queryset)
        if not users:
            raise drf.ValidationError({"instances": "Please pass in one or more instances to %s"
                                       % ("associate" if self.associate else "disassociate")})
        (manager.add if self.associate else manager.remove)(*users)
        return Response(status=status.HTTP_204_NO_CONTENT)


class OrganizationTeamsList(_SubList):
    parent_model = Organization
    serializer_class = gs.TeamSerializer

    def get_queryset(self):
        return Team.objects.filter(organization=self.parent()).select_related("organization").order_by("id")


class UserOrganizationsList(_SubList):
    """The organizations a user is a member of."""

    parent_model = get_user_model()
    serializer_class = gs.OrganizationSerializer

    def get_queryset(self):
        return Organization.objects.filter(members=self.parent()).order_by("id")


class UserTeamsList(_SubList):
    """The teams a user is a member of (the member role of the team)."""

    parent_model = get_user_model()
    serializer_class = gs.TeamSerializer

    def get_queryset(self):
        from django.contrib.contenttypes.models import ContentType

        from refsvc.rbac.models import Role

        roles = Role.objects.filter(content_type=ContentType.objects.get_for_model(Team), role_field="member_role",
                                    members=self.parent())
        return Team.objects.filter(pk__in=roles.values("object_id")).select_related("organization").order_by("id")


def membership_urls():
    from django.urls import path

    urls = []
    for (model, relation) in MEMBERSHIPS:
        kind = "organizations" if model is Organization else "teams"
        attrs = {"parent_model": model, "relation": relation}
        urls.append(path("%s/<int:pk>/%s/" % (kind, relation), MembersList.as_view(**attrs)))
        for verb in ("associate", "disassociate"):
            urls.append(path("%s/<int:pk>/%s/%s/" % (kind, relation, verb),
                             MembersChange.as_view(associate=verb == "associate", **attrs)))
    urls += [
        path("organizations/<int:pk>/teams/", OrganizationTeamsList.as_view()),
        path("users/<int:pk>/organizations/", UserOrganizationsList.as_view()),
        path("users/<int:pk>/teams/", UserTeamsList.as_view()),
    ]
    return urls


# ---------------------------------------------------------------- the users' links to authenticators

class _AuthenticatorUsers(GatewayMixin):
    """The users' links to the authenticators they log in through (django-ansible-base's AuthenticatorUser),
    read by superusers and system auditors (as django-ansible-base's IsSuperuserOrAuditor)."""

    endpoint_access = "settings"
    serializer_class = gs.AuthenticatorUserSerializer
    filter_backends = [FieldLookupBackend]

    def get_queryset(self):
        from ansible_base.authentication.models import AuthenticatorUser

        return AuthenticatorUser.objects.select_related("provider", "user").order_by("id")


class AuthenticatorUserList(_AuthenticatorUsers, generics.ListAPIView):
    pass


class AuthenticatorUserDetail(_AuthenticatorUsers, generics.RetrieveAPIView):
    pass


class AuthenticatorUserMove(GatewayMixin, generics.GenericAPIView):
    """POST moves a user's link to another authenticator (the 2.6 and 2.7 schemas' ``authenticator_users/<id>/move/``),
    a superuser's action; the answer repeats the body, as the schemas describe it."""

    endpoint_access = "settings"
    serializer_class = gs.AuthenticatorUserMoveSerializer

    def get_queryset(self):
        from ansible_base.authentication.models import AuthenticatorUser

        return AuthenticatorUser.objects.select_related("provider", "user")

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if self.request.method == "POST":
            context["link"] = self.get_object()
        return context

    def post(self, request, pk):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.move())
