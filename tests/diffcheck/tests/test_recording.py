"""Recordings and their replay (recording.py), with the proxy recording for real.

A reference service stands for the real one here: a client's exchanges go through proxy.py to it
and are saved as a recording; the same client then runs against other reference services, whose
answers are compared with the recording. One of them answers otherwise (its session cookie has
another name, as a changed reference service would): the replay must fail and name the exchange.
The pairing and normalizing rules are tested on made-up exchanges.
"""
import io
import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import requests

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

import recording  # noqa: E402  (beside the tests, not a package)


class Proxy:
    """proxy.py in front of one service, recording each exchange with the target a file names."""

    def __init__(self, service, work: Path):
        work.mkdir(parents=True, exist_ok=True)
        self.record = work / "exchanges.jsonl"
        self.target_file = work / "target"
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "proxy.py"), "--primary", service.url, "--primary-ca", str(service.ca_path),
             "--record", str(self.record), "--target-file", str(self.target_file), "--dir", str(work / "proxy")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        assert self.url.startswith("https://127.0.0.1:"), self.process.stderr.read()
        self.ca = str(work / "proxy" / "ca.pem")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def client_run(proxy: Proxy, username: str, password: str, extra: bool = False):
    """What a target would send: a session login, then an organization made, read, changed, deleted."""
    proxy.target_file.write_text("organizations\n")
    http = requests.Session()
    http.verify = proxy.ca
    http.trust_env = False  # REQUESTS_CA_BUNDLE would win over the session's CA
    http.get(proxy.url + "/api/login/").raise_for_status()
    answer = http.post(proxy.url + "/api/login/", data={
        "username": username, "password": password, "next": "/api/v2/",
        "csrfmiddlewaretoken": http.cookies.get("csrftoken")}, headers={"Referer": proxy.url + "/api/login/"},
        allow_redirects=False)
    assert answer.status_code == 302, answer.text[:300]
    csrf = {"X-CSRFToken": http.cookies.get("csrftoken"), "Referer": proxy.url + "/api/v2/"}
    name = "rec-" + uuid.uuid4().hex[:8]
    made = http.post(proxy.url + "/api/v2/organizations/", json={"name": name}, headers=csrf)
    assert made.status_code == 201, made.text
    org = made.json()["id"]
    http.get(proxy.url + "/api/v2/organizations/", params={"name": name}).raise_for_status()
    if extra:
        http.get(proxy.url + "/api/v2/organizations/%d/teams/" % org).raise_for_status()
    http.patch(proxy.url + "/api/v2/organizations/%d/" % org, json={"description": "changed"},
               headers=csrf).raise_for_status()
    assert http.get(proxy.url + "/api/v2/organizations/%d/" % org).json()["description"] == "changed"
    assert http.delete(proxy.url + "/api/v2/organizations/%d/" % org, headers=csrf).status_code == 204
    assert http.get(proxy.url + "/api/v2/organizations/%d/" % org).status_code == 404


def run_through(service, work: Path, username, password, extra=False) -> Path:
    proxy = Proxy(service, work)
    try:
        client_run(proxy, username, password, extra)
    finally:
        proxy.stop()
    return proxy.record


@pytest.fixture(scope="module")
def admin():
    return "rec-" + uuid.uuid4().hex[:8], uuid.uuid4().hex


def service_with(factory, admin, **settings):
    """An instance of the pool with these settings (one per set of settings), the administrator on it."""
    service = factory(**settings)
    status, found = service.admin_request("GET", "/api/v2/users/?username=%s" % admin[0])
    if not found["count"]:
        service.create_user(admin[0], admin[1], is_superuser=True)
    return service


@pytest.fixture(scope="module")
def recorded(service_factory, admin, tmp_path_factory):
    """The recording of the client's run against one service (standing for the real one)."""
    work = tmp_path_factory.mktemp("record")
    service = service_with(service_factory, admin, SESSION_COOKIE_NAME="awx_sessionid")
    record = run_through(service, work / "run", *admin)
    meta = recording.save(record, work / "awx-test", "awx", "24.6.1", today="2026-01-01")
    assert meta["targets"] == {"organizations": {"exchanges": 8, "recorded": "2026-01-01"}}
    return work / "awx-test"


def replay(recorded_dir: Path, record: Path, known=()):
    return recording.replay_report(recorded_dir, recording.read_jsonl(record), ["organizations"], list(known))


def test_a_recording_keeps_no_secret_and_no_id(recorded, admin):
    text = (recorded / "organizations.jsonl").read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert [(e["method"], e["path"]) for e in lines][:3] == [
        ("GET", "/api/login/"), ("POST", "/api/login/"), ("POST", "/api/v2/organizations/")]
    assert admin[1] not in text
    made = lines[2]["answer"]
    assert made["status"] == 201 and made["json"]["id"] == 0
    assert made["json"]["url"] == "/api/v2/organizations/<id>/"
    assert made["json"]["created"] == "<date>"
    # the login page's CSRF token is made alike
    assert "csrfmiddlewaretoken" not in text or "<token>" in text


