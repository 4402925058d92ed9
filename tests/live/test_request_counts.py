"""The performance contract, in exact counts taken on the server (design section 4).

Real ``ansible-playbook`` runs against the reference service; the service logs
every request and counts every password verification. Only counts are
asserted: speed is measured by the benchmark (benchmarks/), never here.
"""

import json
import math
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from .playbook import collection_tree

ANSIBLE_PLAYBOOK = str(Path(sys.executable).parent / "ansible-playbook")
HOST_LIST = "/api/v2/hosts/"


@pytest.fixture(scope="module")
def collections_path(tmp_path_factory):
    return collection_tree(tmp_path_factory.mktemp("collections"))


@pytest.fixture(scope="module")
def token(svc):
    status, data = svc.admin_request("POST", "/api/v2/tokens/", {"description": "request counts", "scope": "write"})
    assert status == 201, data
    return data["token"]


@pytest.fixture(scope="module")
def inventory(svc):
    name = "counts-" + uuid.uuid4().hex[:8]
    status, data = svc.admin_request("GET", "/api/v2/organizations/?name=Default")
    status, data = svc.admin_request("POST", "/api/v2/inventories/", {"name": name, "organization": data["results"][0]["id"]})
    assert status == 201, data
    return name


class Runner:
    def __init__(self, svc, collections_path, tmp_path):
        self.svc = svc
        self.collections_path = collections_path
        self.tmp = tmp_path
        self.cache = tmp_path / "session-cache"

    def env(self, auth, token=None):
        env = dict((k, v) for k, v in os.environ.items()
                   if not k.startswith(("SERVICE_", "CONTROLLER_", "TOWER_", "ANSIBLE_")))
        env.update({
            "ANSIBLE_COLLECTIONS_PATH": str(self.collections_path),
            "ANSIBLE_LOCALHOST_WARNING": "false",
            "ANSIBLE_INVENTORY_UNPARSED_WARNING": "false",
            "ANSIBLE_RETRY_FILES_ENABLED": "false",
            "ANSIBLE_NOCOLOR": "1",
            "SERVICE_URL": self.svc.url,
            "SERVICE_CA_PATH": str(self.svc.ca_path),
            "SERVICE_CACHE_DIR": str(self.cache),
            "SERVICE_AUTH": auth,
        })
        if auth == "token":
            env["SERVICE_TOKEN"] = token
        else:
            env["SERVICE_USERNAME"] = self.svc.admin_username
            env["SERVICE_PASSWORD"] = self.svc.admin_password
        return env

    def play(self, tasks, env, hosts="localhost", inventory="localhost,", forks=None, extra_vars=None):
        """Run one play; return the service's log entries of that run."""
        playbook = self.tmp / ("play-%s.yml" % uuid.uuid4().hex[:8])
        playbook.write_text(json.dumps([{
            "name": "Request counts",
            "hosts": hosts,
            "connection": "local",
            "gather_facts": False,
            "vars": {"ansible_python_interpreter": "{{ ansible_playbook_python }}"},
            "tasks": tasks,
        }]))
        command = [ANSIBLE_PLAYBOOK, str(playbook), "-i", inventory]
        if forks:
            command += ["-f", str(forks)]
        if extra_vars:
            command += ["-e", json.dumps(extra_vars)]
        mark = self.svc.mark()
        result = subprocess.run(command, env=env, capture_output=True, text=True, cwd=str(self.tmp), timeout=600)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
        return self.svc.since(mark)


@pytest.fixture
def runner(svc, collections_path, tmp_path):
    return Runner(svc, collections_path, tmp_path)


def host_task(name, inventory, description):
    return {"name": "Host", "automation.service.host": {"name": name, "inventory": inventory, "description": description}}


def summary(entries):
    return [(e["method"], e["path"], e.get("query", "")) for e in entries]


