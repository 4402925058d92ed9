"""EDA's projects, rulebooks, activations, activation instances, event streams and audit rules
in the gateway layout (/api/eda/v1/; app refsvc/eda_activations): real HTTP against one
gateway per module, and the import's scan of a checked-out repository without a service.

A project imports ``https://github.com/ansible/eda-sample-project``: the service clones the
sample folder tests/service/sample_projects/eda-sample-project instead (sample_projects.py),
so no network is needed."""
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

SERVICE = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(SERVICE)]

import sample_projects  # noqa: E402
from refsvc.eda_activations import scm  # noqa: E402
from test_eda_core import api, type_id, unique  # noqa: E402,F401 (api: the administrator's requests, a fixture)
from test_gateway_layout import GW, Gateway  # noqa: E402

SAMPLE = "https://github.com/ansible/eda-sample-project"
COLLECTION = "https://github.com/ansible/event-driven-ansible"
SAMPLE_RULEBOOKS = ["hello_webhook.yml", "more/with_named_sources.yml", "range_long_running.yml"]


# -- the import's scan, without a service

def test_rulebooks_are_found_where_eda_looks(tmp_path):
    # rulebooks/ of the sample: walked, named by their path below it; YAML without rules and
    # files of other extensions are skipped
    found = scm.find_rulebooks(str(sample_projects.SOURCES / "eda-sample-project"))
    assert [r.name for r in found] == SAMPLE_RULEBOOKS
    assert found[2].content == (sample_projects.SOURCES / "eda-sample-project" / "rulebooks" /
                                "range_long_running.yml").read_text()
    # extensions/eda/rulebooks/ first
    (tmp_path / "extensions" / "eda" / "rulebooks").mkdir(parents=True)
    (tmp_path / "rulebooks").mkdir()
    rule = "- name: r\n  hosts: all\n  rules:\n    - name: a\n      condition: true\n      action:\n        debug: {}\n"
    (tmp_path / "extensions" / "eda" / "rulebooks" / "a.yaml").write_text(rule)
    (tmp_path / "rulebooks" / "b.yml").write_text(rule)
    (tmp_path / "extensions" / "eda" / "rulebooks" / "broken.yml").write_text("- name: [unclosed\n")
    (tmp_path / "extensions" / "eda" / "rulebooks" / "no_action.yml").write_text(rule.replace("action:", "other:"))
    assert [r.name for r in scm.find_rulebooks(str(tmp_path))] == ["a.yaml"]
    with pytest.raises(scm.ImportNotice, match="doesn't exist within the project root"):
        scm.find_rulebooks(str(tmp_path / "extensions"))


def test_sources_are_named_as_eda_names_them():
    content = (sample_projects.SOURCES / "eda-sample-project" / "rulebooks" / "more" / "with_named_sources.yml").read_text()
    sources = scm.sources_of(content)
    assert [s["name"] for s in sources] == ["ticks", "__SOURCE_2", "__SOURCE_3"]
    assert sources[0]["source_info"] == {"name": "ticks", "ansible.eda.range": {"limit": 3}}
    assert {s["rulebook_hash"] for s in sources} == {scm.rulebook_hash(content)}
    assert scm.rulebook_hash(content) == __import__("hashlib").sha256(content.encode()).hexdigest()
    # a name used twice: the second gets its number
    twice = "- name: x\n  sources:\n    - name: s\n      a: {}\n    - name: s\n      b: {}\n  rules: []\n"
    assert [s["name"] for s in scm.sources_of(twice)] == ["s", "__SOURCE_2"]


def test_credential_goes_in_a_header_not_the_url():
    assert scm.credential_header("", "") == ""
    header = scm.credential_header("user", "pass word")
    assert header == "Authorization: Basic dXNlcjpwYXNzIHdvcmQ="
    assert scm.credential_header("", "tok") == "Authorization: Basic dG9rOg=="


