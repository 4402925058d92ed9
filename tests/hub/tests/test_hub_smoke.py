"""The real Automation Hub of the test bed (tests/hub/hubctl.py: galaxy-ng 4.9.2 from PyPI) answers.

make test's hub step runs it against the Hub it starts (tests/hub/run.sh); by hand, the ``hub`` fixture
(conftest.py) starts one:

    .venv/bin/python -m pytest -q -p no:cacheprovider tests/hub/tests/test_hub_smoke.py
"""
from pathlib import Path

import requests

from hub_helpers import GALAXY, get


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
    # the content app answers where the Hub sends downloads (HUB_CONTENT_URL, its CONTENT_ORIGIN)
    content = requests.get(hub["HUB_CONTENT_URL"] + "/pulp/content/", verify=hub["HUB_CA_PATH"], timeout=60)
    assert content.status_code == 200
