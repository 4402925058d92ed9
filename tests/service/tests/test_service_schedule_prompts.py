"""Schedules as saved launch configurations: the prompts a job template allows (scm_branch, diff_mode, ...),
and the credentials and labels a schedule gives its template."""

import pytest

from service_api import call, created, unique

RRULE = "DTSTART;TZID=UTC:20300101T120000 RRULE:FREQ=DAILY;INTERVAL=1;COUNT=3"


def credential_type(service, namespace):
    return [t for t in call(service, "GET", "credential_types/?page_size=200").json()["results"] if t["namespace"] == namespace][0]


@pytest.fixture(scope="module")
def demo(service):
    return call(service, "GET", "projects/?name=Demo+Project").json()["results"][0]


@pytest.fixture(scope="module")
def inventory(service):
    return created(service, "inventories/", {"name": unique("inv"), "organization": 1})


def template(service, demo, inventory, **flags):
    return created(service, "job_templates/", dict({"name": unique("jt"), "project": demo["id"], "playbook": "hello.yml",
                                                    "inventory": inventory["id"]}, **flags))


def test_prompts_follow_the_template_flags(service, demo, inventory):
    closed = template(service, demo, inventory)
    body = {"name": unique("s"), "rrule": RRULE, "scm_branch": "dev", "diff_mode": True}
    r = call(service, "POST", "job_templates/%d/schedules/" % closed["id"], json=body)
    assert r.status_code == 400
    assert r.json() == {"scm_branch": ["Field is not configured to prompt on launch."],
                        "diff_mode": ["Field is not configured to prompt on launch."]}
    open_jt = template(service, demo, inventory, ask_scm_branch_on_launch=True, ask_diff_mode_on_launch=True)
    sch = created(service, "job_templates/%d/schedules/" % open_jt["id"], body)
    assert sch["scm_branch"] == "dev" and sch["diff_mode"] is True


