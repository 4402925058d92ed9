"""The ordered instance groups of a job template (`job_templates/<id>/instance_groups/`)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0002_full_templates"),
        ("resources", "0003_receptor_addresses"),
    ]

    operations = [
        migrations.CreateModel(
            name="JobTemplateInstanceGroup",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("position", models.PositiveIntegerField(default=0)),
                ("instance_group", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                                     to="resources.instancegroup")),
                ("job_template", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                   related_name="instance_group_links", to="jobs.jobtemplate")),
            ],
            options={
                "ordering": ["position", "id"],
                "unique_together": {("job_template", "instance_group")},
            },
        ),
    ]
