"""export and import of Automation Hub's objects against the real Hub (galaxy-ng 4.9.2, a standalone Hub reached
with ansible.hub's options ah_host, ah_username, ah_password): a namespace, a collection remote holding a
password, a collection repository with that remote and a distribution, an EE registry holding a password, made
here through the Hub's API, are exported (secrets as "", the remote by name, the distribution by name and base
path), imported again unchanged, imported under new names in check mode (nothing written) and for real (each
made, the secrets the data lacks named), changed, and given a secret in clear (sent, never shown).

The modules run in this process (module_runner), as the reference service's export tests run them: no
ansible-playbook, so the test costs the Hub's work alone. The Hub is conftest.py's: the hub step's
(tests/hub/run.sh), or one the fixture starts.

    .venv/bin/python -m pytest -q -p no:cacheprovider tests/hub/tests/test_hub_export.py
"""
import json
import uuid

import pytest

from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import run_module
from hub_api import DISTRIBUTIONS, NAMESPACES, REGISTRIES, REMOTES, REPOSITORIES, call, listed, namespace, one, remove
from hub_helpers import GALAXY


@pytest.fixture
def made(hub, tmp_path, monkeypatch):
    """The Hub's objects of one test, made through its API; removed afterwards."""
    monkeypatch.setenv("SERVICE_CACHE_DIR", str(tmp_path / "cache"))
    prefix = "cmp" + uuid.uuid4().hex[:6]
    secret = uuid.uuid4().hex
    try:
        call(hub, "POST", NAMESPACES, {
            "name": prefix + "_ns", "company": "Compat", "email": "ns@example.com", "description": "exported",
            "links": [{"name": "home", "url": "https://example.com/ns"}], "groups": []})
        remote = call(hub, "POST", REMOTES, {
            "name": prefix + "-remote", "url": hub["HUB_URL"] + GALAXY + "content/published/", "password": secret,
            "username": "puller", "requirements_file": "collections:\n  - %s_ns.sample\n" % prefix, "rate_limit": 5,
            "tls_validation": False})
        repository = call(hub, "POST", REPOSITORIES, {
            "name": prefix + "-repo", "description": "from the remote", "remote": remote["pulp_href"],
            "retain_repo_versions": 2})
        call(hub, "POST", DISTRIBUTIONS, {
            "name": prefix + "-repo", "base_path": prefix + "-repo", "repository": repository["pulp_href"]})
        call(hub, "POST", REGISTRIES, {"name": prefix + "-registry", "url": "https://registry.example.com",
                                       "username": "puller", "password": secret, "rate_limit": 4})
        yield {"prefix": prefix, "secret": secret, "remote": remote, "repository": repository}
    finally:
        remove(hub, prefix)


def connection(hub):
    return {"ah_host": hub["HUB_URL"], "ah_username": hub["HUB_USERNAME"], "ah_password": hub["HUB_PASSWORD"],
            "ca_path": hub["HUB_CA_PATH"]}


def renamed(assets, old, new):
    return json.loads(json.dumps(assets).replace(old, new))


