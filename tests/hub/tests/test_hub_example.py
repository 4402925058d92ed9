"""examples/hub.yml, the play of the Hub modules under ansible.hub's names (a namespace; a collection built,
uploaded, approved and installed with ansible-galaxy; a remote, a repository with it, synced; an execution
environment registry and repository; a group with roles, a user in it and its token), run with ansible-playbook
against the real Hub: it makes everything, a second run changes nothing but the token, and with
hub_example_state=absent it takes everything away. Three runs in all: the Hub's imports and syncs are slow."""
import re
import uuid
from pathlib import Path

import yaml

from hub_helpers import GALAXY, ROOT, get, run_example

EXAMPLE = "hub.yml"
# The Hub keeps one token per user, and ah_token makes a new one at each run (as ansible.hub's does).
TOKEN_TASK = "The publisher's token"


def play():
    with open(ROOT / "examples" / EXAMPLE) as handle:
        return yaml.safe_load(handle)[0]


def tasks(present=True):
    """The names of the tasks of the example's present (or absent) run."""
    wanted = "present" if present else "not present"
    return [task["name"] for block in play()["tasks"] if block.get("when") == wanted for task in block["block"]]


def test_the_example_uses_ansible_hubs_module_names():
    """Every module of the done-when play, under ansible.hub's name."""
    with open(ROOT / "examples" / EXAMPLE) as handle:
        used = set(re.findall(r"^\s+automation\.service\.(\w+):", handle.read(), re.M))
    assert used == {"ah_namespace", "ah_build", "ah_collection_upload", "ah_approval", "ah_collection", "ah_group",
                    "group_roles", "ah_user", "ah_token", "collection_remote", "collection_repository",
                    "collection_repository_sync", "ah_ee_registry", "ah_ee_repository"}


def test_the_hub_example_makes_everything_once_then_takes_it_away(hub, tmp_path):
    prefix = "bed%s" % uuid.uuid4().hex[:6]
    workdir = tmp_path / "work"
    named = ["-e", "hub_example_prefix=%s" % prefix, "-e", "hub_example_workdir=%s" % workdir]
    namespace = "%s_platform" % prefix
    present = tasks()

    try:
        made_and_kept(hub, tmp_path, named, prefix, workdir, namespace, present)
    finally:
        # taken away even when a check above failed: the other tests of the step share the Hub
        (ok, changed, failed), statuses_gone, output_gone = run_example(
            hub, tmp_path, EXAMPLE, named + ["-e", "hub_example_state=absent"])
    assert failed == 0, output_gone
    absent = tasks(present=False)
    assert [name for name in absent if statuses_gone.get(name) != {"changed"}] == [], output_gone
    assert (ok, changed) == (len(absent), len(absent)), output_gone
    assert get(hub, GALAXY + "v3/namespaces/%s/" % namespace).status_code == 404
    assert get(hub, GALAXY + "_ui/v1/users/?username=%s-publisher" % prefix).json()["meta"]["count"] == 0
    assert not Path(workdir).exists()
    assert hub["HUB_PASSWORD"] not in output_gone


def made_and_kept(hub, tmp_path, named, prefix, workdir, namespace, present):
    """The first run makes everything, the second changes nothing but the token."""
    (ok, changed, failed), statuses, output = run_example(hub, tmp_path, EXAMPLE, named)
    assert failed == 0, output
    # every task of the present run wrote something (those of the absent run were skipped)
    assert [name for name in statuses if statuses[name] != {"skipping"}] == present, output
    assert [name for name in present if statuses[name] != {"changed"}] == [], output
    assert (ok, changed) == (len(present), len(present)), output
    # the collection was installed by ansible-galaxy, and the sync brought it into the mirror
    manifest = workdir / "installed" / "ansible_collections" / namespace / "tools" / "MANIFEST.json"
    assert manifest.is_file(), output
    mirrored = get(hub, GALAXY + "content/%s-mirror/v3/collections/%s/tools/" % (prefix, namespace))
    assert mirrored.status_code == 200, mirrored.text
    assert mirrored.json()["highest_version"]["version"] == "1.0.0"

    (ok, changed, failed), statuses_again, output_again = run_example(hub, tmp_path, EXAMPLE, named)
    assert failed == 0, output_again
    assert [name for name in present if statuses_again[name] != {"ok"}] == [TOKEN_TASK], output_again
    assert (ok, changed) == (len(present), 1), output_again
    # neither the Hub's password nor the publisher's is in any output
    password = (workdir / "publisher-password").read_text().split()[0]
    for secret in (hub["HUB_PASSWORD"], password):
        assert secret not in output + output_again
