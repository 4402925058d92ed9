"""Teams, legacy roles, role definitions and assignments, workflow job templates and
their nodes, surveys, full job template/project fields, settings categories."""
import uuid

import pytest
import requests

from service_api import call, unique


@pytest.fixture(scope="module")
def rando(service):
    """A user with no rights: (id, (username, password))."""
    name, password = unique("rando"), "pw-" + uuid.uuid4().hex
    r = call(service, "POST", "users/", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["id"], (name, password)


@pytest.fixture(scope="module")
def org(service):
    r = call(service, "POST", "organizations/", json={"name": unique("org-b")})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture(scope="module")
def jt(service, org):
    inv = call(service, "POST", "inventories/", json={"name": unique("inv"), "organization": org["id"]}).json()
    project = call(service, "POST", "projects/", json={"name": unique("proj"), "organization": org["id"], "local_path": "demo"})
    assert project.status_code == 201, project.text
    r = call(service, "POST", "job_templates/", json={"name": unique("jt"), "inventory": inv["id"],
                                                     "project": project.json()["id"], "playbook": "hello.yml"})
    assert r.status_code == 201, r.text
    return r.json()


# ---------------------------------------------------------------- teams

def test_team_crud_and_validation(service, org):
    name = unique("team")
    r = call(service, "POST", "teams/", json={"name": name, "organization": org["id"]})
    assert r.status_code == 201, r.text
    team = r.json()
    assert team["type"] == "team" and team["organization"] == org["id"] and team["description"] == ""
    assert set(team["summary_fields"]["object_roles"]) == {"admin_role", "member_role", "read_role"}
    assert team["summary_fields"]["object_roles"]["member_role"]["name"] == "Member"
    r = call(service, "POST", "teams/", json={"name": name, "organization": org["id"]})
    assert r.status_code == 400 and r.json() == {"__all__": ["Team with this Name and Organization already exists."]}
    r = call(service, "POST", "teams/", json={})
    assert r.status_code == 400 and r.json() == {"name": ["This field is required."], "organization": ["This field is required."]}
    # the same name in another organization is fine; filters and the organization's sub-list
    assert call(service, "POST", "teams/", json={"name": name, "organization": 1}).status_code == 201
    found = call(service, "GET", "teams/?name=%s&organization=%d" % (name, org["id"])).json()
    assert [t["id"] for t in found["results"]] == [team["id"]]
    sub = call(service, "GET", "organizations/%d/teams/" % org["id"]).json()
    assert team["id"] in [t["id"] for t in sub["results"]] and all(t["organization"] == org["id"] for t in sub["results"])
    r = call(service, "POST", "organizations/%d/teams/" % org["id"], json={"name": unique("team-sub")})
    assert r.status_code == 201 and r.json()["organization"] == org["id"]
    assert r.headers["Location"] == r.json()["url"]
    r = call(service, "PATCH", "teams/%d/" % team["id"], json={"description": "d"})
    assert r.status_code == 200 and r.json()["description"] == "d"
    options = call(service, "OPTIONS", "teams/").json()
    assert options["actions"]["POST"]["name"]["required"] is True and options["actions"]["POST"]["name"]["max_length"] == 512
    assert call(service, "DELETE", "teams/%d/" % team["id"]).status_code == 204
    assert call(service, "GET", "teams/%d/" % team["id"]).status_code == 404


def test_object_roles_in_summary_fields(service, org, jt):
    roles = call(service, "GET", "organizations/%d/" % org["id"]).json()["summary_fields"]["object_roles"]
    assert "auditor_role" in roles and "job_template_admin_role" in roles
    assert roles["execute_role"]["description"] == "May run any executable resources in the organization"
    jt_roles = call(service, "GET", "job_templates/%d/" % jt["id"]).json()["summary_fields"]["object_roles"]
    assert set(jt_roles) == {"admin_role", "execute_role", "read_role"}
    role = call(service, "GET", "roles/%d/" % jt_roles["execute_role"]["id"]).json()
    assert role["type"] == "role" and role["name"] == "Execute" and role["description"] == "May run the job template"
    assert role["summary_fields"]["resource_type"] == "job_template" and role["summary_fields"]["resource_id"] == jt["id"]
    assert role["related"]["job_template"] == "/api/v2/job_templates/%d/" % jt["id"]


# ---------------------------------------------------------------- legacy roles

def test_role_grant_and_revoke_give_and_take_access(service, rando, jt):
    user_id, auth = rando
    role_id = jt["summary_fields"]["object_roles"]["execute_role"]["id"]
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 404
    r = call(service, "POST", "roles/%d/users/" % role_id, json={"id": user_id})
    assert r.status_code == 204
    assert user_id in [u["id"] for u in call(service, "GET", "roles/%d/users/" % role_id).json()["results"]]
    assert role_id in [x["id"] for x in call(service, "GET", "users/%d/roles/" % user_id).json()["results"]]
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 200
    assert call(service, "GET", "job_templates/%d/launch/" % jt["id"], auth=auth).status_code == 200
    # executing does not allow editing
    assert call(service, "PATCH", "job_templates/%d/" % jt["id"], auth=auth, json={"description": "x"}).status_code == 403
    r = call(service, "POST", "roles/%d/users/" % role_id, json={"id": user_id, "disassociate": True})
    assert r.status_code == 204
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 404


def test_role_association_errors(service, org, jt):
    role_id = jt["summary_fields"]["object_roles"]["read_role"]["id"]
    r = call(service, "POST", "roles/%d/users/" % role_id, json={})
    assert r.status_code == 400 and r.json() == {"msg": "User 'id' field is missing."}
    r = call(service, "POST", "roles/%d/users/" % role_id, json={"id": "x"})
    assert r.status_code == 400 and r.json() == {"msg": '"id" field must be an integer.'}
    r = call(service, "POST", "roles/%d/users/" % role_id, json={"id": 999999})
    assert r.status_code == 400 and r.json() == {"detail": "User matching query does not exist."}
    team = call(service, "POST", "teams/", json={"name": unique("t"), "organization": org["id"]}).json()
    member_role = call(service, "GET", "organizations/%d/" % org["id"]).json()["summary_fields"]["object_roles"]["member_role"]["id"]
    r = call(service, "POST", "roles/%d/teams/" % member_role, json={"id": team["id"]})
    assert r.status_code == 400
    assert r.json() == {"msg": "You cannot assign an Organization participation role as a child role for a Team."}


def test_team_role_reaches_its_members(service, org, rando, jt):
    user_id, auth = rando
    team = call(service, "POST", "teams/", json={"name": unique("t"), "organization": org["id"]}).json()
    role_id = jt["summary_fields"]["object_roles"]["read_role"]["id"]
    assert call(service, "POST", "roles/%d/teams/" % role_id, json={"id": team["id"]}).status_code == 204
    assert [t["id"] for t in call(service, "GET", "roles/%d/teams/" % role_id).json()["results"]] == [team["id"]]
    assert role_id in [x["id"] for x in call(service, "GET", "teams/%d/roles/" % team["id"]).json()["results"]]
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 404
    assert call(service, "POST", "teams/%d/users/" % team["id"], json={"id": user_id}).status_code == 204
    assert [u["id"] for u in call(service, "GET", "teams/%d/users/" % team["id"]).json()["results"]] == [user_id]
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 200
    assert call(service, "POST", "teams/%d/users/" % team["id"], json={"id": user_id, "disassociate": True}).status_code == 204
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 404


# ---------------------------------------------------------------- role definitions and assignments

def test_role_definitions(service):
    names = {rd["name"]: rd for rd in call(service, "GET", "role_definitions/?page_size=200").json()["results"]}
    for name in ("JobTemplate Execute", "Organization Admin", "Team Member", "WorkflowJobTemplate Approve", "Inventory Adhoc"):
        assert names[name]["managed"] is True
    assert sorted(names["JobTemplate Execute"]["permissions"]) == ["awx.execute_jobtemplate", "awx.view_jobtemplate"]
    assert names["JobTemplate Execute"]["content_type"] == "awx.jobtemplate"
    name = unique("custom")
    body = {"name": name, "permissions": ["awx.view_jobtemplate", "awx.change_jobtemplate"], "content_type": "awx.jobtemplate"}
    r = call(service, "POST", "role_definitions/", json=body)
    assert r.status_code == 201, r.text
    rd = r.json()
    assert rd["managed"] is False and rd["content_type"] == "awx.jobtemplate"
    r = call(service, "POST", "role_definitions/", json=body)
    assert r.status_code == 400 and r.json() == {"name": ["role definition with this name already exists."]}
    r = call(service, "POST", "role_definitions/", json=dict(body, name=unique("c"), permissions=["awx.change_jobtemplate"]))
    assert r.json() == {"permissions": ["Permissions for model job template needs to include view, got: change_jobtemplate"]}
    r = call(service, "POST", "role_definitions/", json=dict(body, name=unique("c"), permissions=["awx.view_inventory"]))
    assert r.status_code == 400 and r.json() == {"permissions": ['Permissions "view_inventory" are not valid for jobtemplate roles']}
    r = call(service, "POST", "role_definitions/", json={"name": unique("c"), "permissions": ["awx.view_jobtemplate"]})
    assert r.status_code == 400 and r.json() == {"content_type": ["System-wide roles are not enabled"]}
    r = call(service, "PATCH", "role_definitions/%d/" % names["JobTemplate Execute"]["id"], json={"description": "x"})
    assert r.status_code == 400 and r.json() == ["Role is managed by the system"]
    r = call(service, "PATCH", "role_definitions/%d/" % rd["id"], json={"description": "mine"})
    assert r.status_code == 200 and r.json()["description"] == "mine"
    assert call(service, "DELETE", "role_definitions/%d/" % rd["id"]).status_code == 204


def test_user_and_team_assignments(service, org, rando, jt):
    user_id, auth = rando
    rd = call(service, "GET", "role_definitions/?name=JobTemplate+Execute").json()["results"][0]
    r = call(service, "POST", "role_user_assignments/", json={"role_definition": rd["id"], "user": user_id})
    assert r.status_code == 400 and r.json() == {"object_id": "Object must be specified for this role assignment"}
    r = call(service, "POST", "role_user_assignments/", json={"role_definition": rd["id"], "object_id": jt["id"]})
    msg = "Provide exactly one of user or user_ansible_id"
    assert r.status_code == 400 and r.json() == {"user": msg, "user_ansible_id": msg}
    r = call(service, "POST", "role_user_assignments/", json={"role_definition": rd["id"], "user": user_id, "object_id": 999999})
    assert r.status_code == 400 and r.json() == {"object_id": ['Invalid pk "999999" - object does not exist.']}
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 404
    r = call(service, "POST", "role_user_assignments/", json={"role_definition": rd["id"], "user": user_id, "object_id": jt["id"]})
    assert r.status_code == 201, r.text
    assignment = r.json()
    assert assignment["object_id"] == str(jt["id"]) and assignment["content_type"] == "awx.jobtemplate"
    # Observed on AWX 24.6.1: the resource ids are not read back.
    assert assignment["object_ansible_id"] is None and assignment["user_ansible_id"] is None
    assert assignment["summary_fields"]["role_definition"]["name"] == "JobTemplate Execute"
    # Observed on AWX 24.6.1: the object's summary is its model's (id, name, description and its kind's own).
    assert assignment["summary_fields"]["content_object"] == {"id": jt["id"], "name": jt["name"], "description": jt["description"]}
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 200
    listed = call(service, "GET", "role_user_assignments/?user=%d" % user_id).json()["results"]
    assert assignment["id"] in [a["id"] for a in listed]
    assert call(service, "DELETE", "role_user_assignments/%d/" % assignment["id"]).status_code == 204
    assert call(service, "GET", "job_templates/%d/" % jt["id"], auth=auth).status_code == 404
    team = call(service, "POST", "teams/", json={"name": unique("t"), "organization": org["id"]}).json()
    r = call(service, "POST", "role_team_assignments/", json={"role_definition": rd["id"], "team": team["id"], "object_id": jt["id"]})
    assert r.status_code == 201 and r.json()["team"] == team["id"]
    assert "team_ansible_id" not in r.json() and r.json()["object_ansible_id"] is None
    # A shared object's resource id: in its summary_fields, a filter of its list, and for assignments.
    resource = team["summary_fields"]["resource"]
    assert resource["resource_type"] == "shared.team"
    listed = call(service, "GET", "teams/?resource__ansible_id=%s" % resource["ansible_id"].upper()).json()
    assert [t["id"] for t in listed["results"]] == [team["id"]]
    r = call(service, "GET", "teams/?resource__ansible_id=bad")
    assert r.status_code == 400 and "is not a valid UUID" in r.json()["detail"]
    r = call(service, "GET", "job_templates/?resource__ansible_id=%s" % resource["ansible_id"])
    assert r.status_code == 400
    audit = call(service, "GET", "role_definitions/?name=Organization+Audit").json()["results"][0]
    org_aid = call(service, "GET", "organizations/%d/" % org["id"]).json()["summary_fields"]["resource"]["ansible_id"]
    assert call(service, "GET", "teams/?resource__ansible_id=%s" % org_aid).json()["count"] == 0
    body = {"role_definition": audit["id"], "team_ansible_id": resource["ansible_id"], "object_ansible_id": org_aid}
    r = call(service, "POST", "role_team_assignments/", json=body)
    assert r.status_code == 201 and (r.json()["team"], r.json()["object_id"]) == (team["id"], str(org["id"]))
    assert set(r.json()["summary_fields"]["content_object"]) == {"id", "name", "description"}
    r = call(service, "POST", "role_team_assignments/", json={"role_definition": rd["id"], "team": team["id"], "object_ansible_id": org_aid})
    assert r.status_code == 400 and r.json() == {"object_ansible_id": "Object type of organization does not match role type of jobtemplate"}
    member = call(service, "GET", "role_definitions/?name=Organization+Member").json()["results"][0]
    r = call(service, "POST", "role_team_assignments/", json={"role_definition": member["id"], "team": team["id"], "object_id": org["id"]})
    assert r.status_code == 400 and r.json() == ["Assigning organization member permission to teams is not allowed"]


# ---------------------------------------------------------------- workflows

@pytest.fixture(scope="module")
def wfjt(service, org):
    r = call(service, "POST", "workflow_job_templates/", json={"name": unique("wf"), "organization": org["id"], "extra_vars": "a: 1"})
    assert r.status_code == 201, r.text
    return r.json()


def test_workflow_job_template_crud(service, org, wfjt):
    assert wfjt["type"] == "workflow_job_template" and wfjt["allow_simultaneous"] is False and wfjt["limit"] is None
    assert set(wfjt["summary_fields"]["object_roles"]) == {"admin_role", "execute_role", "read_role", "approval_role"}
    r = call(service, "POST", "workflow_job_templates/", json={"name": wfjt["name"], "organization": org["id"]})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["WorkflowJobTemplate with this (name, organization) combination already exists."]}
    r = call(service, "POST", "workflow_job_templates/", json={"name": unique("wf"), "webhook_service": "svn"})
    assert r.status_code == 400 and r.json() == {"webhook_service": ['"svn" is not a valid choice.']}
    r = call(service, "PATCH", "workflow_job_templates/%d/" % wfjt["id"], json={"ask_limit_on_launch": True, "limit": "web"})
    assert r.status_code == 200 and r.json()["ask_limit_on_launch"] is True and r.json()["limit"] == "web"
    found = call(service, "GET", "workflow_job_templates/?name=%s&organization=%d" % (wfjt["name"], org["id"])).json()
    assert found["count"] == 1


