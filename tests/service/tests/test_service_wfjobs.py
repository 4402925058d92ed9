"""Workflow jobs of the reference service: the launch, the nodes' jobs and project updates run along
success, failure and always edges, approvals approved and denied, the final status."""
import subprocess
import time
import uuid

import pytest

from service_api import FINISHED, token_call as call, wait_until as wait_for

@pytest.fixture(scope="module")
def setup(service):
    prefix = "wfj-" + uuid.uuid4().hex[:8]
    inv = call(service, "POST", "inventories/", json={"name": prefix, "organization": 1}).json()
    call(service, "POST", "hosts/", json={"name": prefix + "-h1", "inventory": inv["id"]})
    project = call(service, "POST", "projects/", json={"name": "manual-" + uuid.uuid4().hex[:8], "organization": 1, "local_path": "demo"}).json()
    templates = {}
    for name, playbook in (("ok", "hello.yml"), ("fail", "fail.yml")):
        r = call(service, "POST", "job_templates/", json={"name": "%s-%s" % (prefix, name), "inventory": inv["id"],
                                                          "project": project["id"], "playbook": playbook,
                                                          "ask_limit_on_launch": True})
        assert r.status_code == 201, r.text
        templates[name] = r.json()["id"]
    return {"prefix": prefix, "templates": templates}


def workflow(service, setup, graph, **fields):
    """graph: {identifier: (template key or 'approval', {relationship: [identifiers]})}"""
    body = {"name": "%s-%s" % (setup["prefix"], uuid.uuid4().hex[:6]), "organization": 1}
    body.update(fields)
    wfjt = call(service, "POST", "workflow_job_templates/", json=body).json()
    nodes = {}
    for identifier, (kind, _) in graph.items():
        data = {"workflow_job_template": wfjt["id"], "identifier": identifier}
        if kind != "approval":
            data["unified_job_template"] = setup["templates"][kind]
        r = call(service, "POST", "workflow_job_template_nodes/", json=data)
        assert r.status_code == 201, r.text
        nodes[identifier] = r.json()["id"]
        if kind == "approval":
            r = call(service, "POST", "workflow_job_template_nodes/%d/create_approval_template/" % nodes[identifier],
                     json={"name": "approve-" + identifier})
            assert r.status_code in (200, 201), r.text
    for identifier, (_, edges) in graph.items():
        for rel, children in edges.items():
            for child in children:
                r = call(service, "POST", "workflow_job_template_nodes/%d/%s/" % (nodes[identifier], rel),
                         json={"id": nodes[child]})
                assert r.status_code == 204, r.text
    return wfjt


def launch(service, wfjt, **body):
    r = call(service, "POST", "workflow_job_templates/%d/launch/" % wfjt["id"], json=body)
    assert r.status_code == 201, r.text
    return r.json()


def nodes_of(service, workflow_job_id):
    results = call(service, "GET", "workflow_jobs/%d/workflow_nodes/" % workflow_job_id).json()["results"]
    return {n["identifier"]: n for n in results}


def finished(service, workflow_job_id):
    return wait_for(service, "workflow_jobs/%d/" % workflow_job_id, lambda d: d["status"] in FINISHED)


def test_launch_info_and_ignored_fields(service, setup):
    wfjt = workflow(service, setup, {"a": ("ok", {})}, ask_limit_on_launch=True)
    info = call(service, "GET", "workflow_job_templates/%d/launch/" % wfjt["id"]).json()
    assert info["ask_limit_on_launch"] is True and info["ask_inventory_on_launch"] is False
    assert info["ask_tags_on_launch"] is False and info["ask_labels_on_launch"] is False
    assert info["workflow_job_template_data"]["id"] == wfjt["id"]
    assert info["node_templates_missing"] == []
    # Observed on AWX 24.6.1: extra_vars is write-only (WorkflowJobLaunchSerializer); the defaults have no
    # labels while the workflow has none.
    assert "extra_vars" not in info and "labels" not in info["defaults"]
    launched = launch(service, wfjt, limit=setup["prefix"] + "-h1", job_tags="x")
    assert launched["workflow_job"] == launched["id"] and launched["type"] == "workflow_job"
    assert launched["ignored_fields"] == {"job_tags": "x"}
    assert launched["limit"] == setup["prefix"] + "-h1"
    job = finished(service, launched["id"])
    assert job["status"] == "successful" and job["failed"] is False and job["elapsed"] > 0
    node = nodes_of(service, launched["id"])["a"]
    assert node["job"] and node["related"]["job"] == "/api/v2/jobs/%d/" % node["job"]
    ran = call(service, "GET", "jobs/%d/" % node["job"]).json()
    assert ran["status"] == "successful" and ran["limit"] == setup["prefix"] + "-h1"


