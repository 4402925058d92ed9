"""What the real Project.save does (awx/main/models/projects.py, FIELDS_TRIGGER_UPDATE)
and the survey spec's DELETE.

Observed on AWX 24.6.1: creating a git project answers status "pending" with
``summary_fields.current_update`` and ``related.current_update`` (one project update,
launch_type "manual", job_type "check"); a PATCH of ``description`` starts no update, one
of ``scm_branch`` starts another, the same value again none; ``copy/`` of a git project
answers the copy with its own update pending; ``related.copy`` is listed.
DELETE ``job_templates/<id>/survey_spec/`` answers 200 with an empty body. Read in the source
(awx/main/scheduler/dependency_graph.py): updates of one project do not run side by side.
"""
import subprocess
import time

import pytest

from service_api import FINISHED, call, created, unique


def updates_of(service, project):
    return call(service, "GET", "projects/%d/project_updates/" % project["id"]).json()["results"]


def settle(service, project, seconds=60):
    deadline = time.time() + seconds
    while any(u["status"] not in FINISHED for u in updates_of(service, project)) and time.time() < deadline:
        time.sleep(0.2)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    path = tmp_path_factory.mktemp("repo")
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    (path / "site.yml").write_text("- hosts: all\n  gather_facts: false\n  tasks: []\n")
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "add", "."], cwd=str(path), check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "one"],
                   cwd=str(path), check=True)
    subprocess.run(["git", "branch", "other"], cwd=str(path), check=True)
    return path


@pytest.fixture(scope="module")
def org(service):
    return created(service, "organizations/", {"name": unique("org-sync")})


def test_a_git_project_is_updated_when_created_and_when_its_source_changes(service, org, repo):
    project = created(service, "projects/", {"name": unique("proj"), "organization": org["id"], "scm_type": "git",
                                             "scm_url": "file://%s" % repo})
    assert project["status"] in ("pending", "waiting", "running")
    current = project["summary_fields"]["current_update"]
    assert current["name"] == project["name"] and current["failed"] is False
    assert project["related"]["current_update"] == "/api/v2/project_updates/%d/" % current["id"]
    assert project["related"]["copy"] == "/api/v2/projects/%d/copy/" % project["id"]
    first = updates_of(service, project)
    assert [(u["id"], u["launch_type"], u["job_type"]) for u in first] == [(current["id"], "manual", "check")]
    # read in the source (UnifiedJob.event_processing_finished): false while the update is active
    assert first[0]["event_processing_finished"] is (first[0]["status"] in FINISHED)
    settle(service, project)
    project = call(service, "GET", "projects/%d/" % project["id"]).json()
    assert project["status"] == "successful" and "current_update" not in project["summary_fields"]
    assert call(service, "GET", "project_updates/%d/" % current["id"]).json()["event_processing_finished"] is True
    assert project["summary_fields"]["last_update"]["id"] == current["id"]
    assert project["related"]["last_update"] == "/api/v2/project_updates/%d/" % current["id"]
    # a field that does not name the source: no update
    assert call(service, "PATCH", "projects/%d/" % project["id"], json={"description": "x"}).status_code == 200
    assert len(updates_of(service, project)) == 1
    # scm_branch does; the same value again does not
    r = call(service, "PATCH", "projects/%d/" % project["id"], json={"scm_branch": "other"})
    assert r.status_code == 200 and r.json()["summary_fields"]["current_update"]["id"] != current["id"]
    assert len(updates_of(service, project)) == 2
    settle(service, project)
    assert call(service, "PATCH", "projects/%d/" % project["id"], json={"scm_branch": "other"}).status_code == 200
    assert len(updates_of(service, project)) == 2
    assert [u["status"] for u in updates_of(service, project)] == ["successful", "successful"]


def test_a_manual_project_is_not_updated(service, org):
    project = created(service, "projects/", {"name": unique("manual"), "organization": org["id"], "local_path": "demo"})
    assert project["status"] == "ok" and updates_of(service, project) == []
    assert "current_update" not in project["related"]


def test_a_copied_git_project_is_updated(service, org, repo):
    project = created(service, "projects/", {"name": unique("proj"), "organization": org["id"], "scm_type": "git",
                                             "scm_url": "file://%s" % repo})
    r = call(service, "POST", "projects/%d/copy/" % project["id"], json={"name": unique("copy")})
    assert r.status_code == 201, r.text
    copy = r.json()
    assert copy["id"] != project["id"] and copy["summary_fields"]["current_update"]["name"] == copy["name"]
    assert len(updates_of(service, copy)) == 1
    settle(service, copy)
    assert call(service, "GET", "projects/%d/playbooks/" % copy["id"]).json() == ["site.yml"]


def test_deleting_a_survey_answers_200_without_a_body(service, org):
    inv = created(service, "inventories/", {"name": unique("inv"), "organization": org["id"]})
    project = created(service, "projects/", {"name": unique("proj"), "organization": org["id"], "local_path": "demo"})
    jt = created(service, "job_templates/", {"name": unique("jt"), "inventory": inv["id"], "project": project["id"],
                                             "playbook": "hello.yml"})
    spec = {"name": "s", "description": "d",
            "spec": [{"question_name": "q", "variable": "v", "type": "text", "required": False}]}
    assert call(service, "POST", "job_templates/%d/survey_spec/" % jt["id"], json=spec).status_code == 200
    r = call(service, "DELETE", "job_templates/%d/survey_spec/" % jt["id"])
    assert r.status_code == 200 and r.content == b""
    assert call(service, "GET", "job_templates/%d/survey_spec/" % jt["id"]).json() == {}


def test_updates_of_one_project_run_one_after_the_other(service, org, repo):
    # read in the source: the task manager holds an update back while another of the project runs
    project = created(service, "projects/", {"name": unique("proj"), "organization": org["id"], "scm_type": "git",
                                             "scm_url": "file://%s" % repo})
    for _ in range(2):
        assert call(service, "POST", "projects/%d/update/" % project["id"]).status_code == 202
    settle(service, project)
    done = updates_of(service, project)
    assert [u["status"] for u in done] == ["successful"] * 3
    for earlier, later in zip(done, done[1:]):
        assert later["started"] >= earlier["finished"]


def test_a_projects_credential_is_linked_and_summed_up(service, org, repo):
    # Observed on AWX 24.6.1: related.credential, and kubernetes in summary_fields.credential.
    scm = call(service, "GET", "credential_types/?namespace=scm").json()["results"][0]
    credential = created(service, "credentials/", {"name": unique("scm"), "organization": org["id"],
                                                   "credential_type": scm["id"], "inputs": {"username": "u"}})
    project = created(service, "projects/", {"name": unique("proj"), "organization": org["id"], "scm_type": "git",
                                             "scm_url": "file://%s" % repo, "credential": credential["id"]})
    assert project["related"]["credential"] == "/api/v2/credentials/%d/" % credential["id"]
    assert project["summary_fields"]["credential"] == {
        "id": credential["id"], "name": credential["name"], "description": "", "kind": "scm", "cloud": False,
        "kubernetes": False, "credential_type_id": scm["id"]}
    settle(service, project)