def test_schedule_credentials(service, demo, inventory):
    machine = credential_type(service, "ssh")
    cred = created(service, "credentials/", {"name": unique("c"), "credential_type": machine["id"], "organization": 1})
    other = created(service, "credentials/", {"name": unique("c"), "credential_type": machine["id"], "organization": 1})
    closed = template(service, demo, inventory)
    sch = created(service, "job_templates/%d/schedules/" % closed["id"], {"name": unique("s"), "rrule": RRULE})
    r = call(service, "POST", "schedules/%d/credentials/" % sch["id"], json={"id": cred["id"]})
    assert r.status_code == 400
    assert r.json() == {"msg": "Related template is not configured to accept credentials on launch."}
    open_jt = template(service, demo, inventory, ask_credential_on_launch=True)
    sch = created(service, "job_templates/%d/schedules/" % open_jt["id"], {"name": unique("s"), "rrule": RRULE})
    path = "schedules/%d/credentials/" % sch["id"]
    assert call(service, "POST", path, json={"id": cred["id"]}).status_code == 204
    assert [c["id"] for c in call(service, "GET", path).json()["results"]] == [cred["id"]]
    r = call(service, "POST", path, json={"id": other["id"]})
    assert r.json() == {"msg": "This launch configuration already provides a Machine credential."}
    assert call(service, "POST", path, json={"id": cred["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", path).json()["count"] == 0
    detail = call(service, "GET", "schedules/%d/" % sch["id"]).json()
    assert detail["related"]["credentials"].endswith(path)


def test_schedule_credentials_of_a_source_refused(service, inventory):
    source = created(service, "inventory_sources/", {"name": unique("src"), "inventory": inventory["id"], "source": "ec2"})
    sch = created(service, "inventory_sources/%d/schedules/" % source["id"], {"name": unique("s"), "rrule": RRULE})
    machine = credential_type(service, "ssh")
    cred = created(service, "credentials/", {"name": unique("c"), "credential_type": machine["id"], "organization": 1})
    r = call(service, "POST", "schedules/%d/credentials/" % sch["id"], json={"id": cred["id"]})
    assert r.json() == {"msg": "Related template cannot accept credentials on launch."}


def test_schedule_labels(service, demo, inventory):
    jt = template(service, demo, inventory)
    sch = created(service, "job_templates/%d/schedules/" % jt["id"], {"name": unique("s"), "rrule": RRULE})
    label = created(service, "labels/", {"name": unique("l"), "organization": 1})
    path = "schedules/%d/labels/" % sch["id"]
    assert call(service, "POST", path, json={"id": label["id"]}).status_code == 204
    assert [item["name"] for item in call(service, "GET", path).json()["results"]] == [label["name"]]
    # Observed on AWX 24.6.1 (ScheduleSerializer.get_summary_fields): a schedule's summary has no labels or credentials.
    summary = call(service, "GET", "schedules/%d/" % sch["id"]).json()["summary_fields"]
    assert "labels" not in summary and "credentials" not in summary
    assert call(service, "POST", path, json={"id": label["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", path).json()["count"] == 0


def test_naive_until_is_stored_in_utc(service, demo, inventory):
    jt = template(service, demo, inventory)
    rrule = "DTSTART;TZID=America/New_York:20300601T120000 RRULE:FREQ=DAILY;INTERVAL=1;UNTIL=20300605T170000"
    sch = created(service, "job_templates/%d/schedules/" % jt["id"], {"name": unique("s"), "rrule": rrule})
    assert sch["rrule"] == "DTSTART;TZID=America/New_York:20300601T120000 RRULE:FREQ=DAILY;INTERVAL=1;UNTIL=20300605T210000Z"
    assert sch["until"] == "2030-06-05T17:00:00" and sch["dtend"] == "2030-06-05T16:00:00Z"
    zulu = "DTSTART:20300601T120000Z RRULE:FREQ=DAILY;INTERVAL=1;UNTIL=20300605T170000Z"
    r = call(service, "PATCH", "schedules/%d/" % sch["id"], json={"rrule": zulu})
    assert r.status_code == 200 and r.json()["rrule"] == zulu


def test_hourly_rule_started_long_ago_is_accepted(service, demo, inventory):
    jt = template(service, demo, inventory)
    rrule = "DTSTART:20100101T000000Z RRULE:FREQ=MINUTELY;INTERVAL=5"
    sch = created(service, "job_templates/%d/schedules/" % jt["id"], {"name": unique("s"), "rrule": rrule})
    assert sch["rrule"] == rrule and sch["next_run"] is not None


def test_workflow_schedules(service, inventory):
    wfjt = created(service, "workflow_job_templates/", {"name": unique("wf"), "organization": 1, "ask_limit_on_launch": True})
    body = {"name": unique("s"), "rrule": RRULE, "limit": "web"}
    sch = created(service, "workflow_job_templates/%d/schedules/" % wfjt["id"], body)
    assert sch["unified_job_template"] == wfjt["id"] and sch["limit"] == "web"
    assert sch["summary_fields"]["unified_job_template"]["unified_job_type"] == "workflow_job"
    assert sch["related"]["unified_job_template"] == "/api/v2/workflow_job_templates/%d/" % wfjt["id"]
    listed = call(service, "GET", "workflow_job_templates/%d/schedules/?name=%s" % (wfjt["id"], body["name"])).json()
    assert [s["id"] for s in listed["results"]] == [sch["id"]]
    r = call(service, "POST", "workflow_job_templates/%d/schedules/" % wfjt["id"],
             json={"name": unique("s"), "rrule": RRULE, "verbosity": 1, "job_tags": "a"})
    assert r.status_code == 400
    assert r.json() == {"verbosity": ["Field is not configured to prompt on launch."],
                        "job_tags": ["Field is not configured to prompt on launch."]}
    machine = credential_type(service, "ssh")
    cred = created(service, "credentials/", {"name": unique("c"), "credential_type": machine["id"], "organization": 1})
    r = call(service, "POST", "schedules/%d/credentials/" % sch["id"], json={"id": cred["id"]})
    assert r.json() == {"msg": "Related template cannot accept credentials on launch."}
    # by id through schedules/ as well
    other = created(service, "schedules/", {"name": unique("s"), "rrule": RRULE, "unified_job_template": wfjt["id"]})
    assert other["summary_fields"]["unified_job_template"]["id"] == wfjt["id"]
    assert call(service, "DELETE", "workflow_job_templates/%d/" % wfjt["id"]).status_code in (202, 204)
    assert call(service, "GET", "schedules/%d/" % sch["id"]).status_code == 404


def test_schedule_instance_groups(service, demo, inventory):
    jt = template(service, demo, inventory)
    sch = created(service, "job_templates/%d/schedules/" % jt["id"], {"name": unique("s"), "rrule": RRULE})
    group = call(service, "GET", "instance_groups/?name=default").json()["results"][0]
    path = "schedules/%d/instance_groups/" % sch["id"]
    assert call(service, "POST", path, json={"id": group["id"]}).status_code == 204
    assert [g["name"] for g in call(service, "GET", path).json()["results"]] == ["default"]
    assert call(service, "POST", path, json={"id": group["id"], "disassociate": True}).status_code == 204
    assert call(service, "GET", path).json()["count"] == 0