def test_clone_takes_the_branch_and_says_what_failed(tmp_path, monkeypatch):
    # the sample repositories as svcctl makes them, their public URLs rewritten to them
    for name, value in sample_projects.ensure(tmp_path / "svc").items():
        monkeypatch.setenv(name, value)
    revision = scm.clone(SAMPLE, str(tmp_path / "a"))
    made = subprocess.run(["git", "--git-dir", str(tmp_path / "svc" / "sample-projects" / "eda-sample-project.git"),
                           "rev-parse", "main"], capture_output=True, text=True, check=True).stdout.strip()
    assert revision == made and len(revision) == 40
    assert scm.clone(SAMPLE + ".git", str(tmp_path / "b"), branch=sample_projects.TAG, verify_ssl=False) == made
    assert [r.name for r in scm.find_rulebooks(str(tmp_path / "b"))] == SAMPLE_RULEBOOKS
    with pytest.raises(scm.ImportFailed, match="nope"):
        scm.clone(SAMPLE, str(tmp_path / "c"), branch="nope")
    with pytest.raises(scm.ImportFailed) as failed:
        scm.clone("https://127.0.0.1:9/x.git", str(tmp_path / "d"), username="u", password="hunter2-secret")
    assert "127.0.0.1" in str(failed.value) and "hunter2" not in str(failed.value)


# -- the endpoints, on one gateway

@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("eda-activations")).start()
    yield instance
    instance.stop()


def _until(api, path, done, seconds=20):
    """GET ``path`` until ``done(body)``; the last body."""
    deadline = time.monotonic() + seconds
    while True:
        status, body = api("GET", path)
        assert status == 200, body
        if done(body) or time.monotonic() > deadline:
            return body
        time.sleep(0.1)


def _imported(api, body):
    status, project = api("POST", "projects/", body)
    assert status == 201, project
    assert project["import_state"] == "pending" and project["git_hash"] == ""
    return _until(api, "projects/%d/" % project["id"], lambda p: p["import_state"] not in ("pending", "running"))


