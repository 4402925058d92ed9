from django.db import migrations


def create_managed(apps, schema_editor):
    from refsvc.rbac import managed

    managed.create(apps.get_model("rbac", "RoleDefinition"))


class Migration(migrations.Migration):

    dependencies = [("rbac", "0001_initial")]

    operations = [migrations.RunPython(create_managed, migrations.RunPython.noop)]
