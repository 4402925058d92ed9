# An activation instance's model takes eda-server's name (RulebookProcess), which its permissions carry.
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("eda_activations", "0002_credential_set_null_rulebook_unique"),
    ]

    operations = [
        migrations.RenameModel(old_name="ActivationInstance", new_name="RulebookProcess"),
        migrations.RenameModel(old_name="ActivationInstanceLog", new_name="RulebookProcessLog"),
    ]
