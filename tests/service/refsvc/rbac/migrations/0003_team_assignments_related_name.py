import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """A team's assignments are its ``svc_role_assignments`` (as a user's are): ``role_assignments`` is the name
    django-ansible-base's RoleTeamAssignment gives them, whose models the gateway layout has too."""

    dependencies = [("rbac", "0002_managed_role_definitions")]

    operations = [
        migrations.AlterField(
            model_name="roleteamassignment",
            name="team",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="svc_role_assignments",
                                    to="rbac.team"),
        ),
    ]
