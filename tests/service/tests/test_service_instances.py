"""Instances added through the API (execution and hop nodes), their listener port
(the canonical receptor address) and their peers (receptor addresses of other
instances), with the checks the real service makes on a POST and a PATCH."""

import pytest

from service_api import call, unique


def hostname(prefix):
    return unique(prefix) + ".example.com"


@pytest.fixture(scope="module")
def service(service_factory):
    """A service that acts as one deployed on Kubernetes or OpenShift: only there does the API add instances."""
    return service_factory(IS_K8S=True)


def test_elsewhere_no_instance_is_added_nor_changed(service_factory):
    # Observed on AWX 24.6.1 installed without Kubernetes.
    plain = service_factory()
    system = call(plain, "GET", "settings/system/").json()
    assert system["IS_K8S"] is False
    r = call(plain, "PATCH", "settings/system/", json={"IS_K8S": True})
    assert r.status_code == 200 and r.json()["IS_K8S"] is False
    assert call(plain, "DELETE", "settings/system/").status_code == 204
    r = call(plain, "POST", "instances/", json={"hostname": hostname("hop"), "node_type": "hop"})
    assert r.status_code == 400 and r.json() == {"__all__": ["Can only create instances on Kubernetes or OpenShift."]}
    local = call(plain, "GET", "instances/", params={"hostname": "localhost"}).json()["results"][0]
    r = call(plain, "PATCH", "instances/%d/" % local["id"], json={"node_state": "deprovisioning"})
    assert r.status_code == 400 and r.json() == {"node_state": ["Can only change the state on Kubernetes or OpenShift."]}
    r = call(plain, "PATCH", "instances/%d/" % local["id"], json={"peers": []})
    assert r.status_code == 200 and r.json()["peers"] == []


def test_the_kubernetes_service_says_so(service):
    assert call(service, "GET", "settings/system/").json()["IS_K8S"] is True
    assert call(service, "DELETE", "settings/system/").status_code == 204
    assert call(service, "GET", "settings/system/").json()["IS_K8S"] is True


def add(service, **body):
    r = call(service, "POST", "instances/", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def address_of(service, hostname):
    found = call(service, "GET", "receptor_addresses/", params={"address": hostname}).json()["results"]
    assert len(found) == 1
    return found[0]


@pytest.fixture(scope="module")
def hop(service):
    return add(service, hostname=hostname("hop"), node_type="hop", listener_port=27199)


def test_a_listener_port_makes_the_canonical_address(service, hop):
    assert hop["node_type"] == "hop" and hop["node_state"] == "installed" and hop["listener_port"] == 27199
    assert hop["peers"] == [] and hop["peers_from_control_nodes"] is False
    address = address_of(service, hop["hostname"])
    assert address["instance"] == hop["id"] and address["port"] == 27199 and address["canonical"] is True
    listed = call(service, "GET", "instances/%d/receptor_addresses/" % hop["id"]).json()["results"]
    assert [a["id"] for a in listed] == [address["id"]]
    assert "receptor_addresses" in call(service, "GET", "").json()


def test_peers_are_receptor_addresses(service, hop):
    address = address_of(service, hop["hostname"])
    node = add(service, hostname=hostname("exec"), node_type="execution", peers=[address["id"]])
    assert node["peers"] == [address["id"]] and node["listener_port"] is None
    assert node["id"] in call(service, "GET", "instances/%d/" % hop["id"]).json()["reverse_peers"]
    assert [a["id"] for a in call(service, "GET", "instances/%d/peers/" % node["id"]).json()["results"]] == [address["id"]]
    r = call(service, "PATCH", "instances/%d/" % node["id"], json={"peers": []})
    assert r.status_code == 200 and r.json()["peers"] == []


def test_peer_checks(service, hop):
    hop_address = address_of(service, hop["hostname"])
    r = call(service, "PATCH", "instances/%d/" % hop["id"], json={"peers": [hop_address["id"]]})
    assert r.status_code == 400 and r.json() == {"peers": ["Instance cannot peer to its own address."]}
    other = add(service, hostname=hostname("hop2"), node_type="hop", listener_port=27199, peers=[hop_address["id"]])
    other_address = address_of(service, other["hostname"])
    r = call(service, "PATCH", "instances/%d/" % hop["id"], json={"peers": [other_address["id"]]})
    assert r.status_code == 400 and r.json() == {"peers": ["Instance %s is already peered to this instance." % other["hostname"]]}
    r = call(service, "PATCH", "instances/%d/" % hop["id"], json={"peers": [99999999]})
    assert r.status_code == 400 and "peers" in r.json()


def test_listener_port_and_peers_from_control_nodes(service):
    node = add(service, hostname=hostname("hop3"), node_type="hop")
    path = "instances/%d/" % node["id"]
    r = call(service, "PATCH", path, json={"peers_from_control_nodes": True})
    assert r.status_code == 400
    assert r.json() == {"peers_from_control_nodes": ["Cannot enable peers_from_control_nodes if listener_port is not set."]}
    r = call(service, "PATCH", path, json={"listener_port": 6789, "peers_from_control_nodes": True})
    assert r.status_code == 200 and r.json()["listener_port"] == 6789 and r.json()["peers_from_control_nodes"] is True
    r = call(service, "PATCH", path, json={"listener_port": 6790})
    assert r.status_code == 400 and r.json() == {"listener_port": ["Cannot change listener port."]}
    r = call(service, "PATCH", path, json={"peers_from_control_nodes": False})
    assert r.status_code == 200 and r.json()["peers_from_control_nodes"] is False and r.json()["listener_port"] == 6789
    r = call(service, "PATCH", path, json={"listener_port": None})
    assert r.status_code == 200 and r.json()["listener_port"] is None
    assert call(service, "GET", path + "receptor_addresses/").json()["count"] == 0


def test_what_cannot_be_created_or_changed(service):
    r = call(service, "POST", "instances/", json={"hostname": hostname("ctl"), "node_type": "control"})
    assert r.status_code == 400 and r.json() == {"node_type": ["Can only create execution or hop nodes."]}
    node = add(service, hostname=hostname("exec2"))
    assert node["node_type"] == "execution" and node["capacity_adjustment"] == "1.00" and node["managed_by_policy"] is True
    path = "instances/%d/" % node["id"]
    r = call(service, "PATCH", path, json={"hostname": hostname("renamed")})
    assert r.status_code == 400 and r.json() == {"hostname": ["Cannot change hostname."]}
    r = call(service, "PATCH", path, json={"node_state": "ready"})
    assert r.status_code == 400 and r.json() == {"node_state": ["Can only change instances to the 'deprovisioning' state."]}
    r = call(service, "PATCH", path, json={"node_state": "deprovisioning", "enabled": False})
    assert r.status_code == 200 and r.json()["node_state"] == "deprovisioning" and r.json()["enabled"] is False
    local = call(service, "GET", "instances/", params={"hostname": "localhost"}).json()["results"][0]
    r = call(service, "PATCH", "instances/%d/" % local["id"], json={"node_state": "deprovisioning"})
    assert r.status_code == 400 and r.json() == {"node_state": ["Cannot deprovision managed nodes."]}
    r = call(service, "PATCH", "instances/%d/" % local["id"], json={"listener_port": 1234})
    assert r.status_code == 400 and r.json() == {"listener_port": ["Cannot change listener port for managed nodes."]}
