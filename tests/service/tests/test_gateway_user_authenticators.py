"""The gateway's users and their authenticators in the reference service's gateway layout: the user's
``associated_authenticators``, ``authenticators`` and ``authenticator_uid`` (django-ansible-base's
AuthenticatorUser links), and ``is_platform_auditor`` as the "Platform Auditor" role assignment
(tests/service/README.md, "The gateway's users and their authenticators")."""
import uuid

import pytest

from test_gateway_layout import CTL, GW, Gateway

LOCAL = "ansible_base.authentication.authenticator_plugins.local"
GITHUB = "ansible_base.authentication.authenticator_plugins.github"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    instance = Gateway(tmp_path_factory.mktemp("gateway-users")).start()
    yield instance
    instance.stop()


def tag():
    return uuid.uuid4().hex[:8]


class Api:
    def __init__(self, gateway, user=None, password=None):
        self.gateway = gateway
        self.s = gateway.session()
        self.auth = gateway.basic(user, password)

    def __getattr__(self, method):
        def call(path, **kwargs):
            url = self.gateway.url + (path if path.startswith("/") else GW + path)
            return getattr(self.s, method)(url, headers=self.auth, **kwargs)
        return call


def authenticator(api, kind=GITHUB):
    configuration = {} if kind == LOCAL else {"KEY": "key-" + tag(), "SECRET": "secret"}
    r = api.post("authenticators/", json={"name": "ua-auth-" + tag(), "type": kind, "enabled": True,
                                          "configuration": configuration})
    assert r.status_code == 201, r.text
    return r.json()


def user(api, **fields):
    fields.setdefault("username", "ua-user-" + tag())
    r = api.post("users/", json=fields)
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture(scope="module")
def api(gateway):
    return Api(gateway)


@pytest.fixture(scope="module")
def two(api):
    """Two GitHub authenticators (never logged in through here: only their links are used)."""
    return authenticator(api), authenticator(api)


def test_a_new_user_shows_no_links(api):
    made = user(api)
    assert made["authenticators"] == [] and made["associated_authenticators"] == {}
    assert made["authenticator_uid"] == made["username"]


def test_associated_authenticators_are_set_shown_replaced_and_removed(api, two):
    first, second = two
    username = "ua-user-" + tag()
    wanted = {str(first["id"]): {"uid": username, "email": username + "@example.com"}, str(second["id"]): {"uid": username}}
    made = user(api, username=username, associated_authenticators=wanted)
    assert made["associated_authenticators"] == wanted
    assert sorted(made["authenticators"]) == sorted([first["id"], second["id"]])
    url = "users/%d/" % made["id"]
    assert api.get(url).json()["associated_authenticators"] == wanted
    # PATCH replaces the whole set (the links not named go)
    r = api.patch(url, json={"associated_authenticators": {str(second["id"]): {"uid": username}}})
    assert r.status_code == 200, r.text
    assert r.json()["associated_authenticators"] == {str(second["id"]): {"uid": username}}
    assert "warnings" not in r.json()
    r = api.patch(url, json={"associated_authenticators": {}})
    assert r.status_code == 200 and r.json()["associated_authenticators"] == {} and r.json()["authenticators"] == []


def test_associated_authenticators_refused(api, two):
    first, _second = two
    made = user(api)
    url = "users/%d/" % made["id"]
    r = api.patch(url, json={"associated_authenticators": {"-1": {"uid": "x"}}})
    assert r.status_code == 400 and "The following authenticator IDs do not exist: -1" in r.text
    r = api.patch(url, json={"associated_authenticators": {str(first["id"]): {"uid": "x", "other": 1}}})
    assert r.status_code == 400 and "Unknown key(s)" in r.text
    r = api.patch(url, json={"associated_authenticators": {str(first["id"]): {"uid": "x", "email": "Not An Email"}}})
    assert r.status_code == 400 and "is not a valid email address" in r.text
    other = user(api, associated_authenticators={str(first["id"]): {"uid": "taken-" + made["username"]}})
    r = api.patch(url, json={"associated_authenticators": {str(first["id"]): {"uid": "taken-" + made["username"]}}})
    assert r.status_code == 400 and "already in use" in r.text, r.text
    assert other["associated_authenticators"]


def test_a_local_authenticators_uid_is_the_username(api):
    local = authenticator(api, LOCAL)
    made = user(api, associated_authenticators={str(local["id"]): {"uid": "FAKEVALUE"}})
    assert made["associated_authenticators"] == {str(local["id"]): {"uid": made["username"]}}
    r = api.patch("users/%d/" % made["id"], json={"username": made["username"] + "-new"})
    assert r.json()["associated_authenticators"] == {str(local["id"]): {"uid": made["username"] + "-new"}}


