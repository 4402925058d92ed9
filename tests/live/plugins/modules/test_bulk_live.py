"""The bulk modules against the reference service when their POST meets a fault: it is
sent once, and a connection broken after sending says how to find out what happened.
Faults are real (the service's fault middleware), nothing is mocked."""

import uuid

import pytest

from ...playbook import run_playbook, service_defaults


@pytest.fixture(scope='module')
def setup(svc):
    name = 'bulk-' + uuid.uuid4().hex[:8]
    status, inv = svc.admin_request('POST', '/api/v2/inventories/', {'name': name, 'organization': 1})
    assert status == 201
    assert svc.admin_request('POST', '/api/v2/hosts/', {'name': name + '-h1', 'inventory': inv['id']})[0] == 201
    status, projects = svc.admin_request('GET', '/api/v2/projects/?name=Demo+Project')
    body = {'name': name, 'inventory': inv['id'], 'project': projects['results'][0]['id'], 'playbook': 'hello.yml'}
    status, jt = svc.admin_request('POST', '/api/v2/job_templates/', body)
    assert status == 201, jt
    return {'inventory': inv, 'template': jt}


def run(svc, tmp_path, module, params, **task):
    task.update({'automation.service.%s' % module: params, 'register': 'out'})
    defaults = service_defaults(svc, service_username=svc.admin_username, service_password=svc.admin_password)
    return run_playbook(tmp_path, [task], module_defaults=defaults)


def posts(svc, mark, action):
    return [e for e in svc.since(mark) if e['method'] == 'POST' and e['path'] == '/api/v2/bulk/%s/' % action]


def count(svc, path):
    status, body = svc.admin_request('GET', path)
    assert status == 200
    return body['count']


def broken_after_sending(action):
    return dict(path='/api/v2/bulk/%s/' % action, method='POST', times=1, fault='reset_after')


def test_job_launch_broken_after_sending_is_not_retried(svc, tmp_path, setup):
    before = count(svc, '/api/v2/workflow_jobs/')
    svc.set_faults(broken_after_sending('job_launch'))
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_job_launch', {'jobs': [{'unified_job_template': setup['template']['id']}],
                                                        'wait': False})
    assert rc != 0
    assert 'may or may not have happened' in output and '/api/v2/workflow_jobs/' in output
    assert len(posts(svc, mark, 'job_launch')) == 1
    assert count(svc, '/api/v2/workflow_jobs/') == before + 1  # the service did launch it: a retry would have made two


def test_job_launch_server_error_is_not_retried(svc, tmp_path, setup):
    before = count(svc, '/api/v2/workflow_jobs/')
    svc.set_faults(dict(path='/api/v2/bulk/job_launch/', method='POST', times=1, fault='status', status=503))
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_job_launch', {'jobs': [{'unified_job_template': setup['template']['id']}],
                                                        'wait': False})
    assert rc != 0 and '503' in output
    assert len(posts(svc, mark, 'job_launch')) == 1
    assert count(svc, '/api/v2/workflow_jobs/') == before


def test_host_create_broken_after_sending_then_run_again(svc, tmp_path, setup):
    svc.set_faults(broken_after_sending('host_create'))
    params = {'inventory': setup['inventory']['id'], 'hosts': [{'name': 'new-1'}, {'name': 'new-2'}]}
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_host_create', params)
    assert rc != 0 and 'may or may not have happened' in output
    assert len(posts(svc, mark, 'host_create')) == 1
    # the hosts were created: running the task again finds them and sends nothing
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_host_create', params)
    assert rc == 0, output
    assert posts(svc, mark, 'host_create') == []
    assert count(svc, '/api/v2/inventories/%d/hosts/' % setup['inventory']['id']) == 3


def test_check_mode_reads_only(svc, tmp_path, setup):
    svc.set_faults()
    before = count(svc, '/api/v2/inventories/%d/hosts/' % setup['inventory']['id'])
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_host_delete', {'hosts': [setup['inventory']['name'] + '-h1'], 'inventory': setup['inventory']['name']},
                     check_mode=True)
    assert rc == 0, output
    assert set(e['method'] for e in svc.since(mark) if e['path'].startswith('/api/v2/')) == {'GET'}
    assert posts(svc, mark, 'host_delete') == []
    assert count(svc, '/api/v2/inventories/%d/hosts/' % setup['inventory']['id']) == before


def test_host_create_of_more_than_the_service_takes_at_once_goes_in_batches(svc, tmp_path, setup):
    # the service refuses more than BULK_HOST_MAX_CREATE (100) hosts in one request; the second batch is refused once
    svc.set_faults(dict(path='/api/v2/bulk/host_create/', method='POST', fault='status', status=400, every=2, times=1))
    inventory = setup['inventory']['id']
    before = count(svc, '/api/v2/inventories/%d/hosts/' % inventory)
    prefix = 'batch-' + uuid.uuid4().hex[:6]
    params = {'inventory': inventory, 'hosts': [{'name': '%s-%03d' % (prefix, n)} for n in range(150)]}
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_host_create', params)
    assert rc != 0, output
    sent = posts(svc, mark, 'host_create')
    assert [e['status'] for e in sent] == [201, 400]
    # the first batch stays; running the task again sends the rest, in one request
    assert count(svc, '/api/v2/inventories/%d/hosts/' % inventory) == before + 100
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_host_create', params)
    assert rc == 0, output
    assert [e['status'] for e in posts(svc, mark, 'host_create')] == [201]
    assert count(svc, '/api/v2/inventories/%d/hosts/' % inventory) == before + 150
    mark = svc.mark()
    rc, output = run(svc, tmp_path, 'bulk_host_create', params)
    assert rc == 0 and 'changed=0' in output, output
    assert posts(svc, mark, 'host_create') == []
    svc.set_faults()