@pytest.mark.parametrize("auth", ["session", "token"])
def test_unchanged_host_task_is_one_request_and_a_change_two(runner, inventory, token, auth):
    env = runner.env(auth, token)
    name = "counts-%s-%s" % (auth, uuid.uuid4().hex[:6])

    created = runner.play([host_task(name, inventory, "one")], env)
    posts = [e for e in created if e["method"] == "POST" and e["path"] == HOST_LIST]
    assert len(posts) == 1 and posts[0]["status"] == 201, summary(created)

    # The cache now holds the session (or there is the token): one filtered GET.
    unchanged = runner.play([host_task(name, inventory, "one")], env)
    assert summary(unchanged) == [("GET", HOST_LIST, unchanged[0]["query"])], summary(unchanged)
    assert "name=%s" % name in unchanged[0]["query"] and "inventory__name=%s" % inventory in unchanged[0]["query"]
    assert sum(e["password_checks"] for e in unchanged) == 0
    assert unchanged[0]["auth"] == ("bearer" if auth == "token" else "session")

    changed = runner.play([host_task(name, inventory, "two")], env)
    assert [(m, p) for m, p, _q in summary(changed)] == [("GET", HOST_LIST), ("PATCH", changed[1]["path"])], summary(changed)
    assert changed[1]["status"] == 200
    assert sum(e["password_checks"] for e in changed) == 0


def test_twenty_forks_over_forty_tasks_log_in_once(runner, svc, inventory):
    # two rounds of twenty tasks at once
    hosts = ["counts-fork-%03d" % i for i in range(40)]
    inventory_file = runner.tmp / "forks.ini"
    inventory_file.write_text("[forks]\n" + "\n".join("%s ansible_connection=local" % h for h in hosts) + "\n")
    task = {"name": "Host", "automation.service.host": {"name": "{{ inventory_hostname }}", "inventory": inventory}}
    entries = runner.play([task], runner.env("session"), hosts="all", inventory=str(inventory_file), forks=20)

    assert sum(1 for e in entries if e.get("login")) == 1
    assert sum(1 for e in entries if e["method"] == "POST" and e["path"] == "/api/login/") == 1
    assert sum(e["password_checks"] for e in entries) == 1
    assert sum(1 for e in entries if e["method"] == "POST" and e["path"] == HOST_LIST and e["status"] == 201) == len(hosts)
    assert all(e["status"] < 400 for e in entries), [e for e in entries if e["status"] >= 400][:5]


def test_unchanged_host_in_a_two_thousand_host_inventory_is_one_request(runner, svc, token):
    svc.manage("bench_seed", "--inventory", "counts-scale", "--hosts", "2000", "--prefix", "counts-scale-")
    entries = runner.play([host_task("counts-scale-1234", "counts-scale", "")], runner.env("token", token))
    assert summary(entries) == [("GET", HOST_LIST, entries[0]["query"])], summary(entries)
    assert "name=counts-scale-1234" in entries[0]["query"] and "inventory__name=counts-scale" in entries[0]["query"]


def test_lookup_reads_ten_thousand_objects_in_count_over_page_size_requests(runner, svc, token):
    svc.manage("bench_seed", "--inventory", "counts-lookup", "--hosts", "10000", "--prefix", "counts-lookup-")
    # The largest page size the service allows: ask for far more and see what it gives.
    status, page = svc.admin_request("GET", "/api/v2/hosts/?inventory__name=counts-lookup&page_size=100000")
    assert status == 200
    count, page_size = page["count"], len(page["results"])
    assert count == 10000

    tasks = [
        {"name": "Read them all", "ansible.builtin.set_fact": {
            "found": "{{ query('automation.service.api', 'hosts', query_params={'inventory__name': 'counts-lookup'},"
                     " return_all=true) | length }}"}},
        {"name": "All of them", "ansible.builtin.assert": {"that": ["found | int == %d" % count]}},
    ]
    entries = runner.play(tasks, runner.env("token", token))
    assert len(entries) == math.ceil(count / float(page_size)), summary(entries)[:3]
    assert all(e["method"] == "GET" and e["path"] == HOST_LIST for e in entries)
    assert all("page_size=%d" % page_size in e["query"] for e in entries), summary(entries)[:3]
