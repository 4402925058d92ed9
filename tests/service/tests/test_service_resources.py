"""Resources, pagination, filters, header placement and the request log of the reference service."""
import concurrent.futures
import json
import re
import uuid

import pytest
import requests

from service_api import call


@pytest.fixture(scope="module")
def token(service):
    r = call(service, "POST", "/api/v2/tokens/", json={"description": "resources"})
    assert r.status_code == 201
    return r.json()["token"]


def bearer(service, token, method, path, **kwargs):
    headers = {"Authorization": "Bearer " + token}
    return requests.request(method, service.url + path, headers=headers, verify=service.ca_path, **kwargs)


@pytest.fixture(scope="module")
def inventory(service, token):
    r = bearer(service, token, "POST", "/api/v2/inventories/", json={"name": "inv-" + uuid.uuid4().hex[:8], "organization": 1, "variables": '{"x": 1}'})
    assert r.status_code == 201, r.text
    inv = r.json()
    for i in range(30):
        r = bearer(service, token, "POST", "/api/v2/hosts/", json={"name": "h%02d.example.com" % i, "inventory": inv["id"], "description": None})
        assert r.status_code == 201, r.text
    return inv


def test_roots(service):
    r = requests.get(service.url + "/api/", verify=service.ca_path)
    assert r.json()["current_version"] == "/api/v2/"
    r = requests.get(service.url + "/api/v2/", verify=service.ca_path)
    data = r.json()
    for key in ("ping", "me", "users", "organizations", "inventory", "hosts", "credentials", "tokens", "config", "settings"):
        assert data[key] == "/api/v2/%s/" % ("inventories" if key == "inventory" else key)
    r = requests.get(service.url + "/api/v2/ping/", verify=service.ca_path)
    assert r.status_code == 200 and r.json()["version"] == "24.6.1"
    assert r.headers["X-API-Product-Name"] == "AWX"
    assert "X-API-Product-Version" not in r.headers
    assert r.headers["Strict-Transport-Security"] == "max-age=15768000"
    assert re.fullmatch(r"\d+\.\d{3}s", r.headers["X-API-Total-Time"])


def test_config(service, token):
    r = bearer(service, token, "GET", "/api/v2/config/")
    assert r.status_code == 200 and r.json()["version"] == "24.6.1"


def test_unknown_path_is_json_404(service, token):
    r = bearer(service, token, "GET", "/api/v2/hosts/999999/")
    assert r.status_code == 404
    assert r.json() == {"detail": "No Host matches the given query."} or "detail" in r.json()
    assert "Strict-Transport-Security" not in r.headers
    r = bearer(service, token, "GET", "/api/v2/nothing-here/")
    assert r.status_code == 404 and r.json()["detail"]


def test_object_shape(service, token, inventory):
    r = bearer(service, token, "GET", "/api/v2/hosts/?inventory=%d&name=h00.example.com" % inventory["id"])
    host = r.json()["results"][0]
    for key in ("id", "type", "url", "related", "summary_fields", "created", "modified", "name", "inventory", "description", "enabled", "variables", "instance_id"):
        assert key in host
    assert host["type"] == "host"
    assert host["url"] == "/api/v2/hosts/%d/" % host["id"]
    assert host["description"] == ""
    assert host["summary_fields"]["inventory"]["id"] == inventory["id"]
    assert host["summary_fields"]["inventory"]["name"] == inventory["name"]
    assert inventory["variables"] == '{"x": 1}' and inventory["kind"] == ""
    assert inventory["summary_fields"]["organization"] == {"id": 1, "name": "Default", "description": ""}


def test_pagination(service, token, inventory):
    base = "/api/v2/hosts/?inventory=%d&page_size=10" % inventory["id"]
    r = bearer(service, token, "GET", base)
    data = r.json()
    assert data["count"] == 30 and len(data["results"]) == 10
    assert data["previous"] is None
    assert data["next"].startswith("/api/v2/hosts/?") and "page=2" in data["next"] and "page_size=10" in data["next"]
    second = bearer(service, token, "GET", data["next"]).json()
    assert "page=1" in second["previous"] and "page=3" in second["next"]
    third = bearer(service, token, "GET", second["next"]).json()
    assert third["next"] is None
    names = [h["name"] for p in (data, second, third) for h in p["results"]]
    assert names == sorted(names) and len(set(names)) == 30
    assert bearer(service, token, "GET", base + "&page=9").status_code == 404
    big = bearer(service, token, "GET", "/api/v2/hosts/?page_size=500").json()
    assert len(big["results"]) <= 200


