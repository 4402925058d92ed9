"""The real AWX 24.6.1 behind the reference gateway (tests/realawx/gateway, make real-gateway-start):
a request to the gateway's /api/controller/ reaches the real AWX, through its own nginx, as the
gateway's user (a signed X-DAB-JW-TOKEN), and the collection's modules work through it.

Skipped when the real AWX is not built (make real-service). The real AWX is held for the test's
duration (tests/realawx/realawx hold, as the other users of it take turns), started behind a
gateway of the test's own, and put back afterwards (its usual settings, its provisioned
database; running again when it ran before)."""

import fcntl
import json
import os
import shlex
import ssl
import subprocess
import time
import urllib.error
import urllib.request
import uuid
import base64
from pathlib import Path

import pytest

from .migration import Objects, check_migration
from .playbook import run_playbook

# The repository: the reference service's (ansible-test units runs this file from a copy of the
# collection, where tests/service links to the repository's).
_COLLECTION = next(p for p in Path(__file__).resolve().parents if (p / "galaxy.yml").is_file())
ROOT = (_COLLECTION / "tests" / "service").resolve().parent.parent
REALAWX = ROOT / "tests" / "realawx" / "realawx"
GATEWAY = ROOT / "tests" / "realawx" / "gateway"


def _install():
    if not REALAWX.exists():
        return None
    result = subprocess.run([str(REALAWX), "path"], capture_output=True, text=True)
    path = Path(result.stdout.strip())
    return path if result.returncode == 0 and (path / ".build" / "complete").is_file() else None


INSTALL = _install()
pytestmark = pytest.mark.skipif(INSTALL is None, reason="the real AWX is not built (make real-service builds it)")


def _free_port():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    """The gateway's SERVICE_* values, the real AWX behind it; the real AWX held meanwhile."""
    held = None
    if not os.environ.get("REALAWX_HELD"):
        # the real AWX behind the gateway is the install's instance "gateway" (tests/realawx/gateway)
        held = open(str(INSTALL) + "-gateway.hold", "w")
        fcntl.flock(held, fcntl.LOCK_EX)
    env = dict(os.environ, REAL_GATEWAY_DIR=str(tmp_path_factory.mktemp("real-gateway")),
               REAL_GATEWAY_PORT=str(_free_port()), REALAWX_HELD="1")
    try:
        # with the test identity providers: the gateway's OIDC, SAML and LDAP authenticators
        result = subprocess.run([str(GATEWAY), "start", "--with-idp"], capture_output=True, text=True, env=env,
                                timeout=900)
        assert result.returncode == 0, result.stderr[-4000:]
        yield _exports(result.stdout)
    finally:
        subprocess.run([str(GATEWAY), "stop"], capture_output=True, text=True, env=env, timeout=600)
        if held is not None:
            held.close()


def _exports(stdout):
    """The SERVICE_* values of the export lines a start prints."""
    values = {}
    for line in stdout.splitlines():
        if line.startswith("export "):
            name, _, value = line[len("export "):].partition("=")
            values[name] = shlex.split(value)[0] if value else ""
    return values


@pytest.fixture(scope="module")
def real_awx():
    """The SERVICE_* values of the install's first AWX (in AWX's own layout), held meanwhile; stopped
    afterwards when it did not run before."""
    env = dict(os.environ, REALAWX_HELD="main")
    env.pop("REALAWX_INSTANCE", None)
    held = None
    if os.environ.get("REALAWX_HELD") != "main":
        held = open(str(INSTALL) + ".hold", "w")
        fcntl.flock(held, fcntl.LOCK_EX)
    running = subprocess.run([str(REALAWX), "status"], capture_output=True, env=env).returncode == 0
    try:
        result = subprocess.run([str(REALAWX), "start"], capture_output=True, text=True, env=env, timeout=900)
        assert result.returncode == 0, result.stderr[-4000:]
        yield _exports(result.stdout)
    finally:
        if not running:
            subprocess.run([str(REALAWX), "stop"], capture_output=True, text=True, env=env, timeout=600)
        if held is not None:
            held.close()


