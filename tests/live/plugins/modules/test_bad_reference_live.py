"""A bad reference, run as a user would run it, against the reference service: the task fails
with a clear message, and the service's request log shows that nothing was written (no POST,
PATCH, PUT or DELETE), the object asked for included."""

import uuid

import pytest

from ..module_utils.helpers import connect_as
from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import run_module

WRITES = ('POST', 'PATCH', 'PUT', 'DELETE')


@pytest.fixture(scope='module')
def inventory(service):
    admin = connect_as(service, service_auth='basic')
    return admin.request('POST', 'inventories', json_body={'name': 'badref-%s' % uuid.uuid4().hex[:8],
                                                           'organization': 1})['name']


def cases():
    """(module, its options but the bad one, the option given a name that names nothing)."""
    return [
        ('organization', {}, 'default_environment'),
        ('project', {'organization': 'Default', 'scm_type': 'git', 'scm_url': 'https://example.com/a.git'},
         'credential'),
        ('project', {'organization': 'Default', 'scm_type': 'git', 'scm_url': 'https://example.com/a.git'},
         'default_environment'),
        ('execution_environment', {'image': 'quay.io/example/ee:1'}, 'credential'),
        ('inventory_source', {'inventory': None, 'source': 'scm'}, 'source_project'),
        ('inventory_source', {'inventory': None, 'source': 'ec2'}, 'credential'),
        ('workflow_job_template', {'organization': 'Default'}, 'inventory'),
        ('workflow_job_template', {'organization': 'Default'}, 'webhook_credential'),
        ('job_template', {'playbook': 'hello.yml', 'inventory': None}, 'project'),
        ('instance_group', {}, 'credential'),
    ]


@pytest.mark.parametrize('module, given, option', cases(), ids=['%s-%s' % (m, o) for m, _g, o in cases()])
def test_a_bad_reference_writes_nothing_on_the_service(service, inventory, module, given, option):
    name = 'badref-%s' % uuid.uuid4().hex[:8]
    params = dict((key, inventory if value is None else value) for key, value in given.items())
    params.update(name=name, service_url=service.url, ca_path=str(service.ca_path),
                  service_username=service.admin_username, service_password=service.admin_password,
                  **{option: 'no-such-' + option.replace('_', '-')})
    mark = service.mark()
    result = run_module(module, params)
    assert result.get('failed') and not result.get('changed'), result
    assert 'no-such-' in result['msg'], result['msg']
    writes = [(entry['method'], entry['path']) for entry in service.since(mark) if entry['method'] in WRITES
              and not entry['path'].startswith(('/api/login/', '/api/logout/'))]
    assert writes == []
