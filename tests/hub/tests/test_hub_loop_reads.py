"""The items of a loop share their look-ups on the real Hub (loop_reads, see plugins/module_utils/_loop_reads.py),
counted in the requests the Hub received: its API's access log (HUB_DIR/logs/api.log, gunicorn's), which the
playbook marks between its loops with a request of its own (``GET /api/galaxy/?loopmark=...``).

One ansible-playbook run: eight ah_group items made, the same eight again (nothing to change) with the loop's
shared reads, again with ``loop_reads: false``, then removed. With them, the first two items ask for their group by
name, the third reads the list of groups (one page of 100: it answers every item left); without them, each item
asks for its own.

    .venv/bin/python -m pytest -q -p no:cacheprovider tests/hub/tests/test_hub_loop_reads.py
"""
import re
import uuid
from pathlib import Path

from hub_helpers import run_example

PLAYBOOK = """
- hosts: localhost
  gather_facts: false
  vars:
    hub: "{{ lookup('env', 'HUB_URL') }}"
    names: "{{ range(8) | map('string') | map('regex_replace', '^', prefix + '-') | list }}"
  module_defaults:
    group/automation.service.hub:
      ah_host: "{{ hub }}"
      ah_username: "{{ lookup('env', 'HUB_USERNAME') }}"
      ah_password: "{{ lookup('env', 'HUB_PASSWORD') }}"
      ca_path: "{{ lookup('env', 'HUB_CA_PATH') }}"
    ansible.builtin.uri:
      url_username: "{{ lookup('env', 'HUB_USERNAME') }}"
      url_password: "{{ lookup('env', 'HUB_PASSWORD') }}"
      force_basic_auth: true
      ca_path: "{{ lookup('env', 'HUB_CA_PATH') }}"
  tasks:
    - block:
        - name: made
          automation.service.ah_group: {name: "{{ item }}"}
          loop: "{{ names }}"
          register: made
        - ansible.builtin.uri: {url: "{{ hub }}/api/galaxy/?loopmark={{ prefix }}-shared"}
        - name: again, sharing reads
          automation.service.ah_group: {name: "{{ item }}"}
          loop: "{{ names }}"
          register: shared
        - ansible.builtin.uri: {url: "{{ hub }}/api/galaxy/?loopmark={{ prefix }}-alone"}
        - name: again, each alone
          automation.service.ah_group: {name: "{{ item }}", loop_reads: false}
          loop: "{{ names }}"
          register: alone
        - ansible.builtin.uri: {url: "{{ hub }}/api/galaxy/?loopmark={{ prefix }}-end"}
        - ansible.builtin.assert:
            that:
              - made.results | map(attribute='changed') | list == [true] * 8
              - shared.results | map(attribute='changed') | list == [false] * 8
              - alone.results | map(attribute='changed') | list == [false] * 8
              - shared.results | map(attribute='id') | list == made.results | map(attribute='id') | list
              - alone.results | map(attribute='id') | list == made.results | map(attribute='id') | list
      always:
        - name: removed
          automation.service.ah_group: {name: "{{ item }}", state: absent}
          loop: "{{ names }}"
"""

GROUPS = re.compile(r'"GET /api/galaxy/pulp/api/v3/groups/\?(\S*) HTTP')


def group_reads(lines, prefix):
    """(look-ups of one of the test's groups by name, reads of the whole list) in ``lines`` of the access log."""
    singles = lists = 0
    for line in lines:
        found = GROUPS.search(line)
        if not found:
            continue
        if 'name=%s-' % prefix in found.group(1):
            singles += 1
        elif 'name' not in found.group(1):
            lists += 1
    return singles, lists


def test_a_loop_of_eight_groups_reads_their_list_once_instead_of_eight_look_ups(hub, tmp_path, monkeypatch):
    assert hub.get("HUB_DIR"), "the Hub's directory (HUB_DIR) is needed to read its access log"
    log = Path(hub["HUB_DIR"]) / "logs" / "api.log"
    monkeypatch.setenv("SERVICE_CACHE_DIR", str(tmp_path / "cache"))
    prefix = "loop" + uuid.uuid4().hex[:6]
    playbook = tmp_path / "loop.yml"
    playbook.write_text(PLAYBOOK)
    start = log.stat().st_size
    counts, statuses, output = run_example(hub, tmp_path, playbook, ["-e", "prefix=" + prefix])
    assert counts[2] == 0, output[-3000:]
    assert statuses["removed"] == {"changed"}, output[-3000:]
    with open(log, errors="replace") as text:
        text.seek(start)
        lines = text.read().splitlines()
    marks = dict((mark, next(i for i, line in enumerate(lines) if "loopmark=%s-%s " % (prefix, mark) in line))
                 for mark in ("shared", "alone", "end"))
    shared = group_reads(lines[marks["shared"]:marks["alone"]], prefix)
    alone = group_reads(lines[marks["alone"]:marks["end"]], prefix)
    # sharing: the first two items by name, the third reads the list (one page), which answers it and the rest
    assert shared == (2, 1), lines[marks["shared"]:marks["alone"]]
    # alone: one look-up by name per item, no list
    assert alone == (8, 0), lines[marks["alone"]:marks["end"]]