def test_workflow_nodes_and_edges(service, wfjt, jt):
    def node(identifier, **extra):
        r = call(service, "POST", "workflow_job_template_nodes/", json=dict(workflow_job_template=wfjt["id"], identifier=identifier, **extra))
        assert r.status_code == 201, r.text
        return r.json()

    a = node("a", unified_job_template=jt["id"])
    b = node("b")
    c = node("c")
    assert a["summary_fields"]["unified_job_template"]["name"] == jt["name"]
    assert a["related"]["unified_job_template"] == "/api/v2/job_templates/%d/" % jt["id"]
    r = call(service, "POST", "workflow_job_template_nodes/", json={"workflow_job_template": wfjt["id"], "identifier": "a"})
    assert r.status_code == 400
    assert r.json() == {"__all__": ["Workflow job template node with this Identifier and Workflow job template already exists."]}
    assert call(service, "POST", "workflow_job_template_nodes/%d/success_nodes/" % a["id"], json={"id": b["id"]}).status_code == 204
    assert call(service, "POST", "workflow_job_template_nodes/%d/always_nodes/" % b["id"], json={"id": c["id"]}).status_code == 204
    # c -> a would close a loop
    r = call(service, "POST", "workflow_job_template_nodes/%d/failure_nodes/" % c["id"], json={"id": a["id"]})
    assert r.status_code == 400 and r.json() == {"Error": "Cycle detected."}
    assert call(service, "GET", "workflow_job_template_nodes/%d/failure_nodes/" % c["id"]).json()["count"] == 0
    r = call(service, "POST", "workflow_job_template_nodes/%d/failure_nodes/" % a["id"], json={"id": b["id"]})
    assert r.status_code == 400 and r.json() == {"Error": "Relationship not allowed."}
    r = call(service, "POST", "workflow_job_template_nodes/%d/success_nodes/" % a["id"], json={"id": a["id"]})
    assert r.status_code == 400 and r.json() == {"Error": "Cycle detected."}
    assert call(service, "GET", "workflow_job_template_nodes/%d/" % a["id"]).json()["success_nodes"] == [b["id"]]
    # a node of another workflow cannot be linked
    other = call(service, "POST", "workflow_job_templates/", json={"name": unique("wf2")}).json()
    foreign = call(service, "POST", "workflow_job_template_nodes/", json={"workflow_job_template": other["id"]}).json()
    assert call(service, "POST", "workflow_job_template_nodes/%d/success_nodes/" % a["id"], json={"id": foreign["id"]}).status_code == 403
    # without an id a new node of the same workflow is created and linked
    r = call(service, "POST", "workflow_job_template_nodes/%d/always_nodes/" % c["id"], json={"identifier": "d"})
    assert r.status_code == 201 and r.json()["workflow_job_template"] == wfjt["id"]
    listed = call(service, "GET", "workflow_job_template_nodes/?workflow_job_template=%d&identifier=d" % wfjt["id"]).json()
    assert [n["id"] for n in listed["results"]] == [r.json()["id"]]
    assert call(service, "GET", "workflow_job_templates/%d/workflow_nodes/" % wfjt["id"]).json()["count"] == 4
    r = call(service, "POST", "workflow_job_template_nodes/%d/success_nodes/" % a["id"], json={"id": b["id"], "disassociate": True})
    assert r.status_code == 204 and call(service, "GET", "workflow_job_template_nodes/%d/" % a["id"]).json()["success_nodes"] == []
    r = call(service, "POST", "workflow_job_template_nodes/%d/create_approval_template/" % b["id"], json={"name": "approve", "timeout": 60})
    assert r.status_code == 201 and r.json()["type"] == "workflow_approval_template"
    node = call(service, "GET", "workflow_job_template_nodes/%d/" % b["id"]).json()
    assert node["unified_job_template"] == r.json()["id"]
    # Observed on AWX 24.6.1: an approval node's summary gives the approval's timeout.
    assert node["summary_fields"]["unified_job_template"]["timeout"] == 60


