"""Projects, job templates, launch and jobs of the reference service: jobs really run."""
import time
import uuid

import pytest
import requests

from service_api import token_call as call, wait_until

def stdout(service, job_id):
    r = call(service, "GET", "/api/v2/jobs/%d/stdout/?format=txt" % job_id)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
    return r.text


@pytest.fixture(scope="module")
def setup(service):
    prefix = "jobs-" + uuid.uuid4().hex[:8]
    inv = call(service, "POST", "/api/v2/inventories/", json={"name": prefix, "organization": 1}).json()
    for n in (1, 2, 3):
        r = call(service, "POST", "/api/v2/hosts/", json={"name": "%s-h%d" % (prefix, n), "inventory": inv["id"]})
        assert r.status_code == 201, r.text
    project = call(service, "POST", "/api/v2/projects/", json={"name": prefix, "organization": 1, "local_path": "demo"}).json()
    return {"prefix": prefix, "inventory": inv["id"], "project": project["id"]}


def template(service, setup, name, **fields):
    body = {"name": "%s-%s" % (setup["prefix"], name), "inventory": setup["inventory"], "project": setup["project"],
            "playbook": "hello.yml"}
    body.update(fields)
    r = call(service, "POST", "/api/v2/job_templates/", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def test_resource_list_and_manual_project(service, setup):
    root = requests.get(service.url + "/api/v2/", verify=service.ca_path).json()
    for name in ("projects", "job_templates", "jobs"):
        assert root[name] == "/api/v2/%s/" % name
    project = call(service, "GET", "/api/v2/projects/%d/" % setup["project"]).json()
    assert project["type"] == "project" and project["scm_type"] == "" and project["local_path"] == "demo"
    assert project["status"] == "ok"
    r = call(service, "GET", project["related"]["playbooks"])
    assert r.status_code == 200 and r.json() == ["fail.yml", "hello.yml"]
    # Observed on AWX 24.6.1: a template's project summary has the project's status, scm_type and allow_override.
    summary = template(service, setup, "summary")["summary_fields"]
    assert summary["project"] == {"id": project["id"], "name": project["name"], "description": project["description"],
                                  "status": "ok", "scm_type": "", "allow_override": project["allow_override"]}


def test_project_local_path_is_checked(service):
    r = call(service, "POST", "/api/v2/projects/", json={"name": "p-" + uuid.uuid4().hex[:6], "organization": 1, "local_path": "nope"})
    assert r.status_code == 400 and "local_path" in r.json()


def test_template_validation(service, setup):
    r = call(service, "POST", "/api/v2/job_templates/", json={"name": "x-" + setup["prefix"], "inventory": setup["inventory"], "project": setup["project"], "playbook": "nope.yml"})
    assert r.status_code == 400 and r.json()["playbook"] == ["Playbook not found for project."]
    r = call(service, "POST", "/api/v2/job_templates/", json={"name": "y-" + setup["prefix"], "project": setup["project"], "playbook": "hello.yml"})
    assert r.status_code == 400 and "inventory" in r.json()


def test_launch_get_tells_prompts_and_defaults(service, setup):
    jt = template(service, setup, "info", ask_limit_on_launch=True, limit="nothing", extra_vars='{"a": 1}')
    info = call(service, "GET", "/api/v2/job_templates/%d/launch/" % jt["id"]).json()
    assert info["ask_limit_on_launch"] is True and info["ask_variables_on_launch"] is False
    assert info["can_start_without_user_input"] is True and info["inventory_needed_to_start"] is False
    assert info["defaults"]["limit"] == "nothing"
    assert info["defaults"]["inventory"] == {"name": setup["prefix"], "id": setup["inventory"]}
    assert info["job_template_data"] == {"name": jt["name"], "id": jt["id"], "description": ""}


def test_launch_runs_with_limit_vars_tags_and_verbosity(service, setup):
    jt = template(service, setup, "all", ask_limit_on_launch=True, ask_variables_on_launch=True, ask_tags_on_launch=True,
                  ask_skip_tags_on_launch=True, ask_verbosity_on_launch=True, extra_vars='{"message": "template"}')
    body = {"limit": setup["prefix"] + "-h2", "extra_vars": {"message": "launch"}, "job_tags": "greet", "verbosity": 1}
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["ignored_fields"] == {} and data["job"] == data["id"] and data["status"] == "pending"
    assert r.headers["Location"] == "/api/v2/jobs/%d/" % data["job"]
    job = wait_until(service, "jobs/%d/" % data["job"])
    assert job["status"] == "successful" and job["failed"] is False
    assert job["started"] and job["finished"] and job["elapsed"] > 0
    text = stdout(service, job["id"])
    assert "hello from %s-h2; message=launch" % setup["prefix"] in text
    assert "-h1" not in text and "-h3" not in text
    assert "farewell" not in text  # only the tag asked for
    assert "No config file found" in text  # what -v adds
    r = call(service, "GET", "/api/v2/jobs/%d/stdout/" % job["id"])
    assert r.json()["content"] == text


def test_fields_not_prompted_are_ignored_and_the_job_still_runs(service, setup):
    jt = template(service, setup, "fixed", skip_tags="farewell")
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={"limit": "nothing", "extra_vars": {"message": "x"}})
    assert r.status_code == 201
    assert r.json()["ignored_fields"] == {"limit": "nothing", "extra_vars": {"message": "x"}}
    job = wait_until(service, "jobs/%d/" % r.json()["job"])
    text = stdout(service, job["id"])
    assert job["status"] == "successful" and job["limit"] == ""
    assert all("hello from %s-h%d; message=(none)" % (setup["prefix"], n) in text for n in (1, 2, 3))
    assert "farewell" not in text


