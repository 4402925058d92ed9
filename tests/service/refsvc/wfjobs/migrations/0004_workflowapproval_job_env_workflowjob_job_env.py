"""A run records the environment it was started with (job_env), its secrets hidden."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('wfjobs', '0003_unified_job'),
    ]

    operations = [
        migrations.AddField(
            model_name='workflowapproval',
            name='job_env',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='workflowjob',
            name='job_env',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