def test_node_credentials(service, wfjt):
    node = call(service, "POST", "workflow_job_template_nodes/", json={"workflow_job_template": wfjt["id"]}).json()
    cred = call(service, "POST", "credentials/", json={"name": unique("c"), "credential_type": 1, "organization": 1}).json()
    assert call(service, "POST", "workflow_job_template_nodes/%d/credentials/" % node["id"], json={"id": cred["id"]}).status_code == 204
    assert [c["id"] for c in call(service, "GET", "workflow_job_template_nodes/%d/credentials/" % node["id"]).json()["results"]] == [cred["id"]]


# ---------------------------------------------------------------- surveys

SURVEY = {"name": "s", "description": "d", "spec": [
    {"type": "text", "question_name": "Who", "variable": "who", "required": True},
    {"type": "password", "question_name": "Secret", "variable": "secret", "required": False, "default": "hunter2"},
    {"type": "integer", "question_name": "N", "variable": "n", "required": False, "default": 3, "min": 0, "max": 9},
]}


@pytest.mark.parametrize("kind", ["job_templates", "workflow_job_templates"])
def test_survey_spec(service, kind, jt, wfjt):
    obj = jt if kind == "job_templates" else wfjt
    path = "%s/%d/survey_spec/" % (kind, obj["id"])
    assert call(service, "POST", path, json=SURVEY).status_code == 200
    shown = call(service, "GET", path).json()
    assert shown["spec"][0]["variable"] == "who" and shown["spec"][1]["default"] == "$encrypted$"
    # "$encrypted$" keeps the stored password default
    assert call(service, "POST", path, json=shown).status_code == 200
    bad = [
        ({"name": "s", "description": "d"}, "Field 'spec' is missing from survey spec."),
        ({"name": "s", "description": "d", "spec": []}, "'spec' doesn't contain any items."),
        ({"name": "s", "description": "d", "spec": [{"type": "text", "question_name": "q", "variable": "v"}]},
         "'required' missing from survey question 0"),
        ({"name": "s", "description": "d", "spec": [{"type": "color", "question_name": "q", "variable": "v", "required": True}]},
         "'color' in survey question 0 is not one of 'text, textarea, password, multiplechoice, multiselect, integer, float' allowed question types."),
        ({"name": "s", "description": "d", "spec": [SURVEY["spec"][0], SURVEY["spec"][0]]},
         "'variable' 'who' duplicated in survey question 1."),
        ({"name": "s", "description": "d", "spec": [{"type": "integer", "question_name": "q", "variable": "v", "required": True, "default": "x"}]},
         "Default value x in survey question 0 expected to be integer."),
        ({"name": "s", "description": "d", "spec": [{"type": "multiplechoice", "question_name": "q", "variable": "v", "required": True}]},
         "Survey question 0 of type multiplechoice must specify choices."),
    ]
    for spec, message in bad:
        r = call(service, "POST", path, json=spec)
        assert r.status_code == 400 and r.json() == {"error": message}, (spec, r.text)
    # observed on AWX 24.6.1 (job templates; workflows share the view): 200 without a body
    gone = call(service, "DELETE", path)
    assert gone.status_code == 200 and gone.content == b""
    assert call(service, "GET", path).json() == {}