def test_projects_import_their_rulebooks(api):
    org = api("GET", "organizations/?name=Default")[1]["results"][0]
    sample = _imported(api, dict(name="eda sample", url=SAMPLE, organization_id=org["id"], description="d"))
    assert sample["import_state"] == "completed" and sample["import_error"] is None
    assert len(sample["git_hash"]) == 40 and sample["last_synced_at"]
    assert sample["organization"] == {"id": org["id"], "name": "Default", "description": org["description"]}
    assert sample["eda_credential"] is None and sample["proxy"] == "" and sample["created_by"]["username"] == "admin"
    status, rulebooks = api("GET", "rulebooks/?project_id=%d" % sample["id"])
    assert [r["name"] for r in rulebooks["results"]] == SAMPLE_RULEBOOKS
    assert {r["organization_id"] for r in rulebooks["results"]} == {org["id"]}
    # extensions/eda/rulebooks/, a URL with .git
    collection = _imported(api, dict(name="eda collection", url=COLLECTION + ".git", organization_id=org["id"]))
    assert api("GET", "rulebooks/?project_id=%d" % collection["id"])[1]["count"] == 2
    # no rulebooks directory: completed, with the warning; a repository that does not answer: failed
    demo = _imported(api, dict(name="no rulebooks", url="https://github.com/ansible/ansible-tower-samples",
                               organization_id=org["id"]))
    assert demo["import_state"] == "completed" and "'rulebooks' directory doesn't exist" in demo["import_error"]
    failed = _imported(api, dict(name="refused", url="https://127.0.0.1:9/none.git", organization_id=org["id"]))
    assert failed["import_state"] == "failed" and failed["import_error"] and failed["git_hash"] == ""
    # EDA's checks
    status, body = api("POST", "projects/", dict(name="f", url="file:///tmp/x", organization_id=org["id"]))
    assert (status, body) == (400, {"url": ["Invalid source control URL: Unsupported scheme 'file'"]})
    status, body = api("POST", "projects/", dict(name="eda sample", url=SAMPLE, organization_id=org["id"]))
    assert (status, body) == (400, {"name": ["project with this name already exists."]})
    # a sync: 202 and pending, 409 while it runs, then completed at the same revision
    status, synced = api("POST", "projects/%d/sync/" % sample["id"])
    assert status == 202 and synced["import_state"] == "pending" and synced["organization_id"] == org["id"]
    status, body = api("POST", "projects/%d/sync/" % sample["id"])
    assert status in (202, 409)
    if status == 409:
        assert body == {"detail": "Project import or sync is already running."}
    again = _until(api, "projects/%d/" % sample["id"], lambda p: p["import_state"] == "completed")
    assert again["git_hash"] == sample["git_hash"]
    # a change of the branch syncs again: a branch that does not exist fails the import
    status, changed = api("PATCH", "projects/%d/" % collection["id"], dict(scm_branch="nope", description="x"))
    assert status == 200 and changed["import_state"] == "pending" and changed["description"] == "x"
    collection = _until(api, "projects/%d/" % collection["id"], lambda p: p["import_state"] == "failed")
    assert "nope" in collection["import_error"]
    # a source control credential and a proxy with a password: neither shown
    status, credential = api("POST", "eda-credentials/", dict(
        name=unique("scm"), credential_type_id=type_id(api, "Source Control"), organization_id=org["id"],
        inputs={"username": "git", "password": "scm-secret-password"}))
    assert status == 201, credential
    proxy = "http://user:proxy-secret@proxy.invalid:3128"
    private = _imported(api, dict(name=unique("private"), url=SAMPLE, organization_id=org["id"], proxy=proxy,
                                  eda_credential_id=credential["id"]))
    assert private["import_state"] == "completed" and private["eda_credential"]["id"] == credential["id"]
    assert private["proxy"] == "http://user:$encrypted$@proxy.invalid:3128"
    assert private["eda_credential"]["inputs"]["password"] == "$encrypted$"
    status, body = api("PATCH", "projects/%d/" % private["id"], dict(proxy="http://other:$encrypted$@p.invalid"))
    assert (status, body) == (400, {"non_field_errors": ["The password in the proxy field should be unencrypted"]})
    status, body = api("PATCH", "projects/%d/" % private["id"], dict(name="eda sample"))
    assert (status, body) == (400, {"name": ["Project with this name already exists."]})
    assert api("PATCH", "projects/%d/" % private["id"], dict(proxy=private["proxy"]))[1]["proxy"] == private["proxy"]
    status, body = api("PATCH", "projects/%d/" % private["id"], dict(signature_validation_credential_id=credential["id"]))
    assert (status, body) == (400, {"signature_validation_credential_id": [
        "The type of credential can only be one of ['GPG Public Key']"]})
    # the filters, and a delete taking its rulebooks
    assert [p["name"] for p in api("GET", "projects/?name=EDA")[1]["results"]] == ["eda sample", "eda collection"]
    assert api("GET", "rulebooks/?project_id=%d" % private["id"])[1]["count"] == 3
    assert api("GET", "projects/?url=tower-samples")[1]["count"] == 1
    assert api("DELETE", "projects/%d/" % demo["id"])[0] == 204
    assert api("GET", "projects/%d/" % demo["id"])[0] == 404


def _setup(api, name):
    """A project of the sample imported, a decision environment, the Default organization's id."""
    org = api("GET", "organizations/?name=Default")[1]["results"][0]["id"]
    project = api("GET", "projects/?name=" + name)[1]["results"]
    project = project[0] if project else _imported(api, dict(name=name, url=SAMPLE, organization_id=org))
    status, environment = api("POST", "decision-environments/", dict(
        name="de " + name, image_url="quay.io/ansible/ansible-rulebook:main", organization_id=org))
    assert status == 201, environment
    rulebooks = {r["name"]: r for r in api("GET", "rulebooks/?project_id=%d" % project["id"])[1]["results"]}
    return org, project, environment, rulebooks


