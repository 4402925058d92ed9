"""Labels, groups, inventory sources, credential input sources, execution environments,
instances and instance groups, notification templates, schedules, and the organization,
inventory, host and credential fields that go with them."""
import uuid

import pytest

from service_api import call, created, unique


def names(response):
    assert response.status_code == 200, response.text
    return [o.get("name", o.get("hostname")) for o in response.json()["results"]]


@pytest.fixture(scope="module")
def org(service):
    return created(service, "organizations/", {"name": unique("org-a"), "description": "d", "max_hosts": 5})


@pytest.fixture(scope="module")
def inventory(service, org):
    return created(service, "inventories/", {"name": unique("inv-a"), "organization": org["id"]})


def credential_type(service, namespace):
    r = call(service, "GET", "credential_types/?namespace=%s" % namespace)
    assert r.json()["count"] == 1, r.text
    return r.json()["results"][0]


def test_root_lists_the_resources(service):
    data = call(service, "GET", "").json()
    for key in ("labels", "groups", "inventory_sources", "credential_input_sources", "execution_environments",
                "instance_groups", "instances", "notification_templates", "schedules"):
        assert data[key] == "/api/v2/%s/" % key
        assert call(service, "GET", key + "/").status_code == 200


# ---------------------------------------------------------------- labels

def test_labels(service, org):
    name = unique("label")
    label = created(service, "labels/", {"name": name, "organization": org["id"]})
    assert label["type"] == "label" and label["organization"] == org["id"]
    assert label["summary_fields"]["organization"] == {"id": org["id"], "name": org["name"], "description": "d"}
    assert label["related"]["organization"] == "/api/v2/organizations/%d/" % org["id"]
    r = call(service, "POST", "labels/", json={"name": name, "organization": org["id"]})
    assert r.status_code == 400 and r.json() == {"__all__": ["Label with this Name and Organization already exists."]}
    r = call(service, "POST", "labels/", json={})
    assert r.status_code == 400 and r.json() == {"name": ["This field is required."], "organization": ["This field is required."]}
    r = call(service, "POST", "labels/", json={"name": unique("x"), "organization": 999999})
    assert r.json() == {"organization": ['Invalid pk "999999" - object does not exist.']}
    assert names(call(service, "GET", "labels/?name=%s&organization=%d" % (name, org["id"]))) == [name]
    r = call(service, "PATCH", "labels/%d/" % label["id"], json={"name": name + "-b"})
    assert r.status_code == 200 and r.json()["name"] == name + "-b"
    assert call(service, "DELETE", "labels/%d/" % label["id"]).status_code == 405


def test_options_of_new_lists(service):
    r = call(service, "OPTIONS", "labels/")
    post = r.json()["actions"]["POST"]
    assert post["name"]["required"] is True and post["name"]["max_length"] == 512
    assert post["organization"]["type"] == "id"
    r = call(service, "OPTIONS", "inventory_sources/")
    post = r.json()["actions"]["POST"]
    assert ["scm", "Sourced from a Project"] in post["source"]["choices"]
    assert post["verbosity"]["default"] == 1 and post["overwrite"]["default"] is False
    r = call(service, "OPTIONS", "notification_templates/")
    assert ["slack", "Slack"] in r.json()["actions"]["POST"]["notification_type"]["choices"]


# ---------------------------------------------------------------- groups