# ---------------------------------------------------------------- job templates and projects

def test_job_template_full_fields(service, jt):
    options = call(service, "OPTIONS", "job_templates/").json()["actions"]["POST"]
    for name in ("ask_diff_mode_on_launch", "become_enabled", "job_slice_count", "webhook_service", "survey_enabled",
                 "execution_environment", "prevent_instance_group_fallback", "host_config_key"):
        assert name in options, name
    r = call(service, "PATCH", "job_templates/%d/" % jt["id"], json={"become_enabled": True, "job_slice_count": 2, "ask_forks_on_launch": True})
    assert r.status_code == 200 and r.json()["become_enabled"] is True and r.json()["job_slice_count"] == 2
    r = call(service, "PATCH", "job_templates/%d/" % jt["id"], json={"forks": -1})
    assert r.status_code == 400 and r.json() == {"forks": ["Ensure this value is greater than or equal to 0."]}
    r = call(service, "PATCH", "job_templates/%d/" % jt["id"], json={"execution_environment": 999999})
    assert r.status_code == 400 and r.json() == {"execution_environment": ['Invalid pk "999999" - object does not exist.']}
    assert call(service, "GET", "job_templates/?organization=%d&name=%s" % (jt["organization"], jt["name"])).json()["count"] == 1
    r = call(service, "POST", "job_templates/", json={"name": jt["name"], "project": jt["project"], "inventory": jt["inventory"], "playbook": "hello.yml"})
    assert r.status_code == 400 and r.json() == {"__all__": ["JobTemplate with this (name, organization) combination already exists."]}


