"""The gateway layout's resource registry (django-ansible-base's ``ansible_base.resource_registry``, configured in
refsvc/gateway/resource_api.py) at /api/gateway/v1/service-index/: the users, organizations and teams the gateway
shares with the platform's other services, each with the ansible_id its answers and the controller's show."""
import uuid

import pytest

from test_gateway_layout import CTL, GW, Gateway


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway")).start()
    yield instance
    instance.stop()


@pytest.fixture
def api(gateway):
    s = gateway.session()
    s.headers.update(gateway.basic())

    def call(method, path, **body):
        r = s.request(method, gateway.url + path, json=body if method in ("POST", "PATCH", "PUT") else None)
        return r.status_code, r

    return call


def _resources(api, kind):
    """The resources of a kind (the index pages by 50: the module makes fewer)."""
    status, r = api("GET", GW + "service-index/resources/?content_type__resource_type__name=shared.%s" % kind)
    assert status == 200, r.text
    assert r.json()["next"] is None
    return r.json()["results"]


def test_the_index_links_its_endpoints(api):
    status, r = api("GET", GW + "service-index/")
    assert status == 200
    assert r.json() == {"metadata": GW + "service-index/metadata/", "resources": GW + "service-index/resources/",
                        "resource-types": GW + "service-index/resource-types/"}


def test_metadata_names_the_gateway_as_the_aap_service(api):
    status, r = api("GET", GW + "service-index/metadata/")
    assert status == 200
    assert r.json()["service_type"] == "aap"
    assert uuid.UUID(r.json()["service_id"])


def test_the_shared_types_are_the_users_organizations_and_teams(api):
    status, r = api("GET", GW + "service-index/resource-types/")
    assert status == 200
    assert {t["name"]: t["shared_resource_type"] for t in r.json()["results"]} == {
        "shared.user": "user", "shared.organization": "organization", "shared.team": "team"}


def test_every_organization_is_listed_with_the_ansible_id_its_answers_show(api):
    name = "index-org-%s" % uuid.uuid4().hex[:6]
    status, r = api("POST", GW + "organizations/", name=name)
    assert status == 201, r.text
    org = r.json()
    status, r = api("GET", GW + "organizations/?page_size=200")
    organizations = r.json()["results"]
    listed = {item["object_id"]: item for item in _resources(api, "organization")}
    assert set(listed) == {str(o["id"]) for o in organizations}
    for item in organizations:
        resource = item["summary_fields"]["resource"]
        assert resource == {"ansible_id": listed[str(item["id"])]["ansible_id"], "resource_type": "shared.organization"}
    mine = listed[str(org["id"])]
    assert mine["name"] == name
    # the controller's copy shows the same id
    status, r = api("GET", CTL + "organizations/%d/" % org["id"])
    assert r.json()["summary_fields"]["resource"]["ansible_id"] == mine["ansible_id"]
    # and the resource's own answer has the organization's data
    status, r = api("GET", GW + "service-index/resources/%s/" % mine["ansible_id"])
    assert status == 200
    assert r.json()["resource_data"] == {"name": name, "description": ""}


def test_a_team_and_a_user_are_resources_too(api):
    status, r = api("GET", GW + "organizations/?page_size=1")
    org = r.json()["results"][0]
    status, r = api("POST", GW + "teams/", name="index-team-%s" % uuid.uuid4().hex[:6], organization=org["id"])
    assert status == 201, r.text
    team = r.json()
    assert team["summary_fields"]["resource"]["resource_type"] == "shared.team"
    status, r = api("GET", GW + "service-index/resources/%s/" % team["summary_fields"]["resource"]["ansible_id"])
    assert r.json()["resource_data"]["organization"] == org["summary_fields"]["resource"]["ansible_id"]
    status, r = api("POST", GW + "users/", username="index-user-%s" % uuid.uuid4().hex[:6], password="a-Pass-9word")
    assert status == 201, r.text
    user = r.json()
    ids = {item["object_id"]: item["ansible_id"] for item in _resources(api, "user")}
    assert user["summary_fields"]["resource"]["ansible_id"] == ids[str(user["id"])]


def test_a_deleted_organization_leaves_the_index(api):
    status, r = api("POST", GW + "organizations/", name="index-gone-%s" % uuid.uuid4().hex[:6])
    org = r.json()
    ansible_id = org["summary_fields"]["resource"]["ansible_id"]
    assert api("DELETE", GW + "organizations/%d/" % org["id"])[0] == 204
    assert api("GET", GW + "service-index/resources/%s/" % ansible_id)[0] == 404


def test_the_manifest_is_csv_of_ids_and_hashes(api):
    status, r = api("GET", GW + "service-index/resource-types/shared.organization/manifest/")
    assert status == 200
    lines = r.text.strip().splitlines()
    assert lines[0] == "ansible_id,resource_hash"
    ids = {item["ansible_id"] for item in _resources(api, "organization")}
    assert {line.split(",")[0] for line in lines[1:]} == ids


def test_only_a_superuser_reads_the_registry(gateway, api):
    name, password = "index-plain-%s" % uuid.uuid4().hex[:6], "a-Pass-9word"
    assert api("POST", GW + "users/", username=name, password=password)[0] == 201
    s = gateway.session()
    r = s.get(gateway.url + GW + "service-index/resources/", headers=gateway.basic(name, password))
    assert r.status_code == 403