def test_filters(service, token, inventory):
    q = "/api/v2/hosts/?inventory=%d" % inventory["id"]
    hosts = bearer(service, token, "GET", q + "&page_size=100").json()["results"]
    ids = [h["id"] for h in hosts]
    r = bearer(service, token, "GET", q + "&name=h05.example.com").json()
    assert [h["name"] for h in r["results"]] == ["h05.example.com"]
    r = bearer(service, token, "GET", q + "&id=%d" % ids[3]).json()
    assert [h["id"] for h in r["results"]] == [ids[3]]
    r = bearer(service, token, "GET", q + "&or__id=%d&or__id=%d" % (ids[1], ids[2])).json()
    assert sorted(h["id"] for h in r["results"]) == sorted(ids[1:3])
    r = bearer(service, token, "GET", q + "&or__name=h07.example.com&or__name=h08.example.com").json()
    assert sorted(h["name"] for h in r["results"]) == ["h07.example.com", "h08.example.com"]
    r = bearer(service, token, "GET", q + "&order_by=-name&page_size=3").json()
    assert [h["name"] for h in r["results"]] == ["h29.example.com", "h28.example.com", "h27.example.com"]
    r = bearer(service, token, "GET", q + "&name__icontains=H1").json()
    assert r["count"] == 10
    r = bearer(service, token, "GET", q + "&search=h2").json()
    assert r["count"] == 10
    r = bearer(service, token, "GET", "/api/v2/inventories/?organization=1&name=%s" % inventory["name"]).json()
    assert r["count"] == 1
    r = bearer(service, token, "GET", "/api/v2/hosts/?inventory__name=%s" % inventory["name"]).json()
    assert r["count"] == 30
    assert bearer(service, token, "GET", "/api/v2/hosts/?bogus=1").status_code == 400
    assert bearer(service, token, "GET", "/api/v2/users/?password=x").status_code == 400


