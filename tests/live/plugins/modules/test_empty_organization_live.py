"""``organization: ''`` is no organization, in every module that takes an optional organization,
as awx.awx's modules treat it (``if organization:``) and as infra.aap_configuration sends it
(``aap_configuration_enforce_defaults``): each module answers exactly as it does when the
option is left out. Run in check mode against the reference service, each module once without
the option and once with ``''``."""

import uuid

import pytest

from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import argument_spec, module_names, run_module

NEW = 'empty-org-%s' % uuid.uuid4().hex[:8]

# The options besides organization that each module needs to get as far as its organization:
# names of nothing (NEW) where the module makes or finds an object, the service's demo content
# where it must name something that is there.
GIVEN = {
    'authenticator_map': {'name': NEW, 'authenticator': NEW, 'map_type': 'allow', 'triggers': {'always': {}}},
    'bulk_host_create': {'inventory': 'Demo Inventory', 'hosts': [{'name': NEW}]},
    'bulk_host_delete': {'inventory': 'Demo Inventory', 'hosts': [NEW]},
    'bulk_job_launch': {'jobs': [{'unified_job_template': 'Demo Job Template'}]},
    'credential': {'name': NEW, 'credential_type': 'Machine'},
    'credential_info': {'name': 'Demo Credential'},
    'execution_environment': {'name': NEW, 'image': 'quay.io/example/ee:1'},
    'inventory': {'name': NEW},
    'inventory_source': {'name': NEW, 'inventory': 'Demo Inventory', 'source': 'scm', 'source_project': 'Demo Project'},
    'inventory_source_update': {'name': NEW, 'inventory': 'Demo Inventory'},
    'job_launch': {'job_template': 'Demo Job Template'},
    'job_template': {'name': NEW, 'project': 'Demo Project', 'playbook': 'hello_world.yml',
                     'inventory': 'Demo Inventory'},
    'notification_template': {'name': NEW, 'notification_type': 'webhook',
                              'notification_configuration': {'url': 'https://example.com/hook', 'headers': {}}},
    'project': {'name': NEW, 'scm_type': 'git', 'scm_url': 'https://example.com/a.git'},
    'project_update': {'name': 'Demo Project'},
    'role': {'role': 'member', 'user': 'admin'},
    'schedule': {'name': NEW, 'unified_job_template': 'Demo Job Template', 'rrule': 'DTSTART:20300101T000000Z RRULE:FREQ=DAILY'},
    'token': {'application': NEW, 'scope': 'read'},
    'user': {'username': NEW, 'password': 'a-Password-1'},
    'workflow_job_template': {'name': NEW},
    'workflow_job_template_node': {'identifier': NEW, 'workflow_job_template': NEW},
    'workflow_launch': {'name': NEW},
}


def optional_organization():
    return [name for name in module_names()
            if 'organization' in argument_spec(name) and not argument_spec(name)['organization'].get('required')]


def test_the_table_names_every_module_with_an_optional_organization():
    assert sorted(GIVEN) == optional_organization()


@pytest.mark.parametrize('module', sorted(GIVEN))
def test_an_empty_organization_is_no_organization(service, module):
    base = dict(GIVEN[module], service_url=service.url, ca_path=str(service.ca_path),
                service_username=service.admin_username, service_password=service.admin_password)
    without = run_module(module, base, check_mode=True)
    empty = run_module(module, dict(base, organization=''), check_mode=True)
    for result in (without, empty):
        result.pop('invocation', None)
    assert "organization ''" not in str(empty.get('msg')), empty
    assert empty == without
