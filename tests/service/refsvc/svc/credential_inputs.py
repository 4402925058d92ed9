"""A credential's inputs checked as AWX 24.6.1 checks them (awx/main/fields.py
CredentialInputField, awx/main/validators.py validate_pem): a JSON schema made
of the credential type's fields (Draft 4, with the formats ssh_private_key,
vault_id and url), then the rules of ssh_key_unlock for the managed types."""
import base64
import binascii
import re
import urllib.parse

from jsonschema import Draft4Validator, FormatChecker
from jsonschema.exceptions import FormatError
from rest_framework import serializers

ENCRYPTED = "$encrypted$"
PRIVATE_KEY_TYPES = {"RSA": "rsa", "DSA": "dsa", "EC": "ecdsa", "OPENSSH": "ed25519", "": "rsa1"}
PEM_OBJECT = re.compile(
    r"^(?P<dashes>-{4,}) *BEGIN (?P<type>[A-Z ]+?) *(?P=dashes)" r"\s*(?P<data>.+?)\s*"
    r"(?P=dashes) *END (?P=type) *(?P=dashes)" r"(?P<next>.*?)$",
    re.DOTALL,
)
PEM_HEADER = re.compile(r"^(.+?):\s*?(.+?)(\\??)$")


class PemError(Exception):
    pass


def validate_ssh_private_key(data):
    """The PEM objects of ``data`` (at least one private key), as validate_pem(min_keys=1)."""
    objects, keys = [], 0
    data = data.lstrip()
    while data:
        match = PEM_OBJECT.match(data)
        if not match:
            raise PemError("Invalid certificate or key: %s..." % data[:100])
        data = match.group("next").lstrip()
        info = {"type": match.group("type")}
        if info["type"].endswith("PRIVATE KEY"):
            keys += 1
            key_type = info["type"].replace("ENCRYPTED PRIVATE KEY", "").replace("PRIVATE KEY", "").strip()
            if key_type not in PRIVATE_KEY_TYPES:
                raise PemError('Invalid private key: unsupported type "%s"' % key_type)
            info["key_type"] = PRIVATE_KEY_TYPES[key_type]
        elif info["type"] != "CERTIFICATE":
            raise PemError('Unsupported PEM object type: "%s"' % info["type"])
        body, continues = "", False
        for line in match.group("data").splitlines():
            line = line.strip()
            if not line:
                continue
            if continues:
                continues = line.endswith("\\")
                continue
            if PEM_HEADER.match(line):
                continues = line.endswith("\\")
                continue
            body += line
        try:
            decoded = base64.b64decode(body)
        except (binascii.Error, ValueError):
            raise PemError("Invalid base64-encoded data")
        if not decoded:
            raise PemError("Invalid base64-encoded data")
        if info.get("key_type") == "ed25519":
            info["key_enc"] = not decoded.startswith(b"openssh-key-v1\x00\x00\x00\x00\x04none")
        elif match.group("type") == "ENCRYPTED PRIVATE KEY":
            info["key_enc"] = True
        elif info.get("key_type"):
            info["key_enc"] = "ENCRYPTED" in match.group("data")
        objects.append(info)
    if keys < 1:
        raise PemError("At least one private key is required.")
    return objects


def has_encrypted_ssh_key_data(value):
    try:
        return any(o.get("key_enc") for o in validate_ssh_private_key(value or ""))
    except PemError:
        return False


FORMATS = FormatChecker()


@FORMATS.checks("vault_id")
def format_vault_id(value):
    if "@" in value:
        raise FormatError("@ is not an allowed character")
    return True


@FORMATS.checks("ssh_private_key")
def format_ssh_private_key(value):
    if not value or value == ENCRYPTED:
        return True
    if r"\u003d" in value:
        value = value.replace(r"\u003d", "=")
    try:
        validate_ssh_private_key(value)
    except PemError as exc:
        raise FormatError(str(exc))
    return True


@FORMATS.checks("url")
def format_url(value):
    parsed = urllib.parse.urlparse(value)
    if parsed.scheme == "":
        raise FormatError("Invalid URL: Missing url scheme (http, https, etc.)")
    if parsed.netloc == "":
        raise FormatError("Invalid URL: {}".format(value))
    return True


def schema(credential_type):
    properties = {}
    for field in (credential_type.inputs or {}).get("fields", []):
        field = dict(field)
        if field.get("choices"):
            field["enum"] = list(field["choices"])
        properties[field["id"]] = field
    return {"type": "object", "properties": properties,
            "dependencies": (credential_type.inputs or {}).get("dependencies", {}), "additionalProperties": False}


def check(credential_type, value, creating):
    """Raise the real service's validation error for these inputs (``value`` with any
    "$encrypted$" already replaced by the stored secret)."""
    secret = {f["id"] for f in (credential_type.inputs or {}).get("fields", []) if f.get("secret")}
    if creating:
        for field in (credential_type.inputs or {}).get("fields", []):
            if field["id"] in secret and value.get(field["id"]) == ENCRYPTED:
                raise serializers.ValidationError(
                    {"inputs": ["$encrypted$ is a reserved keyword, and cannot be used for %s." % field["id"]]})
    errors = {}
    for error in Draft4Validator(schema(credential_type), format_checker=FORMATS).iter_errors(value):
        if error.validator == "pattern" and "error" in error.schema:
            error.message = error.schema["error"].format(instance=error.instance)
        if error.validator == "dependencies":
            match = re.search(r"'([^']+)'[\w ]+'([^']+)", error.message)
            if match:
                label, extraneous = match.groups()
                if error.schema["properties"].get(label):
                    label = error.schema["properties"][label]["label"]
                errors[extraneous] = ['cannot be set unless "%s" is set' % label]
                continue
        if "id" not in error.schema:
            raise serializers.ValidationError({"inputs": [error.message]})
        errors[error.schema["id"]] = [error.message]
    defined = {f["id"] for f in (credential_type.inputs or {}).get("fields", [])}
    if credential_type.managed and "ssh_key_unlock" in defined:
        encrypted = has_encrypted_ssh_key_data(value.get("ssh_key_data"))
        if encrypted and not value.get("ssh_key_unlock"):
            errors["ssh_key_unlock"] = ["must be set when SSH key is encrypted."]
        if value.get("ssh_key_data") and value.get("ssh_key_unlock") and not encrypted and "ssh_key_data" not in errors:
            errors["ssh_key_unlock"] = ["should not be set when SSH key is not encrypted."]
    if errors:
        raise serializers.ValidationError({"inputs": errors})
