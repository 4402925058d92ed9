"""job_launch against the reference service when the launch request meets a fault:
the launch POST is sent once, and retried only when the service says it did not
process it (429). Faults are real (the service's fault middleware), nothing is mocked."""

import uuid

import pytest

from ...playbook import run_playbook, service_defaults


@pytest.fixture(scope='module')
def template(svc):
    name = 'launch-' + uuid.uuid4().hex[:8]
    status, inv = svc.admin_request('POST', '/api/v2/inventories/', {'name': name, 'organization': 1})
    assert status == 201
    assert svc.admin_request('POST', '/api/v2/hosts/', {'name': name + '-h1', 'inventory': inv['id']})[0] == 201
    status, projects = svc.admin_request('GET', '/api/v2/projects/?name=Demo+Project')
    body = {'name': name, 'inventory': inv['id'], 'project': projects['results'][0]['id'], 'playbook': 'hello.yml'}
    status, jt = svc.admin_request('POST', '/api/v2/job_templates/', body)
    assert status == 201, jt
    return jt


def launch(svc, tmp_path, template, **params):
    task = {'automation.service.job_launch': dict({'job_template': template['name']}, **params), 'register': 'out'}
    defaults = service_defaults(svc, service_username=svc.admin_username, service_password=svc.admin_password)
    return run_playbook(tmp_path, [task], module_defaults=defaults)


def job_count(svc, template):
    status, body = svc.admin_request('GET', '/api/v2/jobs/?job_template=%d' % template['id'])
    assert status == 200
    return body['count']


def launch_posts(svc, mark, template):
    path = '/api/v2/job_templates/%d/launch/' % template['id']
    return [e for e in svc.since(mark) if e['method'] == 'POST' and e['path'] == path]


def rule(template, **fault):
    fault.update(path='/api/v2/job_templates/%d/launch/' % template['id'], method='POST', times=1)
    return fault


def test_connection_broken_after_sending_is_not_retried(svc, tmp_path, template):
    before = job_count(svc, template)
    svc.set_faults(rule(template, fault='reset_after'))
    mark = svc.mark()
    rc, output = launch(svc, tmp_path, template)
    assert rc != 0
    assert 'may or may not have happened' in output
    assert 'job_templates/%d/jobs/' % template['id'] in output
    assert len(launch_posts(svc, mark, template)) == 1
    assert job_count(svc, template) == before + 1  # the service did launch it: a retry would have made two


def test_server_error_on_launch_is_not_retried(svc, tmp_path, template):
    before = job_count(svc, template)
    svc.set_faults(rule(template, fault='status', status=503))
    mark = svc.mark()
    rc, output = launch(svc, tmp_path, template)
    assert rc != 0 and '503' in output
    assert len(launch_posts(svc, mark, template)) == 1
    assert job_count(svc, template) == before


def test_too_many_requests_is_retried_once(svc, tmp_path, template):
    before = job_count(svc, template)
    svc.set_faults(rule(template, fault='status', status=429, retry_after=0))
    mark = svc.mark()
    rc, output = launch(svc, tmp_path, template)
    assert rc == 0, output
    assert len(launch_posts(svc, mark, template)) == 2
    assert job_count(svc, template) == before + 1


def test_check_mode_reads_and_launches_nothing(svc, tmp_path, template):
    svc.set_faults()
    before = job_count(svc, template)
    mark = svc.mark()
    task = {'automation.service.job_launch': {'job_template': template['name']}, 'check_mode': True}
    defaults = service_defaults(svc, service_username=svc.admin_username, service_password=svc.admin_password,
                                service_auth='basic')
    rc, output = run_playbook(tmp_path, [task], module_defaults=defaults)
    assert rc == 0, output
    paths = [(e['method'], e['path']) for e in svc.since(mark)]
    assert paths == [('GET', '/api/v2/job_templates/'), ('GET', '/api/v2/job_templates/%d/launch/' % template['id'])]
    assert job_count(svc, template) == before
