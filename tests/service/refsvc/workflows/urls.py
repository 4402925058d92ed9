from django.urls import path

from . import views

v2 = [
    ("workflow_job_templates/", views.WorkflowJobTemplateList),
    ("workflow_job_templates/<int:pk>/", views.WorkflowJobTemplateDetail),
    ("workflow_job_templates/<int:pk>/survey_spec/", views.WorkflowJobTemplateSurveySpec),
    ("workflow_job_templates/<int:pk>/workflow_nodes/", views.WorkflowNodes),
    ("workflow_job_templates/<int:pk>/labels/", views.WorkflowLabels),
    ("workflow_job_template_nodes/", views.NodeList),
    ("workflow_job_template_nodes/<int:pk>/", views.NodeDetail),
    ("workflow_job_template_nodes/<int:pk>/credentials/", views.NodeCredentials),
    ("workflow_job_template_nodes/<int:pk>/labels/", views.NodeLabels),
    ("workflow_job_template_nodes/<int:pk>/instance_groups/", views.NodeInstanceGroups),
    ("workflow_job_template_nodes/<int:pk>/create_approval_template/", views.NodeCreateApproval),
    ("workflow_approval_templates/<int:pk>/", views.ApprovalTemplateDetail),
]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2] + [
    path("api/v2/workflow_job_templates/<int:pk>/notification_templates_%s/" % event,
         views.WorkflowNotificationTemplates.as_view(relation="notification_templates_" + event))
    for event in ("started", "success", "error", "approvals")
] + [
    path("api/v2/workflow_job_template_nodes/<int:pk>/%s/" % rel, views.NodeChildren.as_view(relationship=rel))
    for rel in views.RELATIONSHIPS
]
