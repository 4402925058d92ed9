"""Who has access to an object at the gateway (refsvc/rbac/access_lists.py): role_user_access/ and role_team_access/,
read from the gateway's role assignments, as django-ansible-base's access lists are."""
import uuid

import pytest

from test_gateway_layout import GW, Gateway


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway")).start()
    yield instance
    instance.stop()


@pytest.fixture(scope="module")
def api(gateway):
    s = gateway.session()
    s.headers.update(gateway.basic())

    def call(method, path, **body):
        r = s.request(method, gateway.url + GW + path, json=body if method == "POST" else None)
        assert r.status_code in (200, 201, 204, 400, 403, 404), r.text
        return r.status_code, (r.json() if r.content else None)

    return call


def _definition(api, name):
    return api("GET", "role_definitions/?name=%s" % name)[1]["results"][0]["id"]


@pytest.fixture(scope="module")
def world(api):
    """An organization with a team; a user who is a member of the team, whose team audits the organization."""
    tag = uuid.uuid4().hex[:6]
    org = api("POST", "organizations/", name="access-%s" % tag)[1]
    team = api("POST", "teams/", name="access-%s" % tag, organization=org["id"])[1]
    user = api("POST", "users/", username="access-%s" % tag, password="a-Pass-9word")[1]
    assert api("POST", "role_user_assignments/", role_definition=_definition(api, "Team Member"), user=user["id"],
               object_id=team["id"])[0] == 201
    assert api("POST", "role_team_assignments/", role_definition=_definition(api, "Organization Audit"),
               team=team["id"], object_id=org["id"])[0] == 201
    return {"org": org, "team": team, "user": user, "password": "a-Pass-9word"}


def test_the_users_with_access_to_a_team_and_how(api, world):
    team, user = world["team"], world["user"]
    status, body = api("GET", "role_user_access/shared.team/%d/" % team["id"])
    assert status == 200
    listed = {row["username"]: row for row in body["results"]}
    assert listed[user["username"]]["object_role_assignments"] == [
        {"type": "direct", "role_definition": {"name": "Team Member", "url": GW + "role_definitions/%d/" % _definition(api, "Team Member")}}]
    assert listed["admin"]["is_superuser"] is True      # a superuser has access to everything
    details = listed[user["username"]]["related"]["details"]
    assert details == GW + "role_user_access/shared.team/%d/%s/" % (team["id"], user["summary_fields"]["resource"]["ansible_id"])


def test_a_users_access_through_its_team(api, world):
    org, user = world["org"], world["user"]
    status, body = api("GET", "role_user_access/shared.organization/%d/" % org["id"])
    row = [r for r in body["results"] if r["username"] == user["username"]][0]
    assert [a["type"] for a in row["object_role_assignments"]] == ["team"]
    # the drill-down: the user's team membership, and the team's role on the organization it goes through
    for actor in (str(user["id"]), user["summary_fields"]["resource"]["ansible_id"]):
        status, body = api("GET", "role_user_access/shared.organization/%d/%s/" % (org["id"], actor))
        assert status == 200
        [assignment] = body["results"]
        assert assignment["object_id"] == str(world["team"]["id"]) and assignment["user"] == user["id"]
        assert [r["role_definition"]["name"] for r in assignment["intermediary_roles"]] == ["Organization Audit"]
    # one permission only: auditing gives view, not change
    assert [r for r in api("GET", "role_user_access/shared.view_organization/%d/" % org["id"])[1]["results"]
            if r["username"] == user["username"]]
    assert not [r for r in api("GET", "role_user_access/shared.change_organization/%d/" % org["id"])[1]["results"]
                if r["username"] == user["username"]]


def test_the_teams_with_access(api, world):
    org, team = world["org"], world["team"]
    status, body = api("GET", "role_team_access/shared.organization/%d/" % org["id"])
    assert [(r["name"], r["organization"], [a["type"] for a in r["object_role_assignments"]]) for r in body["results"]] == [
        (team["name"], org["id"], ["direct"])]
    status, body = api("GET", "role_team_access/shared.organization/%d/%d/" % (org["id"], team["id"]))
    assert [a["team"] for a in body["results"]] == [team["id"]]


def test_an_unknown_type_or_object_and_a_user_who_may_not_view_it(gateway, api, world):
    assert api("GET", "role_user_access/shared.nothing/1/")[0] == 404
    assert api("GET", "role_user_access/shared.team/999999/")[0] == 404
    assert api("POST", "users/", username="access-outsider-%s" % uuid.uuid4().hex[:6], password="a-Pass-9word")[0] == 201
    outsider = api("GET", "users/?order_by=-id")[1]["results"][0]["username"]
    r = gateway.session().get(gateway.url + GW + "role_user_access/shared.team/%d/" % world["team"]["id"],
                              headers=gateway.basic(outsider, "a-Pass-9word"))
    assert r.status_code == 403
    # the team's member sees who else is on it
    r = gateway.session().get(gateway.url + GW + "role_user_access/shared.team/%d/" % world["team"]["id"],
                              headers=gateway.basic(world["user"]["username"], world["password"]))
    assert r.status_code == 200
