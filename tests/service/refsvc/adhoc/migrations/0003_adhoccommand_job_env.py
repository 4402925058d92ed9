"""A run records the environment it was started with (job_env), its secrets hidden."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('adhoc', '0002_unified_job'),
    ]

    operations = [
        migrations.AddField(
            model_name='adhoccommand',
            name='job_env',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
