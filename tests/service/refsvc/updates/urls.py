from django.urls import path

from . import views
from .models import InventoryUpdate, ProjectUpdate

P, I = {"model": ProjectUpdate}, {"model": InventoryUpdate}

urlpatterns = [path("api/v2/" + p, view.as_view(**kwargs)) for p, view, kwargs in (
    ("projects/<int:pk>/update/", views.StartUpdate, {"kind": "project_update"}),
    ("projects/<int:parent>/project_updates/", views.UpdateList, P),
    ("project_updates/", views.UpdateList, P),
    ("project_updates/<int:pk>/", views.UpdateDetail, P),
    ("project_updates/<int:pk>/cancel/", views.UpdateCancel, P),
    ("project_updates/<int:pk>/stdout/", views.UpdateStdout, P),
    ("inventory_sources/<int:pk>/update/", views.StartUpdate, {"kind": "inventory_update"}),
    ("inventory_sources/<int:parent>/inventory_updates/", views.UpdateList, I),
    ("inventory_updates/", views.UpdateList, I),
    ("inventory_updates/<int:pk>/", views.UpdateDetail, I),
    ("inventory_updates/<int:pk>/cancel/", views.UpdateCancel, I),
    ("inventory_updates/<int:pk>/stdout/", views.UpdateStdout, I),
)]