def test_failure_edge_runs_and_workflow_succeeds(service, setup):
    wfjt = workflow(service, setup, {
        "first": ("fail", {"success_nodes": ["on-ok"], "failure_nodes": ["on-fail"]}),
        "on-ok": ("ok", {}), "on-fail": ("ok", {"always_nodes": ["last"]}), "last": ("ok", {})})
    launched = launch(service, wfjt)
    job = finished(service, launched["id"])
    nodes = nodes_of(service, launched["id"])
    assert call(service, "GET", "jobs/%d/" % nodes["first"]["job"]).json()["status"] == "failed"
    assert nodes["on-ok"]["do_not_run"] is True and nodes["on-ok"]["job"] is None
    assert nodes["on-fail"]["job"] and nodes["last"]["job"]
    assert nodes["first"]["failure_nodes"] == [nodes["on-fail"]["id"]]
    assert job["status"] == "successful", job


def test_failed_node_without_failure_path_fails_the_workflow(service, setup):
    wfjt = workflow(service, setup, {"first": ("fail", {"success_nodes": ["next"]}), "next": ("ok", {})})
    launched = launch(service, wfjt)
    job = finished(service, launched["id"])
    assert job["status"] == "failed" and job["failed"] is True
    assert "No error handling path" in job["job_explanation"]
    assert nodes_of(service, launched["id"])["next"]["do_not_run"] is True


def test_a_node_without_template_counts_as_failed_and_the_others_run(service, setup):
    """dag_workflow: a reached node without a template follows its failure and always edges,
    the other nodes run, and the workflow fails naming it when it has no error path."""
    wfjt = workflow(service, setup, {"ok": ("ok", {}), "gone": ("ok", {"failure_nodes": ["after"]}),
                                     "after": ("ok", {}), "lost": ("ok", {})})
    for identifier in ("gone", "lost"):
        node = call(service, "GET", "workflow_job_templates/%d/workflow_nodes/" % wfjt["id"],
                    params={"identifier": identifier}).json()["results"][0]
        r = call(service, "PATCH", "workflow_job_template_nodes/%d/" % node["id"], json={"unified_job_template": None})
        assert r.status_code == 200, r.text
    launched = launch(service, wfjt)
    job = finished(service, launched["id"])
    nodes = nodes_of(service, launched["id"])
    assert nodes["ok"]["job"] and nodes["after"]["job"]
    assert nodes["gone"]["job"] is None and nodes["gone"]["do_not_run"] is False
    assert job["status"] == "failed"
    assert job["job_explanation"] == ("No error handling path for workflow job node(s) []. Workflow job node(s) missing "
                                      "unified job template and error handling path [%d]." % nodes["lost"]["id"])


def approval_of(service, workflow_job_id, identifier):
    def started(nodes):
        return bool(nodes.get(identifier, {}).get("job"))

    deadline = time.time() + 60
    while not started(nodes_of(service, workflow_job_id)) and time.time() < deadline:
        time.sleep(0.3)
    node = nodes_of(service, workflow_job_id)[identifier]
    assert node["related"]["job"] == "/api/v2/workflow_approvals/%d/" % node["job"]
    return call(service, "GET", "workflow_approvals/%d/" % node["job"]).json()


