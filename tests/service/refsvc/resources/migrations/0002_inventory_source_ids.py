"""Inventory source ids start above the job templates' and projects' ids: on the real
service the three share one id sequence (unified job templates), so a schedule's
`unified_job_template` id names one object."""
from django.db import migrations

FIRST_ID = 100000


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = 'resources_inventorysource'")
        row = cursor.fetchone()
        if row is None:
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('resources_inventorysource', %s)", [FIRST_ID])
        elif row[0] < FIRST_ID:
            cursor.execute("UPDATE sqlite_sequence SET seq = %s WHERE name = 'resources_inventorysource'", [FIRST_ID])


class Migration(migrations.Migration):
    dependencies = [("resources", "0001_initial")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
