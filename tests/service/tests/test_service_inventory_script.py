"""GET /api/v2/inventories/<id>/script/: the inventory in Ansible's JSON
inventory-script format, as the real service's InventoryScriptView answers it
(the dynamic inventory plugin reads it with hostvars, towervars and all)."""
import uuid

import pytest
import requests

from service_api import call


@pytest.fixture(scope="module")
def inventory(service):
    """web1 (in group web, a child of prod), web2 disabled, db1 ungrouped; an empty group."""
    tag = uuid.uuid4().hex[:8]
    inv = call(service, "POST", "inventories/", json={"name": "script-%s" % tag, "organization": 1,
                                                      "variables": "region: north"}).json()
    hosts = {}
    for name, enabled, variables in (("web1", True, '{"port": 80}'), ("web2", False, ""), ("db1", True, "role: db")):
        r = call(service, "POST", "hosts/", json={"name": name, "inventory": inv["id"], "enabled": enabled,
                                                  "variables": variables})
        assert r.status_code == 201, r.text
        hosts[name] = r.json()["id"]
    groups = {}
    for name, variables in (("web", "tier: front"), ("prod", ""), ("empty", "")):
        r = call(service, "POST", "groups/", json={"name": name, "inventory": inv["id"], "variables": variables})
        assert r.status_code == 201, r.text
        groups[name] = r.json()["id"]
    for host in ("web1", "web2"):
        assert call(service, "POST", "groups/%d/hosts/" % groups["web"], json={"id": hosts[host]}).status_code == 204
    assert call(service, "POST", "groups/%d/children/" % groups["prod"], json={"id": groups["web"]}).status_code == 204
    return inv["id"], hosts


def test_script_with_hostvars_towervars_and_all(service, inventory):
    inv_id, hosts = inventory
    r = call(service, "GET", "inventories/%d/script/" % inv_id, params={"hostvars": "1", "towervars": "1", "all": "1"})
    assert r.status_code == 200
    data = r.json()
    # Observed on AWX 24.6.1: all's children in name order; towervars gives remote_host_* and remote_tower_*.
    assert data["all"] == {"vars": {"region": "north"}, "hosts": ["db1"], "children": ["empty", "prod", "web"]}
    assert data["web"] == {"hosts": ["web1", "web2"], "vars": {"tier": "front"}}
    assert data["prod"] == {"children": ["web"]}
    assert "empty" not in data  # listed under all's children only
    assert data["_meta"]["hostvars"] == {
        "db1": {"role": "db", "remote_host_enabled": "true", "remote_host_id": hosts["db1"],
               "remote_tower_enabled": "true", "remote_tower_id": hosts["db1"]},
        "web1": {"port": 80, "remote_host_enabled": "true", "remote_host_id": hosts["web1"],
               "remote_tower_enabled": "true", "remote_tower_id": hosts["web1"]},
        "web2": {"remote_host_enabled": "false", "remote_host_id": hosts["web2"],
               "remote_tower_enabled": "false", "remote_tower_id": hosts["web2"]},
    }


def test_script_without_all_leaves_disabled_hosts_out(service, inventory):
    inv_id, _ = inventory
    data = call(service, "GET", "inventories/%d/script/" % inv_id, params={"hostvars": "1"}).json()
    assert data["web"]["hosts"] == ["web1"]
    assert sorted(data["_meta"]["hostvars"]) == ["db1", "web1"]
    assert data["_meta"]["hostvars"]["web1"] == {"port": 80}
    plain = call(service, "GET", "inventories/%d/script/" % inv_id).json()
    assert "_meta" not in plain


def test_script_of_one_host_and_slices(service, inventory):
    inv_id, _ = inventory
    assert call(service, "GET", "inventories/%d/script/" % inv_id, params={"host": "web1"}).json() == {"port": 80}
    assert call(service, "GET", "inventories/%d/script/" % inv_id, params={"host": "web2"}).status_code == 404
    assert call(service, "GET", "inventories/%d/script/" % inv_id, params={"host": "web2", "all": "1"}).json() == {}
    second = call(service, "GET", "inventories/%d/script/" % inv_id, params={"hostvars": "1", "subset": "slice2of2"})
    assert sorted(second.json()["_meta"]["hostvars"]) == ["web1"]  # db1, web1 in name order: the second
    bad = call(service, "GET", "inventories/%d/script/" % inv_id, params={"subset": "slice3of2"})
    assert bad.status_code == 400
    assert bad.json() == {"detail": "Slice number must be less than total number of slices."}
    assert call(service, "GET", "inventories/%d/script/" % inv_id, params={"subset": "half"}).status_code == 400


def test_script_needs_authentication_and_a_visible_inventory(service, inventory):
    inv_id, _ = inventory
    r = requests.get(service.url + "/api/v2/inventories/%d/script/" % inv_id, verify=service.ca_path, timeout=60)
    assert r.status_code == 401
    assert call(service, "GET", "inventories/999999/script/").status_code == 404
