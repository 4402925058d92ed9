"""The reference service in its gateway layout (svcctl start --layout gateway): a platform
gateway (Automation Platform 2.5-2.7) at /api/gateway/v1/, built from django-ansible-base's
apps, in front of the controller's API at /api/controller/v2/ (tests/service/README.md,
"Gateway layout"). One instance for the module; real HTTPS requests."""
import base64
import json
import os
import shlex
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parents[3]
SVCCTL = REPO / "tests" / "service" / "svcctl"
GW = "/api/gateway/v1/"
CTL = "/api/controller/v2/"


class Gateway:
    def __init__(self, directory):
        self.dir = directory

    def start(self, *extra):
        env = dict(os.environ)
        env.setdefault("REFSVC_PASSWORD_ITERATIONS", "1000")
        command = [sys.executable, str(SVCCTL), "start", "--dir", str(self.dir), "--layout", "gateway", *extra]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
        assert result.returncode == 0, result.stderr
        self.exports = {}
        for line in result.stdout.splitlines():
            if line.startswith("export "):
                name, _, value = line[len("export "):].partition("=")
                self.exports[name] = shlex.split(value)[0]
        self.url = self.exports["SERVICE_URL"]
        self.ca_path = self.exports["SERVICE_CA_PATH"]
        self.admin = (self.exports["SERVICE_ADMIN_USERNAME"], self.exports["SERVICE_ADMIN_PASSWORD"])
        return self

    def stop(self):
        subprocess.run([sys.executable, str(SVCCTL), "stop", "--dir", str(self.dir)], capture_output=True, timeout=60)

    def session(self):
        s = requests.Session()
        s.verify = self.ca_path
        s.trust_env = False  # REQUESTS_CA_BUNDLE would override verify
        return s

    def basic(self, user=None, password=None):
        user, password = (user, password) if user else self.admin
        return {"Authorization": "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()}

    def login(self, user=None, password=None):
        user, password = (user, password) if user else self.admin
        s = self.session()
        r = s.get(self.url + GW + "login/", headers={"Accept": "text/html"})
        assert r.status_code == 200
        r = s.post(
            self.url + GW + "login/",
            data={"username": user, "password": password},
            headers={"X-CSRFToken": s.cookies["csrftoken"], "Referer": self.url + GW + "login/"},
            allow_redirects=False,
        )
        return s, r


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway")).start()
    yield instance
    instance.stop()


def test_start_exports_the_layout(gateway):
    assert gateway.exports["SERVICE_LAYOUT"] == "gateway"
    assert set(gateway.exports) >= {"SERVICE_URL", "SERVICE_CA_PATH", "SERVICE_ADMIN_USERNAME", "SERVICE_ADMIN_PASSWORD"}
    assert (gateway.dir / "layout").read_text().strip() == "gateway"


def test_api_root_tells_a_gateway_apart(gateway):
    s = gateway.session()
    root = s.get(gateway.url + "/api/")
    assert root.status_code == 200
    body = root.json()
    # AWX 24 answers {"description": "AWX REST API", "current_version": "/api/v2/", ...}.
    assert "current_version" not in body
    # the published gateway schemas' api_root_view: a description (its text is not known here) and the APIs
    assert set(body) == {"description", "apis"} and isinstance(body["description"], str)
    assert body["apis"]["gateway"] == "/api/gateway/"
    assert body["apis"]["controller"] == "/api/controller/"
    ctl = s.get(gateway.url + body["apis"]["controller"]).json()
    assert ctl["current_version"] == CTL
    assert ctl["available_versions"] == {"v2": CTL}
    gw = s.get(gateway.url + body["apis"]["gateway"]).json()
    assert gw == {"current_version": GW, "available_versions": {"v1": GW}}     # the schemas' api_gateway_root_view
    v1 = s.get(gateway.url + GW)
    assert v1.status_code == 200
    assert v1.json()["tokens"] == GW + "tokens/"
    # The controller's own paths are not served at the gateway.
    assert s.get(gateway.url + "/api/v2/ping/").status_code == 404


def test_controller_api_under_the_controller_prefix(gateway):
    s = gateway.session()
    ping = s.get(gateway.url + CTL + "ping/")
    assert ping.status_code == 200
    orgs = s.get(gateway.url + CTL + "organizations/", headers=gateway.basic())
    assert orgs.status_code == 200
    default = orgs.json()["results"][0]
    assert default["url"] == CTL + "organizations/%d/" % default["id"]
    assert all(link.startswith(CTL) for link in default["related"].values() if isinstance(link, str))
    # A create answers with the controller's path in Location and links.
    r = s.post(
        gateway.url + CTL + "inventories/",
        json={"name": "gw-" + uuid.uuid4().hex[:8], "organization": default["id"]},
        headers=gateway.basic(),
    )
    assert r.status_code == 201, r.text
    assert r.json()["url"].startswith(CTL + "inventories/")


def test_the_controller_has_no_oauth2_provider_of_its_own(gateway):
    """OAuth2 is the gateway's: the controller answers as once AWX removed its provider (after 24.6.1)."""
    s = gateway.session()
    headers = gateway.basic()
    for path in ("tokens/", "applications/", "users/1/tokens/", "users/1/personal_tokens/"):
        r = s.get(gateway.url + CTL + path, headers=headers)
        assert r.status_code == 404, (path, r.status_code)
    assert s.post(gateway.url + CTL + "tokens/", json={}, headers=headers).status_code == 404
    assert s.get(gateway.url + "/api/controller/o/").status_code == 404
    # AWX 24.6.1 leaves oauth2 out of its /api/ root under the URL prefix.
    assert "oauth2" not in s.get(gateway.url + "/api/controller/").json()
    v2 = s.get(gateway.url + CTL, headers=headers).json()
    assert "tokens" not in v2 and "applications" not in v2 and "organizations" in v2
    me = s.get(gateway.url + CTL + "me/", headers=headers).json()["results"][0]
    assert set(me["related"]).isdisjoint({"tokens", "personal_tokens", "authorized_tokens"})
    org = s.get(gateway.url + CTL + "organizations/", headers=headers).json()["results"][0]
    assert "applications" not in org["related"] and "teams" in org["related"]
    # The gateway's own tokens are there.
    assert s.get(gateway.url + GW + "tokens/", headers=headers).status_code == 200


def test_session_login_logout_and_me(gateway):
    s, r = gateway.login()
    assert r.status_code == 302
    assert "gateway_sessionid" in s.cookies
    cookie = next(c for c in s.cookies if c.name == "gateway_sessionid")
    assert cookie.expires is not None  # the session cookie's lifetime (SESSION_COOKIE_AGE)
    me = s.get(gateway.url + GW + "me/")
    assert me.status_code == 200
    assert me.json()["results"][0]["username"] == gateway.admin[0]
    assert me.headers["Session-Timeout"] == "1800"
    # The same session authenticates to the controller.
    assert s.get(gateway.url + CTL + "me/").json()["results"][0]["username"] == gateway.admin[0]
    # A write with the session needs the CSRF token and a Referer, as Django checks them.
    name = "gw-" + uuid.uuid4().hex[:8]
    refused = s.post(gateway.url + GW + "organizations/", json={"name": name})
    assert refused.status_code == 403
    ok = s.post(
        gateway.url + GW + "organizations/",
        json={"name": name},
        headers={"X-CSRFToken": s.cookies["csrftoken"], "Referer": gateway.url + GW},
    )
    assert ok.status_code == 201, ok.text
    s.get(gateway.url + GW + "logout/", allow_redirects=False)
    assert s.get(gateway.url + GW + "me/").status_code == 401


def test_bad_login(gateway):
    _, r = gateway.login(gateway.admin[0], "wrong")
    assert r.status_code == 401


def test_personal_tokens(gateway):
    s = gateway.session()
    r = s.post(gateway.url + GW + "tokens/", json={"description": "gw test", "scope": "write"}, headers=gateway.basic())
    assert r.status_code == 201, r.text
    created = r.json()
    token = created["token"]
    assert token and token != "$encrypted$"
    assert created["application"] is None
    bearer = {"Authorization": "Bearer " + token}
    assert s.get(gateway.url + GW + "me/", headers=bearer).json()["results"][0]["username"] == gateway.admin[0]
    assert s.get(gateway.url + CTL + "me/", headers=bearer).json()["results"][0]["username"] == gateway.admin[0]
    listed = s.get(gateway.url + GW + "tokens/", headers=bearer).json()["results"]
    mine = [t for t in listed if t["id"] == created["id"]]
    assert mine and mine[0]["token"] == "$encrypted$"
    assert mine[0]["last_used"] is not None
    # Revoked: the token no longer authenticates.
    assert s.delete(gateway.url + GW + "tokens/%d/" % created["id"], headers=gateway.basic()).status_code == 204
    assert s.get(gateway.url + GW + "me/", headers=bearer).status_code == 401
    assert s.get(gateway.url + CTL + "me/", headers=bearer).status_code == 401


def test_tokens_and_applications_show_the_columns_of_the_platforms_schema(gateway):
    """Not the columns django-oauth-toolkit added after the platform's version (refsvc/gateway/apps.py)."""
    s = gateway.session()
    s.headers.update(gateway.basic())
    r = s.post(gateway.url + GW + "tokens/", json={"description": "columns", "scope": "read"})
    assert r.status_code == 201, r.text
    token = r.json()
    shown = s.get(gateway.url + GW + "tokens/%d/" % token["id"]).json()
    for answer in (token, shown):
        assert "resource" not in answer and "token_checksum" not in answer
        assert answer["description"] == "columns"
    s.delete(gateway.url + GW + "tokens/%d/" % token["id"])
    org = s.get(gateway.url + GW + "organizations/").json()["results"][0]
    r = s.post(gateway.url + GW + "applications/", json={
        "name": "columns-%s" % uuid.uuid4().hex[:6], "organization": org["id"], "client_type": "confidential",
        "authorization_grant_type": "password"})
    assert r.status_code == 201, r.text
    app = r.json()
    assert not {"allowed_origins", "hash_client_secret", "registration_source", "cimd_expires_at"} & set(app)
    assert app["client_type"] == "confidential"
    s.delete(gateway.url + GW + "applications/%d/" % app["id"])

def test_organizations_users_teams_are_the_controllers(gateway):
    s = gateway.session()
    auth = gateway.basic()
    name = "gw-org-" + uuid.uuid4().hex[:8]
    org = s.post(gateway.url + GW + "organizations/", json={"name": name, "description": "d"}, headers=auth)
    assert org.status_code == 201, org.text
    org = org.json()
    assert org["url"] == GW + "organizations/%d/" % org["id"]
    seen = s.get(gateway.url + CTL + "organizations/", params={"name": name}, headers=auth).json()["results"]
    assert [o["id"] for o in seen] == [org["id"]]

    team = s.post(gateway.url + GW + "teams/", json={"name": "t1", "organization": org["id"]}, headers=auth)
    assert team.status_code == 201, team.text
    team = team.json()
    assert s.get(gateway.url + CTL + "teams/%d/" % team["id"], headers=auth).json()["name"] == "t1"

    username = "gwuser" + uuid.uuid4().hex[:6]
    user = s.post(gateway.url + GW + "users/", json={"username": username, "password": "pw-" + username}, headers=auth)
    assert user.status_code == 201, user.text
    user = user.json()
    assert user["password"] == "$encrypted$"
    # one made without a password has none to log in with (ansible.platform 2.6.20250924's lookup_test)
    nopw = s.post(gateway.url + GW + "users/", json={"username": username + "-n"}, headers=auth)
    assert nopw.status_code == 201 and nopw.json()["password"] == "Password Disabled", nopw.text
    assert s.get(gateway.url + GW + "users/%d/" % nopw.json()["id"], headers=auth).json()["password"] == "Password Disabled"
    assert s.get(gateway.url + CTL + "users/%d/" % user["id"], headers=auth).json()["username"] == username
    # The new user logs in at the gateway with the password the gateway set.
    assert s.get(gateway.url + GW + "me/", headers=gateway.basic(username, "pw-" + username)).status_code == 200
    # and may not change what only an administrator may.
    assert s.post(gateway.url + GW + "organizations/", json={"name": name + "x"},
                  headers=gateway.basic(username, "pw-" + username)).status_code == 403

    r = s.patch(gateway.url + GW + "organizations/%d/" % org["id"], json={"description": "changed"}, headers=auth)
    assert r.status_code == 200
    assert r.json()["description"] == "changed"
    # The controller's copy keeps a description of its own (AWX 24.6.1's shared types have none).
    assert s.get(gateway.url + CTL + "organizations/%d/" % org["id"], headers=auth).json()["description"] == ""
    assert s.delete(gateway.url + GW + "teams/%d/" % team["id"], headers=auth).status_code == 204
    assert s.delete(gateway.url + GW + "organizations/%d/" % org["id"], headers=auth).status_code == 204
    assert s.get(gateway.url + CTL + "organizations/%d/" % org["id"], headers=auth).status_code == 404


def test_the_controllers_copies_keep_descriptions_of_their_own(gateway):
    """AWX 24.6.1 behind a gateway (django-ansible-base 2024.7.1): an organization's and a team's description
    are not shared fields; the controller takes a PATCH of them and the gateway's stay as they were."""
    s = gateway.session()
    auth = gateway.basic()
    name = "gw-desc-" + uuid.uuid4().hex[:8]
    org = s.post(gateway.url + GW + "organizations/", json={"name": name, "description": "at the gateway"}, headers=auth)
    assert org.status_code == 201, org.text
    org = org.json()
    assert org["description"] == "at the gateway"
    team = s.post(gateway.url + GW + "teams/", json={"name": "t", "organization": org["id"], "description": "gw team"},
                  headers=auth).json()
    assert team["description"] == "gw team"
    assert s.get(gateway.url + CTL + "teams/%d/" % team["id"], headers=auth).json()["description"] == ""

    r = s.patch(gateway.url + CTL + "organizations/%d/" % org["id"], json={"description": "at the controller"},
                headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["description"] == "at the controller"
    r = s.patch(gateway.url + CTL + "teams/%d/" % team["id"], json={"description": "controller team"}, headers=auth)
    assert r.status_code == 200, r.text
    assert s.get(gateway.url + GW + "organizations/%d/" % org["id"], headers=auth).json()["description"] == "at the gateway"
    gw_team = s.get(gateway.url + GW + "teams/%d/" % team["id"], headers=auth).json()
    assert gw_team["description"] == "gw team"
    assert gw_team["summary_fields"]["organization"]["description"] == "at the gateway"
    # The shared fields stay refused.
    r = s.patch(gateway.url + CTL + "organizations/%d/" % org["id"], json={"name": name + "-x"}, headers=auth)
    assert r.status_code == 403
    assert r.json() == {"name": "Cannot change shared field 'name'. Alter this field via the platform ingress."}
    r = s.patch(gateway.url + CTL + "teams/%d/" % team["id"], json={"name": "t-x"}, headers=auth)
    assert r.status_code == 403
    assert s.delete(gateway.url + GW + "organizations/%d/" % org["id"], headers=auth).status_code == 204


def test_organizations_and_teams_are_filtered_on_the_descriptions_shown(gateway):
    """ansible.platform 2.6.20250924's lookup_test finds an organization by its description (a
    django-ansible-base field lookup): the gateway's description, kept apart from the controller's copy."""
    s = gateway.session()
    auth = gateway.basic()
    tag = uuid.uuid4().hex[:8]
    org = s.post(gateway.url + GW + "organizations/", json={"name": "gw-f-" + tag, "description": "d-" + tag},
                 headers=auth).json()
    other = s.post(gateway.url + GW + "organizations/", json={"name": "gw-g-" + tag, "description": "e-" + tag},
                   headers=auth).json()
    team = s.post(gateway.url + GW + "teams/", json={"name": "t", "organization": org["id"], "description": "d-" + tag},
                  headers=auth).json()

    def names(kind, **query):
        r = s.get(gateway.url + GW + kind + "/", params=query, headers=auth)
        assert r.status_code == 200, r.text
        return sorted(item["name"] for item in r.json()["results"])

    assert names("organizations", description="d-" + tag) == ["gw-f-" + tag]
    assert names("organizations", description__endswith=tag) == ["gw-f-" + tag, "gw-g-" + tag]
    assert names("organizations", description__startswith="e-", name__startswith="gw-") == ["gw-g-" + tag]
    assert names("teams", description="d-" + tag) == ["t"]
    assert names("teams", description="e-" + tag) == []
    for obj in (other, org):
        assert s.delete(gateway.url + GW + "organizations/%d/" % obj["id"], headers=auth).status_code == 204
    assert team["organization"] == org["id"]


def test_authenticators_list(gateway):
    s = gateway.session()
    r = s.get(gateway.url + GW + "authenticators/", headers=gateway.basic())
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"count", "next", "previous", "results"} <= set(body)
    assert s.get(gateway.url + GW + "authenticators/").status_code == 401
    # an installed gateway's local authenticator (the 2.6 schema: 1, Local Database Authenticator)
    local = body["results"][0]
    assert (local["id"], local["name"], local["enabled"]) == (1, "Local Database Authenticator", True)
    assert local["type"] == "ansible_base.authentication.authenticator_plugins.local"


def test_the_last_enabled_authenticator_is_kept(gateway):
    """django-ansible-base refuses to delete the last enabled authenticator: with the local one there,
    one made and deleted goes (ansible.platform 2.6.20250924's authenticators_test)."""
    s = gateway.session()
    auth = gateway.basic()
    made = s.post(gateway.url + GW + "authenticators/", headers=auth, json={
        "name": "gw-local-" + uuid.uuid4().hex[:8], "enabled": True, "configuration": {},
        "type": "ansible_base.authentication.authenticator_plugins.local"})
    assert made.status_code == 201, made.text
    assert s.delete(gateway.url + GW + "authenticators/%d/" % made.json()["id"], headers=auth).status_code == 204
    r = s.delete(gateway.url + GW + "authenticators/1/", headers=auth)
    assert r.status_code == 400 and "no authenticators would be enabled" in r.json()["details"]


def test_basic_auth_can_be_turned_off(tmp_path):
    instance = Gateway(tmp_path / "nobasic").start("--set", "GATEWAY_BASIC_AUTH_ENABLED=false")
    try:
        s = instance.session()
        assert s.get(instance.url + GW + "me/", headers=instance.basic()).status_code == 401
        assert s.get(instance.url + CTL + "me/", headers=instance.basic()).status_code == 401
        # The session login still works.
        session, r = instance.login()
        assert r.status_code == 302
        assert session.get(instance.url + GW + "me/").status_code == 200
    finally:
        instance.stop()


def test_setting_of_the_gateway_is_refused_in_the_awx_layout(tmp_path):
    result = subprocess.run(
        [sys.executable, str(SVCCTL), "start", "--dir", str(tmp_path / "awx"), "--set", "GATEWAY_BASIC_AUTH_ENABLED=false"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode != 0
    assert "unknown setting GATEWAY_BASIC_AUTH_ENABLED" in result.stderr


def test_roles_on_shared_objects_are_assigned_at_the_gateway(gateway):
    """AWX 24.6.1 behind a gateway (django-ansible-base 2024.7.1's check_locally_managed): a role definition
    with a permission other than view on an organization or a team is neither given nor taken back at the
    controller (400); the gateway's assignments give and take it back."""
    s = gateway.session()
    auth = gateway.basic()
    name = "gw-rbac-" + uuid.uuid4().hex[:8]
    org = s.post(gateway.url + GW + "organizations/", json={"name": name}, headers=auth).json()
    team = s.post(gateway.url + GW + "teams/", json={"name": "t", "organization": org["id"]}, headers=auth).json()
    username = "gwrbac" + uuid.uuid4().hex[:6]
    user = s.post(gateway.url + GW + "users/", json={"username": username, "password": "pw-" + username},
                  headers=auth).json()

    def definition(role_name):
        return s.get(gateway.url + CTL + "role_definitions/", params={"name": role_name},
                     headers=auth).json()["results"][0]["id"]

    audit, member = definition("Organization Audit"), definition("Organization Member")
    refused = ["Not managed locally, use the resource server instead"]
    for rd in (audit, member):
        r = s.post(gateway.url + CTL + "role_user_assignments/",
                   json={"role_definition": rd, "user": user["id"], "object_id": org["id"]}, headers=auth)
        assert (r.status_code, r.json()) == (400, refused)
    r = s.post(gateway.url + CTL + "role_team_assignments/",
               json={"role_definition": audit, "team": team["id"], "object_id": org["id"]}, headers=auth)
    assert (r.status_code, r.json()) == (400, refused)

    given = s.post(gateway.url + GW + "role_user_assignments/",
                   json={"role_definition": audit, "user": user["id"], "object_id": org["id"]}, headers=auth)
    assert given.status_code == 201, given.text
    given = given.json()
    listed = s.get(gateway.url + CTL + "role_user_assignments/", params={"id": given["id"]}, headers=auth).json()
    assert [a["id"] for a in listed["results"]] == [given["id"]]
    r = s.delete(gateway.url + CTL + "role_user_assignments/%d/" % given["id"], headers=auth)
    assert (r.status_code, r.json()) == (400, refused)
    assert s.delete(gateway.url + GW + "role_user_assignments/%d/" % given["id"], headers=auth).status_code == 204
    assert s.delete(gateway.url + GW + "users/%d/" % user["id"], headers=auth).status_code == 204
    assert s.delete(gateway.url + GW + "organizations/%d/" % org["id"], headers=auth).status_code == 204


def test_controller_root_names_constructed_inventory_as_awx(gateway):
    """AWX 24.6.1's /api/v2/ root (awx/api/views/root.py ApiVersionRootView) and the real AWX behind the gateway:
    the key is constructed_inventory, the list constructed_inventories/."""
    root = gateway.session().get(gateway.url + CTL, headers=gateway.basic()).json()
    assert root["constructed_inventory"] == CTL + "constructed_inventories/"
    assert "constructed_inventories" not in root
