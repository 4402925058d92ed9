"""Hosts created by a plain loop in bulk (the loop_reads option; docs/docsite/rst/guide_performance.rst, "Loops:
hosts created in bulk"), in exact counts taken on the server.

Real ``ansible-playbook`` runs against the reference service; its request log says what each run sent.
"""

import uuid

import pytest

from .test_request_counts import HOST_LIST, Runner, summary
from .playbook import collection_tree

BULK = "/api/v2/bulk/host_create/"


@pytest.fixture(scope="module")
def collections_path(tmp_path_factory):
    return collection_tree(tmp_path_factory.mktemp("collections"))


@pytest.fixture(scope="module")
def token(svc):
    status, data = svc.admin_request("POST", "/api/v2/tokens/", {"description": "loop bulk", "scope": "write"})
    assert status == 201, data
    return data["token"]


class Said(Runner):
    """A Runner that keeps what the last run printed."""

    output = ""

    def play(self, tasks, env, **kwargs):
        import subprocess
        run = subprocess.run

        def keeping(*args, **options):
            result = run(*args, **options)
            self.output = result.stdout + result.stderr
            return result

        subprocess.run = keeping
        try:
            return super(Said, self).play(tasks, env, **kwargs)
        finally:
            subprocess.run = run


@pytest.fixture
def runner(svc, collections_path, tmp_path):
    return Said(svc, collections_path, tmp_path)


def unspaced(text):
    return "".join(text.split())


def said(runner):
    """What the last run printed, without the spaces and line breaks Ansible's display wraps warnings with."""
    return unspaced(runner.output)


def new_inventory(svc):
    name = "bulk-" + uuid.uuid4().hex[:8]
    status, data = svc.admin_request("GET", "/api/v2/organizations/?name=Default")
    status, data = svc.admin_request("POST", "/api/v2/inventories/", {"name": name, "organization": data["results"][0]["id"]})
    assert status == 201, data
    return name, data["id"]


def hosts_of(svc, inventory_id):
    hosts, url = {}, "/api/v2/inventories/%d/hosts/?page_size=200" % inventory_id
    while url:
        status, page = svc.admin_request("GET", url)
        assert status == 200, page
        hosts.update((h["name"], h) for h in page["results"])
        url = page["next"]
    return hosts


def host_loop(inventory, names, **extra):
    task = {"name": "Hosts", "register": "applied", "automation.service.host": {
        "name": "{{ item }}", "inventory": inventory, "description": "made by {{ item }}",
        "variables": {"index": "{{ item[-3:] }}"}}, "loop": names}
    task.update(extra)
    return task


def bulk_posts(entries):
    return [e for e in entries if e["method"] == "POST" and e["path"] == BULK]


def single_posts(entries):
    return [e for e in entries if e["method"] == "POST" and e["path"] == HOST_LIST]


def results_check(count_changed, count_failed=0, ids=True):
    that = ["applied.results | selectattr('changed') | list | length == %d" % count_changed,
            "applied.results | selectattr('failed') | list | length == %d" % count_failed]
    if ids:     # a check-mode create has no id
        that.append("applied.results | selectattr('changed') | map(attribute='id') | select('integer') | list | length == %d"
                    % count_changed)
    return {"name": "Each item's result", "ansible.builtin.assert": {"that": that}}


def ids_check():
    return {"name": "Each item's id is its host's", "ansible.builtin.assert": {"that": [
        "item.id == item.host.id and item.host.name == item.item and item.host.summary_fields is defined"],
        "quiet": True}, "loop": "{{ applied.results }}", "loop_control": {"label": "{{ item.item }}"}}