def test_project_scm_fields(service, org):
    r = call(service, "POST", "projects/", json={"name": unique("git"), "organization": org["id"], "scm_type": "git"})
    assert r.status_code == 400 and r.json() == {"scm_url": ["SCM URL is required."]}
    r = call(service, "POST", "projects/", json={"name": unique("git"), "organization": org["id"], "scm_type": "hg", "scm_url": "x"})
    assert r.status_code == 400 and r.json() == {"scm_type": ['"hg" is not a valid choice.']}
    r = call(service, "POST", "projects/", json={"name": unique("git"), "organization": org["id"], "scm_type": "git",
                                                "scm_url": "https://example.com/repo.git", "scm_update_on_launch": True,
                                                "allow_override": True, "scm_branch": "main"})
    assert r.status_code == 201, r.text
    project = r.json()
    assert project["scm_update_on_launch"] is True and project["allow_override"] is True and project["local_path"] == ""
    assert set(project["summary_fields"]["object_roles"]) == {"admin_role", "use_role", "update_role", "read_role"}
    # job templates share one id space with projects and workflows
    assert call(service, "GET", "job_templates/%d/" % project["id"]).status_code == 404


# ---------------------------------------------------------------- settings and the root

def test_settings_categories(service):
    slugs = [c["slug"] for c in call(service, "GET", "settings/").json()["results"]]
    for slug in ("all", "authentication", "jobs", "logging", "system", "ui"):
        assert slug in slugs
        assert call(service, "GET", "settings/%s/" % slug).status_code == 200
    r = call(service, "PATCH", "settings/jobs/", json={"DEFAULT_JOB_TIMEOUT": "soon", "AWX_ROLES_ENABLED": "maybe"})
    assert r.status_code == 400
    assert r.json() == {"DEFAULT_JOB_TIMEOUT": ["A valid integer is required."], "AWX_ROLES_ENABLED": ["Must be a valid boolean."]}
    r = call(service, "PATCH", "settings/jobs/", json={"DEFAULT_JOB_TIMEOUT": 30, "NOT_A_SETTING": 1})
    assert r.status_code == 200 and r.json()["DEFAULT_JOB_TIMEOUT"] == 30 and "NOT_A_SETTING" not in r.json()
    assert call(service, "GET", "settings/all/").json()["DEFAULT_JOB_TIMEOUT"] == 30
    assert call(service, "GET", "settings/changed/").json()["DEFAULT_JOB_TIMEOUT"] == 30
    r = call(service, "PATCH", "settings/all/", json={"DEFAULT_JOB_TIMEOUT": 0, "SESSION_COOKIE_AGE": 1800})
    assert r.status_code == 200 and r.json()["DEFAULT_JOB_TIMEOUT"] == 0 and r.json()["SESSION_COOKIE_AGE"] == 1800
    assert call(service, "DELETE", "settings/jobs/").status_code == 204
    assert "DEFAULT_JOB_TIMEOUT" not in call(service, "GET", "settings/changed/").json()
    assert call(service, "GET", "settings/nothing/").status_code == 404