def test_a_survey_takes_its_variables_without_ask_variables_on_launch(service, setup):
    jt = template(service, setup, "survey", extra_vars='{"keep": 1}', survey_enabled=True)
    survey = {"name": "s", "description": "", "spec": [
        {"type": "text", "question_name": "Message", "variable": "message", "required": False}]}
    path = "/api/v2/job_templates/%d/" % jt["id"]
    assert call(service, "POST", path + "survey_spec/", json=survey).status_code == 200
    assert call(service, "GET", path + "launch/").json()["survey_enabled"] is True
    body = {"extra_vars": {"message": "asked", "keep": 1, "other": "x"}}
    r = call(service, "POST", path + "launch/", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["ignored_fields"] == {"extra_vars": {"other": "x"}}
    job = wait_until(service, "jobs/%d/" % r.json()["job"])
    assert job["status"] == "successful"
    assert "message=asked" in stdout(service, job["id"])


def test_the_other_launch_values_apply_when_prompted_for_and_are_ignored_otherwise(service, setup):
    label = call(service, "POST", "/api/v2/labels/", json={"name": setup["prefix"] + "-l", "organization": 1}).json()
    group = call(service, "GET", "/api/v2/instance_groups/?name=default").json()["results"][0]
    values = {"forks": 3, "timeout": 60, "job_slice_count": 1, "diff_mode": True, "labels": [label["id"]],
              "instance_groups": [group["id"]]}
    flags = dict(ask_forks_on_launch=True, ask_timeout_on_launch=True, ask_job_slice_count_on_launch=True,
                 ask_diff_mode_on_launch=True, ask_labels_on_launch=True, ask_instance_groups_on_launch=True)
    jt = template(service, setup, "more", **flags)
    info = call(service, "GET", "/api/v2/job_templates/%d/launch/" % jt["id"]).json()
    assert all(info[flag] is True for flag in flags)
    assert info["defaults"]["forks"] == 0 and info["defaults"]["diff_mode"] is False
    # Observed on AWX 24.6.1 (JobLaunchSerializer.get_defaults): no labels key while the template has
    # none, an empty execution environment, no instance groups.
    assert "labels" not in info["defaults"] and info["defaults"]["execution_environment"] == {}
    assert info["defaults"]["instance_groups"] == []
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json=values)
    assert r.status_code == 201 and r.json()["ignored_fields"] == {}, r.text
    job = wait_until(service, "jobs/%d/" % r.json()["job"])
    assert (job["forks"], job["timeout"], job["diff_mode"]) == (3, 60, True)
    assert job["summary_fields"]["labels"]["results"] == [{"id": label["id"], "name": label["name"]}]
    fixed = template(service, setup, "fixed-more")
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % fixed["id"], json=values)
    assert r.status_code == 201 and r.json()["ignored_fields"] == values
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={"forks": -1, "labels": [999999]})
    assert r.status_code == 400
    # Observed on AWX 24.6.1: a job_slice_count of 0 is launched, as it comes.
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={"job_slice_count": 0})
    assert r.status_code == 201 and r.json()["job_slice_count"] == 0, r.text
    assert wait_until(service, "jobs/%d/" % r.json()["job"])["status"] == "successful"


def test_template_without_inventory_needs_one(service, setup):
    jt = template(service, setup, "noinv", inventory=None, ask_inventory_on_launch=True)
    info = call(service, "GET", "/api/v2/job_templates/%d/launch/" % jt["id"]).json()
    assert info["inventory_needed_to_start"] is True and info["can_start_without_user_input"] is False
    before = call(service, "GET", "/api/v2/jobs/?job_template=%d" % jt["id"]).json()["count"]
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={})
    assert r.status_code == 400
    assert r.json() == {"resources_needed_to_start": ["Job Template 'inventory' is missing or undefined."]}
    assert call(service, "GET", "/api/v2/jobs/?job_template=%d" % jt["id"]).json()["count"] == before
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={"inventory": setup["inventory"]})
    assert r.status_code == 201 and wait_until(service, "jobs/%d/" % r.json()["job"])["status"] == "successful"