def test_groups_and_associations(service, inventory):
    parent = created(service, "groups/", {"name": unique("parent"), "inventory": inventory["id"], "variables": "a: 1"})
    child = created(service, "groups/", {"name": unique("child"), "inventory": inventory["id"]})
    host = created(service, "hosts/", {"name": unique("host"), "inventory": inventory["id"]})
    assert parent["type"] == "group" and parent["variables"] == "a: 1"
    assert parent["related"]["hosts"] == "/api/v2/groups/%d/hosts/" % parent["id"]
    assert parent["summary_fields"]["inventory"]["id"] == inventory["id"]

    # associate, list, disassociate
    assert call(service, "POST", "groups/%d/hosts/" % parent["id"], json={"id": host["id"]}).status_code == 204
    assert call(service, "POST", "groups/%d/children/" % parent["id"], json={"id": child["id"]}).status_code == 204
    assert names(call(service, "GET", "groups/%d/hosts/" % parent["id"])) == [host["name"]]
    assert names(call(service, "GET", "groups/%d/children/" % parent["id"])) == [child["name"]]
    assert names(call(service, "GET", "hosts/%d/groups/" % host["id"])) == [parent["name"]]
    h = call(service, "GET", "hosts/%d/" % host["id"]).json()
    assert h["summary_fields"]["groups"] == {"count": 1, "results": [{"id": parent["id"], "name": parent["name"]}]}
    assert sorted(names(call(service, "GET", "inventories/%d/groups/" % inventory["id"]))) == sorted([parent["name"], child["name"]])
    assert call(service, "GET", "inventories/%d/" % inventory["id"]).json()["total_groups"] == 2

    # a cycle is refused
    r = call(service, "POST", "groups/%d/children/" % child["id"], json={"id": parent["id"]})
    assert r.status_code == 400 and r.json() == {"error": "Cyclical Group association."}

    r = call(service, "POST", "groups/%d/hosts/" % parent["id"], json={"id": host["id"], "disassociate": True})
    assert r.status_code == 204
    assert names(call(service, "GET", "groups/%d/hosts/" % parent["id"])) == []
    assert call(service, "GET", "hosts/%d/" % host["id"]).status_code == 200  # still there
    r = call(service, "POST", "groups/%d/children/" % parent["id"], json={"id": child["id"], "disassociate": True})
    assert r.status_code == 204 and names(call(service, "GET", "groups/%d/children/" % parent["id"])) == []

    # sub-list errors
    r = call(service, "POST", "groups/%d/hosts/" % parent["id"], json={"disassociate": True})
    assert r.status_code == 400 and r.json() == {"msg": '"id" is required to disassociate'}
    r = call(service, "POST", "groups/%d/hosts/" % parent["id"], json={"id": "x"})
    assert r.status_code == 400 and r.json() == {"msg": '"id" field must be an integer.'}
    r = call(service, "POST", "groups/%d/hosts/" % parent["id"], json={"id": 9999999})
    assert r.status_code == 400 and r.json() == {"detail": "Host matching query does not exist."}

    # creating through the sub-list puts the new host in the group's inventory
    r = call(service, "POST", "groups/%d/hosts/" % parent["id"], json={"name": unique("new-host")})
    assert r.status_code == 201 and r.json()["inventory"] == inventory["id"]
    assert names(call(service, "GET", "groups/%d/hosts/" % parent["id"])) == [r.json()["name"]]


def test_group_validation(service, inventory):
    name = unique("g")
    created(service, "groups/", {"name": name, "inventory": inventory["id"]})
    r = call(service, "POST", "groups/", json={"name": name, "inventory": inventory["id"]})
    assert r.status_code == 400 and r.json() == {"__all__": ["Group with this Name and Inventory already exists."]}
    r = call(service, "POST", "groups/", json={"name": "all", "inventory": inventory["id"]})
    assert r.json() == {"name": ["Invalid group name."]}
    r = call(service, "POST", "groups/", json={"name": unique("g")})
    assert r.json() == {"inventory": ["This field is required."]}
    r = call(service, "POST", "hosts/", json={"name": name, "inventory": inventory["id"]})
    assert r.status_code == 400 and r.json() == {"__all__": ["A Group with that name already exists."]}
    host = created(service, "hosts/", {"name": unique("h"), "inventory": inventory["id"]})
    r = call(service, "POST", "groups/", json={"name": host["name"], "inventory": inventory["id"]})
    assert r.json() == {"__all__": ["A Host with that name already exists."]}
    # filters
    assert names(call(service, "GET", "groups/?inventory=%d&name=%s" % (inventory["id"], name))) == [name]
    assert names(call(service, "GET", "groups/?inventory=%d&name__startswith=zzz" % inventory["id"])) == []


# ---------------------------------------------------------------- inventory sources

