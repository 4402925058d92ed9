"""A schedule gives its launches instance groups."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("resources", "0007_schedule_workflow_job_template")]

    operations = [
        migrations.AddField(
            model_name="schedule",
            name="instance_groups",
            field=models.ManyToManyField(blank=True, related_name="schedules", to="resources.instancegroup"),
        ),
    ]
