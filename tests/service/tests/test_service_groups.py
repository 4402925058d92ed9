"""DELETE /groups/<id>/ as the real Group.delete_recursive: a child left without a parent goes
with its group, and so does a host left in no group; a child with another parent stays."""
import uuid

import requests


def call(service, method, path, **kwargs):
    return requests.request(method, service.url + "/api/v2/" + path, auth=(service.admin_username, service.admin_password),
                            verify=service.ca_path, timeout=60, **kwargs)


def test_deleting_a_group_deletes_what_only_it_held(service):
    inv = call(service, "POST", "inventories/", json={"name": "groups-%s" % uuid.uuid4().hex[:8], "organization": 1}).json()["id"]

    def group(name):
        r = call(service, "POST", "groups/", json={"name": name, "inventory": inv})
        assert r.status_code == 201, r.text
        return r.json()["id"]

    def host(name, *groups):
        r = call(service, "POST", "hosts/", json={"name": name, "inventory": inv})
        assert r.status_code == 201, r.text
        for each in groups:
            assert call(service, "POST", "groups/%d/hosts/" % each, json={"id": r.json()["id"]}).status_code == 204
        return r.json()["id"]

    top, only_child, shared_child, other_parent, grandchild = (group(n) for n in ("top", "only", "shared", "other", "grand"))
    for parent, child in ((top, only_child), (top, shared_child), (other_parent, shared_child), (only_child, grandchild)):
        assert call(service, "POST", "groups/%d/children/" % parent, json={"id": child}).status_code == 204
    lone = host("lone", grandchild)
    kept = host("kept", only_child, other_parent)
    assert call(service, "DELETE", "groups/%d/" % top).status_code == 204

    left = {g["id"] for g in call(service, "GET", "inventories/%d/groups/" % inv).json()["results"]}
    assert left == {shared_child, other_parent}
    hosts = {h["id"] for h in call(service, "GET", "inventories/%d/hosts/" % inv).json()["results"]}
    assert hosts == {kept}
    assert lone not in hosts
    assert call(service, "DELETE", "inventories/%d/" % inv).status_code in (202, 204)
