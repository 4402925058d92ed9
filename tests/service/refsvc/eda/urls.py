"""/api/eda/ and /api/eda/v1/ (the gateway layout installs this app; refsvc/urls.py serves its patterns). Another
app serves its own EDA paths the same way, ``path(V1 + "projects/", ...)`` in its ``urls.py``."""
from django.urls import include, path

from refsvc.gateway import feature_flags, sublists
from refsvc.rbac import access_lists as rbac_access_lists, gateway as rbac_gateway, service_index as rbac_service_index

from . import rbac, views

V1 = "api/eda/v1/"

v1 = [
    ("", views.ApiV1RootView),
    ("organizations/", views.OrganizationList),
    ("organizations/<int:pk>/", views.OrganizationDetail),
    ("organizations/<int:pk>/teams/", views.OrganizationTeams),
    ("teams/", views.TeamList),
    ("teams/<int:pk>/", views.TeamDetail),
    ("users/", views.UserList),
    ("users/me/", views.CurrentUser),
    ("users/me/awx-tokens/", views.AwxTokenList),
    ("users/me/awx-tokens/<int:pk>/", views.AwxTokenDetail),
    ("users/<int:pk>/", views.UserDetail),
    ("credential-types/", views.CredentialTypeList),
    ("credential-types/<int:pk>/", views.CredentialTypeDetail),
    ("credential-types/<int:pk>/test/", views.CredentialTypeTest),
    ("eda-credentials/", views.EdaCredentialList),
    ("eda-credentials/<int:pk>/", views.EdaCredentialDetail),
    ("eda-credentials/<int:pk>/copy/", views.EdaCredentialCopy),
    ("eda-credentials/<int:pk>/test/", views.EdaCredentialTest),
    ("eda-credentials/<int:pk>/input_sources/", views.EdaCredentialInputSources),
    ("credential-input-sources/", views.CredentialInputSourceList),
    ("credential-input-sources/<int:pk>/", views.CredentialInputSourceDetail),
    ("decision-environments/", views.DecisionEnvironmentList),
    ("decision-environments/<int:pk>/", views.DecisionEnvironmentDetail),
    ("auth/session/login/", views.SessionLogin),
    ("auth/session/logout/", views.SessionLogout),
    ("auth/token/refresh/", views.TokenRefresh),
    ("config/", views.ConfigView),
    ("status/", views.StatusView),
    ("service-index/", views.ServiceIndexRoot),
    ("service-index/metadata/", views.ServiceMetadata),
    # the platform's feature flags, as the gateway reads them (refsvc/gateway/feature_flags.py; one database)
    ("feature_flags_state/", feature_flags.OldStatesView),
    ("feature_flags/states/", views.only_from("2.7", feature_flags.StatesList)),
    ("feature_flags/states/<str:key>/", views.only_from("2.7", feature_flags.StateDetail)),
    # django-ansible-base's RBAC API over the service's role definitions and assignments, as the gateway serves it
    # (refsvc/rbac/gateway.py), EDA's definitions only (rbac.py)
    *[(p, rbac.at_eda(v)) for p, v in rbac_gateway.URLS],
    ("role_metadata/", rbac_gateway.RoleMetadata),
    ("role_definitions/<int:pk>/user_assignments/",
     rbac.at_eda(sublists._assignments_of_definition(sublists._rbac_view("role_user_assignments/")))),
    ("role_definitions/<int:pk>/team_assignments/",
     rbac.at_eda(sublists._assignments_of_definition(sublists._rbac_view("role_team_assignments/")))),
]

urlpatterns = [path("api/eda/", views.ApiRootView.as_view())] + [path(V1 + p, v.as_view()) for p, v in v1] + [
    # who has access to an object (refsvc/rbac/access_lists.py), and django-ansible-base's resource registry with its
    # RBAC part, as at the gateway (refsvc/gateway/urlconf.py)
    path(V1, include(rbac_access_lists.URLS)),
    # (under a namespace of its own: django-ansible-base's views reverse their URL names, which stay the gateway's)
    path(V1, include(("ansible_base.resource_registry.urls", "eda_registry"))),
    path(V1, include(rbac_service_index.URLS)),
]
