"""Labels and notification templates of workflow job templates, labels and instance groups
of their nodes: the sub-lists and the summary fields."""
import uuid

import pytest

from service_api import call, unique


@pytest.fixture()
def wfjt(service):
    r = call(service, "POST", "workflow_job_templates/", json={"name": unique("wf"), "organization": 1})
    assert r.status_code == 201, r.text
    return r.json()


def test_workflow_labels_associate_and_disassociate(service, wfjt):
    label = call(service, "POST", "labels/", json={"name": unique("lb"), "organization": 1}).json()
    path = "workflow_job_templates/%d/labels/" % wfjt["id"]
    assert wfjt["related"]["labels"] == "/api/v2/" + path
    assert call(service, "POST", path, json={"id": label["id"]}).status_code == 204
    listed = call(service, "GET", path).json()
    assert [item["id"] for item in listed["results"]] == [label["id"]]
    detail = call(service, "GET", "workflow_job_templates/%d/" % wfjt["id"]).json()
    assert detail["summary_fields"]["labels"] == {"count": 1, "results": [{"id": label["id"], "name": label["name"]}]}
    # filtered by name, as a module looks one up
    assert call(service, "GET", path, params={"name": label["name"]}).json()["count"] == 1
    # taken off the last object that used it, the label goes away
    assert call(service, "POST", path, json={"id": label["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", path).json()["count"] == 0
    assert call(service, "GET", "labels/%d/" % label["id"]).status_code == 404


def test_workflow_label_kept_while_another_template_uses_it(service, wfjt):
    label = call(service, "POST", "labels/", json={"name": unique("lb"), "organization": 1}).json()
    other = call(service, "POST", "workflow_job_templates/", json={"name": unique("wf")}).json()
    for template in (wfjt, other):
        path = "workflow_job_templates/%d/labels/" % template["id"]
        assert call(service, "POST", path, json={"id": label["id"]}).status_code == 204
    path = "workflow_job_templates/%d/labels/" % wfjt["id"]
    assert call(service, "POST", path, json={"id": label["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", "labels/%d/" % label["id"]).status_code == 200


def test_workflow_labels_create_and_errors(service, wfjt):
    path = "workflow_job_templates/%d/labels/" % wfjt["id"]
    r = call(service, "POST", path, json={"name": unique("lb"), "organization": 1})
    assert r.status_code == 201 and r.json()["type"] == "label"
    assert call(service, "GET", path).json()["count"] == 1
    r = call(service, "POST", path, json={"id": 999999})
    assert r.status_code == 400
    assert call(service, "GET", "workflow_job_templates/999999/labels/").status_code == 404


def test_workflow_labels_need_change_rights(service, wfjt):
    name, password = unique("rando"), "pw-" + uuid.uuid4().hex
    assert call(service, "POST", "users/", json={"username": name, "password": password}).status_code == 201
    label = call(service, "POST", "labels/", json={"name": unique("lb"), "organization": 1}).json()
    r = call(service, "POST", "workflow_job_templates/%d/labels/" % wfjt["id"], auth=(name, password), json={"id": label["id"]})
    assert r.status_code in (403, 404)


@pytest.mark.parametrize("event", ["started", "success", "error", "approvals"])
def test_workflow_notification_templates(service, wfjt, event):
    body = {"name": unique("nt"), "organization": 1, "notification_type": "webhook",
            "notification_configuration": {"url": "https://h", "headers": {}}}
    nt = call(service, "POST", "notification_templates/", json=body).json()
    path = "workflow_job_templates/%d/notification_templates_%s/" % (wfjt["id"], event)
    assert wfjt["related"]["notification_templates_" + event] == "/api/v2/" + path
    assert call(service, "POST", path, json={"id": nt["id"]}).status_code == 204
    assert [item["id"] for item in call(service, "GET", path).json()["results"]] == [nt["id"]]
    assert call(service, "GET", path, params={"name": nt["name"]}).json()["count"] == 1
    assert call(service, "POST", path, json={"id": nt["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", path).json()["count"] == 0
    # taken off, the notification template stays
    assert call(service, "GET", "notification_templates/%d/" % nt["id"]).status_code == 200


def test_node_labels_and_instance_groups(service, wfjt):
    node = call(service, "POST", "workflow_job_template_nodes/", json={"workflow_job_template": wfjt["id"], "identifier": "n"}).json()
    assert node["related"]["labels"].endswith("/workflow_job_template_nodes/%d/labels/" % node["id"])
    label = call(service, "POST", "labels/", json={"name": unique("lb"), "organization": 1}).json()
    path = "workflow_job_template_nodes/%d/labels/" % node["id"]
    assert call(service, "POST", path, json={"id": label["id"]}).status_code == 204
    assert [item["id"] for item in call(service, "GET", path).json()["results"]] == [label["id"]]
    assert call(service, "POST", path, json={"id": label["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", "labels/%d/" % label["id"]).status_code == 404  # used nowhere any more
    groups = call(service, "GET", "instance_groups/", params={"order_by": "id"}).json()["results"]
    assert len(groups) >= 2
    path = "workflow_job_template_nodes/%d/instance_groups/" % node["id"]
    for group in reversed(groups[:2]):
        assert call(service, "POST", path, json={"id": group["id"]}).status_code == 204
    # kept in the order given
    assert [item["id"] for item in call(service, "GET", path).json()["results"]] == [groups[1]["id"], groups[0]["id"]]
    assert call(service, "POST", path, json={"id": groups[1]["id"], "disassociate": True}).status_code == 204
    assert [item["id"] for item in call(service, "GET", path).json()["results"]] == [groups[0]["id"]]
    assert call(service, "GET", "instance_groups/%d/" % groups[1]["id"]).status_code == 200


def test_node_prompts_the_template_does_not_ask_for(service, wfjt):
    # As observed on AWX 24.6.1 (the Demo Job Template asks for nothing).
    jt = call(service, "GET", "job_templates/", params={"name": "Demo Job Template"}).json()["results"][0]
    path = "workflow_job_templates/%d/workflow_nodes/" % wfjt["id"]
    for prompt in ({"job_type": "check"}, {"verbosity": 1}):
        r = call(service, "POST", path, json=dict(prompt, unified_job_template=jt["id"]))
        assert r.status_code == 400 and r.json() == {name: ["Field is not configured to prompt on launch."] for name in prompt}
    # the template's own value is no prompt
    r = call(service, "POST", path, json={"unified_job_template": jt["id"], "job_type": jt["job_type"]})
    assert r.status_code == 201, r.text
    node = r.json()
    # a partial update that leaves out the variables, the inventory and the execution environment is not checked
    r = call(service, "PATCH", "workflow_job_template_nodes/%d/" % node["id"], json={"verbosity": 2})
    assert r.status_code == 200 and r.json()["verbosity"] == 2
    r = call(service, "PATCH", "workflow_job_template_nodes/%d/" % node["id"], json={"verbosity": 3, "extra_data": {}})
    assert r.status_code == 400 and r.json() == {"verbosity": ["Field is not configured to prompt on launch."]}
