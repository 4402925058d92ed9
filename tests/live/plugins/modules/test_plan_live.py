"""Plan, then apply: a resource module's plan resolves every name and reads every object it
needs, and writes nothing; the executor then sends the plan's writes, and the diff the module
returns is the plan's. Against the reference service: each module plans a change (a new object,
or a new value for one that is there) with a client that fails on any write, then runs in check
mode with diff, and the two diffs are compared."""

import os
import uuid

import pytest
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.module_utils.common.parameters import remove_values

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._outcome import masked

from ..module_utils.helpers import connect_as

from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import load, module_names, run_module

NEW = 'plan-%s' % uuid.uuid4().hex[:8]


def collection_root():
    here = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(here, 'galaxy.yml')):
        here = os.path.dirname(here)
    return here


with open(os.path.join(collection_root(), 'tests', 'integration', 'targets', 'gateway_routing', 'files', 'ca.pem')) as pem:
    CA_PEM = pem.read()

# What each module with a RESOURCE is asked: a new object, with its references and sub-lists
# named, or a new value for an object of the service's demo content.
ASKED = {
    'application': {'name': NEW, 'organization': 'Default', 'authorization_grant_type': 'password',
                    'client_type': 'public', 'description': 'planned'},
    'authenticator': {'name': NEW, 'type': 'ansible_base.authentication.authenticator_plugins.github',
                      'configuration': {'KEY': 'planned', 'SECRET': 'planned-secret'}},
    'authenticator_map': {'name': NEW, 'authenticator': NEW, 'map_type': 'allow', 'triggers': {'always': {}},
                          'state': 'absent'},
    'credential': {'name': NEW, 'credential_type': 'Machine', 'organization': 'Default',
                   'inputs': {'username': 'deploy', 'password': 'planned-secret'}},
    'credential_input_source': {'target_credential': 'Demo Credential', 'input_field_name': 'password',
                                'state': 'absent'},
    'credential_type': {'name': NEW, 'kind': 'cloud', 'inputs': {'fields': [
        {'id': 'token', 'type': 'string', 'label': 'Token', 'secret': True}]}},
    'execution_environment': {'name': NEW, 'image': 'quay.io/example/ee:1', 'organization': 'Default'},
    'group': {'name': NEW, 'inventory': 'Demo Inventory', 'variables': {'a': 1}},
    'host': {'name': NEW, 'inventory': 'Demo Inventory', 'variables': {'a': 1}},
    'instance_group': {'name': NEW, 'policy_instance_minimum': 1},
    'inventory': {'name': 'Demo Inventory', 'organization': 'Default', 'variables': {'planned': NEW},
                  'instance_groups': ['default']},
    'inventory_source': {'name': NEW, 'inventory': 'Demo Inventory', 'source': 'scm',
                         'source_project': 'Demo Project'},
    'job_template': {'name': NEW, 'project': 'Demo Project', 'playbook': 'hello_world.yml',
                     'inventory': 'Demo Inventory', 'instance_groups': ['default'], 'credentials': ['Demo Credential']},
    'label': {'name': NEW, 'organization': 'Default'},
    'notification_template': {'name': NEW, 'organization': 'Default', 'notification_type': 'webhook',
                              'notification_configuration': {'url': 'https://example.com/hook', 'headers': {},
                                                             'password': 'planned-secret'}},
    'organization': {'name': 'Default', 'description': NEW},
    'project': {'name': NEW, 'organization': 'Default', 'scm_type': 'git', 'scm_url': 'https://example.com/a.git'},
    'role_definition': {'name': NEW, 'content_type': 'jobtemplate', 'permissions': ['view_jobtemplate']},
    # a role definition on the demo inventory (its id asked_of()'s), for the admin and for a team asked_of() makes
    'role_user_assignment': {'role_definition': 'Inventory Use', 'user': 'admin'},
    'role_team_assignment': {'role_definition': 'Inventory Use', 'team': NEW + '-team'},
    'schedule': {'name': NEW, 'unified_job_template': 'Demo Job Template', 'labels': [],
                 'rrule': 'DTSTART:20300101T000000Z RRULE:FREQ=DAILY'},
    'team': {'name': NEW, 'organization': 'Default'},
    'token': {'description': NEW},
    'user': {'username': NEW, 'first_name': 'Planned', 'organizations': ['Default']},
    'workflow_job_template': {'name': NEW, 'organization': 'Default', 'labels': []},
    # the gateway's routing objects, referring to a type, a port and a cluster made first (plumbing())
    'http_port': {'name': NEW, 'number': 18443, 'use_https': True},
    'service_type': {'name': NEW, 'ping_url': '/api/ping/'},
    'service_cluster': {'name': NEW, 'service_type': NEW + '-type', 'health_checks_enabled': True},
    'service_node': {'name': NEW, 'service_cluster': NEW + '-cluster', 'address': 'plan.example.com'},
    'service_key': {'name': NEW, 'service_cluster': NEW + '-cluster', 'secret_length': 64},
    'service': {'name': NEW, 'http_port': NEW + '-port', 'service_cluster': NEW + '-cluster', 'service_path': '/',
                'service_port': 8080, 'api_slug': NEW, 'request_timeout_seconds': 60},
    'route': {'name': NEW, 'http_port': NEW + '-port', 'service_cluster': NEW + '-cluster', 'service_path': '/',
              'service_port': 8080, 'gateway_path': '/%s/' % NEW},
    'ui_plugin_route': {'name': NEW, 'http_port': NEW + '-port', 'service_cluster': NEW + '-cluster',
                        'service_port': 8080, 'ui_plugin_path': NEW},
    'ca_certificate': {'name': NEW, 'related_id_reference': NEW, 'pem_data': CA_PEM},
    # a run-time flag, given the value it does not have (asked_of()); a link moved to another authenticator (its id
    # asked_of()'s, of the user plumbing() made); a setting given a value it does not have
    'feature_flag': {'name': 'FEATURE_INDIRECT_NODE_COUNTING_ENABLED'},
    'authenticator_user': {'authenticator': NEW + '-auth2', 'new_uid': NEW + '-moved'},
    'settings': {'name': 'MAX_UI_JOB_EVENTS', 'value': 5000 + int(NEW[-3:], 16)},
    # Event-Driven Ansible's, behind the gateway: new objects in the Default organization; an event stream and an input
    # source named that are not there, to delete (their references would have to be made first)
    'eda_controller_token': {'name': NEW, 'description': 'planned', 'token': 'planned-secret'},
    'eda_credential': {'name': NEW, 'credential_type_name': 'Container Registry', 'organization_name': 'Default',
                       'inputs': {'host': 'quay.io', 'username': 'planned', 'password': 'planned-secret'}},
    'eda_credential_type': {'name': NEW, 'inputs': {'fields': [{'id': 'key', 'type': 'string', 'label': 'Key'}]},
                            'injectors': {'extra_vars': {'key': '{{ key }}'}}},
    'eda_decision_environment': {'name': NEW, 'image_url': 'quay.io/ansible/ansible-rulebook:main',
                                 'organization_name': 'Default'},
    'eda_project': {'name': NEW, 'url': 'https://github.com/ansible/eda-sample-project', 'organization_name': 'Default'},
    'eda_event_stream': {'name': NEW, 'state': 'absent'},
    'eda_credential_input_source': {'target_credential': NEW, 'source_credential': NEW, 'input_field_name': 'password',
                                    'state': 'absent'},
}
# The modules of the platform gateway's own objects, asked on a service in the gateway's layout.
GATEWAY_ONLY = ('authenticator', 'authenticator_map', 'http_port', 'service_type', 'service_cluster', 'service_node',
                'service_key', 'service', 'route', 'ui_plugin_route', 'ca_certificate', 'feature_flag',
                'authenticator_user') + tuple(name for name in ASKED if name.startswith('eda_'))