def test_the_deprecated_pair(api, two):
    first, second = two
    username = "ua-user-" + tag()
    made = user(api, username=username, authenticators=[first["id"]], authenticator_uid="u-" + username)
    assert made["associated_authenticators"] == {str(first["id"]): {"uid": "u-" + username}}
    assert any("deprecated" in warning for warning in made["warnings"])
    url = "users/%d/" % made["id"]
    # the same links again: taken, nothing changes
    r = api.patch(url, json={"authenticators": [first["id"]], "authenticator_uid": "u-" + username})
    assert r.status_code == 200 and r.json()["associated_authenticators"] == made["associated_authenticators"]
    # two new authenticators with one uid: 400
    other = user(api)
    r = api.patch("users/%d/" % other["id"], json={"authenticators": [first["id"], second["id"]],
                                                   "authenticator_uid": "x-" + tag()})
    assert r.status_code == 400 and "authenticators" in r.json()
    # a new one without a uid: 400; an unknown id: 400
    r = api.patch(url, json={"authenticators": [first["id"], second["id"]]})
    assert r.status_code == 400 and "authenticator_uid" in r.json()
    r = api.patch(url, json={"authenticators": [999999], "authenticator_uid": "x"})
    assert r.status_code == 400 and "is not a valid choice" in r.text
    # one more: the listed ones take the uid (chosen here), the new one is made with it
    r = api.patch(url, json={"authenticators": [first["id"], second["id"]], "authenticator_uid": "v-" + username})
    assert r.status_code == 200, r.text
    assert r.json()["associated_authenticators"] == {str(first["id"]): {"uid": "v-" + username},
                                                     str(second["id"]): {"uid": "v-" + username}}
    # [] with a uid: 400; [] alone removes them
    r = api.patch(url, json={"authenticators": [], "authenticator_uid": "v-" + username})
    assert r.status_code == 400 and "should be empty when removing" in r.text
    r = api.patch(url, json={"authenticators": []})
    assert r.status_code == 200 and r.json()["authenticators"] == []
    # associated_authenticators takes precedence
    r = api.patch(url, json={"authenticators": [first["id"]], "authenticator_uid": "old",
                             "associated_authenticators": {str(second["id"]): {"uid": "new-" + username}}})
    assert r.status_code == 200 and r.json()["authenticators"] == [second["id"]]


def test_only_a_superuser_links_authenticators(gateway, api, two):
    first, _second = two
    password = "pw-" + tag()
    plain = user(api, password=password)
    r = Api(gateway, plain["username"], password).post(
        "users/", json={"username": "ua-user-" + tag(), "authenticators": [first["id"]], "authenticator_uid": "x"})
    assert r.status_code == 403


def test_is_platform_auditor_is_the_platform_auditor_role_assignment(api):
    found = api.get("role_definitions/", params={"name": "Platform Auditor"}).json()["results"]
    assert len(found) == 1 and found[0]["content_type"] is None and found[0]["managed"]
    # the gateway's first role definition (ansible.platform's role_user_assignment gives a "Platform ..." role only
    # when its definition has id 1)
    assert found[0]["id"] == 1
    definition = found[0]["id"]
    made = user(api)
    assert made["is_platform_auditor"] is False
    r = api.post("role_user_assignments/", json={"role_definition": definition, "user": made["id"]})
    assert r.status_code == 201, r.text
    assignment = r.json()
    assert assignment["object_id"] is None
    assert api.get("users/%d/" % made["id"]).json()["is_platform_auditor"] is True
    # the controller's copy is its system auditor (one database)
    assert api.get(CTL + "users/%d/" % made["id"]).json()["is_system_auditor"] is True
    assert api.delete("role_user_assignments/%d/" % assignment["id"]).status_code == 204
    assert api.get("users/%d/" % made["id"]).json()["is_platform_auditor"] is False
    # the field is read-only (the published schemas): given through the user, it changes nothing
    r = api.patch("users/%d/" % made["id"], json={"is_platform_auditor": True})
    assert r.status_code == 200 and r.json()["is_platform_auditor"] is False
    listed = api.get("role_user_assignments/", params={"role_definition": definition, "user": made["id"]}).json()
    assert listed["count"] == 0
    assert api.options("users/").json()["actions"]["POST"].get("is_platform_auditor") is None


def _link(api, user_id, authenticator_id):
    links = [link for link in api.get("authenticator_users/", params={"user": user_id}).json()["results"]]
    found = [link for link in links if link["summary_fields"]["authenticator"]["id"] == authenticator_id]
    return found[0] if found else None


