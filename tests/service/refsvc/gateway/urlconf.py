"""URLs of the gateway layout: the gateway's API (/api/, /api/gateway/), the controller's
(served by the service's apps; refsvc.gateway.middleware moves it under /api/controller/)."""
from ansible_base.lib.dynamic_config import dynamic_urls
from django.conf import settings
from django.urls import include, path, re_path

from ansible_base.lib.utils.views.django_app_api import AnsibleBaseDjangoAppApiView
from refsvc import urls as controller_urls
from refsvc.rbac import access_lists as rbac_access_lists, gateway as rbac_gateway, service_index as rbac_service_index
from . import controller, feature_flags, hub, preferences, routing, sublists, views

gateway_v1 = [
    path("", views.GatewayV1RootView.as_view()),
    path("ping/", views.PingView.as_view()),
    path("jwt_key/", views.JwtKeyView.as_view()),
    path("jwt_claims/<str:user_ansible_id>/", views.JwtClaimsView.as_view()),
    path("status/", views.StatusView.as_view()),
    path("session/", views.SessionView.as_view()),
    path("app_urls/", views.AppUrlList.as_view()),
    path("login/", views.login_view),
    path("logout/", views.logout_view),
    path("me/", views.MeView.as_view()),
    path("users/", views.UserList.as_view()),
    path("users/<int:pk>/", views.UserDetail.as_view()),
    path("organizations/", views.OrganizationList.as_view()),
    path("organizations/<int:pk>/", views.OrganizationDetail.as_view()),
    path("teams/", views.TeamList.as_view()),
    path("teams/<int:pk>/", views.TeamDetail.as_view()),
    *views.membership_urls(),
    path("authenticator_users/", views.AuthenticatorUserList.as_view()),
    path("authenticator_users/<int:pk>/", views.AuthenticatorUserDetail.as_view()),
    path("authenticator_users/<int:pk>/move/", views.AuthenticatorUserMove.as_view()),
    # django-ansible-base's RBAC API, answered by the service's rbac views over the controller's rows.
    *[path(p, v.as_view()) for p, v in rbac_gateway.URLS],
    # Who has access to an object (refsvc/rbac/access_lists.py).
    *rbac_access_lists.URLS,
    # The gateway's routing (refsvc/gateway/routing.py).
    *routing.URLS,
    # Its settings and the platform's feature flags (refsvc/gateway/preferences.py, feature_flags.py).
    *preferences.URLS,
    *feature_flags.URLS,
    # The schema's read-only sub-lists (refsvc/gateway/sublists.py).
    *sublists.URLS,
    # django-ansible-base's resource registry: service-index/ (refsvc/gateway/resource_api.py), and the
    # RBAC part of the index over the service's rbac (refsvc/rbac/service_index.py).
    path("", include("ansible_base.resource_registry.urls")),
    *rbac_service_index.URLS,
    # django-ansible-base's own: applications/, tokens/ (oauth2_provider), authenticators/,
    # authenticator_maps/, authenticator_plugins/ (authentication).
    path("", include(dynamic_urls.api_version_urls)),
]

urlpatterns = [
    path("api/", views.ApiRootView.as_view()),
    path("api/gateway/", views.GatewayRootView.as_view()),
    path("api/gateway/v1/", include(gateway_v1)),
    path("role_metadata/", rbac_gateway.RoleMetadata.as_view()),
    # django-ansible-base's /o/ views (token, authorize, revoke_token) under the gateway's API.
    path("api/gateway/v1/", include(dynamic_urls.root_urls)),
    # ... and at the root, where the platform's 2.6 gateway schema lists o/ (its 2.7 schema lists neither).
    path("", include(dynamic_urls.root_urls)),
    # Single sign-on through the authenticators: social_django's views (refsvc/gateway/sso_urls.py).
    path("api/gateway/social/", include("refsvc.gateway.sso_urls", namespace="social")),
] + [p for p in controller_urls.urlpatterns if str(p.pattern) not in ("api/", "sso/")]
if settings.GATEWAY_CONTROLLER:
    # A real controller behind the gateway answers everything under /api/controller/.
    urlpatterns.insert(0, re_path(r"^api/controller/", controller.ControllerProxyView.as_view()))
if settings.GATEWAY_HUB:
    # A real Hub behind the gateway answers its API, its registry and its content (refsvc/gateway/hub.py).
    urlpatterns[0:0] = [re_path("^" + prefix.lstrip("/"), hub.HubProxyView.as_view())
                        for prefix in hub.API_PATHS + hub.CONTENT_PATHS]

handler404 = controller_urls.handler404


# The platform's gateway filters its lists with django-ansible-base's filter backends
# (?description=..., ?name__icontains=...), its default ones (ansible_base.rest_filters). Here the
# controller's views keep the service's defaults, so django-ansible-base's own list views, imported
# by the includes above, get them directly (a ModelViewSet takes the default filter backends before
# django-ansible-base's base view can give its own).
def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


for _view in _subclasses(AnsibleBaseDjangoAppApiView):
    if not _view.filter_backends:
        _view.filter_backends = list(AnsibleBaseDjangoAppApiView.filter_backends)