def test_the_rbac_lists_name_kinds_permissions_and_assignments(gateway, api):
    status, r = api("GET", GW + "service-index/role-types/")
    assert status == 200
    types = {t["api_slug"]: t for t in r.json()["results"]}
    assert types["shared.organization"]["parent_content_type"] is None
    assert types["shared.organization"]["service"] == "shared"
    assert types["shared.team"]["parent_content_type"] == "shared.organization"
    assert types["awx.inventory"]["parent_content_type"] == "shared.organization"
    assert types["awx.instancegroup"]["parent_content_type"] is None
    status, r = api("GET", GW + "service-index/role-permissions/?page=1")
    permissions = {p["api_slug"]: p for p in r.json()["results"]}
    assert permissions["shared.member_team"] == {"api_slug": "shared.member_team", "codename": "member_team",
                                                 "content_type": "shared.team", "name": "Can member team"}
    # an assignment made at the gateway is listed by the ansible_ids of its user and object
    name = "index-assigned-%s" % uuid.uuid4().hex[:6]
    user = api("POST", GW + "users/", username=name, password="a-Pass-9word")[1].json()
    org = api("GET", GW + "organizations/?page_size=1")[1].json()["results"][0]
    member = api("GET", GW + "role_definitions/?name=Organization Member")[1].json()["results"][0]
    status, r = api("POST", GW + "role_user_assignments/", role_definition=member["id"], user=user["id"],
                    object_id=org["id"])
    assert status == 201, r.text
    status, r = api("GET", GW + "service-index/role-user-assignments/")
    assert status == 200
    found = [a for a in r.json()["results"] if a["user_ansible_id"] == user["summary_fields"]["resource"]["ansible_id"]]
    assert len(found) == 1
    assert found[0]["role_definition"] == "Organization Member" and found[0]["content_type"] == "shared.organization"
    assert found[0]["object_id"] == str(org["id"])
    assert found[0]["object_ansible_id"] == org["summary_fields"]["resource"]["ansible_id"]
    status, r = api("GET", GW + "service-index/role-team-assignments/")
    assert status == 200
    # the assignments are a superuser's to read
    s = gateway.session()
    r = s.get(gateway.url + GW + "service-index/role-user-assignments/", headers=gateway.basic(name, "a-Pass-9word"))
    assert r.status_code == 403


def test_a_role_is_given_and_taken_back_through_the_index(api):
    name = "index-given-%s" % uuid.uuid4().hex[:6]
    user = api("POST", GW + "users/", username=name, password="a-Pass-9word")[1].json()
    user_id = user["summary_fields"]["resource"]["ansible_id"]
    org = api("GET", GW + "organizations/?page_size=1")[1].json()["results"][0]
    body = {"role_definition": "Organization Member", "user_ansible_id": user_id,
            "object_ansible_id": org["summary_fields"]["resource"]["ansible_id"]}
    status, r = api("POST", GW + "service-index/role-user-assignments/assign/", **body)
    assert status == 201, r.text
    assert r.json()["object_id"] == str(org["id"]) and r.json()["user_ansible_id"] == user_id
    assert api("POST", GW + "service-index/role-user-assignments/assign/", **body)[0] == 200    # there already
    # the gateway's own assignments and the organization's members show it
    status, r = api("GET", GW + "role_user_assignments/?user=%d" % user["id"])
    assert [a["role_definition"] for a in r.json()["results"]] != []
    members = api("GET", GW + "organizations/%d/users/" % org["id"])[1].json()["results"]
    assert user["id"] in [m["id"] for m in members]
    status, r = api("POST", GW + "service-index/role-user-assignments/unassign/", **body)
    assert status == 204, r.text
    assert api("GET", GW + "role_user_assignments/?user=%d" % user["id"])[1].json()["count"] == 0
    assert api("POST", GW + "service-index/role-user-assignments/unassign/", **body)[0] == 200     # none left
    status, r = api("POST", GW + "service-index/role-user-assignments/assign/", role_definition="No such role",
                    user_ansible_id=user_id, object_id=org["id"])
    assert status == 400


def test_object_delete_drops_the_assignments_on_an_object(api):
    name = "index-dropped-%s" % uuid.uuid4().hex[:6]
    user = api("POST", GW + "users/", username=name, password="a-Pass-9word")[1].json()
    team = api("POST", GW + "teams/", name=name, organization=1)[1].json()
    member = api("GET", GW + "role_definitions/?name=Team Member")[1].json()["results"][0]
    assert api("POST", GW + "role_user_assignments/", role_definition=member["id"], user=user["id"],
               object_id=team["id"])[0] == 201
    status, r = api("POST", GW + "service-index/object-delete/", resource_type="rbac.team", resource_pk=str(team["id"]))
    assert status == 200, r.text
    assert r.json()["breakdown"] == {"user_assignments_deleted": 1, "team_assignments_deleted": 0}
    assert api("GET", GW + "role_user_assignments/?user=%d" % user["id"])[1].json()["count"] == 0
    assert api("POST", GW + "service-index/object-delete/", resource_type="no.such", resource_pk="1")[0] == 400
