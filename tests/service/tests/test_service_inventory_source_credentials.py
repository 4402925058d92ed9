"""/inventory_sources/<id>/credentials/, as the real InventorySourceCredentialsList: the
source's credential is listed there (awx.awx's export reads it), and a second is refused."""
from service_api import call, created, unique


def test_an_inventory_source_lists_its_one_credential(service):
    inventory = created(service, "inventories/", {"name": unique("isc"), "organization": 1})
    aws = call(service, "GET", "credential_types/", params={"namespace": "aws"}).json()["results"][0]["id"]
    first, second = (created(service, "credentials/", {"name": unique("isc"), "organization": 1, "credential_type": aws,
                                                       "inputs": {"username": "a", "password": "b"}}) for _ in range(2))
    source = created(service, "inventory_sources/", {"name": unique("isc"), "inventory": inventory["id"], "source": "ec2",
                                                     "credential": first["id"]})
    listed = call(service, "GET", "inventory_sources/%d/credentials/" % source["id"]).json()
    assert [c["id"] for c in listed["results"]] == [first["id"]]
    r = call(service, "POST", "inventory_sources/%d/credentials/" % source["id"], json={"id": second["id"]})
    assert r.status_code == 400 and r.json() == {"msg": "Source already has credential assigned."}
    assert call(service, "DELETE", "inventories/%d/" % inventory["id"]).status_code in (202, 204)
