"""System job templates, as observed on AWX 24.6.1: the four the installer makes, read-only
(OPTIONS offers GET only), seen by a superuser only, listed among the unified job templates
with type system_job_template (awx.awx's workflow_job_template target names one in a node)."""
import uuid

from service_api import call, created, unique, wait_until


def test_the_installed_system_job_templates(service):
    page = call(service, "GET", "system_job_templates/").json()
    by_name = {t["name"]: t for t in page["results"]}
    assert sorted(by_name) == ["Cleanup Activity Stream", "Cleanup Expired OAuth 2 Tokens", "Cleanup Expired Sessions",
                               "Cleanup Job Details"]
    stream = by_name["Cleanup Activity Stream"]
    assert stream["type"] == "system_job_template" and stream["job_type"] == "cleanup_activitystream"
    assert stream["description"] == "Remove activity stream history" and stream["status"] == "ok"
    assert stream["related"]["launch"] == "/api/v2/system_job_templates/%d/launch/" % stream["id"]
    assert call(service, "GET", "system_job_templates/%d/" % stream["id"]).json()["name"] == stream["name"]
    assert call(service, "PATCH", "system_job_templates/%d/" % stream["id"], json={"name": "x"}).status_code == 405


def test_they_are_unified_job_templates_a_workflow_node_may_name(service):
    found = call(service, "GET", "unified_job_templates/",
                 params={"type": "system_job_template", "name": "Cleanup Activity Stream"}).json()
    assert found["count"] == 1 and found["results"][0]["type"] == "system_job_template"
    wfjt = created(service, "workflow_job_templates/", name=unique("wf"), organization=1)
    node = created(service, "workflow_job_template_nodes/", workflow_job_template=wfjt["id"],
                   unified_job_template=found["results"][0]["id"])
    assert node["unified_job_template"] == found["results"][0]["id"]


def test_a_user_who_is_no_superuser_sees_none(service):
    name, password = unique("rando"), "pw-" + uuid.uuid4().hex
    created(service, "users/", username=name, password=password)
    r = call(service, "GET", "system_job_templates/", auth=(name, password))
    assert r.status_code == 200, r.text[:3000]
    assert r.json()["count"] == 0


def test_a_launch_runs_the_system_job_at_once(service):
    stream = call(service, "GET", "system_job_templates/", params={"name": "Cleanup Activity Stream"}).json()["results"][0]
    r = call(service, "POST", "system_job_templates/%d/launch/" % stream["id"], json={"extra_vars": {"days": 30}})
    assert r.status_code == 201, r.text
    job = r.json()
    assert job["system_job"] == job["id"] and job["type"] == "system_job"
    detail = call(service, "GET", "system_jobs/%d/" % job["id"]).json()
    assert detail["status"] == "successful" and detail["system_job_template"] == stream["id"]
    # RunSystemJob.build_args
    assert detail["job_args"] == '["awx-manage", "cleanup_activitystream", "--days", "30"]'
    listed = call(service, "GET", "system_job_templates/%d/jobs/" % stream["id"]).json()["results"]
    assert job["id"] in [j["id"] for j in listed]


def test_a_workflow_node_runs_a_system_job(service):
    stream = call(service, "GET", "system_job_templates/", params={"name": "Cleanup Activity Stream"}).json()["results"][0]
    wfjt = created(service, "workflow_job_templates/", name=unique("wf"), organization=1)
    created(service, "workflow_job_template_nodes/", workflow_job_template=wfjt["id"], unified_job_template=stream["id"],
            identifier="cleanup")
    launched = call(service, "POST", "workflow_job_templates/%d/launch/" % wfjt["id"], json={}).json()
    workflow_job = wait_until(service, "workflow_jobs/%d/" % launched["id"])
    assert workflow_job["status"] == "successful"
    node = call(service, "GET", "workflow_jobs/%d/workflow_nodes/" % launched["id"]).json()["results"][0]
    assert node["summary_fields"]["job"]["type"] == "system_job"
    assert node["summary_fields"]["unified_job_template"]["unified_job_type"] == "system_job"
    assert call(service, "GET", node["related"]["job"][len("/api/v2/"):]).json()["status"] == "successful"
