"""Links of job templates and inventories the modules keep: a job template's ordered
instance groups."""

import pytest

from service_api import call, created, unique


@pytest.fixture(scope="module")
def org(service):
    return created(service, "organizations/", {"name": unique("org-links")})


@pytest.fixture(scope="module")
def jt(service, org):
    inv = created(service, "inventories/", {"name": unique("inv"), "organization": org["id"]})
    project = created(service, "projects/", {"name": unique("proj"), "organization": org["id"], "local_path": "demo"})
    return created(service, "job_templates/", {"name": unique("jt"), "inventory": inv["id"],
                                               "project": project["id"], "playbook": "hello.yml"})


def ids(answer):
    assert answer.status_code == 200, answer.text
    return [item["id"] for item in answer.json()["results"]]


def test_job_template_instance_groups_keep_their_order(service, jt):
    path = "job_templates/%d/instance_groups/" % jt["id"]
    assert jt["related"]["instance_groups"].endswith(path)
    first, second = (created(service, "instance_groups/", {"name": unique("ig")}) for _ in range(2))
    assert ids(call(service, "GET", path)) == []
    for group in (second, first):
        assert call(service, "POST", path, json={"id": group["id"]}).status_code == 204
    assert ids(call(service, "GET", path)) == [second["id"], first["id"]]
    # associating again changes nothing; removing and adding puts it last
    assert call(service, "POST", path, json={"id": second["id"]}).status_code == 204
    assert ids(call(service, "GET", path)) == [second["id"], first["id"]]
    assert call(service, "POST", path, json={"id": second["id"], "disassociate": True}).status_code == 204
    assert call(service, "POST", path, json={"id": second["id"]}).status_code == 204
    assert ids(call(service, "GET", path)) == [first["id"], second["id"]]
    r = call(service, "POST", path, json={"id": 987654})
    assert r.status_code == 400 and r.json() == {"detail": "InstanceGroup matching query does not exist."}
    # deleting the group drops the link
    assert call(service, "DELETE", "instance_groups/%d/" % first["id"]).status_code in (202, 204)
    assert ids(call(service, "GET", path)) == [second["id"]]


def test_input_inventories_of_a_constructed_inventory(service, org):
    constructed = created(service, "inventories/", {"name": unique("cinv"), "organization": org["id"], "kind": "constructed"})
    path = "inventories/%d/input_inventories/" % constructed["id"]
    assert constructed["kind"] == "constructed" and constructed["related"]["input_inventories"].endswith(path)
    first, second = (created(service, "inventories/", {"name": unique("in"), "organization": org["id"]}) for _ in range(2))
    assert "input_inventories" not in first["related"]
    for inv in (second, first):
        assert call(service, "POST", path, json={"id": inv["id"]}).status_code == 204
    assert ids(call(service, "GET", path)) == [second["id"], first["id"]]
    assert call(service, "POST", path, json={"id": second["id"], "disassociate": True}).status_code == 204
    assert ids(call(service, "GET", path)) == [first["id"]]
    other = created(service, "inventories/", {"name": unique("cinv"), "organization": org["id"], "kind": "constructed"})
    r = call(service, "POST", path, json={"id": other["id"]})
    assert r.status_code == 400
    assert r.json() == {"error": "You cannot add a constructed inventory to another constructed inventory."}


def test_the_kind_of_an_inventory_stays(service, org):
    inv = created(service, "inventories/", {"name": unique("inv"), "organization": org["id"]})
    r = call(service, "PATCH", "inventories/%d/" % inv["id"], json={"kind": "smart", "host_filter": "name=x"})
    assert r.status_code == 405
    assert r.json() == {"error": 'You cannot turn a regular inventory into a "smart" or "constructed" inventory.'}
    r = call(service, "PATCH", "inventories/%d/" % inv["id"], json={"kind": "", "description": "same kind"})
    assert r.status_code == 200 and r.json()["description"] == "same kind"
    smart = created(service, "inventories/", {"name": unique("smart"), "organization": org["id"], "kind": "smart",
                                              "host_filter": "name__startswith=web"})
    assert smart["kind"] == "smart" and smart["host_filter"] == "name__startswith=web"


def test_notification_templates_of_a_project(service, org):
    project = created(service, "projects/", {"name": unique("proj"), "organization": org["id"], "scm_type": "git",
                                            "scm_url": "https://example.com/repo.git"})
    hook = created(service, "notification_templates/", {"name": unique("nt"), "organization": org["id"],
                                                        "notification_type": "webhook",
                                                        "notification_configuration": {"url": "https://h", "headers": {}}})
    for event in ("started", "success", "error"):
        path = "projects/%d/notification_templates_%s/" % (project["id"], event)
        assert project["related"]["notification_templates_" + event].endswith(path)
        assert ids(call(service, "GET", path)) == []
        assert call(service, "POST", path, json={"id": hook["id"]}).status_code == 204
        assert ids(call(service, "GET", path)) == [hook["id"]]
    path = "projects/%d/notification_templates_error/" % project["id"]
    assert call(service, "POST", path, json={"id": hook["id"], "disassociate": True}).status_code == 204
    assert ids(call(service, "GET", path)) == []
    assert ids(call(service, "GET", "projects/%d/notification_templates_success/" % project["id"])) == [hook["id"]]


def test_job_template_summary_shows_its_labels(service, org, jt):
    names = sorted(unique("label") for _ in range(2))
    for name in names:
        r = call(service, "POST", "job_templates/%d/labels/" % jt["id"], json={"name": name, "organization": org["id"]})
        assert r.status_code == 201, r.text
    summary = call(service, "GET", "job_templates/%d/" % jt["id"]).json()["summary_fields"]["labels"]
    assert summary["count"] == 2 and [item["name"] for item in summary["results"]] == names
