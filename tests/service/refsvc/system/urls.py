from django.urls import path

from . import views

v2 = [
    ("system_job_templates/", views.SystemJobTemplateList),
    ("system_job_templates/<int:pk>/", views.SystemJobTemplateDetail),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2]
