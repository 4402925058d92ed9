"""Reads shared by the items of a loop (the loop_reads option), in exact counts taken on the server.

Real ``ansible-playbook`` runs against the reference service; its request log says what each run sent.
The rule (docs/docsite/rst/guide_performance.rst): the third look-up of one scope that nothing held
answers reads the list's first page (200 objects), and the whole list is read once its pages are no more
than the look-ups counted so far.
"""

import math
import uuid
from urllib.parse import parse_qs

import pytest

from .test_request_counts import HOST_LIST, Runner, summary
from .playbook import collection_tree

PAGE = 200
# Hosts in the big inventory: more pages (five) than a loop of three looks up.
BIG = 1000


@pytest.fixture(scope="module")
def collections_path(tmp_path_factory):
    return collection_tree(tmp_path_factory.mktemp("collections"))


@pytest.fixture(scope="module")
def token(svc):
    status, data = svc.admin_request("POST", "/api/v2/tokens/", {"description": "loop reads", "scope": "write"})
    assert status == 201, data
    return data["token"]


@pytest.fixture
def runner(svc, collections_path, tmp_path):
    return Runner(svc, collections_path, tmp_path)


@pytest.fixture(scope="module")
def big(svc):
    """An inventory of BIG hosts (five pages), made once for the module."""
    svc.manage("bench_seed", "--inventory", "loop-big", "--hosts", str(BIG), "--prefix", "loop-big-")
    return "loop-big", ["loop-big-%03d" % i for i in range(BIG)]


def small(svc, count=20):
    """A new inventory of ``count`` hosts (one page)."""
    name = "loop-" + uuid.uuid4().hex[:8]
    svc.manage("bench_seed", "--inventory", name, "--hosts", str(count), "--prefix", name + "-")
    width = len(str(count - 1))
    return name, ["%s-%0*d" % (name, width, i) for i in range(count)]


def host_loop(inventory, names, **options):
    task = {"name": "Hosts", "automation.service.host": dict(
        {"name": "{{ item }}", "inventory": inventory, "description": ""}, **options), "loop": names}
    return task


def page_size(entry):
    return parse_qs(entry.get("query", "")).get("page_size", [None])[0]


def host_list_reads(entries):
    return [e for e in entries if e["method"] == "GET" and e["path"] == HOST_LIST and page_size(e) == str(PAGE)]


def single_reads(entries):
    return [e for e in entries if e["method"] == "GET" and e["path"] == HOST_LIST and page_size(e) == "2"]


def host_of(svc, inventory, name):
    status, page = svc.admin_request("GET", "/api/v2/hosts/?inventory__name=%s&name=%s" % (inventory, name))
    assert status == 200 and page["count"] == 1, page
    return page["results"][0]


def test_an_unchanged_loop_over_hundreds_of_hosts_reads_their_list_once(runner, big, token):
    inventory, names = big
    # 300 of the 1,000: the whole list is read, as for all of them
    entries = runner.play([host_loop(inventory, names[:300])], runner.env("token", token))
    print("300 unchanged hosts of %d in a loop: %d requests: %s" % (BIG, len(entries), summary(entries)))
    assert len(entries) <= 20, summary(entries)
    assert all(e["method"] == "GET" and e["status"] == 200 for e in entries), summary(entries)
    # two look-ups, the probe (the first page, which says how many, and answers the hosts it holds), two
    # look-ups more at most, then the five pages
    assert len(single_reads(entries)) <= 4, summary(entries)
    assert len(host_list_reads(entries)) == 1 + math.ceil(BIG / float(PAGE)), summary(entries)
    assert len(entries) == len(single_reads(entries)) + len(host_list_reads(entries))


def test_an_async_loop_over_twenty_hosts_reads_their_list_in_the_worker(runner, big, token):
    inventory, names = big
    # more look-ups than the list has pages (five), all past its first page
    wanted = names[300:320]
    tasks = [
        dict(host_loop(inventory, wanted), register="jobs", **{"async": 600, "poll": 0}),
        {"name": "Wait", "ansible.builtin.async_status": {"jid": "{{ item.ansible_job_id }}"},
         "loop": "{{ jobs.results }}", "register": "done", "until": "done.finished", "retries": 300, "delay": 1},
        {"name": "None changed", "ansible.builtin.assert": {
            "that": ["done.results | map(attribute='changed') | select | list | length == 0",
                     "done.results | map(attribute='failed') | select | list | length == 0"]}},
    ]
    entries = runner.play(tasks, runner.env("token", token))
    print("20 unchanged hosts in an async loop: %d requests: %s" % (len(entries), summary(entries)))
    # fewer requests than one look-up per host
    assert len(entries) <= 15, summary(entries)
    assert all(e["method"] == "GET" and e["status"] == 200 for e in entries), summary(entries)
    assert len(host_list_reads(entries)) == 1 + math.ceil(BIG / float(PAGE)), summary(entries)


