"""Start-up content: the node the service runs on, its instance groups, the
execution environments, the credential types these resources need, and the
Galaxy credential of the Default organization."""
from django.utils import timezone

from refsvc.svc.models import Credential, CredentialType, Organization

from .models import ExecutionEnvironment, Instance, InstanceGroup, OrganizationGalaxyCredential

INSTALL_UUID = "00000000-0000-4000-8000-000000000000"
EE_IMAGE = "quay.io/ansible/awx-ee:latest"

CREDENTIAL_TYPES = [
    ("Container Registry", "registry", "registry", {
        "fields": [
            {"id": "host", "label": "Authentication URL", "type": "string", "default": "quay.io"},
            {"id": "username", "label": "Username", "type": "string"},
            {"id": "password", "label": "Password or Token", "type": "string", "secret": True},
            {"id": "verify_ssl", "label": "Verify SSL", "type": "boolean", "default": True},
        ],
        "required": ["host"],
    }),
    ("Ansible Galaxy/Automation Hub API Token", "galaxy", "galaxy_api_token", {
        "fields": [
            {"id": "url", "label": "Galaxy Server URL", "type": "string"},
            {"id": "auth_url", "label": "Auth Server URL", "type": "string"},
            {"id": "token", "label": "API Token", "type": "string", "secret": True},
        ],
        "required": ["url"],
    }),
    ("OpenShift or Kubernetes API Bearer Token", "kubernetes", "kubernetes_bearer_token", {
        "fields": [
            {"id": "host", "label": "OpenShift or Kubernetes API Endpoint", "type": "string"},
            {"id": "bearer_token", "label": "API authentication bearer token", "type": "string", "secret": True},
            {"id": "verify_ssl", "label": "Verify SSL", "type": "boolean", "default": True},
            {"id": "ssl_ca_cert", "label": "Certificate Authority data", "type": "string", "secret": True, "multiline": True},
        ],
        "required": ["host", "bearer_token"],
    }),
    ("HashiCorp Vault Secret Lookup", "external", "hashivault_kv", {
        "fields": [
            {"id": "url", "label": "Server URL", "type": "string"},
            {"id": "token", "label": "Token", "type": "string", "secret": True},
            {"id": "api_version", "label": "API Version", "type": "string", "choices": ["v1", "v2"], "default": "v1"},
        ],
        "metadata": [
            {"id": "secret_path", "label": "Path to Secret", "type": "string"},
            {"id": "secret_key", "label": "Key Name", "type": "string"},
            {"id": "secret_version", "label": "Secret Version (v2 only)", "type": "string"},
        ],
        "required": ["url", "secret_path", "secret_key"],
    }),
]


def seed():
    for name, kind, namespace, inputs in CREDENTIAL_TYPES:
        CredentialType.objects.get_or_create(name=name, kind=kind, defaults={"namespace": namespace, "managed": True, "inputs": inputs})
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
