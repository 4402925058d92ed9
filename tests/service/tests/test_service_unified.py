"""/api/v2/unified_job_templates/ and named URLs.

Observed on AWX 24.6.1: the unified list holds inventory sources, job templates and
projects (and workflow job templates, approval templates) each as its own detail shows
it, ordered by name; ``type`` takes one kind or several separated by commas;
``organization`` of an inventory source is its inventory's; ``or__id``/``or__name`` as the
modules search. Named URLs (``projects/NAME++ORG/``, ``credentials/NAME++TYPE+KIND++ORG/``,
an empty part matching any) answer the object; a name that parses but names nothing answers
``{"detail": "No Project matches the given query."}`` (404) and 401 without credentials;
a job template is also found by its bare name. Read in the source
(awx/main/utils/named_url_graph.py, awx/main/middleware.py): the formats and their parsing.
"""
import urllib.parse

import pytest

from service_api import call, created, unique


@pytest.fixture(scope="module")
def world(service):
    org = created(service, "organizations/", {"name": unique("org-ujt")})
    inv = created(service, "inventories/", {"name": unique("inv"), "organization": org["id"]})
    tag = unique("ujt")
    project = created(service, "projects/", {"name": tag + "-b-proj", "organization": org["id"], "local_path": "demo"})
    jt = created(service, "job_templates/", {"name": tag + "-a-jt", "inventory": inv["id"], "project": project["id"],
                                             "playbook": "hello.yml"})
    src = created(service, "inventory_sources/", {"name": tag + "-c-src", "inventory": inv["id"], "source": "ec2"})
    wfjt = created(service, "workflow_job_templates/", {"name": tag + "-d-wf", "organization": org["id"]})
    return {"org": org, "inv": inv, "tag": tag, "project": project, "jt": jt, "src": src, "wfjt": wfjt}


def listed(service, query):
    r = call(service, "GET", "unified_job_templates/?" + query)
    assert r.status_code == 200, r.text
    return r.json()


def test_unified_list_holds_every_kind_by_name(service, world):
    data = listed(service, "name__startswith=" + world["tag"])
    assert data["count"] == 4
    assert [(r["type"], r["id"]) for r in data["results"]] == [
        ("job_template", world["jt"]["id"]), ("project", world["project"]["id"]),
        ("inventory_source", world["src"]["id"]), ("workflow_job_template", world["wfjt"]["id"])]
    # each is shown as its own detail shows it
    for item in data["results"]:
        detail = call(service, "GET", item["url"][len("/api/v2/"):]).json()
        assert set(item) == set(detail) and item["name"] == detail["name"]
    assert len({r["id"] for r in data["results"]}) == 4


def test_unified_list_filters_as_the_modules_search(service, world):
    tag, org = world["tag"], world["org"]["id"]
    data = listed(service, "name__startswith=%s&type=project,job_template" % tag)
    assert [r["type"] for r in data["results"]] == ["job_template", "project"]
    data = listed(service, "type=inventory_source&organization=%d" % org)
    assert [r["id"] for r in data["results"]] == [world["src"]["id"]]
    data = listed(service, urllib.parse.urlencode({"name": world["wfjt"]["name"], "organization": org}))
    assert [r["id"] for r in data["results"]] == [world["wfjt"]["id"]]
    data = listed(service, urllib.parse.urlencode({"or__id": world["jt"]["id"], "or__name": world["jt"]["id"]}))
    assert [r["id"] for r in data["results"]] == [world["jt"]["id"]]
    assert listed(service, "type=bogus")["count"] == 0
    data = listed(service, "name__startswith=%s&order_by=-id&page_size=1" % tag)
    assert data["count"] == 4 and data["results"][0]["id"] == world["wfjt"]["id"] and "page=2" in data["next"]


def test_unified_list_follows_names_and_deletions(service, world):
    tag = world["tag"]
    extra = created(service, "projects/", {"name": tag + "-e-proj", "organization": world["org"]["id"], "local_path": "demo"})
    assert call(service, "PATCH", "projects/%d/" % extra["id"], json={"name": tag + "-0-proj"}).status_code == 200
    assert listed(service, "name__startswith=" + tag)["results"][0]["id"] == extra["id"]
    assert call(service, "DELETE", "projects/%d/" % extra["id"]).status_code in (202, 204)
    assert listed(service, "name__startswith=" + tag)["count"] == 4


def test_named_urls(service, world):
    org_name = world["org"]["name"]
    r = call(service, "GET", "projects/%s++%s/" % (urllib.parse.quote(world["project"]["name"]), urllib.parse.quote(org_name)))
    assert r.status_code == 200 and r.json()["id"] == world["project"]["id"]
    r = call(service, "GET", "inventories/%s++%s/" % (world["inv"]["name"], org_name))
    assert r.status_code == 200 and r.json()["id"] == world["inv"]["id"]
    r = call(service, "GET", "inventory_sources/%s++%s++%s/" % (world["src"]["name"], world["inv"]["name"], org_name))
    assert r.status_code == 200 and r.json()["id"] == world["src"]["id"]
    r = call(service, "GET", "projects/%s++%s/playbooks/" % (world["project"]["name"], org_name))
    assert r.status_code == 200 and isinstance(r.json(), list)
    # the job template by its bare name too
    r = call(service, "GET", "job_templates/%s/" % world["jt"]["name"])
    assert r.status_code == 200 and r.json()["id"] == world["jt"]["id"]
    r = call(service, "GET", "projects/nothing-here++%s/" % org_name)
    assert r.status_code == 404 and r.json() == {"detail": "No Project matches the given query."}
    assert call(service, "GET", "projects/nothing-here++%s/" % org_name, auth=False).status_code == 401


def test_named_url_of_a_credential_with_an_empty_part(service, world):
    types = call(service, "GET", "credential_types/?namespace=ssh").json()["results"]
    cred = created(service, "credentials/", {"name": unique("cred"), "credential_type": types[0]["id"],
                                             "organization": world["org"]["id"], "inputs": {"username": "u"}})
    for named in ("%s++Machine+ssh++%s" % (cred["name"], world["org"]["name"]), "%s++Machine+ssh++" % cred["name"]):
        r = call(service, "GET", "credentials/%s/" % named)
        assert r.status_code == 200 and r.json()["id"] == cred["id"], named
