"""Ad hoc commands of the reference service: they really run `ansible` against the
inventory's enabled hosts; launch checks, statuses, output, cancel, relaunch."""
import time
import uuid

import pytest

from service_api import token_call as call, wait_until

def stdout(service, command_id):
    r = call(service, "GET", "/api/v2/ad_hoc_commands/%d/stdout/?format=txt" % command_id)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
    return r.text


def launch(service, setup, **fields):
    body = {"inventory": setup["inventory"]}
    body.update(fields)
    return call(service, "POST", "/api/v2/ad_hoc_commands/", json=body)


@pytest.fixture(scope="module")
def setup(service):
    prefix = "adhoc-" + uuid.uuid4().hex[:8]
    inv = call(service, "POST", "/api/v2/inventories/", json={"name": prefix, "organization": 1}).json()
    for n in (1, 2, 3):
        r = call(service, "POST", "/api/v2/hosts/", json={"name": "%s-h%d" % (prefix, n), "inventory": inv["id"],
                                                          "enabled": n != 3})
        assert r.status_code == 201, r.text
    return {"prefix": prefix, "inventory": inv["id"]}


def test_command_runs_on_enabled_hosts_honouring_limit(service, setup):
    r = launch(service, setup, module_name="command", module_args="echo hello-adhoc", verbosity=1)
    assert r.status_code == 201, r.text
    data = r.json()
    assert r.headers["Location"] == data["url"] == "/api/v2/ad_hoc_commands/%d/" % data["id"]
    assert data["type"] == "ad_hoc_command" and data["status"] == "pending" and data["name"] == "command"
    assert data["launch_type"] == "manual" and data["inventory"] == setup["inventory"] and data["credential"] is None
    assert data["related"]["stdout"] == data["url"] + "stdout/" and data["related"]["cancel"] == data["url"] + "cancel/"
    assert "job_args" not in data  # the list shape; the detail has it
    done = wait_until(service, "ad_hoc_commands/%d/" % data["id"])
    assert done["status"] == "successful" and done["failed"] is False and done["elapsed"] > 0
    assert done["started"] and done["finished"] and "job_args" in done and "host_status_counts" in done
    text = stdout(service, data["id"])
    assert "%s-h1 | CHANGED | rc=0" % setup["prefix"] in text and "hello-adhoc" in text
    assert "%s-h2" % setup["prefix"] in text and "%s-h3" % setup["prefix"] not in text  # h3 is disabled
    assert call(service, "GET", "/api/v2/ad_hoc_commands/%d/cancel/" % data["id"]).json() == {"can_cancel": False}
    r = call(service, "POST", "/api/v2/ad_hoc_commands/%d/cancel/" % data["id"])
    assert r.status_code == 405

    # the limit is the host pattern; ping takes no arguments
    r = launch(service, setup, module_name="ping", limit=setup["prefix"] + "-h2")
    assert r.status_code == 201, r.text
    done = wait_until(service, "ad_hoc_commands/%d/" % r.json()["id"])
    text = stdout(service, done["id"])
    assert done["status"] == "successful" and done["limit"] == setup["prefix"] + "-h2"
    assert "%s-h2 | SUCCESS" % setup["prefix"] in text and '"ping": "pong"' in text
    assert "%s-h1" % setup["prefix"] not in text
    # JSON stdout, the inventory's sub-list, filters
    body = call(service, "GET", "/api/v2/ad_hoc_commands/%d/stdout/" % done["id"]).json()
    assert "pong" in body["content"]
    listed = call(service, "GET", "/api/v2/inventories/%d/ad_hoc_commands/" % setup["inventory"]).json()
    assert listed["count"] >= 2 and {c["inventory"] for c in listed["results"]} == {setup["inventory"]}
    assert call(service, "GET", "/api/v2/ad_hoc_commands/?module_name=ping&id=%d" % done["id"]).json()["count"] == 1


def test_failing_command(service, setup):
    r = launch(service, setup, module_name="shell", module_args="echo deliberate-failure; exit 3",
               limit=setup["prefix"] + "-h1")
    assert r.status_code == 201, r.text
    done = wait_until(service, "ad_hoc_commands/%d/" % r.json()["id"])
    assert done["status"] == "failed" and done["failed"] is True
    text = stdout(service, done["id"])
    assert "FAILED | rc=3" in text and "deliberate-failure" in text


def test_cancel_a_long_command(service, setup):
    r = launch(service, setup, module_name="command", module_args="sleep 60", limit=setup["prefix"] + "-h1")
    assert r.status_code == 201, r.text
    command_id = r.json()["id"]
    assert call(service, "GET", "/api/v2/ad_hoc_commands/%d/cancel/" % command_id).json() == {"can_cancel": True}
    r = call(service, "DELETE", "/api/v2/ad_hoc_commands/%d/" % command_id)
    assert r.status_code == 403 and r.json() == {"detail": "Cannot delete running job resource."}
    started = time.time()
    assert call(service, "POST", "/api/v2/ad_hoc_commands/%d/cancel/" % command_id).status_code == 202
    done = wait_until(service, "ad_hoc_commands/%d/" % command_id, seconds=30)
    assert done["status"] == "canceled" and done["canceled_on"] and time.time() - started < 30
    assert call(service, "DELETE", "/api/v2/ad_hoc_commands/%d/" % command_id).status_code == 204
    assert call(service, "GET", "/api/v2/ad_hoc_commands/%d/" % command_id).status_code == 404