def test_root_and_options(service):
    root = requests.get(service.url + "/api/v2/", verify=service.ca_path).json()
    for key in ("teams", "roles", "role_definitions", "role_user_assignments", "role_team_assignments",
                "workflow_job_templates", "workflow_job_template_nodes"):
        assert root[key] == "/api/v2/%s/" % key
    for path in ("roles/", "role_definitions/", "workflow_job_templates/", "workflow_job_template_nodes/"):
        assert "GET" in call(service, "OPTIONS", path).json()["actions"], path


def test_sub_list_creates_answer_a_location(service):
    # Observed on AWX 24.6.1 (SubListCreateAPIView.create): 201 with the new object's path in Location.
    inv = call(service, "POST", "inventories/", json={"name": unique("inv-loc"), "organization": 1}).json()
    r = call(service, "POST", "inventories/%d/hosts/" % inv["id"], json={"name": "h1"})
    assert r.status_code == 201 and r.headers["Location"] == r.json()["url"] == "/api/v2/hosts/%d/" % r.json()["id"]
    wfjt = call(service, "POST", "workflow_job_templates/", json={"name": unique("wf-loc"), "organization": 1}).json()
    r = call(service, "POST", "workflow_job_templates/%d/workflow_nodes/" % wfjt["id"], json={})
    assert r.status_code == 201 and r.headers["Location"] == "/api/v2/workflow_job_template_nodes/%d/" % r.json()["id"]
    r = call(service, "POST", "workflow_job_template_nodes/%d/success_nodes/" % r.json()["id"], json={})
    assert r.status_code == 201 and r.headers["Location"] == "/api/v2/workflow_job_template_nodes/%d/" % r.json()["id"]