def test_hundreds_of_hosts_created_in_a_loop_cost_at_most_one_request_per_forty(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    count = 400
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(count)]
    env = runner.env("token", token)
    entries = runner.play([host_loop(inventory, names), results_check(count), ids_check()], env)
    print("%d new hosts in a loop: %d requests: %s" % (count, len(entries), summary(entries)[:30]))
    assert len(entries) <= count / 40, summary(entries)
    # the first item's look-up, its inventory, the first page of the inventory's hosts and of its groups, the
    # batches of 100, the hosts read back at 200 a request
    assert len(bulk_posts(entries)) == count / 100 and not single_posts(entries), summary(entries)
    reads_back = [e for e in entries if e["method"] == "GET" and e["path"] == HOST_LIST and "id__in" in e["query"]]
    assert len(reads_back) == count / 200 and len(entries) == 4 + count / 100 + count / 200, summary(entries)
    made = hosts_of(svc, inventory_id)
    assert sorted(made) == names
    assert made[names[7]]["description"] == "made by %s" % names[7]
    assert '"index": "007"' in made[names[7]]["variables"]

    again = runner.play([host_loop(inventory, names), results_check(0)], env)
    print("the same loop again: %d requests" % len(again))
    assert all(e["method"] == "GET" for e in again), summary(again)
    assert len(again) <= 10, summary(again)


def test_a_refused_batch_falls_back_to_single_writes(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(10)]
    names[4] = "x" * 600     # longer than the service takes: the batch is refused, naming this item
    task = host_loop(inventory, names, ignore_errors=True)
    check = {"name": "What each item said", "ansible.builtin.assert": {"that": [
        "applied.results | selectattr('changed') | list | length == 9",
        "applied.results[4].failed",
        "(applied.results[:4] + applied.results[5:]) | selectattr('failed') | list | length == 0",
    ]}}
    entries = runner.play([task, check], runner.env("token", token))
    assert [e["status"] for e in bulk_posts(entries)] == [400], summary(entries)
    assert sorted(e["status"] for e in single_posts(entries)) == [201] * 9 + [400], summary(entries)
    assert sorted(hosts_of(svc, inventory_id)) == sorted(n for n in names if len(n) < 600)
    # the item the service named is told why, once; the batch's refusal is said once
    assert said(runner).count(unspaced("The bulk creation of hosts refused host %s (name: Ensure this field has no more "
                                       "than 512 characters.)" % names[4])) == 1, runner.output[-3000:]
    assert said(runner).count(unspaced("The bulk creation of 10 hosts was refused")) == 1, runner.output[-3000:]


def test_check_mode_creates_nothing(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(20)]
    entries = runner.play([host_loop(inventory, names, check_mode=True), results_check(20, ids=False)], runner.env("token", token))
    assert all(e["method"] == "GET" for e in entries), summary(entries)
    assert hosts_of(svc, inventory_id) == {}


def test_when_is_kept_for_each_item(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(30)]
    skipped = names[3::4]
    task = host_loop(inventory, names, when="item not in skipped")
    check = {"name": "Skipped items", "ansible.builtin.assert": {"that": [
        "applied.results | selectattr('skipped', 'defined') | selectattr('skipped') | list | length == %d" % len(skipped),
        "applied.results | selectattr('changed') | list | length == %d" % (len(names) - len(skipped))]}}
    entries = runner.play([task, check], runner.env("token", token), extra_vars={"skipped": skipped})
    assert len(bulk_posts(entries)) == 1 and not single_posts(entries), summary(entries)
    assert sorted(hosts_of(svc, inventory_id)) == sorted(set(names) - set(skipped))


def test_hosts_that_exist_are_left_to_their_items(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(12)]
    first = runner.play([host_loop(inventory, names[::3]), results_check(4)], runner.env("token", token))
    assert len(bulk_posts(first)) == 1, summary(first)
    # the hosts made before are left as they are; a different description is an update of its own
    task = host_loop(inventory, names)
    task["automation.service.host"]["description"] = "{{ 'changed' if item == '%s' else 'made by ' + item }}" % names[3]
    entries = runner.play([task, results_check(9)], runner.env("token", token))
    assert len(bulk_posts(entries)) == 1 and not single_posts(entries), summary(entries)
    assert [e["path"] for e in entries if e["method"] == "PATCH"] == [
        "/api/v2/hosts/%d/" % hosts_of(svc, inventory_id)[names[3]]["id"]], summary(entries)
    assert sorted(hosts_of(svc, inventory_id)) == names


def test_loop_reads_off_writes_one_by_one(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(5)]
    entries = runner.play([host_loop(inventory, names), results_check(5)],
                          dict(runner.env("token", token), SERVICE_LOOP_READS="false"))
    assert not bulk_posts(entries) and len(single_posts(entries)) == 5, summary(entries)
    # per host: its look-up, its inventory's, the POST
    assert len(entries) == 15, summary(entries)