def test_move_a_link_to_another_authenticator(api, two):
    first, second = two
    made = user(api, associated_authenticators={str(first["id"]): {"uid": "mv-" + tag()}})
    org = api.post("organizations/", json={"name": "ua-org-" + tag()}).json()
    assert api.post("organizations/%d/users/associate/" % org["id"], json={"instances": [made["id"]]}).status_code == 204
    link = _link(api, made["id"], first["id"])
    assert api.options("authenticator_users/%d/move/" % link["id"]).status_code == 200
    body = {"new_authenticator": second["id"], "new_uid": "moved-" + tag(), "keep_memberships": True,
            "merge_accounts_with_same_uid": False, "remove_other_authenticators": False}
    r = api.post("authenticator_users/%d/move/" % link["id"], json=body)
    assert r.status_code == 200, r.text
    assert r.json() == body     # the schema's AuthenticatorUserMove: the body sent
    assert _link(api, made["id"], first["id"]) is None
    assert _link(api, made["id"], second["id"])["uid"] == body["new_uid"]
    assert api.get("authenticator_users/%d/" % link["id"]).status_code == 404
    # kept: still a member of the organization
    assert made["id"] in [u["id"] for u in api.get("organizations/%d/users/" % org["id"]).json()["results"]]

    # moved back without keeping the memberships: the organization's membership goes
    link = _link(api, made["id"], second["id"])
    r = api.post("authenticator_users/%d/move/" % link["id"], json=dict(body, new_authenticator=first["id"],
                                                                        keep_memberships=False))
    assert r.status_code == 200, r.text
    assert _link(api, made["id"], first["id"])["uid"] == body["new_uid"]
    assert made["id"] not in [u["id"] for u in api.get("organizations/%d/users/" % org["id"]).json()["results"]]


def test_move_refused(api, two):
    first, second = two
    made = user(api, associated_authenticators={str(first["id"]): {"uid": "mr-" + tag()}})
    taken = user(api, associated_authenticators={str(second["id"]): {"uid": "mr-taken-" + tag()}})
    link = _link(api, made["id"], first["id"])
    body = {"new_authenticator": second["id"], "keep_memberships": True, "merge_accounts_with_same_uid": False,
            "remove_other_authenticators": False}
    url = "authenticator_users/%d/move/" % link["id"]
    cases = [
        (dict(body, new_authenticator=first["id"]), "new_authenticator"),         # where it is already
        (dict(body, new_authenticator=999999), "new_authenticator"),
        (dict(body, merge_with_user=taken["id"], merge_accounts_with_same_uid=True), "merge_with_user"),
        (dict(body, new_uid=_link(api, taken["id"], second["id"])["uid"]), "new_uid"),    # another user's uid there
        ({"new_authenticator": second["id"]}, "keep_memberships"),
    ]
    for sent, field in cases:
        r = api.post(url, json=sent)
        assert r.status_code == 400 and field in r.json(), (sent, r.text)
    assert _link(api, made["id"], first["id"])["id"] == link["id"]     # nothing moved
    assert api.post("authenticator_users/999999/move/", json=body).status_code == 404


def test_move_merges_into_the_user_with_the_same_uid(api, two):
    first, second = two
    uid = "mm-" + tag()
    made = user(api, associated_authenticators={str(first["id"]): {"uid": uid}})
    other = user(api, associated_authenticators={str(second["id"]): {"uid": uid}})
    link = _link(api, made["id"], first["id"])
    r = api.post("authenticator_users/%d/move/" % link["id"], json={
        "new_authenticator": second["id"], "keep_memberships": True, "merge_accounts_with_same_uid": True,
        "remove_other_authenticators": False})
    assert r.status_code == 200, r.text
    assert _link(api, made["id"], first["id"]) is None and _link(api, made["id"], second["id"]) is None
    assert _link(api, other["id"], second["id"])["uid"] == uid
    # merge_with_user names the user
    third = user(api, associated_authenticators={str(first["id"]): {"uid": "mw-" + tag()}})
    link = _link(api, third["id"], first["id"])
    r = api.post("authenticator_users/%d/move/" % link["id"], json={
        "new_authenticator": second["id"], "new_uid": "mw-new-" + tag(), "merge_with_user": made["id"],
        "keep_memberships": True, "merge_accounts_with_same_uid": False, "remove_other_authenticators": False})
    assert r.status_code == 200, r.text
    assert _link(api, made["id"], second["id"])["uid"].startswith("mw-new-")
    assert _link(api, third["id"], first["id"]) is None


def test_only_a_superuser_moves_a_link(gateway, api, two):
    first, second = two
    password = "x-Pass-" + tag()
    plain = user(api, password=password)
    made = user(api, associated_authenticators={str(first["id"]): {"uid": "mo-" + tag()}})
    link = _link(api, made["id"], first["id"])
    r = Api(gateway, plain["username"], password).post("authenticator_users/%d/move/" % link["id"], json={
        "new_authenticator": second["id"], "keep_memberships": True, "merge_accounts_with_same_uid": False,
        "remove_other_authenticators": False})
    assert r.status_code == 403, r.text
    assert _link(api, made["id"], first["id"])["id"] == link["id"]