# A module with a RESOURCE that builds its steps by hand: a workflow's node (its edges are written once
# every node of the workflow is there).
BY_HAND = ('workflow_job_template_node',)


class WriteRefused(AssertionError):
    pass


def with_resource():
    return [name for name in module_names() if getattr(load(name), 'RESOURCE', None) is not None]


def on_the_hub():
    """The modules of Automation Hub's objects: the reference service has no Hub; their plans are proven against a
    real one (their integration targets, alias hub)."""
    from ansible_collections.automation.service.plugins.module_utils._hub import HubResource
    return [name for name in with_resource() if isinstance(load(name).RESOURCE, HubResource)]


def test_the_table_names_every_module_with_a_resource():
    assert 'ah_namespace' in on_the_hub()
    assert sorted(list(ASKED) + list(BY_HAND) + on_the_hub()) == with_resource()


def task_for(service, module, asked):
    code = load(module)
    params = dict(asked, service_url=service.url, ca_path=str(service.ca_path), service_auth='basic',
                  service_username=service.admin_username, service_password=service.admin_password)
    validation = ArgumentSpecValidator(code.SPEC.argument_spec, **code.SPEC.spec_kwargs).validate(params)
    assert not validation.error_messages, validation.error_messages
    api = ApiTask(code.SPEC, validation.validated_parameters, diff=True, no_log_values=set(validation._no_log_values))
    if code.SPEC.adjust is not None:
        # as ApiTask.execute reads them
        api.params = dict(api.params, **code.SPEC.adjust(dict(api.params)))
    sent = api.client.request

    def reads_only(method, path, *args, **kwargs):
        if method not in ('GET', 'HEAD', 'OPTIONS'):
            raise WriteRefused('planning sent %s %s' % (method, path))
        return sent(method, path, *args, **kwargs)

    api.client.request = reads_only
    return code, api, params