def test_inventory_sources(service, inventory):
    name = unique("src")
    src = created(service, "inventory_sources/", {"name": name, "inventory": inventory["id"], "source": "ec2", "overwrite": True})
    assert src["type"] == "inventory_source" and src["source"] == "ec2"
    assert src["overwrite"] is True and src["overwrite_vars"] is False and src["update_on_launch"] is False
    assert src["verbosity"] == 1 and src["status"] == "never updated" and src["credential"] is None
    assert src["related"]["inventory"] == "/api/v2/inventories/%d/" % inventory["id"]
    r = call(service, "POST", "inventory_sources/", json={"name": name, "inventory": inventory["id"], "source": "ec2"})
    assert r.status_code == 400 and r.json() == {"__all__": ["InventorySource with this (name, inventory) combination already exists."]}
    r = call(service, "POST", "inventory_sources/", json={"name": unique("s"), "inventory": inventory["id"], "source": "scm"})
    assert r.json() == {"source_project": ["Project required for scm type sources."]}
    r = call(service, "POST", "inventory_sources/", json={"name": unique("s"), "inventory": inventory["id"], "source": "ec2", "source_path": "x"})
    assert r.json() == {"detail": ["Cannot set source_path if not SCM type."]}
    demo = call(service, "POST", "projects/", json={"name": "manual-" + uuid.uuid4().hex[:8], "organization": 1, "local_path": "demo"}).json()
    r = call(service, "POST", "inventory_sources/", json={"name": unique("s"), "inventory": inventory["id"], "source": "scm", "source_project": demo["id"]})
    assert r.json() == {"source_project": ["Cannot use manual project for SCM-based inventory."]}
    r = call(service, "POST", "inventory_sources/", json={"name": unique("s"), "inventory": inventory["id"], "source": "nope"})
    assert r.json() == {"source": ['"nope" is not a valid choice.']}
    r = call(service, "POST", "inventory_sources/", json={"name": unique("s"), "source": "ec2"})
    assert r.json() == {"inventory": ["This field is required."]}
    # the inventory's sub-list, filters, update
    assert names(call(service, "GET", "inventories/%d/inventory_sources/" % inventory["id"])) == [name]
    r = call(service, "POST", "inventories/%d/inventory_sources/" % inventory["id"], json={"name": unique("sub"), "source": "gce"})
    assert r.status_code == 201 and r.json()["inventory"] == inventory["id"]
    assert names(call(service, "GET", "inventory_sources/?inventory=%d&source=ec2" % inventory["id"])) == [name]
    r = call(service, "PATCH", "inventory_sources/%d/" % src["id"], json={"update_on_launch": True, "source_vars": {"regions": ["eu"]}})
    assert r.status_code == 200 and r.json()["update_on_launch"] is True and '"regions"' in r.json()["source_vars"]
    inv = call(service, "GET", "inventories/%d/" % inventory["id"]).json()
    assert inv["has_inventory_sources"] is True and inv["total_inventory_sources"] == 2
    assert call(service, "DELETE", "inventory_sources/%d/" % src["id"]).status_code == 204
    assert call(service, "GET", "inventory_sources/%d/" % src["id"]).status_code == 404


# ---------------------------------------------------------------- credentials

def test_credential_owners(service, org):
    machine = credential_type(service, "ssh")
    r = call(service, "POST", "credentials/", json={"name": unique("c"), "credential_type": machine["id"]})
    assert r.status_code == 400 and r.json() == {"detail": ["Missing 'user', 'team', or 'organization'."]}
    r = call(service, "POST", "credentials/", json={"name": unique("c"), "credential_type": machine["id"], "organization": org["id"], "user": 1})
    assert r.json() == {"detail": ["Only one of 'user', 'team', or 'organization' should be provided, received organization, user fields."]}
    cred = created(service, "credentials/", {"name": unique("c"), "credential_type": machine["id"], "user": 1, "inputs": {"username": "u", "password": "p"}})
    assert cred["organization"] is None and "user" not in cred
    assert cred["related"]["user"] == "/api/v2/users/1/"
    assert [o["type"] for o in cred["summary_fields"]["owners"]] == ["user"]
    galaxy = credential_type(service, "galaxy_api_token")
    r = call(service, "POST", "credentials/", json={"name": unique("g"), "credential_type": galaxy["id"], "user": 1})
    assert r.json() == {"organization": ["Galaxy credentials must be owned by an Organization."]}
    # $encrypted$ round trip
    assert cred["inputs"] == {"username": "u", "password": "$encrypted$"}
    r = call(service, "PATCH", "credentials/%d/" % cred["id"], json={"inputs": {"username": "v", "password": "$encrypted$"}})
    assert r.status_code == 200 and r.json()["inputs"] == {"username": "v", "password": "$encrypted$"}


