"""Requests of the Hub's tests to the Hub's own API as its administrator (not through the modules under test):
any method, lists of either family, exact look-ups, and the removal of what a test made under its prefix. The Hub
is conftest.py's ``hub`` fixture; hub_helpers.py has the rest (``get``, example runs)."""
import time

import requests

from hub_helpers import GALAXY

PULP = GALAXY + "pulp/api/v3/"
REMOTES = PULP + "remotes/ansible/collection/"
REPOSITORIES = PULP + "repositories/ansible/ansible/"
DISTRIBUTIONS = PULP + "distributions/ansible/ansible/"
REGISTRIES = GALAXY + "_ui/v1/execution-environments/registries/"
USERS = GALAXY + "_ui/v1/users/"
NAMESPACES = GALAXY + "v3/namespaces/"


def call(hub, method, path, data=None, expect=(200, 201, 202, 204)):
    """The Hub's answer to a request of its administrator (a 202's task waited for until it completed)."""
    url = path if path.startswith("http") else hub["HUB_URL"] + path
    # verify per request: REQUESTS_CA_BUNDLE would otherwise take the place of the Hub's CA
    response = requests.request(method, url, json=data, auth=(hub["HUB_USERNAME"], hub["HUB_PASSWORD"]),
                                verify=hub["HUB_CA_PATH"], timeout=60)
    assert response.status_code in expect, (method, path, response.status_code, response.text[:500])
    body = response.json() if response.content else None
    if response.status_code == 202 and isinstance(body, dict) and body.get("task"):
        deadline = time.time() + 120
        while True:
            task = call(hub, "GET", body["task"])
            if task["state"] in ("completed", "failed", "canceled", "skipped"):
                assert task["state"] == "completed", task
                break
            assert time.time() < deadline, task
            time.sleep(0.5)
    return body


def listed(hub, path):
    """The objects of one page of a list, galaxy's (``data``) or Pulp's (``results``)."""
    page = call(hub, "GET", path)
    return page.get("data") if isinstance(page.get("data"), list) else page["results"]


def one(hub, path, name, field="name"):
    """The object of the list at ``path`` named ``name`` exactly; None when there is none."""
    found = [obj for obj in listed(hub, "%s?%s=%s" % (path, field, name)) if obj[field] == name]
    assert len(found) <= 1, found
    return found[0] if found else None


def namespace(hub, name):
    """The namespace ``name`` (its detail: the list leaves out its links), None when there is none."""
    response = requests.get(hub["HUB_URL"] + NAMESPACES + "%s/" % name, auth=(hub["HUB_USERNAME"], hub["HUB_PASSWORD"]),
                            verify=hub["HUB_CA_PATH"], timeout=60)
    assert response.status_code in (200, 404), response.text[:300]
    return response.json() if response.status_code == 200 else None


def remove(hub, prefix):
    """Everything whose name starts with ``prefix``, gone (distributions first: they name the repositories). The
    names are compared here too: a filter the Hub did not take would list everything."""
    for path in (DISTRIBUTIONS, REPOSITORIES, REMOTES):
        for obj in listed(hub, path + "?name__startswith=%s&limit=100" % prefix):
            if obj["name"].startswith(prefix):
                call(hub, "DELETE", obj["pulp_href"])
    for obj in listed(hub, REGISTRIES + "?name__startswith=%s&limit=100" % prefix):
        if obj["name"].startswith(prefix):
            call(hub, "DELETE", REGISTRIES + "%s/" % obj["id"])
    for obj in listed(hub, USERS + "?username__startswith=%s&limit=100" % prefix):
        if obj["username"].startswith(prefix):
            if obj.get("is_superuser"):     # the Hub deletes no superuser
                call(hub, "PATCH", USERS + "%s/" % obj["id"], {"is_superuser": False})
            call(hub, "DELETE", USERS + "%s/" % obj["id"])
    for obj in listed(hub, NAMESPACES + "?keywords=%s&limit=100" % prefix):
        if obj["name"].startswith(prefix):
            call(hub, "DELETE", NAMESPACES + "%s/" % obj["name"])