def test_hub_objects_export_and_import_on_a_standalone_hub(hub, made):
    prefix, secret = made["prefix"], made["secret"]
    names = {"hub_namespaces": [prefix + "_ns"], "hub_collection_remotes": [prefix + "-remote"],
             "hub_collection_repositories": [prefix + "-repo"], "hub_ee_registries": [prefix + "-registry"]}
    exported = run_module("export", dict(connection(hub), **names))
    assert not exported.get("failed"), exported
    assets = exported["assets"]
    text = json.dumps(exported)
    assert secret not in text and hub["HUB_PASSWORD"] not in text
    assert sorted(assets) == sorted(names)
    (ns,), (remote,) = assets["hub_namespaces"], assets["hub_collection_remotes"]
    (repository,), (registry,) = assets["hub_collection_repositories"], assets["hub_ee_registries"]
    assert ns["natural_key"] == {"type": "hub_namespace", "name": prefix + "_ns"}
    assert ns["company"] == "Compat" and ns["links"] == [{"name": "home", "url": "https://example.com/ns"}]
    # The Hub never shows a remote's or a registry's credentials: those it has are written as "".
    assert remote["password"] == "" and remote["username"] == "" and "token" not in remote
    assert remote["rate_limit"] == 5 and remote["tls_validation"] is False
    assert remote["requirements_file"].startswith("collections:")
    assert repository["remote"] == {"type": "hub_collection_remote", "name": prefix + "-remote"}
    assert repository["distributions"] == [{"name": prefix + "-repo", "base_path": prefix + "-repo"}]
    assert repository["retain_repo_versions"] == 2 and "pulp_href" not in repository
    assert registry["password"] == "" and registry["url"] == "https://registry.example.com"

    # every kind at once on a standalone Hub: the Hub's kinds only, ours among them
    everything = run_module("export", dict(connection(hub), all=True))
    assert not everything.get("failed"), everything
    assert sorted(everything["assets"]) == sorted(names)
    assert prefix + "-repo" in [obj["name"] for obj in everything["assets"]["hub_collection_repositories"]]
    # a controller kind named there fails before anything is read
    refused = run_module("export", dict(connection(hub), organizations=["Default"]))
    assert refused.get("failed") and "standalone Automation Hub" in refused["msg"], refused

    # the same data applied to the same Hub changes nothing
    again = run_module("import", dict(connection(hub), assets=assets))
    assert not again.get("failed"), again
    assert not again["changed"] and again["created"] == [] and again["updated"] == [], again
    assert again["secrets_needed"] == {}

    # under new names: in check mode nothing is written...
    copy = renamed(assets, prefix, prefix + "x")
    checked = run_module("import", dict(connection(hub), assets=copy), check_mode=True, diff=True)
    assert not checked.get("failed"), checked
    assert checked["changed"] and sorted(checked["created"]) == sorted([
        "hub namespace %sx_ns" % prefix, "hub collection remote %sx-remote" % prefix,
        "hub collection repository %sx-repo" % prefix, "hub ee registry %sx-registry" % prefix])
    assert namespace(hub, prefix + "x_ns") is None
    assert one(hub, REMOTES, prefix + "x-remote") is None
    # ...and for real each is made, the credentials the data left out named
    done = run_module("import", dict(connection(hub), assets=copy))
    assert not done.get("failed"), done
    assert done["changed"] and len(done["created"]) == 4
    assert done["secrets_needed"] == {"hub collection remote %sx-remote" % prefix: ["username", "password"],
                                      "hub ee registry %sx-registry" % prefix: ["username", "password"]}
    ns = namespace(hub, prefix + "x_ns")
    assert ns["company"] == "Compat" and [link["url"] for link in ns["links"]] == ["https://example.com/ns"]
    remote = one(hub, REMOTES, prefix + "x-remote")
    assert remote["rate_limit"] == 5 and remote["requirements_file"].startswith("collections:")
    repository = one(hub, REPOSITORIES, prefix + "x-repo")
    assert repository["remote"] == remote["pulp_href"] and repository["retain_repo_versions"] == 2
    served = listed(hub, DISTRIBUTIONS + "?repository=%s" % repository["pulp_href"])
    assert [d["base_path"] for d in served] == [prefix + "x-repo"]
    assert one(hub, REGISTRIES, prefix + "x-registry")["url"] == "https://registry.example.com"
    assert run_module("import", dict(connection(hub), assets=copy))["changed"] is False

    # a change and a secret given in clear: sent (the remote's in Pulp's background task), never shown
    new_secret = uuid.uuid4().hex
    copy["hub_collection_remotes"][0].update(rate_limit=3, password=new_secret, username="puller")
    copy["hub_ee_registries"][0].update(rate_limit=2)
    changed = run_module("import", dict(connection(hub), assets=copy), diff=True)
    assert not changed.get("failed"), changed
    assert sorted(changed["updated"]) == ["hub collection remote %sx-remote" % prefix,
                                          "hub ee registry %sx-registry" % prefix]
    assert new_secret not in json.dumps(changed)
    assert changed["secrets_needed"] == {"hub ee registry %sx-registry" % prefix: ["username", "password"]}
    remote = one(hub, REMOTES, prefix + "x-remote")
    assert remote["rate_limit"] == 3
    assert {"name": "password", "is_set": True} in remote["hidden_fields"]
    registry = one(hub, REGISTRIES, prefix + "x-registry")
    assert registry["rate_limit"] == 2 and registry["url"] == "https://registry.example.com"
    # the secret stays as it is once set: the same data changes nothing more
    assert run_module("import", dict(connection(hub), assets=copy))["changed"] is False
