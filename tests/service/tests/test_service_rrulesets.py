"""Rule sets with a naive UNTIL in a rule after the first: the real service reads
each rule's naive UNTIL in DTSTART's zone (Schedule.coerce_naive_until works
rule by rule), so such a set is accepted and ends where that zone says."""
import uuid

import pytest

from service_api import call


@pytest.fixture(scope="module")
def source(service):
    inv = call(service, "POST", "inventories/", json={"name": "rrset-%s" % uuid.uuid4().hex[:8], "organization": 1}).json()
    r = call(service, "POST", "inventory_sources/", json={"name": "rrset-src", "inventory": inv["id"], "source": "ec2"})
    assert r.status_code == 201, r.text
    return r.json()["id"]


@pytest.mark.parametrize("rrule, dtend", [
    # the second rule's naive UNTIL is 2030-01-31 00:00 in Paris; its last Saturday, the 26th at 00:00 there
    ("DTSTART;TZID=Europe/Paris:20300101T000000 RRULE:FREQ=MONTHLY;BYMONTHDAY=1;INTERVAL=1;COUNT=1"
     " RRULE:FREQ=WEEKLY;BYDAY=SA;INTERVAL=1;UNTIL=20300131T000000", "2030-01-25T23:00:00Z"),
    # an excluded rule with a naive UNTIL
    ("DTSTART;TZID=UTC:20300101T103000 RRULE:FREQ=DAILY;INTERVAL=1;COUNT=10"
     " EXRULE:FREQ=DAILY;BYDAY=SU;INTERVAL=1;UNTIL=20300201T000000", "2030-01-10T10:30:00Z"),
])
def test_a_naive_until_in_any_rule_is_read_in_the_start_zone(service, source, rrule, dtend):
    r = call(service, "POST", "schedules/", json={"name": "rrset-%s" % uuid.uuid4().hex[:8], "rrule": rrule,
                                                  "unified_job_template": source})
    assert r.status_code == 201, r.text
    assert r.json()["dtend"] == dtend
    assert call(service, "DELETE", "schedules/%d/" % r.json()["id"]).status_code == 204


def test_a_set_with_an_endless_rule_has_no_end(service, source):
    """One rule ends, the other does not: no dtend (the real service's
    get_end_date), rather than iterating the endless rule."""
    rrule = ("DTSTART;TZID=Europe/Paris:20300101T000000 RRULE:FREQ=MONTHLY;UNTIL=20310101T000000;BYMONTHDAY=1,15;INTERVAL=1"
             " RRULE:FREQ=WEEKLY;INTERVAL=2;BYSETPOS=-1;BYDAY=SA")
    r = call(service, "POST", "schedules/", json={"name": "rrset-%s" % uuid.uuid4().hex[:8], "rrule": rrule,
                                                  "unified_job_template": source})
    assert r.status_code == 201, r.text
    assert r.json()["dtend"] is None
    assert r.json()["dtstart"] == "2029-12-31T23:00:00Z"
    assert call(service, "DELETE", "schedules/%d/" % r.json()["id"]).status_code == 204


def test_schedules_filter_on_their_unified_job_template(service, source):
    """awx.awx looks a schedule up with ?unified_job_template=<id>: the real service's column."""
    other = call(service, "POST", "inventory_sources/", json={"name": "rrset-other-%s" % uuid.uuid4().hex[:8],
                                                               "inventory": call(service, "GET", "inventory_sources/%d/" % source).json()["inventory"],
                                                               "source": "ec2"}).json()["id"]
    rrule = "DTSTART;TZID=UTC:20300101T103000 RRULE:FREQ=DAILY;INTERVAL=1;COUNT=1"
    name = "rrset-%s" % uuid.uuid4().hex[:8]
    made = [call(service, "POST", "schedules/", json={"name": name, "rrule": rrule, "unified_job_template": ujt}).json()["id"]
            for ujt in (source, other)]
    found = call(service, "GET", "schedules/", params={"name": name, "unified_job_template": other}).json()
    assert [row["id"] for row in found["results"]] == [made[1]]
    by_name = call(service, "GET", "schedules/", params={"name": name, "unified_job_template__name__startswith": "rrset-other-"}).json()
    assert [row["id"] for row in by_name["results"]] == [made[1]]
    for pk in made:
        assert call(service, "DELETE", "schedules/%d/" % pk).status_code == 204