def test_credential_input_sources(service, org):
    machine = credential_type(service, "ssh")
    vault = credential_type(service, "hashivault_kv")
    target = created(service, "credentials/", {"name": unique("t"), "credential_type": machine["id"], "organization": org["id"]})
    source = created(service, "credentials/", {"name": unique("s"), "credential_type": vault["id"], "organization": org["id"],
                                                "inputs": {"url": "https://vault.example.com", "token": "t"}})
    assert source["inputs"]["token"] == "$encrypted$"
    r = call(service, "POST", "credential_input_sources/", json={"target_credential": target["id"], "source_credential": source["id"],
                                                                 "input_field_name": "nope"})
    assert r.status_code == 400
    assert r.json()["input_field_name"][0].startswith("Input field must be defined on target credential (options are become_method, ")
    r = call(service, "POST", "credential_input_sources/", json={"target_credential": source["id"], "source_credential": target["id"],
                                                                 "input_field_name": "url"})
    assert r.json()["target_credential"] == ["Target must be a non-external credential"]
    assert r.json()["source_credential"] == ["Source must be an external credential"]
    body = {"target_credential": target["id"], "source_credential": source["id"], "input_field_name": "password",
            "metadata": {"secret_path": "/kv/x", "secret_key": "k"}}
    cis = created(service, "credential_input_sources/", body)
    assert cis["type"] == "credential_input_source" and cis["metadata"] == body["metadata"]
    assert cis["summary_fields"]["source_credential"]["id"] == source["id"]
    # Observed on AWX 24.6.1 (SUMMARIZABLE_FK_FIELDS): an input source's credentials have no kubernetes flag.
    assert "kubernetes" not in cis["summary_fields"]["source_credential"] and "cloud" in cis["summary_fields"]["target_credential"]
    r = call(service, "POST", "credential_input_sources/", json=body)
    assert r.json() == {"__all__": ["Credential input source with this Target credential and Input field name already exists."]}
    r = call(service, "POST", "credential_input_sources/", json={})
    assert set(r.json()) == {"input_field_name", "target_credential", "source_credential"}
    assert [c["id"] for c in call(service, "GET", "credentials/%d/input_sources/" % target["id"]).json()["results"]] == [cis["id"]]
    assert call(service, "GET", "credential_input_sources/?target_credential=%d" % target["id"]).json()["count"] == 1


# ---------------------------------------------------------------- organizations, execution environments, instances

def test_organization_fields_and_links(service, org):
    assert org["max_hosts"] == 5 and org["default_environment"] is None and org["custom_virtualenv"] is None
    assert org["related"]["galaxy_credentials"] == "/api/v2/organizations/%d/galaxy_credentials/" % org["id"]
    r = call(service, "POST", "organizations/", json={"name": unique("o"), "max_hosts": -1})
    assert r.json() == {"max_hosts": ["Ensure this value is greater than or equal to 0."]}
    ee = created(service, "execution_environments/", {"name": unique("ee"), "image": "quay.io/x/y:1", "organization": org["id"]})
    r = call(service, "PATCH", "organizations/%d/" % org["id"], json={"default_environment": ee["id"]})
    assert r.status_code == 200 and r.json()["default_environment"] == ee["id"]
    assert r.json()["summary_fields"]["default_environment"]["image"] == "quay.io/x/y:1"
    # galaxy credentials: ordered, galaxy kind only
    galaxy = credential_type(service, "galaxy_api_token")
    g1 = created(service, "credentials/", {"name": unique("g1"), "credential_type": galaxy["id"], "organization": org["id"], "inputs": {"url": "https://a"}})
    g2 = created(service, "credentials/", {"name": unique("g2"), "credential_type": galaxy["id"], "organization": org["id"], "inputs": {"url": "https://b"}})
    for c in (g2, g1):
        assert call(service, "POST", "organizations/%d/galaxy_credentials/" % org["id"], json={"id": c["id"]}).status_code == 204
    assert names(call(service, "GET", "organizations/%d/galaxy_credentials/" % org["id"])) == [g2["name"], g1["name"]]
    machine = credential_type(service, "ssh")
    m = created(service, "credentials/", {"name": unique("m"), "credential_type": machine["id"], "organization": org["id"]})
    r = call(service, "POST", "organizations/%d/galaxy_credentials/" % org["id"], json={"id": m["id"]})
    assert r.status_code == 400 and r.json() == {"msg": "Credential must be a Galaxy credential, not Machine."}
    r = call(service, "POST", "organizations/%d/galaxy_credentials/" % org["id"], json={})
    assert r.json() == {"msg": "Credential 'id' field is missing."}
    assert call(service, "POST", "organizations/%d/galaxy_credentials/" % org["id"], json={"id": g2["id"], "disassociate": True}).status_code == 204
    assert names(call(service, "GET", "organizations/%d/galaxy_credentials/" % org["id"])) == [g1["name"]]
    # the Default organization has the Ansible Galaxy credential
    assert names(call(service, "GET", "organizations/1/galaxy_credentials/")) == ["Ansible Galaxy"]