def test_the_same_service_replays_without_difference(recorded, service_factory, admin, tmp_path):
    # another instance, whose ids run ahead of the recorded one's
    service = service_with(service_factory, admin, SESSION_COOKIE_NAME="awx_sessionid", SESSION_COOKIE_AGE=1798)
    for skew in range(2):
        service.admin_request("POST", "/api/v2/organizations/", {"name": "rec-skew-%d-%s" % (skew, uuid.uuid4().hex[:6])})
    report = replay(recorded, run_through(service, tmp_path, *admin))
    assert report["summary"]["compared"] == 8
    assert report["summary"]["unexplained"] == 0, report["differences"]


def test_an_answer_of_another_shape_fails_the_replay_and_is_named(recorded, service_factory, admin, tmp_path):
    # the reference service's session cookie now has another name than the real service's
    service = service_with(service_factory, admin)
    report = replay(recorded, run_through(service, tmp_path, *admin))
    unexplained = [g for g in report["differences"] if g["reason"] is None]
    # the cookie is set again by every answer of a session: each exchange but the first differs
    assert {g["kind"] for g in unexplained} == {"cookie"}
    assert sum(g["count"] for g in unexplained) == 7
    login = [g for g in unexplained if g["endpoint"] == "POST /api/login/"]
    assert [(g["example"]["seq"], g["example"]["primary"], g["example"]["secondary"]) for g in login] == [
        ("organizations#2", "awx_sessionid, csrftoken, userLoggedIn", "csrftoken, svc_session_id, userLoggedIn")]
    known = [{"endpoint": "*", "kind": "cookie", "reason": "explained"}]
    assert replay(recorded, run_through(service, tmp_path / "again", *admin), known)["summary"]["unexplained"] == 0


def test_a_request_the_recording_lacks_fails_even_when_known(recorded, service_factory, admin, tmp_path):
    service = service_with(service_factory, admin, SESSION_COOKIE_NAME="awx_sessionid")
    known = [{"endpoint": "*", "kind": "*", "reason": "everything"}]
    report = replay(recorded, run_through(service, tmp_path, *admin, extra=True), known)
    unexplained = [g for g in report["differences"] if g["reason"] is None]
    assert [(g["endpoint"], g["kind"]) for g in unexplained] == [("GET /api/v2/organizations/<id>/teams/", "unrecorded")]
    assert unexplained[0]["example"]["seq"] == "organizations#5"


def test_a_target_without_recording_fails(recorded, tmp_path):
    record = tmp_path / "exchanges.jsonl"
    entry = {"seq": 1, "target": "elsewhere", "method": "GET", "path": "/api/v2/ping/", "query": [],
             "primary": {"status": 200, "headers": {}, "cookies": [], "json": {}}}
    record.write_text(json.dumps(entry) + "\n")
    report = recording.replay_report(recorded, recording.read_jsonl(record), ["elsewhere"], [])
    assert report["summary"]["unrecorded"] == 1 and report["summary"]["unexplained"] == 1


def exchange(method, path, status=200, n=0, query=(), body=None):
    return {"target": "t", "method": method, "path": path, "query": list(query), "n": n,
            "answer": {"status": status, "headers": {}, "cookies": [], "json": body or {}}}


def test_pairing_follows_each_requests_order_not_the_interleaving():
    recorded = [exchange("GET", "/a/", n=1), exchange("GET", "/b/", n=2), exchange("GET", "/a/", 404, n=3)]
    replayed = [exchange("GET", "/b/"), exchange("GET", "/a/"), exchange("GET", "/a/", 404), exchange("GET", "/c/")]
    pairs, unrecorded, unreplayed = recording.pair(recorded, replayed)
    assert [(old["n"], new["answer"]["status"]) for old, new in pairs] == [(2, 200), (1, 200), (3, 404)]
    assert [e["path"] for e in unrecorded] == ["/c/"] and unreplayed == []
    pairs, unrecorded, unreplayed = recording.pair(recorded, replayed[1:2])
    assert [e["n"] for e in unreplayed] == [2]


def test_a_wait_that_polls_more_or_less_often_than_recorded_is_no_difference():
    recorded = [exchange("GET", "/jobs/<id>/", n=1), exchange("GET", "/jobs/<id>/", n=2, body={"status": "ok"})]
    more = [exchange("GET", "/jobs/<id>/") for _ in range(4)]
    pairs, unrecorded, unreplayed = recording.pair(recorded, more)
    assert [old["n"] for old, _ in pairs] == [1, 2, 2, 2] and unrecorded == [] and unreplayed == []
    pairs, unrecorded, unreplayed = recording.pair(recorded, more[:1])
    assert [old["n"] for old, _ in pairs] == [1] and unrecorded == [] and unreplayed == []


