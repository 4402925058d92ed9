from django.urls import path

from . import views

v2 = [
    ("workflow_job_templates/<int:pk>/launch/", views.WorkflowJobTemplateLaunch.as_view()),
    ("workflow_job_templates/<int:pk>/workflow_jobs/", views.WorkflowJobList.as_view()),
    ("workflow_jobs/", views.WorkflowJobList.as_view()),
    ("workflow_jobs/<int:pk>/", views.WorkflowJobDetail.as_view()),
    ("workflow_jobs/<int:pk>/cancel/", views.WorkflowJobCancel.as_view()),
    ("workflow_jobs/<int:pk>/workflow_nodes/", views.WorkflowJobNodeList.as_view()),
    ("workflow_job_nodes/", views.WorkflowJobNodeList.as_view()),
    ("workflow_job_nodes/<int:pk>/", views.WorkflowJobNodeDetail.as_view()),
    ("workflow_approvals/", views.WorkflowApprovalList.as_view()),
    ("workflow_approvals/<int:pk>/", views.WorkflowApprovalDetail.as_view()),
    ("workflow_approvals/<int:pk>/approve/", views.WorkflowApprovalDecision.as_view(outcome="successful")),
    ("workflow_approvals/<int:pk>/deny/", views.WorkflowApprovalDecision.as_view(outcome="failed")),
] + [
    ("workflow_job_nodes/<int:pk>/%s/" % rel, views.WorkflowJobNodeChildren.as_view(relationship=rel))
    for rel in ("success_nodes", "failure_nodes", "always_nodes")
]

urlpatterns = [path("api/v2/" + p, view) for p, view in v2]
