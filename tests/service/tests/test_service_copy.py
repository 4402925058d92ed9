"""<resource>/<id>/copy/: a copy under a new name, with what the real service keeps
at copy (a job template's credentials, labels and survey; an inventory's hosts and
groups; a workflow's nodes and edges)."""
import uuid

import pytest

from service_api import call, created, unique


@pytest.fixture(scope="module")
def inv(service):
    inv = created(service, "inventories/", name=unique("inv"), organization=1, variables="a: 1")
    hosts = [created(service, "hosts/", name=unique("h"), inventory=inv["id"]) for _ in range(2)]
    parent = created(service, "groups/", name=unique("parent"), inventory=inv["id"])
    child = created(service, "groups/", name=unique("child"), inventory=inv["id"])
    assert call(service, "POST", "groups/%d/children/" % parent["id"], json={"id": child["id"]}).status_code == 204
    assert call(service, "POST", "groups/%d/hosts/" % child["id"], json={"id": hosts[0]["id"]}).status_code == 204
    return inv


def test_can_copy_and_name_required(service, inv):
    assert call(service, "GET", "inventories/%d/copy/" % inv["id"]).json() == {"can_copy": True}
    r = call(service, "POST", "inventories/%d/copy/" % inv["id"], json={})
    assert r.status_code == 400 and "name" in r.json()
    # Observed on AWX 24.6.1 (CopySerializer.validate): a copy may not keep the name.
    r = call(service, "POST", "inventories/%d/copy/" % inv["id"], json={"name": inv["name"]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["The original object is already named %s, a copy from it cannot have the same name." % inv["name"]]}


def test_inventory_copy_has_its_hosts_and_groups(service, inv):
    name = unique("inv-copy")
    r = call(service, "POST", "inventories/%d/copy/" % inv["id"], json={"name": name})
    assert r.status_code == 201, r.text
    copied = r.json()
    assert copied["name"] == name and copied["id"] != inv["id"] and copied["variables"] == "a: 1"
    assert r.headers["Location"] == copied["url"]
    hosts = call(service, "GET", "inventories/%d/hosts/" % copied["id"]).json()["results"]
    assert len(hosts) == 2 and all(h["inventory"] == copied["id"] for h in hosts)
    groups = {g["name"].split("-")[0]: g for g in call(service, "GET", "inventories/%d/groups/" % copied["id"]).json()["results"]}
    children = call(service, "GET", "groups/%d/children/" % groups["parent"]["id"]).json()["results"]
    assert [c["id"] for c in children] == [groups["child"]["id"]]
    members = call(service, "GET", "groups/%d/hosts/" % groups["child"]["id"]).json()["results"]
    assert len(members) == 1 and members[0]["inventory"] == copied["id"]
    assert len(call(service, "GET", "inventories/%d/hosts/" % inv["id"]).json()["results"]) == 2


def test_job_template_copy_keeps_credentials_labels_and_survey(service, inv):
    project = call(service, "GET", "projects/?name=Demo+Project").json()["results"][0]
    cred = created(service, "credentials/", name=unique("cred"), organization=1, credential_type=1,
                   inputs={"username": "u", "password": "secret"})
    jt = created(service, "job_templates/", name=unique("jt"), inventory=inv["id"], project=project["id"],
                 playbook="hello.yml", survey_enabled=True)
    assert call(service, "POST", "job_templates/%d/credentials/" % jt["id"], json={"id": cred["id"]}).status_code == 204
    label = unique("label")
    assert call(service, "POST", "job_templates/%d/labels/" % jt["id"], json={"name": label, "organization": 1}).status_code in (200, 201, 204)
    survey = {"name": "", "description": "", "spec": [{"question_name": "Q", "variable": "q", "type": "text",
                                                        "required": False, "default": "x"}]}
    assert call(service, "POST", "job_templates/%d/survey_spec/" % jt["id"], json=survey).status_code == 200
    copied = call(service, "POST", "job_templates/%d/copy/" % jt["id"], json={"name": jt["name"] + "-copy"}).json()
    assert copied["playbook"] == "hello.yml" and copied["survey_enabled"] is True
    assert [c["id"] for c in call(service, "GET", "job_templates/%d/credentials/" % copied["id"]).json()["results"]] == [cred["id"]]
    assert [lb["name"] for lb in call(service, "GET", "job_templates/%d/labels/" % copied["id"]).json()["results"]] == [label]
    assert call(service, "GET", "job_templates/%d/survey_spec/" % copied["id"]).json()["spec"][0]["variable"] == "q"
    copied_cred = call(service, "POST", "credentials/%d/copy/" % cred["id"], json={"name": cred["name"] + "-copy"}).json()
    assert copied_cred["inputs"] == {"username": "u", "password": "$encrypted$"}


def test_workflow_copy_has_its_nodes_and_edges(service):
    wfjt = created(service, "workflow_job_templates/", name=unique("wf"), organization=1)
    first = created(service, "workflow_job_template_nodes/", workflow_job_template=wfjt["id"], identifier="first")
    second = created(service, "workflow_job_template_nodes/", workflow_job_template=wfjt["id"], identifier="second")
    r = call(service, "POST", "workflow_job_template_nodes/%d/create_approval_template/" % second["id"], json={"name": "ok?"})
    assert r.status_code in (200, 201), r.text
    assert call(service, "POST", "workflow_job_template_nodes/%d/success_nodes/" % first["id"], json={"id": second["id"]}).status_code == 204
    # (awx.awx's copy reads can_copy_without_user_input of a workflow's copy view)
    assert call(service, "GET", "workflow_job_templates/%d/copy/" % wfjt["id"]).json() == {
        "can_copy": True, "can_copy_without_user_input": True, "templates_unable_to_copy": [],
        "credentials_unable_to_copy": [], "inventories_unable_to_copy": []}
    copied = call(service, "POST", "workflow_job_templates/%d/copy/" % wfjt["id"], json={"name": wfjt["name"] + "-copy"}).json()
    nodes = {n["identifier"]: n for n in call(service, "GET", "workflow_job_templates/%d/workflow_nodes/" % copied["id"]).json()["results"]}
    assert sorted(nodes) == ["first", "second"]
    assert nodes["first"]["success_nodes"] == [nodes["second"]["id"]]
    original = call(service, "GET", "workflow_job_template_nodes/%d/" % second["id"]).json()
    assert nodes["second"]["unified_job_template"] not in (None, original["unified_job_template"])


def test_a_user_who_may_not_change_it_may_not_copy_it(service, inv):
    name, password = unique("rando"), "pw-" + uuid.uuid4().hex
    created(service, "users/", username=name, password=password)
    r = call(service, "POST", "inventories/%d/copy/" % inv["id"], auth=(name, password), json={"name": unique("no")})
    assert r.status_code in (403, 404)
