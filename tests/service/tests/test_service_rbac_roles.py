"""Object roles of instance groups, and the membership questions the role module asks."""
import uuid

from service_api import call, unique


def test_instance_groups_list_their_object_roles(service):
    r = call(service, "POST", "instance_groups/", json={"name": unique("ig")})
    assert r.status_code == 201, r.text
    roles = r.json()["summary_fields"]["object_roles"]
    assert set(roles) == {"admin_role", "use_role", "read_role"}
    assert roles["use_role"]["name"] == "Use"
    listed = call(service, "GET", "instance_groups/", params={"name": r.json()["name"]}).json()["results"][0]
    assert listed["summary_fields"]["object_roles"] == roles
    role = call(service, "GET", "roles/%d/" % roles["use_role"]["id"]).json()
    assert role["summary_fields"]["resource_type"] == "instance_group"


def test_role_holders_filtered_by_id(service):
    users = []
    for _ in range(2):
        r = call(service, "POST", "users/", json={"username": unique("holder"), "password": "pw-" + uuid.uuid4().hex})
        assert r.status_code == 201, r.text
        users.append(r.json()["id"])
    ig = call(service, "POST", "instance_groups/", json={"name": unique("ig")}).json()
    role_id = ig["summary_fields"]["object_roles"]["use_role"]["id"]
    assert call(service, "POST", "roles/%d/users/" % role_id, json={"id": users[0]}).status_code == 204
    query = {"id__in": "%d,%d" % tuple(users)}
    held = call(service, "GET", "roles/%d/users/" % role_id, params=query).json()
    assert [u["id"] for u in held["results"]] == [users[0]]
    assert call(service, "GET", "roles/%d/teams/" % role_id, params={"id__in": "1"}).json()["results"] == []
