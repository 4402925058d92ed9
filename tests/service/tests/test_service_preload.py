"""What a new install of the real service holds (its managed credential types and
the demo content of create_preload_data), and answers observed on AWX 24.6.1 for
applications' redirect URIs, credential inputs, a group's all_hosts and
potential_children, an organization's users, credentials and execution
environments, the legacy object_roles lists and the OPTIONS of sub-lists."""
import json
from pathlib import Path

import pytest
import requests

from service_api import call, created, unique

DATA = Path(__file__).resolve().parents[1] / "refsvc" / "svc" / "managed_credential_types.json"
DEPRECATED = '299 awx "This resource has been deprecated and will be removed in a future release."'
ENCRYPTED_KEY = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0011\n\nAAAA\n-----END RSA PRIVATE KEY-----\n"
PLAIN_KEY = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"


def one(service, path):
    r = call(service, "GET", path)
    assert r.status_code == 200 and r.json()["count"] == 1, r.text
    return r.json()["results"][0]


# ---------------------------------------------------------------- managed credential types

def test_every_managed_credential_type_of_the_real_service(service):
    recorded = json.loads(DATA.read_text())["credential_types"]
    r = call(service, "GET", "credential_types/?managed=true&page_size=200")
    served = r.json()["results"]
    assert r.json()["count"] == len(recorded) == 30
    # Ordered by kind, then name, as the real model orders them.
    assert [(t["kind"], t["name"]) for t in served] == sorted((t["kind"], t["name"]) for t in recorded)
    by_name = {t["name"]: t for t in served}
    for t in recorded:
        got = by_name[t["name"]]
        assert (got["kind"], got["namespace"], got["inputs"], got["injectors"], got["managed"]) == \
            (t["kind"], t["namespace"], t["inputs"], t["injectors"], True)
    assert (by_name["CyberArk Central Credential Provider Lookup"]["kind"], by_name["CyberArk Central Credential Provider Lookup"]["namespace"]) == ("external", "aim")
    assert by_name["Insights"]["kind"] == "insights" and by_name["OpenStack"]["namespace"] == "openstack"
    assert one(service, "credential_types/?name=Machine")["id"] == 1


# ---------------------------------------------------------------- demo content

def test_demo_content_of_a_new_install(service):
    org = one(service, "organizations/?name=Default")
    inventory = one(service, "inventories/?name=Demo+Inventory")
    assert inventory["organization"] == org["id"]
    host = one(service, "inventories/%d/hosts/?name=localhost" % inventory["id"])
    assert host["variables"] == "ansible_connection: local\nansible_python_interpreter: '{{ ansible_playbook_python }}'"
    credential = one(service, "credentials/?name=Demo+Credential")
    assert credential["organization"] is None and credential["kind"] == "ssh"
    assert credential["inputs"] == {"username": service.admin_username}
    assert credential["summary_fields"]["owners"][0]["name"] == service.admin_username
    project = one(service, "projects/?name=Demo+Project")
    assert (project["scm_type"], project["scm_url"], project["organization"]) == \
        ("git", "https://github.com/ansible/ansible-tower-samples", org["id"])
    template = one(service, "job_templates/?name=Demo+Job+Template")
    assert (template["project"], template["inventory"], template["playbook"]) == (project["id"], inventory["id"], "hello_world.yml")
    assert [c["name"] for c in call(service, "GET", "job_templates/%d/credentials/" % template["id"]).json()["results"]] == ["Demo Credential"]


# ---------------------------------------------------------------- applications

@pytest.mark.parametrize("uris, error", [
    ("http://tower.com/api/v2/ http://tower.com/api/v2/teams", None),
    ("http://localhost:8000/cb?x=1", None),
    ("ftp://x.com/", "Unauthorized redirect scheme: ftp"),
    ("http://a.com/ myapp://cb", "Unauthorized redirect scheme: myapp"),
    ("notauri", "Enter a valid URL."),
    ("https://x.com/#frag", "Redirect URIs must not contain fragments"),
    ("", "redirect_uris cannot be empty with grant_type authorization-code"),
])
def test_application_redirect_uris(service, uris, error):
    body = {"name": unique("app"), "organization": 1, "client_type": "confidential",
            "authorization_grant_type": "authorization-code", "redirect_uris": uris}
    r = call(service, "POST", "applications/", json=body)
    if error is None:
        assert r.status_code == 201 and r.json()["redirect_uris"] == uris, r.text
        call(service, "DELETE", "applications/%d/" % r.json()["id"])
    else:
        assert r.status_code == 400 and r.json() == {"__all__": [error]}


# ---------------------------------------------------------------- credential inputs