def test_relaunch_and_inventory_sub_list_post(service, setup):
    r = call(service, "POST", "/api/v2/inventories/%d/ad_hoc_commands/" % setup["inventory"],
             json={"module_name": "ping", "limit": setup["prefix"] + "-h1"})
    assert r.status_code == 201, r.text
    first = wait_until(service, "ad_hoc_commands/%d/" % r.json()["id"])
    assert first["inventory"] == setup["inventory"] and first["status"] == "successful"
    assert call(service, "GET", "/api/v2/ad_hoc_commands/%d/relaunch/" % first["id"]).json() == {}
    r = call(service, "POST", "/api/v2/ad_hoc_commands/%d/relaunch/" % first["id"], json={})
    assert r.status_code == 201, r.text
    again = wait_until(service, "ad_hoc_commands/%d/" % r.json()["id"])
    assert again["id"] != first["id"] and again["launch_type"] == "relaunch" and again["status"] == "successful"
    assert again["limit"] == first["limit"] and again["module_name"] == "ping"


def test_launch_checks(service, setup):
    def refused(body, status=400):
        r = call(service, "POST", "/api/v2/ad_hoc_commands/", json=body)
        assert r.status_code == status, r.text
        return r.json()

    inv = setup["inventory"]
    assert refused({"module_name": "ping"}) == {"inventory": ["No valid inventory."]}
    assert refused({"inventory": 999999, "module_name": "ping"}) == {"inventory": ['Invalid pk "999999" - object does not exist.']}
    assert refused({"inventory": inv, "module_name": "copy"}) == {"module_name": ['"copy" is not a valid choice.']}
    assert refused({"inventory": inv}) == {"module_args": ["No argument passed to command module."]}
    assert refused({"inventory": inv, "module_name": "shell", "module_args": ""}) == {
        "module_args": ["No argument passed to shell module."]}
    assert refused({"inventory": inv, "module_name": "ping", "extra_vars": {"ansible_connection": "ssh", "ansible_user": "x", "ok": 1}}) == {
        "extra_vars": ["ansible_user, ansible_connection are prohibited from use in ad hoc commands."]}
    assert refused({"inventory": inv, "module_name": "ping", "verbosity": 9}) == {"verbosity": ['"9" is not a valid choice.']}
    assert refused({"inventory": inv, "module_name": "ping", "job_type": "scan"}) == {"job_type": ['"scan" is not a valid choice.']}
    assert refused({"inventory": inv, "module_name": "ping", "forks": -1}) == {"forks": ["Ensure this value is greater than or equal to 0."]}
    cloud = call(service, "GET", "/api/v2/credential_types/?kind=cloud").json()["results"][0]
    cred = call(service, "POST", "/api/v2/credentials/", json={"name": setup["prefix"] + "-cloud", "organization": 1,
                                                             "credential_type": cloud["id"], "inputs": {}})
    if cred.status_code == 201:
        assert refused({"inventory": inv, "module_name": "ping", "credential": cred.json()["id"]}) == {
            "credential": ["You must provide a machine / SSH credential."]}


def test_allowed_modules_follow_the_setting(service, setup):
    r = call(service, "PATCH", "/api/v2/settings/jobs/", json={"AD_HOC_COMMANDS": ["ping", "setup"]})
    assert r.status_code == 200, r.text
    try:
        body = {"inventory": setup["inventory"], "module_name": "command", "module_args": "true"}
        r = call(service, "POST", "/api/v2/ad_hoc_commands/", json=body)
        assert r.status_code == 400 and r.json() == {"module_name": ['"command" is not a valid choice.']}
        # without "command" in the list, module_name has no default: it is required
        r = call(service, "POST", "/api/v2/ad_hoc_commands/", json={"inventory": setup["inventory"]})
        assert r.status_code == 400 and r.json() == {"module_name": ["This field is required."]}
    finally:
        call(service, "DELETE", "/api/v2/settings/jobs/")


def test_options(service):
    r = call(service, "OPTIONS", "/api/v2/ad_hoc_commands/")
    assert r.status_code == 200, r.text
    post = r.json()["actions"]["POST"]
    assert post["module_name"]["default"] == "command" and ["ping", "ping"] in post["module_name"]["choices"]
    assert post["job_type"]["choices"] == [["run", "Run"], ["check", "Check"]]
    assert post["verbosity"]["choices"][0] == [0, "0 (Normal)"]
    assert {"inventory", "credential", "limit", "module_args", "forks", "extra_vars", "become_enabled", "diff_mode",
            "execution_environment"} <= set(post)
    assert "status" not in post and "name" not in post


def test_rights(service, setup):
    name, password = "adhoc-" + uuid.uuid4().hex[:8], "pw-" + uuid.uuid4().hex
    assert call(service, "POST", "/api/v2/users/", json={"username": name, "password": password}).status_code == 201
    r = call(service, "POST", "/api/v2/ad_hoc_commands/", auth=(name, password),
             json={"inventory": setup["inventory"], "module_name": "ping"})
    assert r.status_code == 403
    r = call(service, "GET", "/api/v2/ad_hoc_commands/", auth=(name, password))
    assert r.status_code == 200 and r.json()["count"] == 0
