"""First-start content: the administrator, the Default organization, the
built-in credential types."""
from django.contrib.auth.models import User

from .models import CredentialType, Organization

MACHINE_INPUTS = {
    "fields": [
        {"id": "username", "label": "Username", "type": "string"},
        {"id": "password", "label": "Password", "type": "string", "secret": True, "ask_at_runtime": True},
        {"id": "ssh_key_data", "label": "SSH Private Key", "type": "string", "format": "ssh_private_key", "secret": True, "multiline": True},
        {"id": "ssh_public_key_data", "label": "Signed SSH Certificate", "type": "string", "multiline": True, "secret": True},
        {"id": "ssh_key_unlock", "label": "Private Key Passphrase", "type": "string", "secret": True, "ask_at_runtime": True},
        {"id": "become_method", "label": "Privilege Escalation Method", "type": "string"},
        {"id": "become_username", "label": "Privilege Escalation Username", "type": "string"},
        {"id": "become_password", "label": "Privilege Escalation Password", "type": "string", "secret": True, "ask_at_runtime": True},
    ]
}
SCM_INPUTS = {
    "fields": [
        {"id": "username", "label": "Username", "type": "string"},
        {"id": "password", "label": "Password", "type": "string", "secret": True},
        {"id": "ssh_key_data", "label": "SCM Private Key", "type": "string", "format": "ssh_private_key", "secret": True, "multiline": True},
        {"id": "ssh_key_unlock", "label": "Private Key Passphrase", "type": "string", "secret": True},
    ]
}
CONTROLLER_INPUTS = {
    "fields": [
        {"id": "host", "label": "Red Hat Ansible Automation Platform", "type": "string"},
        {"id": "username", "label": "Username", "type": "string"},
        {"id": "password", "label": "Password", "type": "string", "secret": True},
        {"id": "oauth_token", "label": "OAuth Token", "type": "string", "secret": True},
        {"id": "verify_ssl", "label": "Verify SSL", "type": "boolean", "secret": False},
    ],
    "required": ["host"],
}
VAULT_INPUTS = {
    "fields": [
        {"id": "vault_password", "label": "Vault Password", "type": "string", "secret": True, "ask_at_runtime": True},
        {"id": "vault_id", "label": "Vault Identifier", "type": "string"},
    ],
    "required": ["vault_password"],
}

CREDENTIAL_TYPES = [
    ("Machine", "ssh", "ssh", MACHINE_INPUTS),
    ("Source Control", "scm", "scm", SCM_INPUTS),
    ("Vault", "vault", "vault", VAULT_INPUTS),
    ("Red Hat Ansible Automation Platform", "cloud", "controller", CONTROLLER_INPUTS),
]


def seed(admin_username: str, admin_password: str) -> None:
    if not User.objects.filter(username=admin_username).exists():
        User.objects.create_superuser(admin_username, "admin@example.com", admin_password)
    Organization.objects.get_or_create(name="Default", defaults={"description": ""})
    for name, kind, namespace, inputs in CREDENTIAL_TYPES:
        CredentialType.objects.get_or_create(
            name=name, kind=kind, defaults={"namespace": namespace, "managed": True, "inputs": inputs}
        )
    from refsvc.resources.seed import seed as seed_resources

    seed_resources()