def test_execution_environments(service, org):
    r = call(service, "POST", "execution_environments/", json={"name": unique("ee")})
    assert r.json() == {"image": ["This field is required."]}
    r = call(service, "POST", "execution_environments/", json={"name": unique("ee"), "image": "i", "pull": "sometimes"})
    assert r.json() == {"pull": ['"sometimes" is not a valid choice.']}
    machine = credential_type(service, "ssh")
    m = created(service, "credentials/", {"name": unique("m"), "credential_type": machine["id"], "organization": org["id"]})
    r = call(service, "POST", "execution_environments/", json={"name": unique("ee"), "image": "i", "credential": m["id"]})
    assert r.json() == {"credential": ["Only Container Registry credentials can be associated with an Execution Environment"]}
    ee = created(service, "execution_environments/", {"name": unique("ee"), "image": "i", "pull": "missing"})
    assert ee["managed"] is False and ee["organization"] is None and ee["pull"] == "missing"
    managed = call(service, "GET", "execution_environments/?managed=true").json()["results"]
    assert managed and call(service, "PATCH", "execution_environments/%d/" % managed[0]["id"], json={"image": "x"}).status_code == 403


def test_instances_and_instance_groups(service):
    nodes = call(service, "GET", "instances/?hostname=localhost").json()["results"]
    assert len(nodes) == 1
    node = nodes[0]
    assert node["node_type"] == "hybrid" and node["enabled"] is True and node["capacity_adjustment"] == "1.00"
    r = call(service, "PATCH", "instances/%d/" % node["id"], json={"capacity_adjustment": 0.5, "managed_by_policy": False})
    assert r.status_code == 200 and r.json()["capacity_adjustment"] == "0.50" and r.json()["managed_by_policy"] is False
    r = call(service, "PATCH", "instances/%d/" % node["id"], json={"node_type": "execution"})
    assert r.status_code == 400 and r.json() == {"node_type": ["Cannot change node type."]}
    call(service, "PATCH", "instances/%d/" % node["id"], json={"capacity_adjustment": 1, "managed_by_policy": True})
    assert call(service, "DELETE", "instances/%d/" % node["id"]).status_code == 405

    assert set(names(call(service, "GET", "instance_groups/?or__name=default&or__name=controlplane"))) == {"default", "controlplane"}
    name = unique("ig")
    ig = created(service, "instance_groups/", {"name": name, "policy_instance_minimum": 1})
    assert ig["instances"] == 0 and ig["is_container_group"] is False and ig["policy_instance_list"] == []
    r = call(service, "POST", "instance_groups/", json={"name": name})
    assert r.status_code == 400
    r = call(service, "POST", "instance_groups/", json={"name": unique("ig"), "policy_instance_list": ["nowhere"]})
    assert r.json() == {"policy_instance_list": ["nowhere is not a valid hostname of an existing instance."]}
    r = call(service, "POST", "instance_groups/", json={"name": unique("ig"), "policy_instance_percentage": 101})
    assert r.json() == {"policy_instance_percentage": ["Ensure this value is less than or equal to 100."]}
    assert call(service, "POST", "instance_groups/%d/instances/" % ig["id"], json={"id": node["id"]}).status_code == 204
    assert names(call(service, "GET", "instance_groups/%d/instances/" % ig["id"])) == ["localhost"]
    assert call(service, "GET", "instance_groups/%d/" % ig["id"]).json()["instances"] == 1
    assert name in names(call(service, "GET", "instances/%d/instance_groups/" % node["id"]))
    assert call(service, "POST", "instance_groups/%d/instances/" % ig["id"], json={"id": node["id"], "disassociate": True}).status_code == 204
    assert names(call(service, "GET", "instance_groups/%d/instances/" % ig["id"])) == []
    default = call(service, "GET", "instance_groups/?name=default").json()["results"][0]
    r = call(service, "PATCH", "instance_groups/%d/" % default["id"], json={"name": "other"})
    assert r.json() == {"name": ["default instance group name may not be changed."]}