@pytest.mark.parametrize("inputs, answer", [
    ({"ssh_key_data": ENCRYPTED_KEY}, {"inputs": {"ssh_key_unlock": ["must be set when SSH key is encrypted."]}}),
    ({"ssh_key_data": PLAIN_KEY, "ssh_key_unlock": "x"}, {"inputs": {"ssh_key_unlock": ["should not be set when SSH key is not encrypted."]}}),
    ({"password": "$encrypted$"}, {"inputs": ["$encrypted$ is a reserved keyword, and cannot be used for password."]}),
    ({"become_method": 5}, {"inputs": {"become_method": ["5 is not of type 'string'"]}}),
    ({"bogus": 1}, {"inputs": ["Additional properties are not allowed ('bogus' was unexpected)"]}),
    ({"ssh_key_data": "garbage"}, {"inputs": {"ssh_key_data": ["Invalid certificate or key: garbage..."]}}),
    ({"ssh_key_data": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"},
     {"inputs": {"ssh_key_data": ["At least one private key is required."]}}),
])
def test_machine_credential_inputs_are_checked(service, inputs, answer):
    r = call(service, "POST", "credentials/", json={"name": unique("cred"), "organization": 1, "credential_type": 1, "inputs": inputs})
    assert r.status_code == 400 and r.json() == answer


def test_encrypted_key_with_its_passphrase_is_taken(service):
    cred = created(service, "credentials/", {"name": unique("cred"), "organization": 1, "credential_type": 1,
                                             "inputs": {"ssh_key_data": ENCRYPTED_KEY, "ssh_key_unlock": "x"}})
    # "$encrypted$" stands for the stored key, still encrypted: the passphrase stays needed.
    r = call(service, "PATCH", "credentials/%d/" % cred["id"], json={"inputs": {"ssh_key_data": "$encrypted$"}})
    assert r.status_code == 400 and r.json() == {"inputs": {"ssh_key_unlock": ["must be set when SSH key is encrypted."]}}
    call(service, "DELETE", "credentials/%d/" % cred["id"])


# ---------------------------------------------------------------- groups

def test_group_all_hosts_and_potential_children(service):
    inv = created(service, "inventories/", {"name": unique("inv"), "organization": 1})
    ga, gb, gc, gd = (created(service, "inventories/%d/groups/" % inv["id"], {"name": n}) for n in ("ga", "gb", "gc", "gd"))
    assert call(service, "POST", "groups/%d/children/" % ga["id"], json={"id": gb["id"]}).status_code == 204
    assert call(service, "POST", "groups/%d/children/" % gb["id"], json={"id": gc["id"]}).status_code == 204
    for group, host in ((ga, "zh1"), (gb, "ah2"), (gc, "mh3")):
        created(service, "groups/%d/hosts/" % group["id"], {"name": host})

    def listed(path):
        r = call(service, "GET", path)
        assert r.status_code == 200, r.text
        return [o["name"] for o in r.json()["results"]]

    assert listed("groups/%d/all_hosts/" % ga["id"]) == ["ah2", "mh3", "zh1"]
    assert listed("groups/%d/all_hosts/" % gb["id"]) == ["ah2", "mh3"]
    assert listed("groups/%d/potential_children/" % gb["id"]) == ["gd"]
    assert listed("groups/%d/potential_children/" % gd["id"]) == ["ga", "gb", "gc"]
    r = call(service, "POST", "groups/%d/all_hosts/" % ga["id"], json={})
    assert r.status_code == 405 and r.json() == {"detail": 'Method "POST" not allowed.'}
    for key in ("all_hosts", "potential_children"):
        assert ga["related"][key] == "/api/v2/groups/%d/%s/" % (ga["id"], key)
    call(service, "DELETE", "inventories/%d/" % inv["id"])


# ---------------------------------------------------------------- organizations' sub-lists

def test_organization_users_post_creates_a_member(service):
    org = created(service, "organizations/", {"name": unique("org")})
    name = unique("user")
    r = call(service, "POST", "organizations/%d/users/" % org["id"], json={"username": name, "password": "pw-" + name})
    assert r.status_code == 201 and r.json()["username"] == name, r.text
    user = r.json()
    assert [u["username"] for u in call(service, "GET", "organizations/%d/users/" % org["id"]).json()["results"]] == [name]
    r = call(service, "POST", "organizations/%d/users/" % org["id"], json={"username": name, "password": "x"})
    assert r.status_code == 400 and r.json() == {"username": ["A user with that username already exists."]}
    r = call(service, "POST", "organizations/%d/users/" % org["id"], json={"id": 999999})
    assert r.status_code == 400 and r.json() == {"detail": "User matching query does not exist."}
    call(service, "DELETE", "users/%d/" % user["id"])
    call(service, "DELETE", "organizations/%d/" % org["id"])


def test_organization_credentials_and_execution_environments(service):
    org = created(service, "organizations/", {"name": unique("org")})
    cred = created(service, "organizations/%d/credentials/" % org["id"], {"name": unique("cred"), "credential_type": 1, "inputs": {}})
    assert cred["organization"] == org["id"]
    assert [c["id"] for c in call(service, "GET", "organizations/%d/credentials/" % org["id"]).json()["results"]] == [cred["id"]]
    ee = created(service, "organizations/%d/execution_environments/" % org["id"], {"name": unique("ee"), "image": "quay.io/x/y:1"})
    assert ee["organization"] == org["id"]
    assert [e["id"] for e in call(service, "GET", "organizations/%d/execution_environments/" % org["id"]).json()["results"]] == [ee["id"]]
    call(service, "DELETE", "organizations/%d/" % org["id"])


# ---------------------------------------------------------------- legacy roles

def test_object_roles_lists_are_deprecated(service):
    credential = one(service, "credentials/?name=Demo+Credential")
    r = call(service, "GET", "credentials/%d/object_roles/" % credential["id"])
    assert r.status_code == 200 and r.headers["Warning"] == DEPRECATED
    assert [(o["name"], o["description"]) for o in r.json()["results"]] == [
        ("Admin", "Can manage all aspects of the credential"), ("Use", "Can use the credential in a job template"),
        ("Read", "May view settings for the credential")]
    options = call(service, "OPTIONS", "organizations/1/object_roles/")
    assert options.headers["Warning"] == DEPRECATED and sorted(options.json()["actions"]) == ["GET"]
    assert options.json()["name"] == "Organization Object Roles List"
    assert call(service, "GET", "roles/").headers["Warning"] == DEPRECATED
    assert "Warning" not in call(service, "GET", "credentials/").headers


# ---------------------------------------------------------------- OPTIONS of sub-lists

def test_sub_list_options_as_the_real_service_answers(service):
    template = one(service, "job_templates/?name=Demo+Job+Template")
    options = call(service, "OPTIONS", "job_templates/%d/credentials/" % template["id"]).json()
    assert sorted(options["actions"]["POST"]) == ["credential_type", "description", "id", "inputs", "name", "organization"]
    assert options["actions"]["POST"]["id"] == {"type": "integer", "required": False, "hidden": False, "label": "ID",
                                                "help_text": "Database ID for this credential.", "filterable": True}
    assert options["object_roles"] == ["admin_role", "use_role", "read_role"] and options["max_page_size"] == 200
    assert sorted(call(service, "OPTIONS", "job_templates/%d/labels/" % template["id"]).json()["actions"]["POST"]) == ["id", "name", "organization"]
    assert sorted(call(service, "OPTIONS", "organizations/1/galaxy_credentials/").json()["actions"]["POST"]) == ["id"]
    assert sorted(call(service, "OPTIONS", "organizations/1/credentials/").json()["actions"]["POST"]) == \
        ["credential_type", "description", "inputs", "name", "organization"]
    assert sorted(call(service, "OPTIONS", "organizations/1/users/").json()["actions"]["POST"]) == \
        ["email", "first_name", "id", "is_superuser", "is_system_auditor", "last_name", "password", "username"]
    assert "id" in call(service, "OPTIONS", "inventories/1/hosts/").json()["actions"]["POST"]
    inv = created(service, "inventories/", {"name": unique("inv"), "organization": 1})
    group = created(service, "inventories/%d/groups/" % inv["id"], {"name": "g"})
    assert sorted(call(service, "OPTIONS", "groups/%d/all_hosts/" % group["id"]).json()["actions"]) == ["GET"]
    call(service, "DELETE", "inventories/%d/" % inv["id"])
    listing = call(service, "OPTIONS", "organizations/").json()
    assert listing["max_page_size"] == 200 and listing["object_roles"][0] == "admin_role" and len(listing["object_roles"]) == 13


# ---------------------------------------------------------------- users changed by an organization administrator

def test_organization_admin_changes_the_users_of_the_organizations_it_administers(service):
    org, other = created(service, "organizations/", {"name": unique("org")}), created(service, "organizations/", {"name": unique("org")})
    users = {}
    for key in ("admin", "member", "both"):
        users[key] = created(service, "organizations/%d/users/" % org["id"], {"username": unique(key), "password": "pw-" + key})
    assert call(service, "POST", "organizations/%d/users/" % other["id"], json={"id": users["both"]["id"]}).status_code == 204
    assert call(service, "POST", "organizations/%d/admins/" % org["id"], json={"id": users["admin"]["id"]}).status_code == 204

    def as_admin(method, path, **kwargs):
        return requests.request(method, service.url + "/api/v2/" + path, auth=(users["admin"]["username"], "pw-admin"),
                                verify=service.ca_path, **kwargs)

    assert as_admin("PATCH", "users/%d/" % users["member"]["id"], json={"last_name": "X"}).status_code == 200
    # A member of an organization it does not administer, and /users/ itself, are refused.
    assert as_admin("PATCH", "users/%d/" % users["both"]["id"], json={"last_name": "X"}).status_code == 403
    assert as_admin("POST", "users/", json={"username": unique("e"), "password": "pw"}).status_code == 403
    assert as_admin("DELETE", "users/%d/" % users["both"]["id"]).status_code == 403
    assert as_admin("DELETE", "users/%d/" % users["member"]["id"]).status_code == 204
    users.pop("member")
    for user in users.values():
        call(service, "DELETE", "users/%d/" % user["id"])
    for o in (org, other):
        call(service, "DELETE", "organizations/%d/" % o["id"])


def test_survey_spec_options(service):
    template = one(service, "job_templates/?name=Demo+Job+Template")
    options = call(service, "OPTIONS", "job_templates/%d/survey_spec/" % template["id"]).json()
    assert options["actions"] == {"POST": {}, "GET": {}}
