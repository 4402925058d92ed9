"""make compat's ansible.hub against the real Automation Hub: a role written for ansible.hub 1.0.0
(tests/live/compat_roles/compat_hub: bare and full names under ``collections: [ansible.hub]``, the
connection from ``module_defaults: group/ansible.hub.hub``, a token from ah_token, the async pattern) runs with
the redirect collections first on the collections path and automation.service behind them, and only
automation.service's code reaches the Hub.

The reference service's request log is not there for the real Hub. Its equivalent here: the Hub's API server
(gunicorn, started by tests/hub/hubctl.py) writes an access log, DIR/logs/api.log, whose last field is each
request's User-Agent; every line the play adds must carry this collection's. (The content app's log is not
read: the role downloads nothing.) It needs a Hub that hubctl started, whose directory holds HUB_CA_PATH
(DIR/tls/ca.pem): conftest.py's, the hub step's (tests/hub/run.sh) or one the fixture starts.

    .venv/bin/python -m pytest -q -p no:cacheprovider tests/hub/tests/test_hub_compat.py
"""
import json
import os
import re
import subprocess
import time
import uuid
from pathlib import Path

from ansible_collections.automation.service.tests.live import compat
from ansible_collections.automation.service.tests.live.playbook import collection_tree
from ansible_collections.automation.service.tests.live.test_compat import AGENT, ANSIBLE_PLAYBOOK, HERE as LIVE, runtime
from hub_api import DISTRIBUTIONS, REGISTRIES, REMOTES, REPOSITORIES, USERS, call, listed, namespace, one, remove

# gunicorn's default access log format: ... "request" status length "referer" "user agent"
ACCESS = re.compile(r'^(?P<host>\S+) \S+ (?P<user>\S+) \[[^\]]+\] "(?P<request>[^"]*)" \d+ \S+ "[^"]*" "(?P<agent>[^"]*)"$')


def settled_size(path, quiet=1.0, limit=15.0):
    """The size of ``path`` once it has not grown for ``quiet`` seconds (at most ``limit`` seconds)."""
    deadline = time.time() + limit
    size, since = path.stat().st_size, time.time()
    while time.time() < deadline:
        time.sleep(0.2)
        now = path.stat().st_size
        if now != size:
            size, since = now, time.time()
        elif time.time() - since >= quiet:
            break
    return size


def test_ansible_hub_s_role_runs_through_make_compat_and_only_automation_service_reaches_the_hub(hub, tmp_path):
    access_log = Path(hub["HUB_CA_PATH"]).resolve().parents[1] / "logs" / "api.log"
    assert access_log.is_file(), "no access log of the Hub's API at %s: not a Hub hubctl started" % access_log

    tree = str(tmp_path / "compat")
    made = compat.write(tree)
    routing = runtime(tree, "ansible.hub")
    # Every module of ansible.hub goes to this collection's, and its group hub holds them (ah_build aside).
    assert made["ansible.hub"][1] == {}, made["ansible.hub"][1]
    assert sorted(routing["plugin_routing"]["modules"]) == sorted(compat.load_names()["ansible.hub"]["modules"])
    assert "ah_namespace" in routing["action_groups"]["hub"] and "ah_build" not in routing["action_groups"]["hub"]

    prefix = "cmp" + uuid.uuid4().hex[:6]
    try:
        run_the_role(hub, tmp_path, tree, access_log, prefix)
    finally:
        remove(hub, prefix)