@pytest.mark.parametrize("action, status, ran, skipped", [
    ("approve", "successful", "approved", "denied"),
    ("deny", "failed", "denied", "approved"),
])
def test_approval(service, setup, action, status, ran, skipped):
    wfjt = workflow(service, setup, {
        "gate": ("approval", {"success_nodes": ["approved"], "failure_nodes": ["denied"]}),
        "approved": ("ok", {}), "denied": ("ok", {})})
    launched = launch(service, wfjt)
    approval = approval_of(service, launched["id"], "gate")
    assert approval["type"] == "workflow_approval" and approval["status"] == "pending"
    assert approval["can_approve_or_deny"] is True and approval["name"] == "approve-gate"
    # a node's job is its unified job (awx/main/models/workflow.py): job__name finds the approval's node
    found = call(service, "GET", "workflow_jobs/%d/workflow_nodes/?job__name=approve-gate" % launched["id"]).json()
    assert [n["job"] for n in found["results"]] == [approval["id"]]
    assert call(service, "GET", "workflow_jobs/%d/workflow_nodes/?job__name=other" % launched["id"]).json()["count"] == 0
    assert call(service, "GET", "workflow_jobs/%d/" % launched["id"]).json()["status"] == "running"
    r = call(service, "POST", "workflow_approvals/%d/%s/" % (approval["id"], action))
    assert r.status_code == 204, r.text
    r = call(service, "POST", "workflow_approvals/%d/approve/" % approval["id"])
    assert r.status_code == 400 and "already been approved or denied" in r.json()["error"]
    job = finished(service, launched["id"])
    assert job["status"] == "successful"
    approval = call(service, "GET", "workflow_approvals/%d/" % approval["id"]).json()
    assert approval["status"] == status and approval["can_approve_or_deny"] is False
    nodes = nodes_of(service, launched["id"])
    assert nodes[ran]["job"] and nodes[skipped]["do_not_run"] is True


def test_cancel_and_missing(service, setup):
    wfjt = workflow(service, setup, {"gate": ("approval", {})})
    launched = launch(service, wfjt)
    approval_of(service, launched["id"], "gate")
    assert call(service, "GET", "workflow_jobs/%d/cancel/" % launched["id"]).json() == {"can_cancel": True}
    assert call(service, "POST", "workflow_jobs/%d/cancel/" % launched["id"]).status_code == 202
    job = finished(service, launched["id"])
    assert job["status"] == "canceled"
    assert call(service, "GET", "workflow_jobs/%d/cancel/" % launched["id"]).json() == {"can_cancel": False}
    assert call(service, "GET", "workflow_jobs/999999/").status_code == 404
    assert call(service, "GET", "workflow_approvals/999999/").status_code == 404
    assert call(service, "POST", "workflow_job_templates/999999/launch/").status_code == 404


def test_project_node_runs_a_project_update_then_its_success_edge(service, setup, tmp_path):
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (repo / "site.yml").write_text("- hosts: all\n  gather_facts: false\n  tasks: []\n")
    subprocess.run(["git", "add", "."], cwd=str(repo), check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first"],
                   cwd=str(repo), check=True)
    project = call(service, "POST", "projects/", json={"name": setup["prefix"] + "-git", "organization": 1,
                                                       "scm_type": "git", "scm_url": "file://%s" % repo}).json()
    wait_for(service, "projects/%d/" % project["id"], lambda d: d["status"] in FINISHED)
    setup["templates"]["sync"] = project["id"]
    wfjt = workflow(service, setup, {"sync": ("sync", {"success_nodes": ["after"]}), "after": ("ok", {})})
    launched = launch(service, wfjt)
    job = finished(service, launched["id"])
    nodes = nodes_of(service, launched["id"])
    assert job["status"] == "successful", job
    update_id = nodes["sync"]["job"]
    assert nodes["sync"]["related"]["job"] == "/api/v2/project_updates/%d/" % update_id
    assert nodes["sync"]["summary_fields"]["job"]["type"] == "project_update"
    update = call(service, "GET", "project_updates/%d/" % update_id).json()
    assert update["status"] == "successful" and update["launch_type"] == "workflow" and update["job_type"] == "check"
    assert nodes["after"]["job"] and nodes["after"]["summary_fields"]["job"]["type"] == "job"

