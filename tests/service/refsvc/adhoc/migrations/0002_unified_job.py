"""An ad hoc command has every field of the unified job base."""
from django.db import migrations, models

LAUNCH_TYPES = [
    ("manual", "Manual"), ("relaunch", "Relaunch"), ("callback", "Callback"), ("scheduled", "Scheduled"),
    ("dependency", "Dependency"), ("workflow", "Workflow"), ("webhook", "Webhook"), ("sync", "Sync"),
    ("scm", "SCM Update"),
]


class Migration(migrations.Migration):

    dependencies = [
        ('adhoc', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='adhoccommand',
            name='description',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AlterField(
            model_name='adhoccommand',
            name='launch_type',
            field=models.CharField(choices=LAUNCH_TYPES, default='manual', max_length=20),
        ),
    ]