def test_a_task_not_in_a_loop_is_unchanged_in_one_request(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    task = {"name": "Host", "automation.service.host": {"name": "alone", "inventory": inventory}}
    env = runner.env("token", token)
    created = runner.play([task], env)
    assert not bulk_posts(created) and len(single_posts(created)) == 1, summary(created)
    unchanged = runner.play([task], env)
    assert len(unchanged) == 1 and unchanged[0]["method"] == "GET", summary(unchanged)


def test_a_batch_whose_answer_is_lost_is_settled_by_reading_the_inventory(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(150)]
    # the first batch is made, then the connection breaks instead of the answer
    svc.set_faults({"fault": "reset_after", "path": BULK, "method": "POST", "times": 1})
    try:
        entries = runner.play([host_loop(inventory, names), results_check(150), ids_check()], runner.env("token", token))
    finally:
        svc.set_faults()
    # never sent again: two batches (100 and 50), no single write
    assert len(bulk_posts(entries)) == 2 and not single_posts(entries), summary(entries)
    assert sorted(hosts_of(svc, inventory_id)) == names
    assert said(runner).count(unspaced("The answer to the bulk creation of 100 hosts was lost")) == 1, runner.output[-3000:]
    assert unspaced("the inventory holds 100 of them") in said(runner), runner.output[-3000:]


def test_a_smaller_limit_on_the_service_is_met_by_smaller_batches(runner, svc, token):
    status, data = svc.admin_request("PATCH", "/api/v2/settings/bulk/", {"BULK_HOST_MAX_CREATE": 40})
    assert status == 200, data
    try:
        inventory, inventory_id = new_inventory(svc)
        names = ["bulk-%s-%03d" % (inventory, i) for i in range(60)]
        entries = runner.play([host_loop(inventory, names), results_check(60)], runner.env("token", token))
    finally:
        svc.admin_request("PATCH", "/api/v2/settings/bulk/", {"BULK_HOST_MAX_CREATE": 100})
    # 60 refused (nothing made), then two halves of 30
    assert [e["status"] for e in bulk_posts(entries)] == [400, 201, 201], summary(entries)
    assert not single_posts(entries), summary(entries)
    assert sorted(hosts_of(svc, inventory_id)) == names


def test_items_a_batch_cannot_say_are_left_to_their_own_writes(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    other, other_id = new_inventory(svc)
    items = [{"name": "bulk-%s-%03d" % (inventory, i), "inventory": inventory} for i in range(10)]
    items.insert(3, {"name": "bulk-%s-other" % other, "inventory": other})          # another inventory
    items.insert(6, {"name": "bulk-%s-gone" % inventory, "inventory": inventory, "state": "absent"})
    items.insert(8, {"name": "4242", "inventory": inventory})                          # digits also name an id
    task = {"name": "Hosts", "register": "applied", "loop": items,
            "loop_control": {"index_var": "position", "extended": True},
            "automation.service.host": {"name": "{{ item.name }}", "inventory": "{{ item.inventory }}",
                                        "state": "{{ item.state | default('present') }}",
                                        "description": "{{ position }} of {{ ansible_loop.length }}"}}
    entries = runner.play([task, results_check(12)], runner.env("token", token))
    assert [e["status"] for e in bulk_posts(entries)] == [201], summary(entries)
    assert len(single_posts(entries)) == 2, summary(entries)
    made = hosts_of(svc, inventory_id)
    assert sorted(made) == sorted([i["name"] for i in items if i["inventory"] == inventory and "state" not in i])
    assert made[items[0]["name"]]["description"] == "0 of 13" and made["4242"]["description"] == "8 of 13"
    assert made[items[12]["name"]]["description"] == "12 of 13"
    assert sorted(hosts_of(svc, other_id)) == ["bulk-%s-other" % other]


def test_a_with_items_loop_writes_one_by_one(runner, svc, token):
    inventory, inventory_id = new_inventory(svc)
    names = ["bulk-%s-%03d" % (inventory, i) for i in range(5)]
    task = host_loop(inventory, names)
    del task["loop"]
    task["with_items"] = names
    entries = runner.play([task, results_check(5)], runner.env("token", token))
    assert not bulk_posts(entries) and len(single_posts(entries)) == 5, summary(entries)
