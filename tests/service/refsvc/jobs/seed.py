"""Start-up content of the jobs app: the shipped demo project."""
from refsvc.svc.models import Organization

from .models import Project

DEMO_PROJECT = "Demo Project"


def seed():
    org = Organization.objects.filter(name="Default").first()
    Project.objects.get_or_create(
        name=DEMO_PROJECT, organization=org,
        defaults={"description": "Playbooks shipped with the reference service", "local_path": "demo"},
    )
