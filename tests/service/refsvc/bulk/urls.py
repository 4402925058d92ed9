from django.urls import path

from . import views

urlpatterns = [
    path("api/v2/bulk/", views.BulkRoot.as_view()),
    path("api/v2/bulk/host_create/", views.HostCreate.as_view()),
    path("api/v2/bulk/host_delete/", views.HostDelete.as_view()),
    path("api/v2/bulk/job_launch/", views.JobLaunch.as_view()),
]
