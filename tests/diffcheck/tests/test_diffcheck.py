"""The differential check's proxy and comparison.

The proxy runs for real between a client and two reference services (the same
software, so that their answers should match up to ids): the secondary has
objects the primary has not, so its ids differ and every request that names an
object is translated. The comparison's rules are tested on recorded answers.
"""
import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import requests

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402  (beside the tests, not a package)
import proxy  # noqa: E402


@pytest.fixture(scope="module")
def tee(service_factory, tmp_path_factory):
    primary = service_factory()
    secondary = service_factory(SESSION_COOKIE_AGE=1799)
    # The secondary's ids run ahead of the primary's.
    for skew in range(3):
        secondary.admin_request("POST", "/api/v2/organizations/", {"name": "dc-skew-%d-%s" % (skew, uuid.uuid4().hex[:8])})
    # One administrator on both, as run.sh gives the two services.
    username, password = "dc-" + uuid.uuid4().hex[:8], uuid.uuid4().hex
    for service in (primary, secondary):
        service.create_user(username, password, is_superuser=True)
    work = tmp_path_factory.mktemp("diffcheck")
    record = work / "exchanges.jsonl"
    process = subprocess.Popen(
        [sys.executable, str(HERE / "proxy.py"), "--primary", primary.url, "--primary-ca", str(primary.ca_path),
         "--secondary", secondary.url, "--secondary-ca", str(secondary.ca_path), "--record", str(record),
         "--dir", str(work / "proxy")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = process.stdout.readline().strip()
    assert url.startswith("https://127.0.0.1:"), process.stderr.read()
    yield {"url": url, "ca": str(work / "proxy" / "ca.pem"), "auth": (username, password), "record": record,
           "primary": primary, "secondary": secondary, "password": password}
    process.terminate()
    process.wait(timeout=30)


def entries(record: Path) -> list:
    with open(record, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def last(record: Path) -> dict:
    return entries(record)[-1]


def test_ids_in_paths_bodies_and_queries_are_translated(tee):
    http = requests.Session()
    http.auth = tee["auth"]
    url, ca = tee["url"], tee["ca"]
    name = "dc-org-" + uuid.uuid4().hex[:8]
    r = http.post(url + "/api/v2/organizations/", json={"name": name}, verify=ca)
    assert r.status_code == 201 and r.headers["Location"] == r.json()["url"]
    org = r.json()["id"]
    created = last(tee["record"])
    assert created["primary"]["status"] == created["secondary"]["status"] == 201
    secondary_org = created["secondary"]["json"]["id"]
    assert secondary_org != org

    r = http.patch(url + "/api/v2/organizations/%d/" % org, json={"description": "changed"}, verify=ca)
    assert r.status_code == 200
    patched = last(tee["record"])
    assert patched["secondary_path"] == "/api/v2/organizations/%d/" % secondary_org
    assert patched["secondary"]["status"] == 200 and patched["secondary"]["json"]["description"] == "changed"

    r = http.post(url + "/api/v2/inventories/", json={"name": name + "-inv", "organization": org}, verify=ca)
    assert r.status_code == 201
    assert last(tee["record"])["secondary"]["json"]["organization"] == secondary_org
    r = http.get(url + "/api/v2/inventories/", params={"organization": org}, verify=ca)
    listed = last(tee["record"])
    assert r.json()["count"] == 1 and listed["secondary"]["json"]["count"] == 1

    # An id the secondary has no counterpart of is not sent there.
    r = http.get(url + "/api/v2/organizations/999999/", verify=ca)
    assert r.status_code == 404
    assert last(tee["record"])["skipped"] == "no counterpart of organizations 999999"


def test_a_session_gets_its_own_session_on_the_secondary(tee):
    url, ca = tee["url"], tee["ca"]
    http = requests.Session()
    page = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    r = http.get(url + "/api/login/", headers=page, verify=ca)
    assert r.status_code == 200
    r = http.post(url + "/api/login/", verify=ca, allow_redirects=False,
                  data={"username": tee["auth"][0], "password": tee["password"], "next": "/api/v2/"},
                  headers=dict(page, Referer=url + "/api/login/", **{"X-CSRFToken": http.cookies["csrftoken"]}))
    assert r.status_code == 302
    login = last(tee["record"])
    assert login["secondary"]["status"] == 302 and "svc_session_id" in login["secondary"]["cookies"]
    r = http.get(url + "/api/v2/me/", verify=ca)
    assert r.json()["results"][0]["username"] == tee["auth"][0]
    me = last(tee["record"])
    assert me["auth"] == "session" and me["secondary"]["json"]["results"][0]["username"] == tee["auth"][0]
    # A write with the session: the secondary checks its own CSRF token.
    r = http.post(url + "/api/v2/labels/", verify=ca, json={"name": "dc-label-" + uuid.uuid4().hex[:8], "organization": 1},
                  headers={"Referer": url + "/api/v2/labels/", "X-CSRFToken": http.cookies["csrftoken"]})
    assert r.status_code == 201, r.text
    assert last(tee["record"])["secondary"]["status"] == 201


def test_a_token_the_client_got_is_swapped_for_the_secondarys(tee):
    url, ca = tee["url"], tee["ca"]
    r = requests.post(url + "/api/v2/tokens/", json={"scope": "write"}, auth=tee["auth"], verify=ca)
    assert r.status_code == 201, r.text
    made = last(tee["record"])
    assert made["secondary"]["status"] == 201 and made["primary"]["json"]["token"] == "<str>"
    r = requests.get(url + "/api/v2/me/", headers={"Authorization": "Bearer " + r.json()["token"]}, verify=ca)
    assert r.status_code == 200
    used = last(tee["record"])
    assert used["auth"] == "bearer" and used["secondary"]["status"] == 200
    assert used["secondary"]["json"]["results"][0]["username"] == tee["auth"][0]


def test_nothing_secret_is_recorded(tee):
    text = tee["record"].read_text(encoding="utf-8")
    assert tee["password"] not in text
    for entry in entries(tee["record"]):
        assert not {"authorization", "cookie", "x-csrftoken"} & set(entry["headers"])


def test_the_same_software_shows_no_difference(tee):
    report = compare.build_report(entries(tee["record"]), [])
    assert report["summary"]["compared"] >= 6
    assert report["differences"] == [], json.dumps(report["differences"], indent=1)


def exchange(primary, secondary, method="GET", path="/api/v2/things/5/"):
    def answer(status, body, **headers):
        return {"status": status, "headers": headers, "cookies": [], "json": body}
    return {"seq": 1, "method": method, "path": path, "primary": answer(*primary), "secondary": answer(*secondary)}


def test_differences_by_kind():
    same = {"id": 5, "related": {"a": "/x/"}, "summary_fields": {"o": {"id": 1}}, "n": None}
    assert compare.differences(exchange((200, same), (200, dict(same, id=7)))) == []
    other = {"id": 5, "related": {}, "summary_fields": {"o": {"id": "1"}}, "n": "x", "extra": 1}
    found = {diff[:2] for diff in compare.differences(exchange((200, same), (200, other)))}
    assert found == {("key-missing", "related.a"), ("type", "summary_fields.o.id"), ("null", "n"), ("key-extra", "extra")}
    assert compare.differences(exchange((200, {"hosts": {"5": "a"}}), (200, {"hosts": {"9": "b"}}))) == []
    assert compare.differences(exchange((404, {"detail": "x"}), (200, {})))[0][0] == "status"
    assert compare.differences(exchange((400, {"name": ["a 1"]}), (400, {"name": ["a 2"]}))) == []
    assert compare.differences(exchange((400, {"__all__": ["a"]}), (400, {"non_field_errors": ["a"]})))[0][0] == "error-body"
    listed = {"count": 2, "next": None, "previous": None, "results": [{"type": "job", "id": 1}, {"type": "project", "id": 2}]}
    shown = {"count": 1, "next": None, "previous": None, "results": [{"type": "job", "id": 1, "x": 1}]}
    found = {diff[:2] for diff in compare.differences(exchange((200, listed), (200, shown)))}
    assert found == {("count", "count"), ("item-type-missing", "results[project]"), ("key-extra", "results[job].x")}


def test_known_differences_explain_by_pattern():
    known = [{"endpoint": "GET /api/v2/things/<id>/", "kind": "key-*", "where": "related.*", "reason": "not served"}]
    report = compare.build_report([exchange((200, {"related": {"a": "/x/"}}), (200, {"related": {}})),
                                   exchange((200, {"b": 1}), (200, {}))], known)
    reasons = {g["where"]: g["reason"] for g in report["differences"]}
    assert reasons == {"related.a": "not served", "b": None}
    assert report["summary"]["unexplained"] == 1 and report["unused_known"] == []


def test_ids_learned_from_list_items_only_when_they_pair_up():
    ids = proxy.Ids()
    ids.learn({"results": [{"type": "team", "name": "a", "url": "/api/v2/teams/1/"},
                           {"type": "team", "name": "b", "url": "/api/v2/teams/2/"}]},
              {"results": [{"type": "team", "name": "b", "url": "/api/v2/teams/7/"},
                           {"type": "team", "name": "c", "url": "/api/v2/teams/8/"}]})
    assert ids.ids == {("teams", 2): 7}
    assert ids.path("/api/v2/teams/2/users/") == "/api/v2/teams/7/users/"
    with pytest.raises(KeyError):
        ids.path("/api/v2/teams/1/")
    assert ids.body({"team": 2, "id": 2, "name": "2"}, "teams") == {"team": 7, "id": 7, "name": "2"}
    assert ids.query("team__in=2,3&name=2", None) == "team__in=7%2C3&name=2"


def test_sessions_are_known_by_their_session_cookie():
    sessions = proxy.Sessions()
    admin, user = {"awx_sessionid": "s-admin"}, {"awx_sessionid": "s-user"}
    sessions.remember(admin, ["awx_sessionid=p-admin; Path=/", "userLoggedIn=true; Path=/"], [])
    sessions.remember(user, ["awx_sessionid=p-user; Path=/", "userLoggedIn=true; Path=/"], [])
    assert sessions.jar_for("userLoggedIn=true; awx_sessionid=p-admin") == admin
    assert sessions.jar_for("awx_sessionid=p-user; userLoggedIn=true") == user
    # a login made while holding a session gets a jar of its own; the old session keeps its own
    sessions.remember(admin, ["awx_sessionid=p-new; Path=/"], ["awx_sessionid=s-new; Path=/"])
    assert sessions.jar_for("awx_sessionid=p-new") == {"awx_sessionid": "s-new"}
    assert sessions.jar_for("awx_sessionid=p-admin") == {"awx_sessionid": "s-admin"}
    # a session the proxy never saw has none on the secondary either
    assert sessions.jar_for("awx_sessionid=stale; csrftoken=c") == {}


def test_an_assignments_object_id_is_translated_by_its_role_definitions_content_type():
    ids = proxy.Ids()
    # a role definition's answer tells what its assignments' object_id names
    ids.learn({"results": [{"id": 13, "name": "Project Admin", "content_type": "awx.project",
                            "url": "/api/v2/role_definitions/13/"}]},
              {"results": [{"id": 14, "name": "Project Admin", "content_type": "awx.project",
                            "url": "/api/v2/role_definitions/14/"}]})
    ids.learn({"url": "/api/v2/projects/23/"}, {"url": "/api/v2/projects/21/"})
    ids.learn({"url": "/api/v2/teams/23/"}, {"url": "/api/v2/teams/5/"})
    # a string object_id stays a string; the role definition and the user are translated too
    assert ids.body({"role_definition": 13, "object_id": "23", "user": 6}) == {
        "role_definition": 14, "object_id": "21", "user": 6}
    assert ids.body({"role_definition": "13", "object_id": 23}) == {"role_definition": "14", "object_id": 21}
    # a content_type given beside it wins; one of a model not known leaves the id alone
    assert ids.body({"content_type": "awx.team", "object_id": "23"})["object_id"] == "5"
    assert ids.body({"content_type": "awx.nothing", "object_id": "23"})["object_id"] == "23"
    # an unknown role definition: the id is left as it is
    assert ids.body({"role_definition": 99, "object_id": "23"})["object_id"] == "23"
    assert ids.query("object_id=23&role_definition=13&team=23", None) == "object_id=21&role_definition=14&team=5"


def test_the_gateways_ids_and_the_controllers_are_apart():
    # Behind the platform gateway an organization has an id at the gateway and another at the
    # controller: what is learned at one API is used for that API's paths, fields and queries only.
    ids = proxy.Ids()
    ids.space = proxy.space_of("/api/gateway/v1/organizations/")
    ids.learn({"url": "/api/gateway/v1/organizations/3/", "summary_fields": {"resource": {"ansible_id": "p-uuid"}}},
              {"url": "/api/gateway/v1/organizations/4/", "summary_fields": {"resource": {"ansible_id": "s-uuid"}}})
    ids.space = proxy.space_of("/api/controller/v2/organizations/")
    ids.learn({"url": "/api/controller/v2/organizations/3/"}, {"url": "/api/controller/v2/organizations/9/"})
    assert ids.path("/api/controller/v2/organizations/3/teams/") == "/api/controller/v2/organizations/9/teams/"
    assert ids.body({"organization": 3}) == {"organization": 9}
    assert ids.query("organization=3", None) == "organization=9"
    ids.space = proxy.space_of("/api/gateway/v1/teams/")
    assert ids.path("/api/gateway/v1/organizations/3/") == "/api/gateway/v1/organizations/4/"
    assert ids.body({"organization": 3}) == {"organization": 4}
    # the resource id the services made for the organization is swapped too
    assert ids.query("resource__ansible_id=p-uuid", None) == "resource__ansible_id=s-uuid"
    # an object the controller's API named only is unknown at the gateway
    ids.space = ""
    ids.learn({"url": "/api/v2/teams/5/"}, {"url": "/api/v2/teams/6/"})
    ids.space = proxy.GATEWAY
    with pytest.raises(KeyError):
        ids.path("/api/gateway/v1/teams/5/")
