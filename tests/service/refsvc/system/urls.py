from django.urls import path

from . import views

v2 = [
    ("system_job_templates/", views.SystemJobTemplateList),
    ("system_job_templates/<int:pk>/", views.SystemJobTemplateDetail),
    ("system_job_templates/<int:pk>/launch/", views.SystemJobTemplateLaunch),
    ("system_job_templates/<int:pk>/jobs/", views.SystemJobList),
    ("system_jobs/", views.SystemJobList),
    ("system_jobs/<int:pk>/", views.SystemJobDetail),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2]
