"""The real Automation Hub behind the reference gateway: one login at the gateway serves the gateway,
the controller, EDA and the Hub (tests/service/refsvc/gateway/hub.py; tests/hub/README.md, "Behind
the reference gateway").

The Hub must have been started with `hubctl.py start --trust-gateway`: the one of HUB_DIR, else, when
HUB_URL is set (`make hub-start`), the one of .run/hub; else this module starts one of its own in
.run/hub-gateway and stops it at the end. One gateway (svcctl start --layout gateway --hub HUB_DIR) in
a temporary directory. By hand:

    .venv/bin/python -m pytest -q -p no:cacheprovider tests/hub/tests/test_hub_gateway.py
"""
import base64
import hashlib
import io
import json
import os
import shlex
import subprocess
import sys
import tarfile
import time
import uuid
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parents[3]
HUBCTL = REPO / "tests" / "hub" / "hubctl.py"
SVCCTL = REPO / "tests" / "service" / "svcctl"
GW = "/api/gateway/v1/"


def exports(text):
    values = {}
    for line in text.splitlines():
        words = shlex.split(line)
        if len(words) == 2 and words[0] == "export" and "=" in words[1]:
            name, value = words[1].split("=", 1)
            values[name] = value
    return values


@pytest.fixture(scope="module")
def hub_dir():
    if os.environ.get("HUB_DIR") or os.environ.get("HUB_URL"):
        directory = Path(os.environ.get("HUB_DIR") or REPO / ".run" / "hub")
        assert (directory / "gateway.json").exists(), (
            "the Hub of %s was not started with hubctl.py start --trust-gateway" % directory)
        yield directory
        return
    # Under the repository's .run (PostgreSQL, run as its own user, cannot enter pytest's folders).
    directory = REPO / ".run" / "hub-gateway"
    started = subprocess.run([sys.executable, str(HUBCTL), "start", "--trust-gateway", "--dir", str(directory)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert started.returncode == 0, started.stderr[-4000:]
        yield directory
    finally:
        subprocess.run([sys.executable, str(HUBCTL), "stop", "--dir", str(directory)], check=True)


class Gateway:
    def __init__(self, directory, hub_dir):
        self.dir, self.hub_dir = directory, hub_dir
        hub = json.loads((hub_dir / "gateway.json").read_text())
        self.hub_url, self.hub_ca, self.trust_header = hub["url"], hub["ca"], hub["header"]

    def start(self):
        env = dict(os.environ, REFSVC_PASSWORD_ITERATIONS=os.environ.get("REFSVC_PASSWORD_ITERATIONS", "1000"))
        result = subprocess.run([sys.executable, str(SVCCTL), "start", "--dir", str(self.dir), "--layout", "gateway",
                                 "--hub", str(self.hub_dir)], capture_output=True, text=True, timeout=300, env=env)
        assert result.returncode == 0, result.stderr[-4000:]
        values = exports(result.stdout)
        self.url, self.ca = values["SERVICE_URL"], values["SERVICE_CA_PATH"]
        self.admin = (values["SERVICE_ADMIN_USERNAME"], values["SERVICE_ADMIN_PASSWORD"])
        return self

    def stop(self):
        subprocess.run([sys.executable, str(SVCCTL), "stop", "--dir", str(self.dir)], capture_output=True, timeout=60)

    def session(self):
        s = requests.Session()
        s.verify = self.ca
        s.trust_env = False  # REQUESTS_CA_BUNDLE would take the place of verify
        return s

    def login(self, user, password):
        s = self.session()
        assert s.get(self.url + GW + "login/", headers={"Accept": "text/html"}).status_code == 200
        r = s.post(self.url + GW + "login/", data={"username": user, "password": password},
                   headers={"X-CSRFToken": s.cookies["csrftoken"], "Referer": self.url + GW + "login/"},
                   allow_redirects=False)
        assert r.status_code == 302, r.text[:300]
        return s

    def csrf(self, s):
        return {"X-CSRFToken": s.cookies["csrftoken"], "Referer": self.url + "/"}

    @staticmethod
    def basic(user, password):
        return {"Authorization": "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()}


@pytest.fixture(scope="module")
def gateway(hub_dir, tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway"), hub_dir).start()
    yield instance
    instance.stop()


@pytest.fixture(scope="module")
def users(gateway):
    """A superuser and a plain user made at the gateway (never at the Hub): {kind: (name, password)}."""
    made = {}
    for kind, superuser in (("super", True), ("plain", False)):
        name, password = "gw%s%s" % (kind, uuid.uuid4().hex[:8]), "pw-" + uuid.uuid4().hex
        r = gateway.session().post(gateway.url + GW + "users/", headers=gateway.basic(*gateway.admin),
                                   json={"username": name, "password": password, "is_superuser": superuser})
        assert r.status_code == 201, r.text[:300]
        made[kind] = (name, password, r.json()["id"])
    yield made
    # The gateway goes with its directory; the Hub's copies of its users would stay in the Hub's database. galaxy-ng
    # deletes no superuser (its access policy denies it): taken back first.
    s = gateway.session()
    s.auth = gateway.admin
    for name, _password, _id in made.values():
        for user in s.get(gateway.url + "/api/galaxy/_ui/v1/users/", params={"username": name}).json()["data"]:
            detail = gateway.url + "/api/galaxy/_ui/v1/users/%d/" % user["id"]
            demoted = s.patch(detail, json={"is_superuser": False})
            deleted = s.delete(detail)
            assert (demoted.status_code, deleted.status_code) == (200, 204), deleted.text[:300]


def test_api_root_lists_the_hub(gateway):
    apis = gateway.session().get(gateway.url + "/api/").json()["apis"]
    assert apis == {"gateway": "/api/gateway/", "controller": "/api/controller/", "galaxy": "/api/galaxy/"}


def test_one_session_login_serves_the_gateway_the_controller_eda_and_the_hub(gateway):
    s = gateway.login(*gateway.admin)
    assert s.get(gateway.url + GW + "me/").json()["results"][0]["username"] == "admin"
    assert s.get(gateway.url + "/api/controller/v2/me/").json()["results"][0]["username"] == "admin"
    assert s.get(gateway.url + "/api/eda/v1/users/me/").json()["username"] == "admin"
    me = s.get(gateway.url + "/api/galaxy/_ui/v1/me/")
    assert me.status_code == 200 and me.json()["username"] == "admin" and me.json()["is_superuser"] is True
    root = s.get(gateway.url + "/api/galaxy/").json()
    assert root["galaxy_ng_version"] == "4.9.2"
    # no cookie of the Hub's comes back (its session's would be "sessionid"): the session is the gateway's
    assert set(s.cookies.keys()) <= {"csrftoken", "gateway_sessionid", "userLoggedIn"}
    # a write with the session needs the gateway's CSRF token, as the gateway's own views do
    name = "gw" + uuid.uuid4().hex[:10]
    refused = s.post(gateway.url + "/api/galaxy/v3/namespaces/", json={"name": name, "groups": []})
    assert refused.status_code == 403
    made = s.post(gateway.url + "/api/galaxy/v3/namespaces/", json={"name": name, "groups": []}, headers=gateway.csrf(s))
    assert made.status_code == 201 and made.json()["name"] == name


def test_a_gateway_token_and_basic_reach_the_hub_as_the_gateways_user(gateway, users):
    s = gateway.session()
    plain, password, plain_id = users["plain"]
    token = s.post(gateway.url + GW + "tokens/", json={"description": "gw hub", "scope": "write"},
                   headers=gateway.basic(plain, password))
    assert token.status_code == 201
    bearer = {"Authorization": "Bearer " + token.json()["token"]}
    me = s.get(gateway.url + "/api/galaxy/_ui/v1/me/", headers=bearer).json()
    assert (me["username"], me["is_superuser"]) == (plain, False)
    # a superuser at the gateway is one at the Hub, with Basic at the gateway
    superuser, password_s, _ = users["super"]
    me = s.get(gateway.url + "/api/galaxy/_ui/v1/me/", headers=gateway.basic(superuser, password_s)).json()
    assert (me["username"], me["is_superuser"]) == (superuser, True)
    # made a superuser at the gateway: so at the Hub, at its next request
    r = s.patch(gateway.url + GW + "users/%d/" % plain_id, json={"is_superuser": True}, headers=gateway.basic(*gateway.admin))
    assert r.status_code == 200
    me = s.get(gateway.url + "/api/galaxy/_ui/v1/me/", headers=bearer).json()
    assert (me["username"], me["is_superuser"]) == (plain, True)
    # a wrong password at the gateway: the Hub is asked anonymously and refuses, in its words
    r = s.get(gateway.url + "/api/galaxy/", headers=gateway.basic(plain, "wrong"))
    assert r.status_code == 403 and r.json()["errors"][0]["code"] == "not_authenticated"


def test_unauthenticated_requests_to_the_hub_are_refused(gateway):
    r = gateway.session().get(gateway.url + "/api/galaxy/")
    assert r.status_code == 403
    assert r.json()["errors"][0]["code"] == "not_authenticated"
    r = gateway.session().get(gateway.url + "/api/galaxy/v3/namespaces/")
    assert r.status_code == 403


def test_a_trust_header_a_client_sends_is_not_passed_on(gateway, users):
    header = {gateway.trust_header: "admin"}
    # straight at the Hub the header names the user (what makes it matter) ...
    direct = requests.get(gateway.hub_url + "/api/galaxy/_ui/v1/me/", headers=header, verify=gateway.hub_ca, timeout=60)
    assert direct.status_code == 200 and direct.json()["username"] == "admin"
    # ... but through the gateway it is dropped: anonymous stays anonymous, a user stays itself
    r = gateway.session().get(gateway.url + "/api/galaxy/_ui/v1/me/", headers=header)
    assert r.status_code == 403
    superuser, password, _ = users["super"]
    spoofed = dict(gateway.basic(superuser, password), **{gateway.trust_header.lower(): "admin", "X-Gateway-User": "admin"})
    me = gateway.session().get(gateway.url + "/api/galaxy/_ui/v1/me/", headers=spoofed).json()
    assert me["username"] == superuser


def _collection(namespace):
    """A built collection (the files ansible-galaxy collection build writes), in memory."""
    manifest = {"collection_info": {
        "namespace": namespace, "name": "demo", "version": "1.0.0", "authors": ["test"], "readme": "README.md",
        "tags": ["test"], "description": "through the gateway", "license": ["GPL-3.0-or-later"], "license_file": None,
        "dependencies": {}, "repository": "https://example.com/demo", "documentation": None, "homepage": None,
        "issues": None}, "file_manifest_file": {"name": "FILES.json", "ftype": "file", "chksum_type": "sha256",
                                                "chksum_sha256": None, "format": 1}, "format": 1}
    readme = b"# demo\n"
    runtime = b'requires_ansible: ">=2.14"\n'
    files = {"files": [{"name": ".", "ftype": "dir", "chksum_type": None, "chksum_sha256": None, "format": 1}] + [
        {"name": name, "ftype": "dir", "chksum_type": None, "chksum_sha256": None, "format": 1} for name in ("meta",)] + [
        {"name": name, "ftype": "file", "chksum_type": "sha256", "chksum_sha256": hashlib.sha256(data).hexdigest(),
         "format": 1} for name, data in (("README.md", readme), ("meta/runtime.yml", runtime))], "format": 1}
    files_json = json.dumps(files).encode()
    manifest["file_manifest_file"]["chksum_sha256"] = hashlib.sha256(files_json).hexdigest()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in (("MANIFEST.json", json.dumps(manifest).encode()), ("FILES.json", files_json),
                           ("README.md", readme), ("meta/runtime.yml", runtime)):
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _wait(s, url, timeout=180):
    deadline = time.time() + timeout
    while True:
        state = s.get(url).json()
        if state["state"] in ("completed", "failed") or time.time() > deadline:
            return state
        time.sleep(1)


@pytest.fixture(scope="module")
def collection(gateway):
    """A collection uploaded through the gateway (multipart, with the session), imported by the Hub's worker and
    approved into published: (namespace, artifact). The module's one import (the Hub's slow task)."""
    s = gateway.login(*gateway.admin)
    namespace = "gw" + uuid.uuid4().hex[:10]
    assert s.post(gateway.url + "/api/galaxy/v3/namespaces/", json={"name": namespace, "groups": []},
                  headers=gateway.csrf(s)).status_code == 201
    artifact = _collection(namespace)
    r = s.post(gateway.url + "/api/galaxy/v3/artifacts/collections/", headers=gateway.csrf(s),
               files={"file": ("%s-demo-1.0.0.tar.gz" % namespace, artifact, "application/octet-stream")},
               data={"sha256": hashlib.sha256(artifact).hexdigest()})
    assert r.status_code == 202, r.text[:300]
    state = _wait(s, gateway.url + r.json()["task"])
    assert state["state"] == "completed", state.get("error")
    # the imported version reaches staging right after its import reports completed (observed: a moment later)
    staged = gateway.url + "/api/galaxy/v3/plugin/ansible/content/staging/collections/index/%s/demo/versions/1.0.0/" % namespace
    deadline = time.time() + 60
    while s.get(staged).status_code != 200 and time.time() < deadline:
        time.sleep(0.5)
    moved = s.post(gateway.url + "/api/galaxy/v3/collections/%s/demo/versions/1.0.0/move/staging/published/" % namespace,
                   headers=gateway.csrf(s))
    assert moved.status_code == 202, moved.text[:300]
    for task in {moved.json()["copy_task_id"], moved.json()["remove_task_id"]}:
        assert _wait(s, gateway.url + "/api/galaxy/pulp/api/v3/tasks/%s/" % task)["state"] == "completed"
    return namespace, artifact


def test_an_upload_and_its_download_go_through_the_gateway(gateway, collection):
    namespace, artifact = collection
    s = gateway.login(*gateway.admin)
    version = s.get(gateway.url + "/api/galaxy/v3/plugin/ansible/content/published/collections/index/%s/demo/versions/1.0.0/"
                    % namespace).json()
    # the Hub's absolute links name the gateway, and so does its redirect to the content app
    assert version["download_url"].startswith(gateway.url + "/api/galaxy/")
    redirect = s.get(version["download_url"], allow_redirects=False)
    assert redirect.status_code == 302 and redirect.headers["Location"].startswith(gateway.url + "/pulp/content/")
    download = s.get(redirect.headers["Location"])
    assert download.status_code == 200
    assert hashlib.sha256(download.content).hexdigest() == hashlib.sha256(artifact).hexdigest()


def test_the_hub_through_the_gateway_is_held_to_the_platforms_published_hub_schema(gateway, collection):
    """tests/schema/check.py on hub-2.7.json (../shared/platform-api/), through the gateway (the way clients reach
    the platform's Hub, and the gateway's routing is held to every path of it too): every difference explained
    in tests/schema/known-hub.yml. Report in tests/output/schema/hub-2.7/. Without the schema file the test says so
    and is skipped, as the other schema tests are (tests/schema/tests/test_gateway_module_options.py)."""
    sys.path.insert(0, str(REPO / "tests" / "schema"))
    import check

    if not os.path.exists(check.schema_path("hub-2.7.json")):
        pytest.skip("the platform's published schemas are not at %s: nothing to hold the Hub against" % check.SCHEMAS)
    env = dict(os.environ, SCHEMA_CHECK_HUB_PASSWORD=gateway.admin[1])
    result = subprocess.run(
        [sys.executable, str(REPO / "tests" / "schema" / "check.py"), "--schema", "hub-2.7.json", "--url", gateway.url,
         "--ca", gateway.ca, "--username", gateway.admin[0], "--password-env", "SCHEMA_CHECK_HUB_PASSWORD",
         "--known", str(REPO / "tests" / "schema" / "known-hub.yml"), "--seed", str(REPO / "tests" / "schema" / "seed-hub.yml"),
         "--out", str(REPO / "tests" / "output" / "schema" / "hub-2.7")],
        capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    summary = json.loads((REPO / "tests" / "output" / "schema" / "hub-2.7" / "report.json").read_text())["summary"]
    assert summary["paths"] >= 150 and summary["unexplained"] == 0
    shown = gateway.admin[1] in result.stdout + result.stderr
    assert not shown, "the check's output shows the password"


def test_the_registry_and_its_tokens_go_through_the_gateway(gateway):
    s = gateway.session()
    challenge = s.get(gateway.url + "/v2/")
    assert challenge.status_code == 401
    host = gateway.url.split("://", 1)[1]
    assert challenge.headers["WWW-Authenticate"] == 'Bearer realm="%s/token/",service="%s"' % (gateway.url, host)
    token = s.get(gateway.url + "/token/", params={"service": host, "scope": "registry:catalog:*"},
                  headers=gateway.basic(*gateway.admin))
    assert token.status_code == 200
    catalog = s.get(gateway.url + "/v2/_catalog", headers={"Authorization": "Bearer " + token.json()["token"]})
    assert catalog.status_code == 200 and "repositories" in catalog.json()
