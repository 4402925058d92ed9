"""Start-up content: the node the service runs on, its instance groups, the
execution environments and the
Galaxy credential of the Default organization."""
from django.utils import timezone

from refsvc.svc.models import Credential, CredentialType, Organization

from .models import ExecutionEnvironment, Instance, InstanceGroup, OrganizationGalaxyCredential

INSTALL_UUID = "00000000-0000-4000-8000-000000000000"
EE_IMAGE = "quay.io/ansible/awx-ee:latest"

def seed():
    node, _ = Instance.objects.get_or_create(
        hostname="localhost",
        defaults={
            "uuid": INSTALL_UUID, "version": "24.6.1", "node_type": "hybrid", "node_state": "ready", "capacity": 100,
            "cpu": 2, "memory": 4 * 1024 ** 3, "cpu_capacity": 8, "mem_capacity": 100, "managed": True,
            "ip_address": "127.0.0.1", "last_seen": timezone.now(), "last_health_check": timezone.now(),
        },
    )
    for name in ("controlplane", "default"):
        group, created = InstanceGroup.objects.get_or_create(name=name)
        if created:
            group.instances.add(node)
    ExecutionEnvironment.objects.get_or_create(name="AWX EE (latest)", defaults={"image": EE_IMAGE, "pull": "always"})
    ExecutionEnvironment.objects.get_or_create(name="Control Plane Execution Environment", defaults={"image": EE_IMAGE, "managed": True})
    org = Organization.objects.filter(name="Default").first()
    galaxy_type = CredentialType.objects.get(namespace="galaxy_api_token")
    if org is not None and not Credential.objects.filter(name="Ansible Galaxy", credential_type=galaxy_type).exists():
        cred = Credential.objects.create(name="Ansible Galaxy", organization=org, credential_type=galaxy_type,
                                         inputs={"url": "https://galaxy.ansible.com/"})
        OrganizationGalaxyCredential.objects.create(organization=org, credential=cred, position=0)
