"""A job has every field of the unified job base."""
from django.db import migrations, models

LAUNCH_TYPES = [
    ("manual", "Manual"), ("relaunch", "Relaunch"), ("callback", "Callback"), ("scheduled", "Scheduled"),
    ("dependency", "Dependency"), ("workflow", "Workflow"), ("webhook", "Webhook"), ("sync", "Sync"),
    ("scm", "SCM Update"),
]


class Migration(migrations.Migration):

    dependencies = [
        ('jobs', '0005_unified_fill'),
    ]

    operations = [
        migrations.AddField(
            model_name='job',
            name='launch_type',
            field=models.CharField(choices=LAUNCH_TYPES, default='manual', max_length=20),
        ),
    ]