def test_details_and_creates_name_their_named_url(service):
    # Observed on AWX 24.6.1 (BaseSerializer.get_related): related.named_url on a detail and on a
    # POST's answer, not in lists; the parts as the named URL graph orders them, "+" inside a value as "[+]".
    machine = call(service, "GET", "credential_types/?namespace=ssh").json()["results"][0]
    assert call(service, "GET", "credential_types/%d/" % machine["id"]).json()["related"]["named_url"] == \
        "/api/v2/credential_types/Machine+ssh/"
    name = unique("cred") + "+x"
    r = call(service, "POST", "credentials/", json={"name": name, "organization": 1, "credential_type": machine["id"]})
    assert r.status_code == 201, r.text
    named = r.json()["related"]["named_url"]
    assert named == "/api/v2/credentials/%s++Machine+ssh++Default/" % name.replace("+", "[+]")
    assert list(r.json()["related"])[0] == "named_url"
    assert call(service, "GET", named[len("/api/v2/"):]).json()["id"] == r.json()["id"]
    listed = call(service, "GET", "credentials/", params={"id": r.json()["id"]}).json()["results"][0]
    assert "named_url" not in listed["related"]
    host = call(service, "POST", "hosts/", json={"name": unique("h"), "inventory": 1}).json()
    assert host["related"]["named_url"] == "/api/v2/hosts/%s++Demo Inventory++Default/" % host["name"]