def test_organization_and_inventory_instance_groups(service, org, inventory):
    a = created(service, "instance_groups/", {"name": unique("a")})
    b = created(service, "instance_groups/", {"name": unique("b")})
    for parent in ("organizations/%d" % org["id"], "inventories/%d" % inventory["id"]):
        for ig in (b, a):
            assert call(service, "POST", parent + "/instance_groups/", json={"id": ig["id"]}).status_code == 204
        assert names(call(service, "GET", parent + "/instance_groups/")) == [b["name"], a["name"]]
        assert call(service, "POST", parent + "/instance_groups/", json={"id": b["id"], "disassociate": True}).status_code == 204
        assert names(call(service, "GET", parent + "/instance_groups/")) == [a["name"]]
    r = call(service, "PATCH", "inventories/%d/" % inventory["id"], json={"prevent_instance_group_fallback": True})
    assert r.status_code == 200 and r.json()["prevent_instance_group_fallback"] is True


# ---------------------------------------------------------------- notification templates

def test_notification_templates(service, org):
    body = {"name": unique("nt"), "organization": org["id"], "notification_type": "slack",
            "notification_configuration": {"channels": ["#a"], "token": "s3cret"}}
    nt = created(service, "notification_templates/", body)
    assert nt["notification_configuration"] == {"channels": ["#a"], "token": "$encrypted$"}
    # Observed on AWX 24.6.1 (NotificationTemplate.default_messages): each event, without a message.
    assert nt["messages"] == {"started": None, "success": None, "error": None, "workflow_approval": None}
    assert nt["related"]["organization"] == "/api/v2/organizations/%d/" % org["id"]
    r = call(service, "POST", "notification_templates/", json=body)
    assert r.json() == {"__all__": ["Notification template with this Organization and Name already exists."]}
    # $encrypted$ keeps the stored secret: an update that changes nothing else leaves it
    r = call(service, "PATCH", "notification_templates/%d/" % nt["id"], json={"notification_configuration": {"channels": ["#b"], "token": "$encrypted$"}})
    assert r.status_code == 200 and r.json()["notification_configuration"] == {"channels": ["#b"], "token": "$encrypted$"}
    # webhook defaults are filled in
    hook = created(service, "notification_templates/", {"name": unique("wh"), "organization": org["id"], "notification_type": "webhook",
                                                         "notification_configuration": {"url": "https://h", "headers": {}}})
    assert hook["notification_configuration"]["http_method"] == "POST"
    assert hook["notification_configuration"]["disable_ssl_verification"] is False
    r = call(service, "POST", "notification_templates/", json={"name": unique("e"), "organization": org["id"], "notification_type": "slack",
                                                               "notification_configuration": {"channels": []}})
    assert r.json() == {"__all__": ["No values specified for field 'channels'", "Missing required fields for Notification Configuration: ['token']."]}
    r = call(service, "POST", "notification_templates/", json={"name": unique("e"), "organization": org["id"], "notification_type": "email",
                                                               "notification_configuration": {"host": "h", "port": "25", "username": "", "password": "",
                                                                                              "sender": "a@b", "recipients": ["c@d"], "use_tls": False, "use_ssl": False}})
    assert r.json() == {"__all__": ["Configuration field 'port' incorrect type, expected int."]}
    r = call(service, "POST", "notification_templates/", json={"name": unique("e"), "organization": org["id"], "notification_type": "fax"})
    assert r.json() == {"notification_type": ['"fax" is not a valid choice.']}
    r = call(service, "POST", "notification_templates/", json={"name": unique("e"), "organization": org["id"], "notification_type": "slack",
                                                               "notification_configuration": {"channels": ["#a"], "token": "t"}, "messages": {"boom": {}}})
    assert r.json() == {"messages": ["Event 'boom' invalid, must be one of 'started', 'success', 'error', or 'workflow_approval'"]}
    # organization association lists
    for event in ("started", "success", "error", "approvals"):
        path = "organizations/%d/notification_templates_%s/" % (org["id"], event)
        assert call(service, "POST", path, json={"id": nt["id"]}).status_code == 204
        assert names(call(service, "GET", path)) == [nt["name"]]
    path = "organizations/%d/notification_templates_error/" % org["id"]
    assert call(service, "POST", path, json={"id": nt["id"], "disassociate": True}).status_code == 204
    assert names(call(service, "GET", path)) == []
    assert nt["name"] in names(call(service, "GET", "organizations/%d/notification_templates/" % org["id"]))


# ---------------------------------------------------------------- schedules

