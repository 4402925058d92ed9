"""/api/eda/ and /api/eda/v1/ (the gateway layout installs this app; refsvc/urls.py serves its patterns). Another
app serves its own EDA paths the same way, ``path(V1 + "projects/", ...)`` in its ``urls.py``."""
from django.urls import path

from . import views

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
]

urlpatterns = [path("api/eda/", views.ApiRootView.as_view())] + [path(V1 + p, v.as_view()) for p, v in v1]
