"""/api/eda/v1/ projects, rulebooks, activations, activation instances, event streams and
audit rules (the gateway layout installs this app after the EDA app)."""
from django.urls import path

from . import views

V1 = "api/eda/v1/"

v1 = [
    ("projects/", views.ProjectList),
    ("projects/<int:pk>/", views.ProjectDetail),
    ("projects/<int:pk>/sync/", views.ProjectSync),
    ("rulebooks/", views.RulebookList),
    ("rulebooks/<int:pk>/", views.RulebookDetail),
    ("rulebooks/<int:pk>/json/", views.RulebookJson),
    ("rulebooks/<int:pk>/sources/", views.RulebookSources),
    ("activations/", views.ActivationList),
    ("activations/<int:pk>/", views.ActivationDetail),
    ("activations/<int:pk>/instances/", views.ActivationInstances),
    ("activation-instances/", views.ActivationInstanceList),
    ("activation-instances/<int:pk>/", views.ActivationInstanceDetail),
    ("activation-instances/<int:pk>/logs/", views.ActivationInstanceLogs),
    ("event-streams/", views.EventStreamList),
    ("event-streams/<int:pk>/", views.EventStreamDetail),
    ("event-streams/<int:pk>/activations/", views.EventStreamActivations),
    ("audit-rules/", views.AuditRuleList),
    ("audit-rules/<int:pk>/", views.AuditRuleDetail),
    ("audit-rules/<int:pk>/actions/", views.AuditRuleActions),
    ("audit-rules/<int:pk>/events/", views.AuditRuleEvents),
]

urlpatterns = [path(V1 + p, v.as_view()) for p, v in v1]
urlpatterns += [path(V1 + "activations/<int:pk>/%s/" % name, views.ActivationAction.as_view(action=name))
                for name in ("enable", "disable", "restart", "copy")]