@pytest.fixture(scope="module")
def cloud_source(service, inventory):
    return created(service, "inventory_sources/", {"name": unique("sched-src"), "inventory": inventory["id"], "source": "ec2"})


RRULE = "DTSTART;TZID=America/New_York:20300101T120000 RRULE:FREQ=DAILY;INTERVAL=1;COUNT=3"


def test_schedules(service, cloud_source):
    name = unique("sch")
    sch = created(service, "schedules/", {"name": name, "rrule": RRULE, "unified_job_template": cloud_source["id"]})
    assert sch["type"] == "schedule" and sch["enabled"] is True
    assert sch["unified_job_template"] == cloud_source["id"]
    assert sch["timezone"] == "America/New_York"
    assert sch["dtstart"] == "2030-01-01T17:00:00Z" and sch["dtend"] == "2030-01-03T17:00:00Z"
    assert sch["next_run"] == "2030-01-01T17:00:00Z"
    assert sch["summary_fields"]["unified_job_template"]["unified_job_type"] == "inventory_update"
    assert sch["related"]["unified_job_template"] == "/api/v2/inventory_sources/%d/" % cloud_source["id"]
    assert names(call(service, "GET", "inventory_sources/%d/schedules/" % cloud_source["id"])) == [name]
    assert call(service, "GET", "inventory_sources/%d/" % cloud_source["id"]).json()["next_job_run"] == "2030-01-01T17:00:00Z"
    r = call(service, "PATCH", "schedules/%d/" % sch["id"], json={"enabled": False})
    assert r.status_code == 200 and r.json()["enabled"] is False
    until = "DTSTART:20300101T120000Z RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;UNTIL=20300301T000000Z"
    r = call(service, "PATCH", "schedules/%d/" % sch["id"], json={"rrule": until})
    assert r.status_code == 200 and r.json()["timezone"] == "UTC" and r.json()["until"] == "2030-03-01T00:00:00"
    assert names(call(service, "GET", "schedules/?name=%s" % name)) == [name]
    assert call(service, "DELETE", "schedules/%d/" % sch["id"]).status_code == 204


@pytest.mark.parametrize("rrule, message", [
    ("RRULE:FREQ=DAILY;INTERVAL=1", "Valid DTSTART required in rrule. Value should start with: DTSTART:YYYYMMDDTHHMMSSZ"),
    ("DTSTART:20300101T120000 RRULE:FREQ=DAILY;INTERVAL=1", "DTSTART cannot be a naive datetime.  Specify ;TZINFO= or YYYYMMDDTHHMMSSZZ."),
    ("DTSTART:20300101T120000Z", "One or more rule required in rrule."),
    ("DTSTART:20300101T120000Z RRULE:FREQ=DAILY", "INTERVAL required in rrule: RULE:FREQ=DAILY"),
    ("DTSTART:20300101T120000Z RRULE:FREQ=SECONDLY;INTERVAL=1", "SECONDLY is not supported: RULE:FREQ=SECONDLY;INTERVAL=1"),
    ("DTSTART:20300101T120000Z RRULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=1MO", "BYDAY with numeric prefix not supported: RULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=1MO"),
    ("DTSTART:20300101T120000Z RRULE:FREQ=DAILY;INTERVAL=1;COUNT=1000", "COUNT > 999 is unsupported: RULE:FREQ=DAILY;INTERVAL=1;COUNT=1000"),
    ("DTSTART:20300101T120000Z RRULE:FREQ=DAILY;INTERVAL=1;COUNT=2;UNTIL=20300201T000000Z",
     "RRULE may not contain both COUNT and UNTIL: RULE:FREQ=DAILY;INTERVAL=1;COUNT=2;UNTIL=20300201T000000Z"),
])
def test_rrule_rejected(service, cloud_source, rrule, message):
    r = call(service, "POST", "schedules/", json={"name": unique("bad"), "rrule": rrule, "unified_job_template": cloud_source["id"]})
    assert r.status_code == 400
    assert message in r.json()["rrule"]


def test_rrule_exdate_rejected_alone(service, cloud_source):
    rrule = "DTSTART:20300101T120000Z RRULE:FREQ=DAILY;INTERVAL=1 EXDATE:20300102T120000Z"
    r = call(service, "POST", "schedules/", json={"name": unique("bad"), "rrule": rrule, "unified_job_template": cloud_source["id"]})
    assert r.json() == {"rrule": ["EXDATE not allowed in rrule."]}


