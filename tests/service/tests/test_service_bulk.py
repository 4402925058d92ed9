"""Bulk actions: /api/v2/bulk/, host_create, host_delete, job_launch, and the
settings category that limits them (settings/bulk/)."""
import uuid

import pytest
import requests

from service_api import call, unique, wait_until


@pytest.fixture(scope="module")
def org(service):
    r = call(service, "POST", "organizations/", json={"name": unique("org-bulk")})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture
def inv(service, org):
    r = call(service, "POST", "inventories/", json={"name": unique("inv"), "organization": org["id"]})
    assert r.status_code == 201, r.text
    return r.json()


def host_names(service, inv):
    return sorted(h["name"] for h in call(service, "GET", "inventories/%d/hosts/?page_size=200" % inv["id"]).json()["results"])


def test_root_and_action_pages(service):
    r = call(service, "GET", "bulk/")
    assert r.status_code == 200
    assert sorted(r.json()) == ["host_create", "host_delete", "job_launch"]
    assert r.json()["host_create"].endswith("/api/v2/bulk/host_create/")
    assert call(service, "GET", "bulk/host_create/").json() == {"detail": "Bulk create hosts with this endpoint"}
    assert call(service, "GET", "bulk/host_delete/").json() == {"detail": "Bulk delete hosts with this endpoint"}
    assert requests.get(service.url + "/api/v2/bulk/", verify=service.ca_path, timeout=60).status_code == 401
    # Observed on AWX 24.6.1: the bulk views allow no HEAD.
    assert r.headers["Allow"] == "GET, OPTIONS"
    for action in ("host_create", "host_delete", "job_launch"):
        assert call(service, "GET", "bulk/%s/" % action).headers["Allow"] == "GET, POST, OPTIONS"


def test_settings_category(service):
    # Observed on AWX 24.6.1: settings/bulk/ and its defaults.
    slugs = [c["slug"] for c in call(service, "GET", "settings/").json()["results"]]
    assert "bulk" in slugs
    assert call(service, "GET", "settings/bulk/").json() == {
        "BULK_JOB_MAX_LAUNCH": 100, "BULK_HOST_MAX_CREATE": 100, "BULK_HOST_MAX_DELETE": 250}


def test_host_create(service, inv):
    r = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [
        {"name": "a.example.com", "variables": "ansible_connection: local"},
        {"name": "b.example.com", "enabled": False, "description": "second", "instance_id": "i-2"}]})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["url"] == "/api/v2/inventories/%d/" % inv["id"]
    first, second = body["hosts"]
    assert set(first) == {"name", "enabled", "instance_id", "description", "variables", "id", "url", "inventory"}
    assert first["name"] == "a.example.com" and first["variables"] == "ansible_connection: local" and first["enabled"] is True
    assert first["url"] == "/api/v2/hosts/%d/" % first["id"] and first["inventory"] == body["url"]
    assert second["enabled"] is False and second["description"] == "second" and second["instance_id"] == "i-2"
    assert host_names(service, inv) == ["a.example.com", "b.example.com"]
    # names already there, or twice in the request
    r = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [
        {"name": "a.example.com"}, {"name": "c"}, {"name": "c"}]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Hostnames must be unique in an inventory. Duplicates found: ['a.example.com', 'c', 'c']"]}
    assert host_names(service, inv) == ["a.example.com", "b.example.com"]


def test_host_create_validation(service, inv):
    r = call(service, "POST", "bulk/host_create/", json={})
    assert r.status_code == 400
    assert r.json() == {"inventory": ["This field is required."], "hosts": ["This field is required."]}
    r = call(service, "POST", "bulk/host_create/", json={"inventory": 999999, "hosts": []})
    assert r.json() == {"inventory": ['Invalid pk "999999" - object does not exist.'], "hosts": ["This list may not be empty."]}
    r = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": "ok"}, {"description": "x"}]})
    assert r.status_code == 400 and r.json() == {"hosts": {"1": {"name": ["This field is required."]}}}
    r = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": "h%d" % i} for i in range(101)]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Number of hosts exceeds system setting BULK_HOST_MAX_CREATE"]}
    assert host_names(service, inv) == []