def test_a_loop_of_three_in_a_big_inventory_reads_no_list(runner, big, token):
    inventory, names = big
    # hosts past the first page: the probe (one page of 200, never the five) answers none of them
    entries = runner.play([host_loop(inventory, names[500:503])], runner.env("token", token))
    print("3 unchanged hosts of %d: %d requests: %s" % (BIG, len(entries), summary(entries)))
    assert len(host_list_reads(entries)) == 1 and len(single_reads(entries)) == 3, summary(entries)
    assert len(entries) == 4, summary(entries)
    # hosts of the first page: the probe answers the third
    entries = runner.play([host_loop(inventory, names[10:13])], runner.env("token", token))
    assert len(host_list_reads(entries)) == 1 and len(single_reads(entries)) == 2, summary(entries)
    assert len(entries) == 3, summary(entries)


def test_loop_reads_off_reads_each_host_by_name(runner, svc, token):
    inventory, names = small(svc)
    shared = runner.play([host_loop(inventory, names)], runner.env("token", token))
    assert len(single_reads(shared)) == 2 and len(host_list_reads(shared)) == 1 and len(shared) == 3, summary(shared)

    env = dict(runner.env("token", token), SERVICE_LOOP_READS="false")
    alone = runner.play([host_loop(inventory, names)], env)
    assert len(single_reads(alone)) == 20 and len(alone) == 20, summary(alone)
    option = runner.play([host_loop(inventory, names, loop_reads=False)], runner.env("token", token))
    assert len(single_reads(option)) == 20 and len(option) == 20, summary(option)


def test_a_change_made_between_two_plays_is_made_again(runner, svc, token):
    inventory, names = small(svc)
    env = runner.env("token", token)
    first = runner.play([host_loop(inventory, names)], env)
    assert host_list_reads(first) and all(e["method"] == "GET" for e in first), summary(first)

    # Behind the loop's back: the next play reads it again and puts it back.
    target = host_of(svc, inventory, names[12])
    status, _ = svc.admin_request("PATCH", "/api/v2/hosts/%d/" % target["id"], {"description": "changed elsewhere"})
    assert status == 200
    second = runner.play([host_loop(inventory, names)], env)
    patches = [e for e in second if e["method"] == "PATCH"]
    assert [e["path"] for e in patches] == ["/api/v2/hosts/%d/" % target["id"]], summary(second)
    assert host_of(svc, inventory, names[12])["description"] == ""


def test_a_change_made_during_the_loop_stands_until_the_next_play(runner, svc, token):
    """The guide's words: what the loop read stands for the rest of the loop; the loop's own writes update
    it; a change made elsewhere after the loop read a host is seen by the next play."""
    inventory, names = small(svc)
    env = runner.env("session")
    items = [{"name": n} for n in names[:6]]
    # elsewhere: other credentials (another client of the service) change host 8 after the list was read
    items.append({"name": names[8], "description": "edited during the loop", "token": token})
    # the loop itself changes host 9, then asks for it as it now is
    items.append({"name": names[9], "description": "the loop's own"})
    items += [{"name": n} for n in names[7:9]]
    items.append({"name": names[9], "description": "the loop's own"})
    task = {"name": "Hosts", "register": "applied", "loop": items, "automation.service.host": {
        "name": "{{ item.name }}", "inventory": inventory, "description": "{{ item.description | default('') }}",
        "service_auth": "{{ 'token' if item.token is defined else omit }}",
        "service_token": "{{ item.token | default(omit) }}"}}
    check = {"name": "What each item said", "ansible.builtin.assert": {"that": [
        "applied.results | map(attribute='changed') | list == [false] * 6 + [true, true, false, false, false]"]}}
    entries = runner.play([task, check], env)
    target = host_of(svc, inventory, names[8])
    assert target["description"] == "edited during the loop"
    # host 8, asked for by the loop's credentials after the edit, was answered from the list read before it:
    # reported ok, nothing sent for it.
    assert not [e for e in entries if e["method"] == "PATCH" and e["path"] == "/api/v2/hosts/%d/" % target["id"]
                and e.get("auth") != "bearer"], summary(entries)
    # the loop's own write is held: host 9 asked again costs nothing and is ok
    ninth = host_of(svc, inventory, names[9])
    assert ninth["description"] == "the loop's own"
    assert len([e for e in entries if e["method"] == "PATCH"]) == 2, summary(entries)

    # The next play reads the list again and sees the edit.
    second = runner.play([host_loop(inventory, names[:10])], env)
    assert [e["path"] for e in second if e["method"] == "PATCH"] == \
        ["/api/v2/hosts/%d/" % target["id"], "/api/v2/hosts/%d/" % ninth["id"]], summary(second)
