"""The ordered input inventories of a constructed inventory (`inventories/<id>/input_inventories/`)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("resources", "0004_job_template_instance_groups"),
        ("svc", "0002_resources_fields"),
    ]

    operations = [
        migrations.CreateModel(
            name="InventoryInputInventory",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("position", models.PositiveIntegerField(default=0)),
                ("constructed_inventory", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                            related_name="input_inventory_links", to="svc.inventory")),
                ("input_inventory", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                                      to="svc.inventory")),
            ],
            options={
                "ordering": ["position", "id"],
                "unique_together": {("constructed_inventory", "input_inventory")},
            },
        ),
    ]
