"""Fill the unified job templates' new columns from the objects they stand for."""
from django.db import migrations


def forwards(apps, schema_editor):
    UnifiedJobTemplate = apps.get_model("jobs", "UnifiedJobTemplate")
    for app, model, org in (("jobs", "Project", True), ("jobs", "JobTemplate", True),
                            ("workflows", "WorkflowJobTemplate", True), ("workflows", "WorkflowApprovalTemplate", False)):
        for obj in apps.get_model(app, model).objects.all():
            UnifiedJobTemplate.objects.filter(pk=obj.pk).update(
                description=obj.description, organization_id=obj.organization_id if org else None,
                created=obj.created, modified=obj.modified)


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0004_unified_columns"),
        ("workflows", "0004_node_labels_instance_groups"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
