"""Async tasks on the controller against the reference service: a loop of async items
runs its jobs side by side, never more requests in flight at once than
max_requests_in_flight allows (the service's own request log says how many it
served at once), and a launch in an async job is still sent once. Real
ansible-playbook, real service, real faults (its fault middleware); nothing is mocked."""

import json
import os
import time
import uuid

import pytest

from ...playbook import run_playbook, service_defaults

ITEMS = 12
DELAY = 0.6  # seconds the service takes for each GET of /api/v2/hosts/


@pytest.fixture(scope='module')
def inventory(svc):
    name = 'inflight-' + uuid.uuid4().hex[:8]
    status, body = svc.admin_request('POST', '/api/v2/inventories/', {'name': name, 'organization': 1})
    assert status == 201, body
    for i in range(ITEMS):
        assert svc.admin_request('POST', '/api/v2/hosts/', {'name': '%s-%d' % (name, i), 'inventory': body['id']})[0] == 201
    return name


def most_at_once(entries):
    """The most requests the service was serving at one time (each entry: start and duration)."""
    edges = sorted([(e['t'], 1) for e in entries] + [(e['t'] + e['duration'], -1) for e in entries],
                   key=lambda edge: (edge[0], edge[1]))
    most = now = 0
    for _t, step in edges:
        now += step
        most = max(most, now)
    return most


def wait_for_jobs(directory, count):
    """The play ended before its jobs: wait until each job file holds a result; the results."""
    deadline = time.time() + 120
    while time.time() < deadline:
        results = []
        # a job writes its result to a hidden temporary file, then renames it over its job file
        for name in [n for n in os.listdir(directory) if not n.startswith('.')]:
            with open(os.path.join(directory, name)) as handle:
                results.append(json.load(handle))
        if len(results) == count and not any('started' in result for result in results):
            return results
        time.sleep(0.2)
    raise AssertionError('the jobs did not end')


def async_loop(svc, tmp_path, inventory, limit, wait=True):
    """ITEMS unchanged host tasks as async jobs (poll 0), then async_status until each finished (or, without
    ``wait``, the play ends at once and the test reads the job files)."""
    jobs = str(tmp_path / 'jobs')
    tasks = [
        {'name': 'Hosts', 'automation.service.host': {'name': '%s-{{ item }}' % inventory, 'inventory': inventory},
         'loop': '{{ range(%d) | list }}' % ITEMS, 'async': 300, 'poll': 0, 'register': 'jobs',
         'vars': {'ansible_async_dir': jobs}},
    ]
    if wait:
        tasks += [
            {'name': 'Wait', 'ansible.builtin.async_status': {'jid': '{{ item.ansible_job_id }}'},
             'loop': '{{ jobs.results }}', 'register': 'done', 'until': 'done is finished', 'retries': 60, 'delay': 1,
             'vars': {'ansible_async_dir': jobs}},
            {'name': 'All unchanged', 'ansible.builtin.assert': {'that': [
                "done.results | select('changed') | list | length == 0",
                "done.results | map(attribute='host.name') | list | length == %d" % ITEMS]}},
        ]
    # Each job sends its own look-up (loop_reads off): what is measured is how many are in flight at once.
    defaults = service_defaults(svc, service_username=svc.admin_username, service_password=svc.admin_password,
                                max_requests_in_flight=limit, loop_reads=False)
    svc.set_faults({'fault': 'delay', 'seconds': DELAY, 'path': '/api/v2/hosts/', 'method': 'GET'})
    mark = svc.mark()
    try:
        rc, output = run_playbook(tmp_path, tasks, module_defaults=defaults)
        assert rc == 0, output
        if not wait:
            results = wait_for_jobs(jobs, ITEMS)
            assert [(bool(r.get('failed')), r.get('changed')) for r in results] == [(False, False)] * ITEMS, results
    finally:
        svc.set_faults()
    return [e for e in svc.since(mark) if e['path'] == '/api/v2/hosts/' and e['method'] == 'GET']


def test_the_bound_holds_across_the_jobs_of_a_loop(svc, tmp_path, inventory):
    gets = async_loop(svc, tmp_path, inventory, 2)
    assert len(gets) == ITEMS
    assert most_at_once(gets) == 2  # side by side, never more than two


def test_the_bound_holds_for_jobs_that_outlive_the_play(svc, tmp_path, inventory):
    """Jobs still running when ansible-playbook has ended (and removed its temporary directory) keep to the bound."""
    gets = async_loop(svc, tmp_path, inventory, 2, wait=False)
    assert len(gets) == ITEMS
    assert most_at_once(gets) == 2


def test_without_a_bound_the_jobs_run_wider(svc, tmp_path, inventory):
    """What the bound prevents: the same loop with max_requests_in_flight 0 has more requests in flight."""
    gets = async_loop(svc, tmp_path, inventory, 0)
    assert len(gets) == ITEMS
    assert most_at_once(gets) > 2


def test_a_launch_in_an_async_job_is_sent_once(svc, tmp_path):
    """An async launch whose POST meets a 503 fails and is not sent again (the service may have
    processed it); one that meets a 429 is sent again, once."""
    name = 'inflight-launch-' + uuid.uuid4().hex[:8]
    status, inv = svc.admin_request('POST', '/api/v2/inventories/', {'name': name, 'organization': 1})
    assert status == 201
    status, projects = svc.admin_request('GET', '/api/v2/projects/?name=Demo+Project')
    body = {'name': name, 'inventory': inv['id'], 'project': projects['results'][0]['id'], 'playbook': 'hello.yml'}
    status, jt = svc.admin_request('POST', '/api/v2/job_templates/', body)
    assert status == 201, jt
    path = '/api/v2/job_templates/%d/launch/' % jt['id']
    defaults = service_defaults(svc, service_username=svc.admin_username, service_password=svc.admin_password)
    tasks = [
        {'name': 'Launch', 'automation.service.job_launch': {'job_template': name}, 'async': 60, 'poll': 1,
         'register': 'out', 'ignore_errors': True, 'vars': {'ansible_async_dir': str(tmp_path / 'jobs')}},
        {'name': 'Show', 'ansible.builtin.debug': {'msg': 'LAUNCH failed={{ out is failed }} id={{ out.id | default(0) }}'}},
    ]
    outcomes = {}
    for status in (503, 429):
        svc.set_faults({'fault': 'status', 'status': status, 'path': path, 'method': 'POST', 'times': 1})
        mark = svc.mark()
        try:
            rc, output = run_playbook(tmp_path, tasks, module_defaults=defaults)
        finally:
            svc.set_faults()
        assert rc == 0, output
        posts = [e['status'] for e in svc.since(mark) if e['method'] == 'POST' and e['path'] == path]
        outcomes[status] = (posts, 'LAUNCH failed=True' in output)
    assert outcomes[503] == ([503], True)
    assert outcomes[429] == ([429, 201], False)
