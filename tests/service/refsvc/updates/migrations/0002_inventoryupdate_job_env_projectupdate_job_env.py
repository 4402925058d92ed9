"""A run records the environment it was started with (job_env), its secrets hidden."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('updates', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='inventoryupdate',
            name='job_env',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='projectupdate',
            name='job_env',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