def test_schedule_targets_and_prompts(service, inventory, cloud_source):
    r = call(service, "POST", "schedules/", json={"name": unique("s")})
    assert r.json() == {"rrule": ["This field is required."], "unified_job_template": ["This field is required."]}
    file_src = created(service, "inventory_sources/", {"name": unique("file"), "inventory": inventory["id"], "source": "constructed"})
    r = call(service, "POST", "inventory_sources/%d/schedules/" % file_src["id"], json={"name": unique("s"), "rrule": RRULE})
    assert r.status_code == 400 and r.json() == {"unified_job_template": ["Inventory Source must be a cloud resource."]}
    demo = call(service, "POST", "projects/", json={"name": "manual-" + uuid.uuid4().hex[:8], "organization": 1, "local_path": "demo"}).json()
    r = call(service, "POST", "projects/%d/schedules/" % demo["id"], json={"name": unique("s"), "rrule": RRULE})
    assert r.json() == {"unified_job_template": ["Manual Project cannot have a schedule set."]}
    r = call(service, "POST", "inventory_sources/%d/schedules/" % cloud_source["id"], json={"name": unique("s"), "rrule": RRULE, "limit": "web"})
    assert r.json() == {"limit": ["Field is not configured to prompt on launch."]}
    jt = created(service, "job_templates/", {"name": unique("jt"), "project": demo["id"], "playbook": "hello.yml",
                                             "inventory": inventory["id"], "ask_limit_on_launch": True})
    r = call(service, "POST", "job_templates/%d/schedules/" % jt["id"], json={"name": unique("s"), "rrule": RRULE, "limit": "web"})
    assert r.status_code == 201, r.text
    sch = r.json()
    assert sch["limit"] == "web" and sch["unified_job_template"] == jt["id"]
    assert sch["summary_fields"]["unified_job_template"]["unified_job_type"] == "job"
    assert sch["summary_fields"]["inventory"]["id"] == inventory["id"]
    r = call(service, "POST", "job_templates/%d/schedules/" % jt["id"], json={"name": unique("s"), "rrule": RRULE, "extra_data": {"a": 1}})
    assert r.json() == {"extra_data": ["Variables a provided, but this template cannot accept variables."]}
    assert [s["id"] for s in call(service, "GET", "job_templates/%d/schedules/" % jt["id"]).json()["results"]] == [sch["id"]]


def test_job_template_labels_and_notifications(service, org, inventory):
    demo = call(service, "POST", "projects/", json={"name": "manual-" + uuid.uuid4().hex[:8], "organization": 1, "local_path": "demo"}).json()
    jt = created(service, "job_templates/", {"name": unique("jt"), "project": demo["id"], "playbook": "hello.yml", "inventory": inventory["id"]})
    label = created(service, "labels/", {"name": unique("jl"), "organization": org["id"]})
    assert call(service, "POST", "job_templates/%d/labels/" % jt["id"], json={"id": label["id"]}).status_code == 204
    assert names(call(service, "GET", "job_templates/%d/labels/" % jt["id"])) == [label["name"]]
    # disassociating the last use of a label deletes it
    assert call(service, "POST", "job_templates/%d/labels/" % jt["id"], json={"id": label["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", "labels/%d/" % label["id"]).status_code == 404
    nt = created(service, "notification_templates/", {"name": unique("n"), "organization": org["id"], "notification_type": "slack",
                                                       "notification_configuration": {"channels": ["#a"], "token": "t"}})
    path = "job_templates/%d/notification_templates_success/" % jt["id"]
    assert call(service, "POST", path, json={"id": nt["id"]}).status_code == 204
    assert names(call(service, "GET", path)) == [nt["name"]]


def test_a_smart_inventory_has_no_group_links(service, org, inventory):
    # Observed on AWX 24.6.1 (InventorySerializer.get_related): groups, root groups, sources and tree
    # are linked for a manual or constructed inventory, not for a smart one.
    smart = created(service, "inventories/", {"name": unique("smart"), "organization": org["id"], "kind": "smart", "host_filter": "name=x"})
    links = ("groups", "root_groups", "update_inventory_sources", "inventory_sources", "tree")
    assert not set(links) & set(smart["related"]) and "hosts" in smart["related"]
    manual = call(service, "GET", "inventories/%d/" % inventory["id"]).json()
    assert set(links) <= set(manual["related"])
