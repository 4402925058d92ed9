"""Real clients by others, run against the reference service: the awx CLI
(awxkit 24.6.1) and the awx.awx 24.6.1 collection."""
import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest


VENV_BIN = Path(sys.executable).parent
REPO_ROOT = Path(__file__).resolve().parents[3]


def awx_cli(service, *args):
    env = dict(os.environ)
    env["REQUESTS_CA_BUNDLE"] = str(service.ca_path)
    command = [
        str(VENV_BIN / "awx"), "--conf.host=" + service.url, "--conf.username=" + service.admin_username,
        # "=" form: a generated password may begin with "-", which argparse takes for an option
        "--conf.password=" + service.admin_password, "--conf.color=false",
    ] + list(args)
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def test_awx_cli_session_login_and_hosts_list(service):
    status, inv = service.admin_request("POST", "/api/v2/inventories/", {"name": "cli-" + uuid.uuid4().hex[:8], "organization": 1})
    assert status == 201
    name = "clihost-" + uuid.uuid4().hex[:8]
    status, _ = service.admin_request("POST", "/api/v2/hosts/", {"name": name, "inventory": inv["id"]})
    assert status == 201
    mark = service.mark()
    result = awx_cli(service, "hosts", "list", "--name", name, "-f", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [h["name"] for h in data["results"]] == [name]
    entries = service.since(mark)
    logins = [e for e in entries if e["login"]]
    assert len(logins) == 1, entries
    listed = [e for e in entries if e["path"] == "/api/v2/hosts/" and e["method"] == "GET"]
    assert listed and all(e["auth"] == "session" for e in listed)
    assert sum(e["password_checks"] for e in entries) == 1


def test_awx_cli_login_gets_a_token(service):
    result = awx_cli(service, "login")
    assert result.returncode == 0, result.stderr
    token = json.loads(result.stdout)["token"]
    assert len(token) == 30
    env = dict(os.environ, REQUESTS_CA_BUNDLE=str(service.ca_path))
    out = subprocess.run(
        [str(VENV_BIN / "awx"), "--conf.host=" + service.url, "--conf.token=" + token, "me", "-f", "json"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["results"][0]["username"] == service.admin_username


def test_awxkit_cli_create_and_modify_host(service):
    status, inv = service.admin_request("POST", "/api/v2/inventories/", {"name": "cli-" + uuid.uuid4().hex[:8], "organization": 1})
    name = "clihost-" + uuid.uuid4().hex[:8]
    result = awx_cli(service, "hosts", "create", "--name", name, "--inventory", str(inv["id"]), "--variables", '{"a": 1}', "-f", "json")
    assert result.returncode == 0, result.stderr + result.stdout
    host = json.loads(result.stdout)
    assert json.loads(host["variables"]) == {"a": 1}
    result = awx_cli(service, "hosts", "modify", str(host["id"]), "--description", "changed", "-f", "json")
    assert result.returncode == 0, result.stderr + result.stdout
    assert json.loads(result.stdout)["description"] == "changed"


@pytest.fixture(scope="session")
def awx_collection():
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "tests" / "service" / "get_awx_collection.py")],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    path = Path(result.stdout.strip().splitlines()[-1])
    assert (path / "ansible_collections" / "awx" / "awx" / "plugins" / "modules" / "host.py").exists()
    return path


def run_playbook(service, collections, tmp_path, body):
    play = tmp_path / "play.yml"
    play.write_text(textwrap.dedent(body))
    env = dict(os.environ)
    env.update(
        SSL_CERT_FILE=str(service.ca_path),
        ANSIBLE_COLLECTIONS_PATH=str(collections),
        ANSIBLE_LOCAL_TEMP=str(tmp_path / "tmp"),
        ANSIBLE_HOME=str(tmp_path / "home"),
        ANSIBLE_NOCOLOR="1",
        CONTROLLER_HOST=service.url,
        CONTROLLER_USERNAME=service.admin_username,
        CONTROLLER_PASSWORD=service.admin_password,
    )
    return subprocess.run(
        [str(VENV_BIN / "ansible-playbook"), "-i", "localhost,", "-c", "local", str(play)],
        capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=600,
    )


def test_awx_collection_creates_inventory_and_host(service, awx_collection, tmp_path):
    suffix = uuid.uuid4().hex[:8]
    mark = service.mark()
    result = run_playbook(service, awx_collection, tmp_path, """
        - hosts: localhost
          gather_facts: false
          vars:
            ansible_python_interpreter: "{{ ansible_playbook_python }}"
          tasks:
            - awx.awx.inventory:
                name: inv-%(s)s
                organization: Default
                description: null
              register: inv
            - awx.awx.host:
                name: host-%(s)s
                inventory: inv-%(s)s
                variables: {a: 1}
              register: first
            - awx.awx.host:
                name: host-%(s)s
                inventory: inv-%(s)s
                variables: {a: 1}
              register: again
            - awx.awx.host:
                name: host-%(s)s
                inventory: inv-%(s)s
                description: now described
                variables: {a: 2}
              register: changed
            - assert:
                that:
                  - inv is changed
                  - first is changed
                  - again is not changed
                  - changed is changed
        """ % {"s": suffix})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "You are running collection version" not in result.stdout + result.stderr
    status, hosts = service.admin_request("GET", "/api/v2/hosts/?name=host-%s" % suffix)
    assert status == 200 and hosts["count"] == 1
    host = hosts["results"][0]
    assert host["description"] == "now described"
    assert json.loads(host["variables"]) == {"a": 2}
    assert host["summary_fields"]["inventory"]["name"] == "inv-" + suffix
    entries = service.since(mark)
    assert any(e["method"] == "PATCH" and e["path"] == "/api/v2/hosts/%d/" % host["id"] for e in entries)
    assert all(e["status"] < 400 for e in entries), [e for e in entries if e["status"] >= 400]
