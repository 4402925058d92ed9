from django.urls import path

from . import registry, views

v2 = [
    ("teams/", views.TeamList),
    ("teams/<int:pk>/", views.TeamDetail),
    ("teams/<int:pk>/users/", views.TeamUsers),
    ("teams/<int:pk>/roles/", views.TeamRoles),
    ("organizations/<int:pk>/teams/", views.OrganizationTeams),
    ("users/<int:pk>/roles/", views.UserRoles),
    ("roles/", views.RoleList),
    ("roles/<int:pk>/", views.RoleDetail),
    ("roles/<int:pk>/users/", views.RoleUsers),
    ("roles/<int:pk>/teams/", views.RoleTeams),
    ("role_definitions/", views.RoleDefinitionList),
    ("role_definitions/<int:pk>/", views.RoleDefinitionDetail),
    ("role_user_assignments/", views.RoleUserAssignmentList),
    ("role_user_assignments/<int:pk>/", views.RoleUserAssignmentDetail),
    ("role_team_assignments/", views.RoleTeamAssignmentList),
    ("role_team_assignments/<int:pk>/", views.RoleTeamAssignmentDetail),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2]
urlpatterns += [
    path("api/v2/%s/<int:pk>/object_roles/" % kind.url, views.ObjectRoles.as_view(parent_model=kind.model))
    for kind in registry.KINDS if kind.role_fields
]