def run_the_role(hub, tmp_path, tree, access_log, prefix):
    secret = uuid.uuid4().hex
    # The token is taken for a user of the test's own (a new token replaces the user's last one).
    owner = {"username": prefix + "-owner", "password": uuid.uuid4().hex}
    call(hub, "POST", USERS, dict(owner, is_superuser=True))
    play = [{
        "name": "A role written for ansible.hub",
        "hosts": "localhost",
        "connection": "local",
        "gather_facts": False,
        "vars": {
            "ansible_python_interpreter": "{{ ansible_playbook_python }}",
            "compat_hub_token_user": owner,
            "compat_hub_namespaces": [
                {"name": prefix + "_one", "company": "Compat", "email": "one@example.com",
                 "links": [{"name": "home", "url": "https://example.com/one"}]},
                {"name": prefix + "_two", "description": "the second"},
            ],
            "compat_hub_remotes": [
                {"name": prefix + "-remote", "url": hub["HUB_URL"] + "/api/galaxy/content/published/",
                 "requirements": [prefix + "_one.sample"], "username": "puller", "password": secret,
                 "tls_validation": False, "rate_limit": 5},
            ],
            "compat_hub_repositories": [
                {"name": prefix + "-repo", "description": "synced from the remote", "remote": prefix + "-remote"},
                {"name": prefix + "-local"},
            ],
            "compat_hub_registry": {"name": prefix + "-registry", "url": "https://registry.example.com",
                                    "username": "puller", "password": secret},
            "compat_hub_user": {"username": prefix + "-user", "first_name": "Compat", "email": "user@example.com",
                                "password": secret},
        },
        # The connection as ansible.hub's users give it, for its group; the CA is this Hub's own.
        "module_defaults": {"group/ansible.hub.hub": {
            "ah_host": hub["HUB_URL"], "ah_username": hub["HUB_USERNAME"], "ah_password": hub["HUB_PASSWORD"],
            "ca_path": hub["HUB_CA_PATH"]}},
        "roles": ["compat_hub"],
    }]
    playbook = tmp_path / "play.yml"
    playbook.write_text(json.dumps(play))
    env = dict((k, v) for k, v in os.environ.items()
               if not k.startswith(("SERVICE_", "CONTROLLER_", "TOWER_", "AAP_", "GATEWAY_", "AH_", "ANSIBLE_")))
    env.update({
        # The redirect collections first, then the one that holds automation.service and nothing else.
        "ANSIBLE_COLLECTIONS_PATH": os.pathsep.join([tree, collection_tree(tmp_path)]),
        "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "false",
        "ANSIBLE_ROLES_PATH": str(LIVE / "compat_roles"),
        "ANSIBLE_LOCALHOST_WARNING": "false",
        "ANSIBLE_INVENTORY_UNPARSED_WARNING": "false",
        "ANSIBLE_NOCOLOR": "1",
        "SERVICE_CACHE_DIR": str(tmp_path / "session-cache"),
    })
    # gunicorn writes a request's line once its answer is sent: the log is read when it has stopped growing
    mark = settled_size(access_log)
    result = subprocess.run([ANSIBLE_PLAYBOOK, str(playbook), "-i", "localhost,"], env=env, capture_output=True,
                            text=True, cwd=str(tmp_path), timeout=900, stdin=subprocess.DEVNULL)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "failed=0" in output
    for hidden in (secret, owner["password"], hub["HUB_PASSWORD"]):
        assert hidden not in output

    # Every request the play made carried this collection's User-Agent (ansible.hub's client sends Python's). The
    # Hub is the test's alone while it runs (the hub step runs one test at a time).
    # (The log holds the Hub's own messages too, Django's warnings of a 404: the access lines start with the
    # client's address, the loopback.)
    settled_size(access_log)
    with open(access_log, "rb") as handle:
        handle.seek(mark)
        lines = [line for line in handle.read().decode("utf-8", "replace").splitlines() if line.startswith("127.")]
    entries = [ACCESS.match(line) for line in lines]
    assert all(entries), [line for line, entry in zip(lines, entries) if not entry][:5]
    assert [e.group(0) for e in entries if e["agent"] != AGENT] == []
    # The namespaces were written with the token ah_token made (no user name in the log: not Basic), the rest with
    # the password of module_defaults (Basic: the log names the user).
    made = [e for e in entries if e["request"].startswith("POST /api/galaxy/v3/namespaces/")]
    assert len(made) == 2 and set(e["user"] for e in made) == {"-"}, made
    writes = [e for e in entries if e["request"].split(" ")[0] in ("POST", "PUT", "PATCH", "DELETE")]
    assert hub["HUB_USERNAME"] in set(e["user"] for e in writes)

    # What the role asked for is there.
    one_ = namespace(hub, prefix + "_one")
    assert one_["company"] == "Compat" and [link["url"] for link in one_["links"]] == ["https://example.com/one"]
    assert namespace(hub, prefix + "_two")["description"] == "the second"
    remote = one(hub, REMOTES, prefix + "-remote")
    assert remote["rate_limit"] == 5 and remote["tls_validation"] is False
    assert {"name": "password", "is_set": True} in remote["hidden_fields"]
    repository = one(hub, REPOSITORIES, prefix + "-repo")
    assert repository["remote"] == remote["pulp_href"] and repository["description"] == "synced from the remote"
    served = listed(hub, DISTRIBUTIONS + "?repository=%s" % repository["pulp_href"])
    assert [d["base_path"] for d in served] == [prefix + "-repo"]
    assert one(hub, REPOSITORIES, prefix + "-local") is not None
    assert one(hub, REGISTRIES, prefix + "-registry")["url"] == "https://registry.example.com"
    assert one(hub, USERS, prefix + "-user", field="username")["first_name"] == "Compat"