def _request(gateway, method, path, data=None, auth=None, token=None):
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(gateway["SERVICE_URL"] + path, data=body, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    else:
        username, password = auth or (gateway["SERVICE_ADMIN_USERNAME"], gateway["SERVICE_ADMIN_PASSWORD"])
        request.add_header("Authorization", "Basic " + base64.b64encode(("%s:%s" % (username, password)).encode()).decode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    context = ssl.create_default_context(cafile=gateway["SERVICE_CA_PATH"])
    try:
        with urllib.request.urlopen(request, context=context, timeout=120) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, json.loads(raw) if raw else None


def _access_log():
    # the log of the install's instance "gateway" (tests/realawx/gateway), the real AWX behind the gateway
    return (INSTALL / "logs-gateway" / "nginx-access.log").read_text().splitlines()


def _logged(line, before):
    """Whether the real AWX's nginx logged ``line`` after the first ``before`` lines. nginx writes a request's
    line once it has sent the answer, so the caller may read the log first: wait for it a little."""
    for _ in range(50):
        if any(line in entry for entry in _access_log()[before:]):
            return True
        time.sleep(0.1)
    return False


def test_a_gateway_user_is_that_user_at_the_real_controller(gateway):
    username, password = "gw-" + uuid.uuid4().hex[:8], "Gw-" + uuid.uuid4().hex
    status, data = _request(gateway, "POST", "/api/gateway/v1/users/",
                            {"username": username, "password": password, "email": username + "@example.com"})
    assert status == 201, data
    before = len(_access_log())
    status, data = _request(gateway, "GET", "/api/controller/v2/me/", auth=(username, password))
    assert status == 200, data
    me = data["results"][0]
    assert (me["username"], me["email"], me["is_superuser"]) == (username, username + "@example.com", False)
    # the controller's copy of the gateway's user: the gateway's ansible_id (its resource API)
    assert me["summary_fields"]["resource"]["resource_type"] == "shared.user"
    assert me["url"].startswith("/api/controller/v2/users/")
    # answered by the real AWX, through its nginx
    assert _logged('"GET /api/controller/v2/me/ HTTP/1.1" 200', before)


def test_a_gateway_token_is_the_administrator_at_the_real_controller(gateway):
    status, data = _request(gateway, "POST", "/api/gateway/v1/tokens/", {"description": "real gateway", "scope": "write"})
    assert status == 201, data
    status, data = _request(gateway, "GET", "/api/controller/v2/me/", token=data["token"])
    assert status == 200, data
    assert data["results"][0]["username"] == gateway["SERVICE_ADMIN_USERNAME"]
    assert data["results"][0]["is_superuser"] is True


def test_the_real_controller_refuses_to_create_an_organization_itself(gateway):
    status, data = _request(gateway, "POST", "/api/controller/v2/organizations/", {"name": "not-here"})
    assert (status, data) == (403, {"detail": "Creation of this resource is not allowed. Create this resource via "
                                              "the platform ingress."})


def test_modules_write_through_the_gateway_and_change_nothing_the_second_time(gateway, tmp_path):
    suffix = uuid.uuid4().hex[:8]
    tasks = [
        {"automation.service.organization": {"name": "org-" + suffix}, "register": "org"},
        {"automation.service.inventory": {"name": "inv-" + suffix, "organization": "org-" + suffix}, "register": "inv"},
        {"automation.service.host": {"name": "host-" + suffix, "inventory": "inv-" + suffix}, "register": "host"},
        {"ansible.builtin.copy": {"dest": str(tmp_path / "changed.json"),
                                  "content": "{{ [org.changed, inv.changed, host.changed] | to_json }}"}},
    ]
    env = {
        "SERVICE_URL": gateway["SERVICE_URL"], "SERVICE_CA_PATH": gateway["SERVICE_CA_PATH"],
        "SERVICE_USERNAME": gateway["SERVICE_ADMIN_USERNAME"], "SERVICE_PASSWORD": gateway["SERVICE_ADMIN_PASSWORD"],
    }
    before = len(_access_log())
    code, output = run_playbook(tmp_path, tasks, env=env, module_defaults={"service_auth": "session"})
    assert code == 0, output
    assert json.loads((tmp_path / "changed.json").read_text()) == [True, True, True]
    assert _logged('"POST /api/controller/v2/inventories/ HTTP/1.1" 201', before)
    assert _logged('"POST /api/controller/v2/hosts/ HTTP/1.1" 201', before)
    code, output = run_playbook(tmp_path, tasks, env=env, module_defaults={"service_auth": "session"})
    assert code == 0, output
    assert json.loads((tmp_path / "changed.json").read_text()) == [False, False, False]


def test_the_real_controller_keeps_descriptions_and_leaves_roles_on_organizations_to_the_gateway(gateway):
    """AWX 24.6.1 (django-ansible-base 2024.7.1): an organization's description is not shared, and is the
    copy's own; a role with more than view on an organization is refused at the controller, and the gateway's
    assignment of it reaches the controller in the gateway's token (object_roles), at the user's request."""
    name = "gw-org-" + uuid.uuid4().hex[:8]
    status, org = _request(gateway, "POST", "/api/gateway/v1/organizations/", {"name": name, "description": "gw"})
    assert status == 201, org
    status, found = _request(gateway, "GET", "/api/controller/v2/organizations/?name=" + name)
    copy = found["results"][0]
    assert copy["description"] == ""
    status, data = _request(gateway, "PATCH", "/api/controller/v2/organizations/%d/" % copy["id"], {"description": "ctl"})
    assert (status, data["description"]) == (200, "ctl")

    username, password = "gw-" + uuid.uuid4().hex[:8], "Gw-" + uuid.uuid4().hex
    status, user = _request(gateway, "POST", "/api/gateway/v1/users/", {"username": username, "password": password})
    assert status == 201, user
    status, data = _request(gateway, "GET", "/api/controller/v2/me/", auth=(username, password))
    assert status == 200, data
    controller_user = data["results"][0]["id"]
    status, data = _request(gateway, "GET", "/api/controller/v2/role_definitions/?name=Organization%20Audit")
    audit = data["results"][0]["id"]
    status, data = _request(gateway, "POST", "/api/controller/v2/role_user_assignments/",
                            {"role_definition": audit, "user": controller_user, "object_id": copy["id"]})
    assert (status, data) == (400, ["Not managed locally, use the resource server instead"])
    assert _request(gateway, "GET", "/api/controller/v2/organizations/%d/" % copy["id"], auth=(username, password))[0] in (403, 404)
    status, data = _request(gateway, "GET", "/api/gateway/v1/role_definitions/?name=Organization%20Audit")
    status, data = _request(gateway, "POST", "/api/gateway/v1/role_user_assignments/",
                            {"role_definition": data["results"][0]["id"], "user": user["id"], "object_id": org["id"]})
    assert status == 201, data
    status, data = _request(gateway, "GET", "/api/controller/v2/organizations/%d/" % copy["id"], auth=(username, password))
    assert status == 200, data

# Each of the gateway's authenticators, in front of the real controller: (service_auth, backend, the
# exported user name and password). The directory's ldap-admin is a superuser through its group's map;
# the identity providers' users are made superusers at the gateway after their first login (the
# controller takes it from the next request's token).
AUTHENTICATORS = {
    "oidc": ("sso", "test-oidc", "SSO_USERNAME", "SSO_PASSWORD"),
    "saml": ("sso", "test-saml", "SSO_USERNAME", "SSO_PASSWORD"),
    "ldap": ("session", None, "LDAP_ADMIN_USERNAME", "LDAP_ADMIN_PASSWORD"),
}


@pytest.mark.parametrize("method", sorted(AUTHENTICATORS))
def test_an_authenticators_user_runs_host_tasks_on_the_real_controller(gateway, tmp_path, method):
    auth, backend, user_var, password_var = AUTHENTICATORS[method]
    username = gateway[user_var]
    env = {
        "SERVICE_URL": gateway["SERVICE_URL"], "SERVICE_CA_PATH": gateway["SERVICE_CA_PATH"],
        "SERVICE_USERNAME": username, "SERVICE_PASSWORD": gateway[password_var],
        "SERVICE_CACHE_DIR": str(tmp_path / "cache"),
        # for the lookup too, which module_defaults do not reach
        "SERVICE_AUTH": auth, "SERVICE_SSO_BACKEND": backend or "",
    }
    # the first login makes the platform's user, and the first request through the gateway the controller's
    me = [{"ansible.builtin.set_fact": {"me": "{{ query('automation.service.api', 'me') | first }}"}},
          {"ansible.builtin.copy": {"dest": str(tmp_path / "me.json"), "content": "{{ me | to_json }}"}}]
    code, output = run_playbook(tmp_path, me, env=env)
    assert code == 0, output
    assert json.loads((tmp_path / "me.json").read_text())["username"] == username
    status, found = _request(gateway, "GET", "/api/gateway/v1/users/?username=" + username)
    assert status == 200 and found["count"] == 1, found
    user = found["results"][0]
    assert user["authenticators"], user  # an external user, linked to the authenticator it came through
    if not user["is_superuser"]:
        status, data = _request(gateway, "PATCH", "/api/gateway/v1/users/%d/" % user["id"], {"is_superuser": True})
        assert status == 200, data
    suffix = uuid.uuid4().hex[:8]
    tasks = [
        {"automation.service.inventory": {"name": "inv-%s-%s" % (method, suffix), "organization": "Default"},
         "register": "inv"},
        {"automation.service.host": {"name": "host-" + suffix, "inventory": "inv-%s-%s" % (method, suffix)},
         "register": "host"},
        {"ansible.builtin.copy": {"dest": str(tmp_path / "changed.json"),
                                  "content": "{{ [inv.changed, host.changed] | to_json }}"}},
    ]
    before = len(_access_log())
    code, output = run_playbook(tmp_path, tasks, env=env)
    assert code == 0, output
    assert json.loads((tmp_path / "changed.json").read_text()) == [True, True]
    assert _logged('"POST /api/controller/v2/hosts/ HTTP/1.1" 201', before)
    # made by that user, as the real controller saw it
    status, data = _request(gateway, "GET", "/api/controller/v2/hosts/?name=host-" + suffix)
    assert status == 200 and data["count"] == 1, data
    assert data["results"][0]["summary_fields"]["created_by"]["username"] == username
    code, output = run_playbook(tmp_path, tasks, env=env)
    assert code == 0, output
    assert json.loads((tmp_path / "changed.json").read_text()) == [False, False]
    assert gateway[password_var] not in output


def test_an_export_of_the_real_awx_imports_into_the_real_controller_behind_the_gateway(real_awx, gateway, tmp_path):
    """Moving an AWX into the platform (migration.py): from the real AWX 24.6.1 in its own layout into the real
    AWX 24.6.1 behind the gateway, in one play; a second import changes nothing."""
    objects = Objects()
    try:
        check_migration(tmp_path, objects, real_awx, gateway)
    finally:
        objects.remove(real_awx)
        objects.remove(gateway)
