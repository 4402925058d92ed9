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
    ("tokens/", views.TokenList),
    ("tokens/<int:pk>/", views.TokenDetail),
    ("applications/", applications.ApplicationList),
    ("applications/<int:pk>/", applications.ApplicationDetail),
    ("applications/<int:pk>/tokens/", applications.ApplicationTokenList),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2] + [
    path("api/v2/organizations/<int:pk>/admins/", views.OrganizationUsersView.as_view(relation="admins")),
    path("api/v2/users/<str:user>/tokens/", views.UserTokenList.as_view()),
    path("api/v2/users/<str:user>/personal_tokens/", views.UserTokenList.as_view(personal=True)),
    path("api/", views.ApiRootView.as_view()),
] + oauth2.urls() + [
    path("api/login/", login.login_view),
    path("api/logout/", login.logout_view),
    path("accounts/profile/", login.profile_view),
    path("", login.ui_view),
]