def test_host_create_smart_inventory_and_rights(service, org, inv):
    smart = call(service, "POST", "inventories/", json={"name": unique("smart"), "organization": org["id"],
                                                       "kind": "smart", "host_filter": "name=x"})
    assert smart.status_code == 201, smart.text
    r = call(service, "POST", "bulk/host_create/", json={"inventory": smart.json()["id"], "hosts": [{"name": "x"}]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Hosts can only be created in manual inventories (not smart or constructed types)."]}
    name, password = unique("user"), "pw-" + uuid.uuid4().hex
    assert call(service, "POST", "users/", json={"username": name, "password": password}).status_code == 201
    r = call(service, "POST", "bulk/host_create/", auth=(name, password), json={"inventory": inv["id"], "hosts": [{"name": "x"}]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Inventory with id %d not found or lack permissions to add hosts." % inv["id"]]}
    r = call(service, "POST", "bulk/host_delete/", auth=(name, password), json={"hosts": [1]})
    assert r.status_code in (400, 403)


def test_host_create_over_organization_max_hosts(service):
    org = call(service, "POST", "organizations/", json={"name": unique("org-max"), "max_hosts": 2}).json()
    inv = call(service, "POST", "inventories/", json={"name": unique("inv"), "organization": org["id"]}).json()
    r = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": "1"}, {"name": "2"}, {"name": "3"}]})
    assert r.status_code == 403
    assert r.json() == {"detail": "You have already reached the maximum number of 2 hosts allowed for your organization. "
                                  "Contact your System Administrator for assistance."}


def test_host_delete(service, inv):
    made = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": "d1"}, {"name": "d2"}]}).json()
    ids = [h["id"] for h in made["hosts"]]
    r = call(service, "POST", "bulk/host_delete/", json={"hosts": ids + [999999]})
    assert r.status_code == 400
    assert r.json() == {"hosts": {"999999": "Hosts do not exist or you lack permission to delete it"}}
    assert host_names(service, inv) == ["d1", "d2"]
    r = call(service, "POST", "bulk/host_delete/", json={"hosts": ids})
    assert r.status_code == 201, r.text
    assert r.json() == {"hosts": {str(ids[0]): "The host d1 was deleted", str(ids[1]): "The host d2 was deleted"}}
    assert host_names(service, inv) == []
    r = call(service, "POST", "bulk/host_delete/", json={"hosts": ids})
    assert r.status_code == 400
    assert r.json() == {"hosts": dict((str(i), "Hosts do not exist or you lack permission to delete it") for i in ids)}


def test_host_delete_validation(service):
    r = call(service, "POST", "bulk/host_delete/", json={"hosts": []})
    assert r.status_code == 400 and r.json() == {"hosts": ["This list may not be empty."]}
    r = call(service, "POST", "bulk/host_delete/", json={"hosts": list(range(1, 252))})
    assert r.status_code == 400
    assert r.json() == {"ERROR": ["Number of hosts exceeds system setting BULK_HOST_MAX_DELETE"],
                        "BULK_HOST_MAX_DELETE": ["250"], "Hosts_count": ["251"]}


def test_limits_set_at_start(service_factory):
    """svcctl start --set BULK_HOST_MAX_CREATE=500: 500 hosts in one request."""
    big = service_factory(BULK_HOST_MAX_CREATE=500)
    assert call(big, "GET", "settings/bulk/").json()["BULK_HOST_MAX_CREATE"] == 500
    inv = call(big, "POST", "inventories/", json={"name": unique("inv"), "organization": 1}).json()
    r = call(big, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": "h%03d" % i} for i in range(500)]})
    assert r.status_code == 201, r.text
    assert len(r.json()["hosts"]) == 500
    assert call(big, "GET", "inventories/%d/hosts/" % inv["id"]).json()["count"] == 500
    r = call(big, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": "g%03d" % i} for i in range(501)]})
    assert r.status_code == 400


def test_limits_changed_through_the_settings(service, inv):
    assert call(service, "PATCH", "settings/bulk/", json={"BULK_HOST_MAX_CREATE": 2}).status_code == 200
    try:
        r = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": "1"}, {"name": "2"}, {"name": "3"}]})
        assert r.status_code == 400
    finally:
        assert call(service, "DELETE", "settings/bulk/").status_code == 204
    assert call(service, "GET", "settings/bulk/").json()["BULK_HOST_MAX_CREATE"] == 100


# ---------------------------------------------------------------- job launch

@pytest.fixture(scope="module")
def jobs_setup(service):
    prefix = unique("bulkjobs")
    inv = call(service, "POST", "inventories/", json={"name": prefix, "organization": 1}).json()
    for n in (1, 2):
        assert call(service, "POST", "hosts/", json={"name": "%s-h%d" % (prefix, n), "inventory": inv["id"]}).status_code == 201
    project = call(service, "POST", "projects/", json={"name": "manual-" + uuid.uuid4().hex[:8], "organization": 1, "local_path": "demo"}).json()

    def template(name, **fields):
        body = {"name": "%s-%s" % (prefix, name), "inventory": inv["id"], "project": project["id"], "playbook": "hello.yml"}
        body.update(fields)
        r = call(service, "POST", "job_templates/", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    return {"prefix": prefix, "inventory": inv, "project": project, "template": template}


def node_jobs(service, wfj_id):
    nodes = call(service, "GET", "workflow_jobs/%d/workflow_nodes/" % wfj_id).json()["results"]
    return [call(service, "GET", "jobs/%d/" % node["job"]).json() for node in nodes]


def test_job_launch_runs_the_jobs(service, jobs_setup):
    plain = jobs_setup["template"]("plain")
    asks = jobs_setup["template"]("asks", ask_limit_on_launch=True, ask_variables_on_launch=True, ask_tags_on_launch=True)
    assert call(service, "GET", "bulk/job_launch/").json() == {
        "detail": "Specify a list of unified job templates to launch alongside their launchtime parameters"}
    r = call(service, "POST", "bulk/job_launch/", json={
        "name": "two jobs", "extra_vars": {"message": "from the bulk job"}, "jobs": [
            {"unified_job_template": plain["id"], "limit": "ignored-not-prompted"},
            {"unified_job_template": asks["id"], "identifier": "second", "limit": jobs_setup["prefix"] + "-h1",
             "extra_data": {"message": "node", "other": 1}, "job_tags": "greet"}]})
    assert r.status_code == 201, r.text
    wfj = r.json()
    assert wfj["type"] == "workflow_job" and wfj["name"] == "two jobs" and wfj["status"] == "pending"
    assert wfj["url"] == "/api/v2/workflow_jobs/%d/" % wfj["id"]
    assert wfj["launch_type"] == "manual" and wfj["unified_job_template"] is None and wfj["workflow_job_template"] is None
    assert {"allow_simultaneous", "canceled_on", "created", "description", "elapsed", "extra_vars", "failed", "finished", "id",
            "inventory", "is_sliced_job", "job_explanation", "job_tags", "job_template", "launch_type", "launched_by",
            "limit", "modified", "name", "related", "scm_branch", "skip_tags", "started", "status", "summary_fields",
            "type", "unified_job_template", "url", "webhook_credential", "webhook_guid", "webhook_service",
            "work_unit_id", "workflow_job_template"} <= set(wfj)
    done = wait_until(service, "workflow_jobs/%d/" % wfj["id"])
    assert done["status"] == "successful" and done["failed"] is False and done["finished"]
    nodes = call(service, "GET", "workflow_jobs/%d/workflow_nodes/" % wfj["id"]).json()["results"]
    assert [n["unified_job_template"] for n in nodes] == [plain["id"], asks["id"]]
    assert nodes[1]["identifier"] == "second" and len(nodes[0]["identifier"]) == 36
    first, second = node_jobs(service, wfj["id"])
    assert first["status"] == second["status"] == "successful"
    assert first["limit"] == "" and second["limit"] == jobs_setup["prefix"] + "-h1" and second["job_tags"] == "greet"
    # the workflow job's extra_vars go over the node's, where the template prompts for them
    import json
    assert json.loads(second["extra_vars"]) == {"message": "from the bulk job", "other": 1}


def test_job_launch_failed_job_fails_the_workflow(service, jobs_setup):
    fail = jobs_setup["template"]("fail", playbook="fail.yml")
    plain = jobs_setup["template"]("ok")
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": [{"unified_job_template": fail["id"]},
                                                                 {"unified_job_template": plain["id"]}]})
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Bulk Job Launch"
    done = wait_until(service, "workflow_jobs/%d/" % r.json()["id"])
    assert done["status"] == "failed" and done["failed"] is True
    assert done["job_explanation"].startswith("No error handling path for workflow job node(s) [(")
    assert [j["status"] for j in node_jobs(service, done["id"])] == ["failed", "successful"]


def test_job_launch_validation(service, jobs_setup):
    plain = jobs_setup["template"]("v")
    r = call(service, "POST", "bulk/job_launch/", json={})
    assert r.status_code == 400 and r.json() == {"jobs": ["This field is required."]}
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": []})
    assert r.status_code == 400 and r.json() == {"jobs": {"__all__": ["This list may not be empty."]}}
    # Observed on AWX 24.6.1: a node's errors in a list, one entry per node.
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": [{}]})
    assert r.status_code == 400 and r.json() == {"jobs": [{"unified_job_template": ["This field is required."]}]}
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": [{"unified_job_template": plain["id"]}, {"forks": "x"}]})
    assert r.status_code == 400
    assert r.json() == {"jobs": [{}, {"unified_job_template": ["This field is required."], "forks": ["A valid integer is required."]}]}
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": [{"unified_job_template": 999999}]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Unified Job Templates {999999} not found or you don't have permissions to access it"]}
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": [{"unified_job_template": plain["id"], "identifier": "x"},
                                                                 {"unified_job_template": plain["id"], "identifier": "x"}]})
    assert r.status_code == 400 and r.json() == {"__all__": ["Identifier x not unique"]}
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": [{"unified_job_template": plain["id"]}] * 101})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Number of requested jobs exceeds system setting BULK_JOB_MAX_LAUNCH"]}
    r = call(service, "POST", "bulk/job_launch/", json={"jobs": [{"unified_job_template": plain["id"]}], "inventory": 999999})
    assert r.status_code == 400 and r.json() == {"inventory": ['Invalid pk "999999" - object does not exist.']}


def test_hosts_made_in_bulk_have_no_maker(service, inv):
    # AWX 24.6.1 makes them with Host.objects.bulk_create (no save(): no created_by), and its summary
    # leaves created_by out when there is none (observed through the differential check); a host made
    # by a POST of its own has one.
    r = call(service, "POST", "bulk/host_create/", json={"inventory": inv["id"], "hosts": [{"name": unique("bulk")}]})
    assert r.status_code == 201, r.text
    made = call(service, "GET", "hosts/%d/" % r.json()["hosts"][0]["id"]).json()
    assert "created_by" not in made["summary_fields"]
    single = call(service, "POST", "hosts/", json={"name": unique("single"), "inventory": inv["id"]}).json()
    assert single["summary_fields"]["created_by"]["username"]
