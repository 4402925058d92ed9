"""What EDA has before anyone uses it: the managed credential types eda-server ships and its managed role
definitions on an organization (its ``create_initial_data``; recorded in managed_credential_types.json and
managed_role_definitions.json, with their source), made in its order and brought up to date at every start, as
eda-server's start-up does. The role definitions are rows of the service's rbac app (one table, as the platform's
gateway holds every service's definitions)."""
import hashlib
import json
from pathlib import Path

MANAGED_CREDENTIAL_TYPES = Path(__file__).with_name("managed_credential_types.json")
MANAGED_ROLE_DEFINITIONS = Path(__file__).with_name("managed_role_definitions.json")
# eda-server offers its Python's hash algorithms, sorted, as an HMAC's or ECDSA's choices
ALGORITHMS = "hashlib.algorithms_available"


def _filled(node):
    if isinstance(node, dict):
        return {k: (sorted(hashlib.algorithms_available) if k == "choices" and v == ALGORITHMS else _filled(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_filled(item) for item in node]
    return node


def managed_credential_types():
    with open(MANAGED_CREDENTIAL_TYPES, encoding="utf-8") as handle:
        return json.load(handle)["credential_types"]


def seed_credential_types():
    from .models import CredentialType

    for data in managed_credential_types():
        if data.get("only_with"):
            continue    # the analytics types: only while FEATURE_EDA_ANALYTICS_ENABLED is on (off by default)
        fields = {"description": data["description"], "namespace": data["namespace"], "kind": data["kind"],
                  "inputs": _filled(data["inputs"]), "injectors": data["injectors"], "managed": True,
                  "since": data.get("since")}
        obj, created = CredentialType.objects.get_or_create(name=data["name"], defaults=fields)
        if not created and any(getattr(obj, k) != v for k, v in fields.items()):
            for k, v in fields.items():
                setattr(obj, k, v)
            obj.save()


def seed_role_definitions():
    """EDA's managed definitions on an organization but the two the platform shares (Organization Admin and Member,
    which the service's rbac app makes)."""
    from refsvc.rbac.models import RoleDefinition

    with open(MANAGED_ROLE_DEFINITIONS, encoding="utf-8") as handle:
        definitions = json.load(handle)["role_definitions"]
    for data in definitions:
        if data["name"] in ("Organization Admin", "Organization Member"):
            continue
        fields = {"description": data["description"], "content_type": data["content_type"],
                  "permissions": data["permissions"], "managed": True}
        obj, created = RoleDefinition.objects.get_or_create(name=data["name"], defaults=fields)
        if not created and any(getattr(obj, k) != v for k, v in fields.items()):
            for k, v in fields.items():
                setattr(obj, k, v)
            obj.save()


def seed():
    """At every start of the gateway layout (refsvc/svc/prepare.py): a database is made once per version of the
    models and migrations (svcctl's cache), the data here may change without them."""
    seed_credential_types()
    seed_role_definitions()
