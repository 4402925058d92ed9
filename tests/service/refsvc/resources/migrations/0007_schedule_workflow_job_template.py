"""A schedule may launch a workflow job template."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("resources", "0006_project_notification_templates"), ("workflows", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="schedule",
            name="workflow_job_template",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="schedules", to="workflows.workflowjobtemplate"),
        ),
    ]