def test_failed_job(service, setup):
    jt = template(service, setup, "fail", playbook="fail.yml")
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={})
    job = wait_until(service, "jobs/%d/" % r.json()["job"])
    assert job["status"] == "failed" and job["failed"] is True
    assert "deliberate failure on %s-h1" % setup["prefix"] in stdout(service, job["id"])


def test_cancel_running_job(service, setup):
    jt = template(service, setup, "slow", ask_variables_on_launch=True)
    r = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={"extra_vars": {"pause_seconds": 30}})
    job_id = r.json()["job"]
    assert call(service, "GET", "/api/v2/jobs/%d/cancel/" % job_id).json() == {"can_cancel": True}
    deadline = time.time() + 30
    while call(service, "GET", "/api/v2/jobs/%d/" % job_id).json()["status"] != "running" and time.time() < deadline:
        time.sleep(0.2)
    assert call(service, "POST", "/api/v2/jobs/%d/cancel/" % job_id).status_code == 202
    job = wait_until(service, "jobs/%d/" % job_id, seconds=20)
    assert job["status"] == "canceled" and job["canceled_on"]
    assert job["elapsed"] < 25
    assert call(service, "GET", "/api/v2/jobs/%d/cancel/" % job_id).json() == {"can_cancel": False}
    assert call(service, "POST", "/api/v2/jobs/%d/cancel/" % job_id).status_code == 405


# Observed on AWX 24.6.1 (through the differential check, tests/diffcheck): the fields of a job's
# own page (JobDetailSerializer), those the list leaves out (UnifiedJobListSerializer), launched_by
# with its url and not in summary_fields, the template's last_job and last_update once a job finished.
JOB_FIELDS = {
    "allow_simultaneous", "artifacts", "controller_node", "force_handlers", "instance_group", "job_slice_number",
    "passwords_needed_to_start", "scm_revision", "start_at_task", "use_fact_cache", "webhook_credential",
    "webhook_guid", "webhook_service", "work_unit_id",
}
DETAIL_ONLY = {"job_args", "job_cwd", "job_env", "result_traceback", "event_processing_finished"}


def test_a_job_shows_the_fields_of_the_real_serializers(service, setup):
    jt = template(service, setup, "fields", force_handlers=True, start_at_task="Greet", allow_simultaneous=True)
    launched = call(service, "POST", "/api/v2/job_templates/%d/launch/" % jt["id"], json={}).json()
    assert JOB_FIELDS | DETAIL_ONLY <= set(launched)
    assert "playbook_counts" not in launched and "launched_by" not in launched["summary_fields"]
    job = wait_until(service, "jobs/%d/" % launched["id"])
    assert JOB_FIELDS | DETAIL_ONLY <= set(job)
    assert job["force_handlers"] is True and job["start_at_task"] == "Greet" and job["allow_simultaneous"] is True
    assert job["use_fact_cache"] is False and job["job_slice_number"] == 0 and job["artifacts"] == {}
    assert job["passwords_needed_to_start"] == [] and job["webhook_service"] == "" and job["scm_revision"] == ""
    assert job["playbook_counts"] == {"play_count": 0, "task_count": 0} and "host_status_counts" in job
    assert job["custom_virtualenv"] is None
    assert job["launched_by"]["url"] == "/api/v2/users/%d/" % job["launched_by"]["id"]
    assert "launched_by" not in job["summary_fields"]
    assert job["summary_fields"]["unified_job_template"] == {"id": jt["id"], "name": jt["name"], "description": "",
                                                             "unified_job_type": "job"}
    assert job["related"]["unified_job_template"] == "/api/v2/job_templates/%d/" % jt["id"]
    listed = call(service, "GET", "/api/v2/jobs/?id=%d" % job["id"]).json()["results"][0]
    assert JOB_FIELDS <= set(listed) and not DETAIL_ONLY & set(listed)
    assert "playbook_counts" not in listed and "custom_virtualenv" not in listed
    # the template's last job, and last_update its alias
    summary = call(service, "GET", "/api/v2/job_templates/%d/" % jt["id"]).json()["summary_fields"]
    assert summary["last_job"]["id"] == job["id"] and summary["last_job"]["status"] == job["status"]
    assert summary["last_update"] == {"id": job["id"], "name": jt["name"], "description": "", "status": job["status"],
                                      "failed": job["failed"]}


def test_a_manual_projects_last_job_run_is_its_directory_time(service, setup):
    # Observed on AWX 24.6.1: a new manual project has last_job_run and last_updated (its directory's mtime).
    project = call(service, "GET", "/api/v2/projects/%d/" % setup["project"]).json()
    assert project["last_job_run"] and project["last_updated"] == project["last_job_run"]
