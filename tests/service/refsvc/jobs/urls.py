from django.urls import path

from . import unified, views

v2 = [
    ("projects/", views.ProjectList),
    ("projects/<int:pk>/", views.ProjectDetail),
    ("projects/<int:pk>/playbooks/", views.ProjectPlaybooks),
    ("job_templates/", views.JobTemplateList),
    ("job_templates/<int:pk>/", views.JobTemplateDetail),
    ("job_templates/<int:pk>/launch/", views.JobTemplateLaunch),
    ("job_templates/<int:pk>/jobs/", views.JobList),
    ("job_templates/<int:pk>/credentials/", views.RelatedCredentials),
    ("job_templates/<int:pk>/survey_spec/", views.JobTemplateSurveySpec),
    ("unified_job_templates/", unified.UnifiedJobTemplateList),
    ("jobs/", views.JobList),
    ("jobs/<int:pk>/", views.JobDetail),
    ("jobs/<int:pk>/stdout/", views.JobStdout),
    ("jobs/<int:pk>/cancel/", views.JobCancel),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2] + [
    path("api/v2/jobs/<int:pk>/credentials/", views.RelatedCredentials.as_view(parent_model=views.Job)),
]
