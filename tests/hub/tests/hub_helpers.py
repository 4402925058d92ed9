"""Helpers of the Hub's tests (tests/hub/tests): the Hub's export lines, requests to it, and ansible-playbook
runs of an example against it."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[3]
HUBCTL = ROOT / "tests" / "hub" / "hubctl.py"
GALAXY = "/api/galaxy/"
NAMES = ("HUB_URL", "HUB_CONTENT_URL", "HUB_USERNAME", "HUB_PASSWORD", "HUB_CA_PATH")

sys.path.insert(0, str(ROOT / "tests"))
from live.playbook import RECAP, collection_tree  # noqa: E402  (the live tests' collection tree and recap)


def exports(text: str) -> dict:
    """The NAME=VALUE of the `export` lines hubctl prints."""
    values = {}
    for line in text.splitlines():
        words = shlex.split(line)
        if len(words) == 2 and words[0] == "export" and "=" in words[1]:
            name, value = words[1].split("=", 1)
            values[name] = value
    return values


class Hub(dict):
    """The Hub's export values; shown without its password (pytest prints a failed test's arguments)."""

    def __repr__(self):
        return repr({name: ("<hidden>" if name == "HUB_PASSWORD" else value) for name, value in self.items()})


def get(hub, path, auth=True, password=None, **kwargs):
    credentials = (hub["HUB_USERNAME"], password or hub["HUB_PASSWORD"]) if auth else None
    # verify per request: REQUESTS_CA_BUNDLE would otherwise take the place of the Hub's CA
    return requests.get(hub["HUB_URL"] + path, auth=credentials, verify=hub["HUB_CA_PATH"], timeout=60, **kwargs)


TASK = re.compile(r"^TASK \[(?:[^\]:]+ : )?(.+?)\] \*+$")
STATUS = re.compile(r"^(ok|changed|skipping|failed|fatal): \[localhost\]")


def task_statuses(output: str) -> dict:
    """Each task's name, with the statuses its host lines had (of every item of a loop), from the default
    callback's output."""
    statuses, current = {}, None
    for line in output.splitlines():
        found = TASK.match(line)
        if found:
            current = found.group(1)
            statuses.setdefault(current, set())
            continue
        found = STATUS.match(line)
        if found and current is not None:
            statuses[current].add(found.group(1))
    return statuses


def run_example(hub, workdir, example, extra=()):
    """((ok, changed, failed), {task: statuses}, output) of a run of examples/``example`` against the Hub,
    which it reads from the HUB_* variables."""
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collection_tree(workdir), ANSIBLE_NOCOLOR="1",
               ANSIBLE_FORCE_COLOR="0", ANSIBLE_LOCALHOST_WARNING="0", ANSIBLE_INVENTORY_UNPARSED_WARNING="0",
               ANSIBLE_STDOUT_CALLBACK="default")
    env.update((name, str(hub[name])) for name in NAMES)
    command = [os.path.join(os.path.dirname(sys.executable), "ansible-playbook"),
               str(ROOT / "examples" / example)] + list(extra)
    result = subprocess.run(command, cwd=str(workdir), env=env, capture_output=True, text=True, timeout=900,
                            stdin=subprocess.DEVNULL)
    output = result.stdout + result.stderr
    found = RECAP.search(output)
    assert found, output
    ok, changed, unreachable, failed = (int(value) for value in found.groups())
    return (ok, changed, failed + unreachable), task_statuses(output), output
