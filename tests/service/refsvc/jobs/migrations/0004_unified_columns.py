"""The columns of the unified job templates the real list filters on."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("jobs", "0003_job_launch_values"),
        ("svc", "0002_resources_fields"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="unifiedjobtemplate",
            options={"ordering": ["name", "id"]},
        ),
        migrations.AddField(
            model_name="unifiedjobtemplate",
            name="created",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="unifiedjobtemplate",
            name="description",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddField(
            model_name="unifiedjobtemplate",
            name="modified",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="unifiedjobtemplate",
            name="organization",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="svc.organization",
            ),
        ),
    ]