def test_a_replay_of_some_targets_pairs_the_first_login_with_a_left_out_targets(tmp_path):
    """In the recording the first target logged in; replayed alone, a later target logs in itself."""
    def write(target, *requests):
        (tmp_path / (target + ".jsonl")).write_text("".join(json.dumps(exchange(m, p)) + "\n" for m, p in requests))
    write("a", ("POST", "/api/login/"), ("GET", "/api/v2/hosts/"))
    write("b", ("GET", "/api/v2/teams/"))
    write("c", ("GET", "/api/v2/users/"))
    recorded_b = recording.read_jsonl(tmp_path / "b.jsonl")
    replayed = [exchange("POST", "/api/login/"), exchange("GET", "/api/v2/teams/"), exchange("GET", "/api/v2/x/")]
    pairs, unrecorded, _ = recording.pair(recorded_b, replayed)
    assert [e["path"] for e in unrecorded] == ["/api/login/", "/api/v2/x/"]
    # b replayed alone: a, left out and run before it, logged in
    moved, rest = recording.from_skipped(unrecorded, recording.skipped_before(tmp_path, "b", ["b"]))
    assert [(old["path"], new["path"]) for old, new in moved] == [("/api/login/", "/api/login/")]
    assert [e["path"] for e in rest] == ["/api/v2/x/"]
    # c, left out too but run after b, lends b nothing
    assert [[e["path"] for e in r] for r in recording.skipped_before(tmp_path, "b", ["b"])] == [
        ["/api/login/", "/api/v2/hosts/"]]
    # replayed with a, the login is b's own lack
    assert recording.skipped_before(tmp_path, "b", ["a", "b"]) == []
    moved, rest = recording.from_skipped(unrecorded, [])
    assert moved == [] and len(rest) == 2


def test_normalizing_makes_run_to_run_values_alike():
    answer = {"status": 200, "headers": {"content-type": "application/json", "x-api-request-id": "abc",
                                         "location": "/api/v2/hosts/12/?x=1"},
              "cookies": ["b", "a"],
              "json": {"id": 12, "url": "/api/v2/hosts/12/", "created": "2026-11-29T07:01:02.123456Z",
                       "version": "24.6.1", "uuid": "0b5e2c1a-1111-4222-8333-123456789abc",
                       "token": "<str>", "hosts": {"12": {"host_id": 12}}, "count": 3,
                       "detail": "CSRF a1B2c3D4e5F6g7H8i9J0k1L2 failed",
                       "PROJECTS_ROOT": "/var/lib/awx/projects", "related": {"me": "/api/v2/me/"},
                       "msg": "GET https://127.0.0.1:41234/api/v2/ answered 503"}}
    out = recording.normal_answer(answer)
    assert out["headers"] == {"content-type": "application/json", "location": "/api/v2/hosts/<id>/"}
    assert out["cookies"] == ["a", "b"]
    assert out["json"] == {"id": 0, "url": "/api/v2/hosts/<id>/", "created": "<date>", "version": "<version>",
                           "uuid": "<uuid>", "token": "<str>", "hosts": {"<id>": {"host_id": 0}}, "count": 3,
                           "detail": "CSRF <token> failed",
                           "PROJECTS_ROOT": "<path>", "related": {"me": "/api/v2/me/"},
                           "msg": "GET <service>/api/v2/ answered 503"}


def test_mark_names_each_target_and_the_failed_ones(tmp_path):
    output = ("Running host integration test role\nok\nRunning awx_compat integration test script\n"
              "ERROR: The 1 integration test(s) listed below (out of 2) failed. See error output above for details:\n"
              "awx_compat\n")
    out = io.StringIO()
    seen = []

    class Lines:
        def __iter__(self):
            for line in io.StringIO(output):
                yield line
                if (tmp_path / "target").exists():
                    seen.append((tmp_path / "target").read_text().strip())

    assert recording.mark(tmp_path / "target", Lines(), out) == ["awx_compat"]
    assert out.getvalue() == output
    assert seen[0] == "host" and seen[-1] == "awx_compat"
    assert (tmp_path / "target.failed").read_text() == "awx_compat\n"


def test_a_failed_target_is_not_kept(tmp_path):
    record = tmp_path / "exchanges.jsonl"
    lines = [{"seq": n, "target": target, "method": "GET", "path": "/api/v2/ping/", "query": [],
              "primary": {"status": 200, "headers": {}, "cookies": [], "json": {}}}
             for n, target in enumerate(["kept", "failed", "kept"])]
    record.write_text("".join(json.dumps(line) + "\n" for line in lines))
    meta = recording.save(record, tmp_path / "rec", "awx", "24.6.1", today="2026-01-01", leave_out=["failed"])
    assert list(meta["targets"]) == ["kept"] and meta["targets"]["kept"]["exchanges"] == 2
    assert not (tmp_path / "rec" / "failed.jsonl").exists()
