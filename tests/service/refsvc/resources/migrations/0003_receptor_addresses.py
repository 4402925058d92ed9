"""Receptor addresses: an instance peers to addresses of other instances, and
its listener port is that of its canonical address."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("resources", "0002_inventory_source_ids")]

    operations = [
        migrations.CreateModel(
            name="ReceptorAddress",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("address", models.CharField(max_length=255)),
                ("port", models.IntegerField(default=None, null=True)),
                ("protocol", models.CharField(choices=[("tcp", "TCP"), ("ws", "WS"), ("wss", "WSS")], default="tcp", max_length=10)),
                ("websocket_path", models.CharField(blank=True, default="", max_length=255)),
                ("is_internal", models.BooleanField(default=False)),
                ("canonical", models.BooleanField(default=False)),
                ("peers_from_control_nodes", models.BooleanField(default=False)),
                ("instance", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="receptor_addresses", to="resources.instance")),
            ],
            options={"ordering": ["id"]},
        ),
        migrations.RemoveField(model_name="instance", name="peers"),
        migrations.RemoveField(model_name="instance", name="listener_port"),
        migrations.RemoveField(model_name="instance", name="peers_from_control_nodes"),
        migrations.AddField(
            model_name="instance", name="peers",
            field=models.ManyToManyField(blank=True, related_name="peers_from", to="resources.receptoraddress"),
        ),
    ]
