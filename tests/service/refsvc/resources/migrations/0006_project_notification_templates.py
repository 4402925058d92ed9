"""The notification templates of a project (`projects/<id>/notification_templates_<event>/`)."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0002_full_templates"),
        ("resources", "0005_inventory_input_inventories"),
    ]

    operations = [
        migrations.AddField(
            model_name="notificationtemplate",
            name="projects_%s" % event,
            field=models.ManyToManyField(blank=True, related_name="notification_templates_%s" % event, to="jobs.project"),
        )
        for event in ("started", "success", "error")
    ]