def test_an_activation_runs_stops_restarts_and_is_copied(api):
    org, project, environment, rulebooks = _setup(api, "activations")
    rulebook = rulebooks["range_long_running.yml"]
    status, made = api("POST", "activations/", dict(name="counting", rulebook_id=rulebook["id"], organization_id=org,
                                                     decision_environment_id=environment["id"], extra_var="n: 1"))
    assert status == 201, made
    assert made["status"] == "pending" and made["is_enabled"] is True and made["instances"] == []
    assert made["rulebook"] == {"id": rulebook["id"], "name": "range_long_running.yml", "description": "",
                                "organization_id": org}
    assert made["project"]["id"] == project["id"] and made["git_hash"] == project["git_hash"]
    assert made["decision_environment"]["image_url"] == "quay.io/ansible/ansible-rulebook:main"
    assert made["rulebook_name"] == "range_long_running.yml" and made["extra_var"] == "n: 1"
    assert (made["restart_policy"], made["log_level"], made["awx_token_id"]) == ("on-failure", "debug", None)
    assert made["ruleset_stats"] == "" and (made["rules_count"], made["rules_fired_count"]) == (0, 0)
    path = "activations/%d/" % made["id"]
    # nothing runs here, and the activation says so
    running = _until(api, path, lambda a: a["status"] == "running")
    assert "does not run rulebooks" in running["status_message"]
    assert [i["status"] for i in running["instances"]] == ["running"]
    instance = running["instances"][0]
    assert instance["activation_id"] == made["id"] and instance["ended_at"] is None
    logs = api("GET", "activation-instances/%d/logs/" % instance["id"])[1]
    assert logs["count"] == 1 and "does not run rulebooks" in logs["results"][0]["log"]
    assert api("GET", "activation-instances/%d/" % instance["id"])[1]["status"] == "running"
    # changed only when disabled
    status, body = api("PATCH", path, dict(description="changed"))
    assert (status, body) == (409, "Activation is not in disabled mode and in stopped status")
    assert api("POST", path + "disable/") == (204, None)
    stopped = api("GET", path)[1]
    assert (stopped["is_enabled"], stopped["status"], stopped["status_message"]) == (False, "stopped",
                                                                                     "Stop requested by user.")
    assert stopped["instances"][0]["status"] == "stopped" and stopped["instances"][0]["ended_at"]
    status, body = api("POST", path + "restart/")
    assert (status, body) == (403, {"detail": "Activation is disabled and cannot be run."})
    status, changed = api("PATCH", path, dict(description="changed", log_level="info", restart_policy="always"))
    assert status == 200 and (changed["description"], changed["log_level"]) == ("changed", "info")
    assert changed["edited_by"]["username"] == "admin" and changed["edited_at"]
    # enabled again, restarted: a new instance each time, the restart counted
    assert api("POST", path + "enable/") == (204, None)
    _until(api, path, lambda a: a["status"] == "running")
    assert api("POST", path + "restart/") == (204, None)
    restarted = _until(api, path, lambda a: a["status"] == "running" and a["restart_count"] == 1)
    assert [i["status"] for i in restarted["instances"]] == ["stopped", "stopped", "running"]
    assert restarted["restarted_at"] == restarted["instances"][-1]["started_at"]
    listed = api("GET", "activations/%d/instances/?status=stop" % made["id"])[1]
    assert listed["count"] == 2
    # a copy: disabled, the same links, a name of its own (OPTIONS describes what it takes)
    assert list(api("OPTIONS", path + "copy/")[1]["actions"]["POST"]) == ["name"]
    status, copy = api("POST", path + "copy/", dict(name="counting copy"))
    assert status == 201 and copy["is_enabled"] is False and copy["id"] != made["id"]
    assert (copy["rulebook"]["id"], copy["decision_environment"]["id"], copy["extra_var"]) == (
        rulebook["id"], environment["id"], "n: 1")
    assert api("POST", path + "copy/", dict(name="counting copy"))[0] == 400
    # its decision environment deleted (by force: activations use it), the copy cannot be enabled
    assert api("DELETE", "decision-environments/%d/" % environment["id"])[0] == 409
    assert api("DELETE", "decision-environments/%d/?force=true" % environment["id"])[0] == 204
    status, body = api("POST", "activations/%d/enable/" % copy["id"])
    assert (status, body) == (400, {"errors": "{'decision_environment_id': 'Decision Environment is needed'}"})
    assert api("GET", "activations/%d/" % copy["id"])[1]["status"] == "error"
    # the list's form and filters
    status, page = api("GET", "activations/?name=counting&project_id=%d" % project["id"])
    assert [a["name"] for a in page["results"]] == ["counting copy", "counting"]
    assert page["results"][1]["rulebook_id"] == rulebook["id"] and "instances" not in page["results"][1]
    assert api("GET", "activations/?status=running")[1]["count"] >= 1
    # deleted with its instances
    assert api("DELETE", path) == (204, None)
    assert api("GET", path)[0] == 404
    assert api("GET", "activation-instances/%d/" % instance["id"])[0] == 404


