"""Who sees an inventory or a credential: as on the real service (InventoryAccess and
CredentialAccess in awx/main/access.py filter on the object's read_role), a user sees
one through a role on it or on its organization, and not for belonging to the
organization alone."""
import pytest

from service_api import call, created, unique

PASSWORD = "pw-access-1"


@pytest.fixture(scope="module")
def setup(service):
    org = created(service, "organizations/", name=unique("org-access"))
    user = created(service, "users/", username=unique("member"), password=PASSWORD)
    assert call(service, "POST", "organizations/%d/users/" % org["id"], json={"id": user["id"]}).status_code == 204
    inventory = created(service, "inventories/", name=unique("inv"), organization=org["id"])
    machine = call(service, "GET", "credential_types/?kind=ssh&managed=true").json()["results"][0]
    credential = created(service, "credentials/", name=unique("cred"), organization=org["id"], credential_type=machine["id"])
    return {"org": org, "user": user, "inventory": inventory, "credential": credential}


def sees(service, user, path, obj):
    auth = (user["username"], PASSWORD)
    detail = call(service, "GET", "%s%d/" % (path, obj["id"]), auth=auth).status_code
    listed = [o["id"] for o in call(service, "GET", "%s?name=%s" % (path, obj["name"]), auth=auth).json()["results"]]
    assert (detail == 200) is (obj["id"] in listed), (detail, listed)
    return detail == 200


def grant(service, obj, role, user):
    role_id = obj["summary_fields"]["object_roles"][role]["id"]
    assert call(service, "POST", "roles/%d/users/" % role_id, json={"id": user["id"]}).status_code == 204


@pytest.mark.parametrize("path, kind, role", [("inventories/", "inventory", "read_role"),
                                              ("credentials/", "credential", "use_role")])
def test_a_role_on_the_object_shows_it(service, setup, path, kind, role):
    user, obj = setup["user"], setup[kind]
    assert not sees(service, user, path, obj)
    grant(service, call(service, "GET", "%s%d/" % (path, obj["id"])).json(), role, user)
    assert sees(service, user, path, obj)


def test_an_organization_role_shows_what_it_holds(service, setup):
    other = created(service, "users/", username=unique("auditor"), password=PASSWORD)
    assert not sees(service, other, "inventories/", setup["inventory"])
    grant(service, setup["org"], "auditor_role", other)
    assert sees(service, other, "inventories/", setup["inventory"])
    assert sees(service, other, "credentials/", setup["credential"])