def test_host_unique_and_crud(service, token, inventory):
    r = bearer(service, token, "POST", "/api/v2/hosts/", json={"name": "h00.example.com", "inventory": inventory["id"]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Host with this Name and Inventory already exists."]}
    r = bearer(service, token, "POST", "/api/v2/hosts/", json={"name": "crud-" + uuid.uuid4().hex[:6], "inventory": inventory["id"], "variables": None, "description": None, "instance_id": None})
    assert r.status_code == 201, r.text
    host = r.json()
    assert r.headers["X-API-Product-Version"] == "24.6.1"
    r = bearer(service, token, "PATCH", host["url"], json={"variables": "a: 1\n", "enabled": False})
    assert r.status_code == 200 and r.json()["variables"] == "a: 1\n" and r.json()["enabled"] is False
    r = bearer(service, token, "PUT", host["url"], json={"name": host["name"], "inventory": inventory["id"], "description": "put"})
    assert r.status_code == 200 and r.json()["description"] == "put"
    r = bearer(service, token, "PATCH", host["url"], json={"variables": "[1, 2"})
    assert r.status_code == 400 and "variables" in r.json()
    r = bearer(service, token, "DELETE", host["url"])
    assert r.status_code == 204
    assert bearer(service, token, "GET", host["url"]).status_code == 404


def test_options(service, token):
    r = bearer(service, token, "OPTIONS", "/api/v2/hosts/")
    assert r.status_code == 200
    actions = r.json()["actions"]
    assert actions["GET"]["name"]["type"] == "string" and actions["GET"]["name"]["filterable"] is True
    assert actions["GET"]["inventory"]["type"] == "id"
    assert actions["GET"]["related"]["filterable"] is False
    assert actions["POST"]["name"]["required"] is True
    assert "id" not in actions["POST"]
    assert "GET, POST" in r.headers["Allow"]
    r = bearer(service, token, "OPTIONS", "/api/v2/hosts/1/")
    assert "PUT" in r.headers["Allow"] and "DELETE" in r.headers["Allow"]


def test_credentials(service, token):
    types = bearer(service, token, "GET", "/api/v2/credential_types/?name=Machine").json()
    machine = types["results"][0]
    name = "cred-" + uuid.uuid4().hex[:6]
    r = bearer(service, token, "POST", "/api/v2/credentials/", json={"name": name, "organization": 1, "credential_type": machine["id"], "inputs": {"username": "bob", "password": "secret"}})
    assert r.status_code == 201, r.text
    cred = r.json()
    assert cred["inputs"] == {"username": "bob", "password": "$encrypted$"}
    assert cred["summary_fields"]["organization"]["name"] == "Default"
    r = bearer(service, token, "GET", "/api/v2/credentials/?name=%s" % name).json()
    assert r["results"][0]["inputs"]["password"] == "$encrypted$"
    r = bearer(service, token, "POST", "/api/v2/credentials/", json={"name": name + "x", "organization": 1, "credential_type": machine["id"], "inputs": {"nope": 1}})
    assert r.status_code == 400


def test_users(service):
    name = "user-" + uuid.uuid4().hex[:6]
    user = service.create_user(name, "pw-123456")
    assert user["password"] == "$encrypted$"     # AWX 24.6.1 UserSerializer.to_representation
    for key in ("is_superuser", "is_system_auditor", "email", "first_name", "last_name"):
        assert key in user
    assert user["external_account"] is None and user["auth"] == []
    # Observed on AWX 24.6.1: a user's modified is its last login, null before the first.
    assert user["modified"] is None
    r = call(service, "GET", "/api/v2/me/", auth=(name, "pw-123456"))
    assert r.status_code == 200 and r.json()["count"] == 1
    # a non-administrator sees only what it may see and cannot create users or organizations
    r = call(service, "GET", "/api/v2/users/", auth=(name, "pw-123456"))
    assert [u["username"] for u in r.json()["results"]] == [name]
    r = call(service, "POST", "/api/v2/users/", auth=(name, "pw-123456"), json={"username": "x" + name, "password": "p"})
    assert r.status_code == 403 and r.json() == {"detail": "You do not have permission to perform this action."}
    r = call(service, "POST", "/api/v2/organizations/", auth=(name, "pw-123456"), json={"name": "o" + name})
    assert r.status_code == 403
    assert call(service, "GET", "/api/v2/organizations/", auth=(name, "pw-123456")).json()["count"] == 0
    assert call(service, "GET", "/api/v2/hosts/", auth=(name, "pw-123456")).json()["count"] == 0
    r = call(service, "PATCH", user["url"], auth=(name, "pw-123456"), json={"is_superuser": True})
    assert r.status_code == 403
    r = call(service, "PATCH", user["url"], auth=(name, "pw-123456"), json={"first_name": "Me", "password": "pw-654321"})
    assert r.status_code == 200 and r.json()["first_name"] == "Me"
    assert call(service, "GET", "/api/v2/me/", auth=(name, "pw-654321")).status_code == 200
    # made a member of Default, the user sees it
    assert call(service, "POST", "/api/v2/organizations/1/users/", json={"id": user["id"]}).status_code == 204
    assert call(service, "GET", "/api/v2/organizations/", auth=(name, "pw-654321")).json()["count"] == 1
    assert call(service, "DELETE", user["url"]).status_code == 204


def test_request_log_entries(service, token):
    mark = service.mark()
    bearer(service, token, "GET", "/api/v2/hosts/?name=zz")
    requests.get(service.url + "/api/v2/ping/", verify=service.ca_path)
    entries = service.since(mark)
    assert len(entries) == 2
    first, second = entries
    assert set(first) >= {"t", "method", "path", "query", "status", "auth", "user", "password_checks", "login"}
    assert (first["method"], first["path"], first["query"], first["status"], first["auth"], first["user"]) == ("GET", "/api/v2/hosts/", "name=zz", 200, "bearer", service.admin_username)
    assert (second["auth"], second["user"], second["password_checks"], second["login"]) == ("anonymous", None, 0, False)


def test_concurrent_clients(service, token):
    def one(i):
        return bearer(service, token, "POST", "/api/v2/organizations/", json={"name": "conc-%s-%d" % (uuid.uuid4().hex[:6], i)}).status_code

    with concurrent.futures.ThreadPoolExecutor(max_workers=60) as pool:
        codes = list(pool.map(one, range(120)))
    assert codes == [201] * 120


def test_stats(service):
    import subprocess
    import sys
    from pathlib import Path

    svcctl = Path(__file__).resolve().parents[1] / "svcctl"
    out = subprocess.run(
        [sys.executable, str(svcctl), "stats", "--dir", str(service.dir)],
        capture_output=True, text=True, check=True,
    )
    data = json.loads(out.stdout)
    assert data["requests"] >= 1 and "by_auth" in data and "password_checks" in data and "logins" in data


def test_root_user_and_organization_details_as_awx_24_6_1(service, token):
    """What the real AWX 24.6.1 answers (its recorded /api/v2/ root, awx/api/views/root.py, and
    awx/api/serializers.py UserSerializer and OrganizationSerializer)."""
    root = bearer(service, token, "GET", "/api/v2/").json()
    assert root["constructed_inventory"] == "/api/v2/constructed_inventories/"
    assert "constructed_inventories" not in root
    me = bearer(service, token, "GET", "/api/v2/me/").json()["results"][0]
    user = bearer(service, token, "GET", "/api/v2/users/%d/" % me["id"]).json()
    assert user["password"] == "$encrypted$"
    assert user["related"]["roles"] == "/api/v2/users/%d/roles/" % me["id"]
    # the administrator edits itself and does not delete itself
    assert user["summary_fields"]["user_capabilities"] == {"edit": True, "delete": False}
    org = bearer(service, token, "GET", "/api/v2/organizations/1/").json()
    roles = org["summary_fields"]["object_roles"]
    assert roles["member_role"]["user_only"] is True and roles["admin_role"]["user_only"] is True
    assert "user_only" not in roles["read_role"]