def test_rulebooks_event_streams_tokens_and_who_sees_them(gateway, api):
    org, project, environment, rulebooks = _setup(api, "streams")
    webhook, controller = rulebooks["hello_webhook.yml"], rulebooks["more/with_named_sources.yml"]
    # a rulebook, parsed, and its sources
    status, parsed = api("GET", "rulebooks/%d/json/" % webhook["id"])
    assert status == 200 and parsed["rulesets"][0]["sources"][0]["name"] == "incoming"
    assert api("GET", "rulebooks/%d/" % webhook["id"])[1]["rulesets"] == webhook["rulesets"]
    sources = api("GET", "rulebooks/%d/sources/" % controller["id"])[1]
    assert [s["name"] for s in sources["results"]] == ["ticks", "__SOURCE_2", "__SOURCE_3"]
    assert sources["results"][0]["source_info"] == "name: ticks\nansible.eda.range:\n  limit: 3\n"
    assert api("GET", "rulebooks/999999/sources/") == (404, {"detail": "Rulebook with ID=999999 does not exist."})
    # an event stream: a credential of an event stream type, its kind the stream's type
    status, credential = api("POST", "eda-credentials/", dict(
        name=unique("stream-cred"), credential_type_id=type_id(api, "Token Event Stream"), organization_id=org,
        inputs={"token": "stream-secret-token"}))
    assert status == 201, credential
    status, stream = api("POST", "event-streams/", dict(name=unique("stream"), eda_credential_id=credential["id"],
                                                        organization_id=org))
    assert status == 201, stream
    assert stream["event_stream_type"] == "token" and stream["owner"] == "admin" and stream["events_received"] == 0
    assert stream["url"] == gateway.url + "/api/eda/v1/external_event_stream/%s/post/" % stream["uuid"]
    assert stream["eda_credential"]["inputs"]["token"] == "$encrypted$"
    status, body = api("POST", "event-streams/", dict(name=unique("s"), eda_credential_id=999999,
                                                      organization_id=org))
    assert status == 400 and body == {"eda_credential_id": ["EdaCredential with id 999999 does not exist"]}
    # an activation whose source takes the stream's events
    source = api("GET", "rulebooks/%d/sources/" % webhook["id"])[1]["results"][0]
    mapping = [dict(source_name=source["name"], event_stream_id=stream["id"], event_stream_name=stream["name"],
                    rulebook_hash=source["rulebook_hash"])]
    hook = dict(name=unique("hook"), rulebook_id=webhook["id"], decision_environment_id=environment["id"],
                organization_id=org, is_enabled=False, source_mappings=yaml.safe_dump(mapping))
    status, hooked = api("POST", "activations/", hook)
    assert status == 201, hooked
    assert [s["id"] for s in hooked["event_streams"]] == [stream["id"]] and hooked["status"] == "pending"
    assert [a["id"] for a in api("GET", "event-streams/%d/activations/" % stream["id"])[1]["results"]] == [hooked["id"]]
    status, body = api("DELETE", "event-streams/%d/" % stream["id"])
    assert status == 409 and "referenced by 1 activation(s)" in body["detail"]
    refs = api("GET", "eda-credentials/%d/?refs=true" % credential["id"])[1]["references"]
    assert refs == [{"type": "EventStream", "id": stream["id"], "name": stream["name"],
                     "uri": "/api/eda/v1/event-streams/%d/" % stream["id"]}]
    assert api("DELETE", "eda-credentials/%d/" % credential["id"])[0] == 409
    assert api("DELETE", "eda-credentials/%d/?force=true" % credential["id"])[0] == 204
    status, orphan = api("GET", "event-streams/%d/" % stream["id"])
    assert status == 200 and orphan["eda_credential"] is None
    mapping[0]["source_name"] = "elsewhere"
    status, body = api("POST", "activations/", dict(hook, name=unique("hook"), source_mappings=yaml.safe_dump(mapping)))
    assert (status, body) == (400, {"source_mappings": ["The source elsewhere does not exist"]})
    # a rulebook that launches controller jobs wants a controller token, the caller's own
    status, launcher = api("POST", "projects/", dict(name=unique("collection"), url=COLLECTION, organization_id=org))
    launcher = _until(api, "projects/%d/" % launcher["id"], lambda p: p["import_state"] == "completed")
    demo = api("GET", "rulebooks/?project_id=%d&name=controller" % launcher["id"])[1]["results"][0]
    body = dict(name=unique("launch"), rulebook_id=demo["id"], decision_environment_id=environment["id"],
                organization_id=org, is_enabled=False)
    assert api("POST", "activations/", body) == (400, {"non_field_errors": ["The rulebook requires a RH AAP credential."]})
    status, token = api("POST", "users/me/awx-tokens/", dict(name=unique("ctl"), token="controller-token-value"))
    assert status == 201, token
    status, launching = api("POST", "activations/", dict(body, awx_token_id=token["id"]))
    assert status == 201 and launching["awx_token_id"] == token["id"], launching
    assert api("POST", "activations/", dict(body, name=unique("l"), awx_token_id=999999)) == (
        400, {"awx_token_id": ["AwxToken with id 999999 does not exist"]})
    # nothing fires here: no audit rules
    assert api("GET", "audit-rules/")[1] == {"count": 0, "next": None, "previous": None, "page_size": 20, "page": 1,
                                             "results": []}
    assert api("GET", "audit-rules/1/actions/")[0] == 404
    # a user of no organization sees none of it, and may not add to Default
    s = gateway.session()
    s.headers.update(gateway.basic())
    outsider = unique("outsider")
    assert s.post(gateway.url + GW + "users/", json={"username": outsider, "password": "Pw-" + outsider}).status_code == 201
    s.headers.update(gateway.basic(outsider, "Pw-" + outsider))
    for path in ("projects/", "rulebooks/", "activations/", "activation-instances/", "event-streams/"):
        r = s.get(gateway.url + "/api/eda/v1/" + path)
        assert r.status_code == 200 and r.json()["count"] == 0, path
    assert s.get(gateway.url + "/api/eda/v1/activations/%d/" % hooked["id"]).status_code == 404
    r = s.post(gateway.url + "/api/eda/v1/projects/", json=dict(name=unique("p"), url=SAMPLE, organization_id=org))
    assert r.status_code == 403
    assert s.post(gateway.url + "/api/eda/v1/activations/%d/enable/" % hooked["id"]).status_code == 404
    # EDA's Organization Operator on Default: sees them, enables and disables an activation, changes none
    user_id = api("GET", "users/?username=" + outsider)[1]["results"][0]["id"]
    operator = api("GET", "role_definitions/?name=Organization Operator")[1]["results"][0]["id"]
    assert api("POST", "role_user_assignments/", dict(role_definition=operator, user=user_id, object_id=str(org)))[0] == 201
    seen = s.get(gateway.url + "/api/eda/v1/activations/?name=" + hooked["name"]).json()["results"]
    assert [a["id"] for a in seen] == [hooked["id"]]
    assert s.get(gateway.url + "/api/eda/v1/projects/%d/" % project["id"]).status_code == 200
    assert s.post(gateway.url + "/api/eda/v1/activations/%d/enable/" % hooked["id"]).status_code == 204
    instance = _until(api, "activations/%d/" % hooked["id"], lambda a: a["status"] == "running")["instances"][0]
    logs = s.get(gateway.url + "/api/eda/v1/activation-instances/%d/logs/" % instance["id"])
    assert logs.status_code == 200 and logs.json()["count"] == 1
    assert s.post(gateway.url + "/api/eda/v1/activations/%d/disable/" % hooked["id"]).status_code == 204
    assert s.post(gateway.url + "/api/eda/v1/projects/%d/sync/" % project["id"]).status_code == 403
    assert s.patch(gateway.url + "/api/eda/v1/activations/%d/" % hooked["id"], json={"description": "x"}).status_code == 403
