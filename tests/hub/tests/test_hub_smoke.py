"""The real Automation Hub of the test bed (tests/hub/hubctl.py: galaxy-ng 4.9.2 from PyPI) answers.

Not collected by make test yet (tests/hub is in neither pytest.ini's testpaths nor the directories
make test names). Run it by hand:

    .venv/bin/python -m pytest -q -p no:cacheprovider tests/hub/tests/test_hub_smoke.py

It starts a Hub of its own in .run/hub-smoke and stops it at the end (about 20 s once the
Hub's virtualenv is in the machine's cache, a few minutes the first time), or, when HUB_URL is set
(with HUB_USERNAME, HUB_PASSWORD, HUB_CA_PATH, as `make hub-start` prints them), uses that one and
leaves it running.
"""
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import requests

HUBCTL = Path(__file__).resolve().parents[1] / "hubctl.py"
GALAXY = "/api/galaxy/"


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


@pytest.fixture(scope="module")
def hub():
    if os.environ.get("HUB_URL"):
        yield Hub((name, os.environ[name]) for name in ("HUB_URL", "HUB_USERNAME", "HUB_PASSWORD", "HUB_CA_PATH"))
        return
    # Under the repository's .run, not pytest's temporary directory: run as root, PostgreSQL runs as its
    # own user, which cannot enter pytest's private folders. Its database is kept for the next run.
    directory = HUBCTL.parents[2] / ".run" / "hub-smoke"
    started = subprocess.run([sys.executable, str(HUBCTL), "start", "--dir", str(directory)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # hubctl's own messages (stderr) never carry the password: only its export lines do.
        assert started.returncode == 0, started.stderr[-4000:]
        values = Hub(exports(started.stdout))
        assert values["HUB_PASSWORD"] not in started.stderr
        values["dir"] = directory
        yield values
    finally:
        subprocess.run([sys.executable, str(HUBCTL), "stop", "--dir", str(directory)], check=True)
        # nothing of the instance runs any more: no process names its directory, PostgreSQL is down
        assert not (directory / "pg" / "data" / "postmaster.pid").exists()
        left = subprocess.run(["pgrep", "-f", str(directory) + "/"], stdout=subprocess.PIPE, text=True).stdout
        assert left.strip() == "", "processes left running: %s" % left


def get(hub, path, auth=True, password=None, **kwargs):
    credentials = (hub["HUB_USERNAME"], password or hub["HUB_PASSWORD"]) if auth else None
    # verify per request: REQUESTS_CA_BUNDLE would otherwise take the place of the Hub's CA
    return requests.get(hub["HUB_URL"] + path, auth=credentials, verify=hub["HUB_CA_PATH"], timeout=60, **kwargs)


def test_exports_name_a_loopback_hub_over_tls(hub):
    assert hub["HUB_URL"].startswith("https://127.0.0.1:")
    assert hub["HUB_USERNAME"] == "admin"
    assert len(hub["HUB_PASSWORD"]) >= 16
    assert Path(hub["HUB_CA_PATH"]).read_text().startswith("-----BEGIN CERTIFICATE-----")


def test_api_root_names_galaxy_ng_4_9_and_its_versions(hub):
    answer = get(hub, GALAXY)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["galaxy_ng_version"] == "4.9.2"
    assert body["server_version"] == "4.9.2"
    assert body["pulp_core_version"].startswith("3.28.")
    assert body["available_versions"] == {"v3": "v3/", "pulp-v3": "pulp/api/v3/"}


def test_v3_root_sends_to_the_published_repository(hub):
    answer = get(hub, GALAXY + "v3/", allow_redirects=False)
    assert answer.status_code == 302
    assert answer.headers["Location"] == GALAXY + "v3/plugin/ansible/content/published/collections/"
    followed = get(hub, GALAXY + "v3/")
    assert followed.status_code == 200
    assert "published" in followed.json()


def test_the_administrator_is_a_superuser(hub):
    me = get(hub, GALAXY + "_ui/v1/me/")
    assert me.status_code == 200
    assert me.json()["username"] == hub["HUB_USERNAME"]
    assert me.json()["is_superuser"] is True


def test_credentials_are_required_and_checked(hub):
    """galaxy-ng 4.9 refuses with 403, not 401, both a request without credentials and a wrong password
    (its first authentication class is the session's, which sends no WWW-Authenticate), and says which
    in its own error format."""
    collections = GALAXY + "v3/plugin/ansible/content/published/collections/index/"
    assert get(hub, collections).status_code == 200
    for answer, code in ((get(hub, collections, auth=False), "not_authenticated"),
                         (get(hub, GALAXY, auth=False), "not_authenticated"),
                         (get(hub, collections, password="not-" + hub["HUB_PASSWORD"]), "authentication_failed")):
        assert answer.status_code == 403
        assert [error["code"] for error in answer.json()["errors"]] == [code]


def test_worker_and_content_app_are_online(hub):
    status = get(hub, GALAXY + "pulp/api/v3/status/")
    assert status.status_code == 200
    body = status.json()
    assert body["database_connection"]["connected"] is True
    assert len(body["online_workers"]) >= 1
    assert len(body["online_content_apps"]) >= 1
