from django.conf import settings
from django.urls import path, re_path

from . import applications, login, oauth2, views

v2 = [
    ("", views.ApiV2RootView),
    ("ping/", views.PingView),
    ("config/", views.ConfigView),
    ("me/", views.MeView),
    ("settings/", views.SettingsListView),
    ("settings/authentication/", views.AuthenticationSettingsView),
    ("users/", views.UserList),
    ("users/<int:pk>/", views.UserDetail),
    ("organizations/", views.OrganizationList),
    ("organizations/<int:pk>/", views.OrganizationDetail),
    ("organizations/<int:pk>/users/", views.OrganizationUsersView),
    ("inventories/", views.InventoryList),
    ("inventories/<int:pk>/", views.InventoryDetail),
    ("inventories/<int:pk>/hosts/", views.InventoryHostList),
    ("hosts/", views.HostList),
    ("hosts/<int:pk>/", views.HostDetail),
    ("credential_types/", views.CredentialTypeList),
    ("credential_types/<int:pk>/", views.CredentialTypeDetail),
    ("credentials/", views.CredentialList),
    ("credentials/<int:pk>/", views.CredentialDetail),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2] + [
    path("api/v2/organizations/<int:pk>/admins/", views.OrganizationUsersView.as_view(relation="admins")),
    path("api/", views.ApiRootView.as_view()),
]
# The controller's own OAuth2 provider, unless the layout gives OAuth2 to the gateway (CONTROLLER_OAUTH2).
if settings.CONTROLLER_OAUTH2:
    urlpatterns += [
        path("api/v2/tokens/", views.TokenList.as_view()),
        path("api/v2/tokens/<int:pk>/", views.TokenDetail.as_view()),
        path("api/v2/applications/", applications.ApplicationList.as_view()),
        path("api/v2/applications/<int:pk>/", applications.ApplicationDetail.as_view()),
        path("api/v2/applications/<int:pk>/tokens/", applications.ApplicationTokenList.as_view()),
        path("api/v2/users/<str:user>/tokens/", views.UserTokenList.as_view()),
        path("api/v2/users/<str:user>/personal_tokens/", views.UserTokenList.as_view(personal=True)),
    ] + oauth2.urls()
urlpatterns += [
    path("api/login/", login.login_view),
    path("api/logout/", login.logout_view),
    path("accounts/profile/", login.profile_view),
    path("", login.ui_view),
]
