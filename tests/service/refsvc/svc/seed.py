"""First-start content: the administrator, the managed credential types
(recorded from the real service in managed_credential_types.json), and on a new
install the Default organization with the demo content."""
import json
from pathlib import Path

from django.contrib.auth.models import User

from .models import CredentialType, Organization

MANAGED_CREDENTIAL_TYPES = Path(__file__).with_name("managed_credential_types.json")


def managed_credential_types():
    with open(MANAGED_CREDENTIAL_TYPES, encoding="utf-8") as f:
        return json.load(f)["credential_types"]


def seed_credential_types():
    """Every managed credential type of the real service, created in its order
    and brought up to date on each start, as AWX's own start-up does."""
    for data in managed_credential_types():
        fields = dict({k: data[k] for k in ("description", "namespace", "inputs", "injectors")}, managed=True)
        ct, created = CredentialType.objects.get_or_create(name=data["name"], kind=data["kind"], defaults=fields)
        if not created and any(getattr(ct, k) != v for k, v in fields.items()):
            for k, v in fields.items():
                setattr(ct, k, v)
            ct.save()


def seed(admin_username: str, admin_password: str) -> None:
    admin = User.objects.filter(username=admin_username).first()
    if admin is None:
        admin = User.objects.create_superuser(admin_username, "admin@example.com", admin_password)
    seed_credential_types()
    if not Organization.objects.exists():
        # A new install: the real installer's create_preload_data.
        from refsvc.jobs.seed import create_preload_data

        create_preload_data(Organization.objects.create(name="Default", description=""), admin)
    from refsvc.resources.seed import seed as seed_resources
    from refsvc.system.models import seed as seed_system_job_templates

    seed_resources()
    seed_system_job_templates()