def plumbing(svc):
    """The service type, HTTP port and service cluster the routing modules' cases name, and the authenticators and the
    linked user authenticator_user's names (made once per service)."""
    client = connect_as(svc, service_auth='basic')
    gateway = '/api/gateway/v1/'
    if client.get(gateway + 'service_clusters/', params={'name': NEW + '-cluster'})['count']:
        return
    kind = client.request('POST', gateway + 'service_types/', json_body={'name': NEW + '-type'})
    client.request('POST', gateway + 'http_ports/', json_body={'name': NEW + '-port', 'number': 18444})
    client.request('POST', gateway + 'service_clusters/', json_body={'name': NEW + '-cluster', 'service_type': kind['id']})
    # two authenticators (nobody logs in through them) and a user linked to the first
    made = [client.request('POST', gateway + 'authenticators/', json_body={
        'name': NEW + '-auth%d' % number, 'type': 'ansible_base.authentication.authenticator_plugins.github',
        'enabled': True, 'configuration': {'KEY': 'key-%d' % number, 'SECRET': 'planned-secret'}}) for number in (1, 2)]
    client.request('POST', gateway + 'users/', json_body={
        'username': NEW + '-user', 'password': 'planned-' + NEW,
        'associated_authenticators': {str(made[0]['id']): {'uid': NEW + '-uid'}}})


def asked_of(svc, module):
    """What ``module`` is asked (ASKED), with what depends on the service at the time: the value the flag does not
    have, the id of the link plumbing() made, the demo inventory an assignment is on and the team it names."""
    asked = dict(ASKED[module])
    gateway = '/api/gateway/v1/'
    if module == 'feature_flag':
        client = connect_as(svc, service_auth='basic')
        flag = client.get(gateway + 'feature_flags/', params={'name': asked['name']})['results'][0]
        asked['value'] = str(flag['value']).lower() != 'true'
    elif module == 'authenticator_user':
        client = connect_as(svc, service_auth='basic')
        user = client.get(gateway + 'users/', params={'username': NEW + '-user'})['results'][0]
        link = client.get(gateway + 'authenticator_users/', params={'user': user['id']})['results'][0]
        asked['authenticator_user_id'] = str(link['id'])
    elif module in ('role_user_assignment', 'role_team_assignment'):
        client = connect_as(svc, service_auth='basic')
        controller = '/api/v2/'
        asked['object_id'] = client.get(controller + 'inventories/', params={'name': 'Demo Inventory'})['results'][0]['id']
        if module == 'role_team_assignment' and not client.get(controller + 'teams/', params={'name': asked['team']})['count']:
            organization = client.get(controller + 'organizations/', params={'name': 'Default'})['results'][0]
            client.request('POST', controller + 'teams/', json_body={'name': asked['team'], 'organization': organization['id']})
    return asked


@pytest.mark.parametrize('module', sorted(ASKED))
def test_planning_writes_nothing_and_its_diff_is_the_modules(service, gateway_service_factory, module):
    if module in GATEWAY_ONLY:
        service = gateway_service_factory()
        plumbing(service)
    code, api, params = task_for(service, module, asked_of(service, module))
    plan = code.RESOURCE.placed(api).plan(api)
    assert api.client.writes_sent == 0
    result = run_module(module, params, check_mode=True, diff=True)
    assert not result.get('failed'), result
    assert result['changed'] == plan.changes, (module, plan.writes)
    if plan.changes:
        before, after = planned_diff(plan)
        # as the module's result, the values of its no_log options left out
        assert result['diff'] == remove_values({'before': before, 'after': after}, api.no_log_values), module
    else:
        assert not result.get('diff'), module
    # the cases change something, but for the ones that delete what is not there
    assert plan.changes == (module not in ('credential_input_source', 'authenticator_map', 'eda_event_stream',
                                           'eda_credential_input_source')), module


def planned_diff(plan):
    """The diff of the plan's writes (Plan.diff()), with the parts said from a write's answer (settings: what the
    service kept) said from the answer it would have in check mode."""
    before, after = plan.diff()
    for write in plan.writes:
        if write.shown_once_taken():
            said_before, said_after = write.shown(write.answer)
            before.update(masked(said_before or {}, write.secret))
            after.update(masked(said_after or {}, write.secret))
    return before, after


def test_a_plan_lists_the_sub_list_writes_of_a_new_object_after_its_create(service):
    code, api, _params = task_for(service, 'job_template', ASKED['job_template'])
    plan = code.RESOURCE.plan(api)
    methods = [write.method for write in plan.writes]
    assert methods == ['POST', 'POST', 'POST'], plan.writes
    assert plan.writes[0].path == 'job_templates'
    # the sub-lists' paths are the new object's, known once it is made
    assert callable(plan.writes[1].path) and plan.writes[1].path({'id': 7}).startswith('job_templates/7/')
    # and the client the plans above were made with refuses writes indeed
    with pytest.raises(WriteRefused):
        api.client.request('POST', 'labels', json_body={'name': NEW, 'organization': 1})
