from django.urls import path

from refsvc.jobs.models import JobTemplate, Project
from refsvc.svc.models import Inventory, Organization
from refsvc.workflows.models import WorkflowJobTemplate

from . import copying, script, views
from .models import InventorySource
from . import views
from .models import InventorySource, Schedule

v2 = [
    ("labels/", views.LabelList),
    ("labels/<int:pk>/", views.LabelDetail),
    ("groups/", views.GroupList),
    ("groups/<int:pk>/", views.GroupDetail),
    ("groups/<int:pk>/children/", views.GroupChildren),
    ("groups/<int:pk>/hosts/", views.GroupHosts),
    ("groups/<int:pk>/all_hosts/", views.GroupAllHosts),
    ("groups/<int:pk>/potential_children/", views.GroupPotentialChildren),
    ("hosts/<int:pk>/groups/", views.HostGroups),
    ("inventories/<int:pk>/groups/", views.InventoryGroups),
    ("inventories/<int:pk>/inventory_sources/", views.InventorySources),
    ("inventories/<int:pk>/instance_groups/", views.InventoryInstanceGroups),
    ("inventories/<int:pk>/script/", script.InventoryScript),
    ("job_templates/<int:pk>/instance_groups/", views.JobTemplateInstanceGroups),
    ("inventories/<int:pk>/input_inventories/", views.InventoryInputInventories),
    ("inventory_sources/", views.InventorySourceList),
    ("inventory_sources/<int:pk>/", views.InventorySourceDetail),
    ("inventory_sources/<int:pk>/credentials/", views.InventorySourceCredentials),
    ("credential_input_sources/", views.CredentialInputSourceList),
    ("credential_input_sources/<int:pk>/", views.CredentialInputSourceDetail),
    ("credentials/<int:pk>/input_sources/", views.CredentialInputSources),
    ("execution_environments/", views.ExecutionEnvironmentList),
    ("execution_environments/<int:pk>/", views.ExecutionEnvironmentDetail),
    ("instance_groups/", views.InstanceGroupList),
    ("instance_groups/<int:pk>/", views.InstanceGroupDetail),
    ("instance_groups/<int:pk>/instances/", views.InstanceGroupInstances),
    ("instances/", views.InstanceList),
    ("instances/<int:pk>/", views.InstanceDetail),
    ("instances/<int:pk>/instance_groups/", views.InstanceInstanceGroups),
    ("receptor_addresses/", views.ReceptorAddressList),
    ("receptor_addresses/<int:pk>/", views.ReceptorAddressDetail),
    ("notification_templates/", views.NotificationTemplateList),
    ("notification_templates/<int:pk>/", views.NotificationTemplateDetail),
    ("organizations/<int:pk>/notification_templates/", views.OrganizationNotificationTemplates),
    ("organizations/<int:pk>/instance_groups/", views.OrganizationInstanceGroups),
    ("organizations/<int:pk>/execution_environments/", views.OrganizationExecutionEnvironments),
    ("organizations/<int:pk>/credentials/", views.OrganizationCredentials),
    ("organizations/<int:pk>/galaxy_credentials/", views.OrganizationGalaxyCredentials),
    ("schedules/", views.ScheduleList),
    ("schedules/<int:pk>/", views.ScheduleDetail),
    ("schedules/<int:pk>/credentials/", views.ScheduleCredentials),
    ("schedules/<int:pk>/instance_groups/", views.ScheduleInstanceGroups),
]

extra = []
for event in ("started", "success", "error", "approvals"):
    extra.append(("organizations/<int:pk>/notification_templates_%s/" % event,
                  views.NotificationTemplateLinks.as_view(parent_model=Organization, relation="notification_templates_" + event)))
for event in ("started", "success", "error"):
    extra.append(("job_templates/<int:pk>/notification_templates_%s/" % event,
                  views.NotificationTemplateLinks.as_view(parent_model=JobTemplate, relation="notification_templates_" + event)))
    extra.append(("projects/<int:pk>/notification_templates_%s/" % event,
                  views.NotificationTemplateLinks.as_view(parent_model=Project, relation="notification_templates_" + event)))
    extra.append(("inventory_sources/<int:pk>/notification_templates_%s/" % event,
                  views.NotificationTemplateLinks.as_view(parent_model=InventorySource,
                                                          relation="notification_templates_" + event)))
extra += [
    ("instances/<int:pk>/receptor_addresses/", views.ReceptorAddressList.as_view(relation="receptor_addresses")),
    ("instances/<int:pk>/peers/", views.ReceptorAddressList.as_view(relation="peers")),
    ("job_templates/<int:pk>/labels/", views.Labels.as_view(parent_model=JobTemplate, relation="labels")),
    ("inventories/<int:pk>/labels/", views.Labels.as_view(parent_model=Inventory, relation="labels")),
    ("schedules/<int:pk>/labels/", views.Labels.as_view(parent_model=Schedule, relation="labels")),
    ("job_templates/<int:pk>/schedules/", views.TemplateSchedules.as_view(parent_model=JobTemplate, parent_field="job_template")),
    ("projects/<int:pk>/schedules/", views.TemplateSchedules.as_view(parent_model=Project, parent_field="project")),
    ("inventory_sources/<int:pk>/schedules/", views.TemplateSchedules.as_view(parent_model=InventorySource, parent_field="inventory_source")),
    ("workflow_job_templates/<int:pk>/schedules/", views.TemplateSchedules.as_view(parent_model=WorkflowJobTemplate,
                                                                                  parent_field="workflow_job_template")),
]

extra += [("%s/<int:pk>/copy/" % resource, view.as_view()) for resource, view in copying.COPYABLE]

urlpatterns = [path("api/v2/" + p, v.as_view()) for p, v in v2] + [path("api/v2/" + p, v) for p, v in extra]
