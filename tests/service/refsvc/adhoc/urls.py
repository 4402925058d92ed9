from django.urls import path

from . import views

v2 = [
    ("ad_hoc_commands/", views.AdHocCommandList),
    ("ad_hoc_commands/<int:pk>/", views.AdHocCommandDetail),
    ("ad_hoc_commands/<int:pk>/stdout/", views.AdHocCommandStdout),
    ("ad_hoc_commands/<int:pk>/cancel/", views.AdHocCommandCancel),
    ("ad_hoc_commands/<int:pk>/relaunch/", views.AdHocCommandRelaunch),
    ("inventories/<int:pk>/ad_hoc_commands/", views.InventoryAdHocCommandList),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2]
