"""Every module runs three ways: inside the controller's worker (its action plugin, for a task on the
controller), as a module (a task on a remote host, or with become: Ansible packs the module and a new
Python runs it) and as an async job forked from the worker (an ``async`` task on the controller). Real
ansible-playbook runs against the reference service.

The tests have no remote host: the module path runs on the ``remote_here`` connection
(tests/live/connection_plugins), ansible-core's local connection under another name, which the action
plugin treats as any remote host. Only the transport is a stand-in; the packing and the new
interpreter are Ansible's own."""

import json
import os
import re
import uuid

import pytest

from ..module_utils.helpers import connect_as
from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import module_names
from ...playbook import run_playbook, service_defaults as base_defaults

# The connection that stands for a remote host, and the task variables that put a task on it.
CONNECTIONS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           'connection_plugins')
ON_REMOTE = {'vars': {'ansible_connection': 'remote_here'}}
REMOTE_ENV = {'ANSIBLE_CONNECTION_PLUGINS': CONNECTIONS}
# The way a task runs: the task keywords that make it run so.
WAYS = {'here': {}, 'module': ON_REMOTE, 'job': {'async': 60, 'poll': 1}}

# What the async wrapper adds to a module's result.
ASYNC_KEYS = {'ansible_job_id', 'finished', 'results_file', 'started', 'stderr', 'stderr_lines', 'stdout',
              'stdout_lines'}


def service_defaults(service):
    return base_defaults(service, service_username=service.admin_username, service_password=service.admin_password)


def dump_results(names):
    """A last task that writes the registered results to results.json."""
    return {'name': 'results', 'ansible.builtin.copy': {
        'dest': '{{ playbook_dir }}/results.json',
        'content': '{{ {%s} | to_json }}' % ', '.join("'%s': %s" % (n, n) for n in names)}}


def read_results(workdir):
    with open(os.path.join(str(workdir), 'results.json')) as handle:
        return json.load(handle)


def comparable(result):
    return dict((k, v) for k, v in result.items() if k not in ASYNC_KEYS and not k.startswith('_ansible'))


@pytest.fixture(scope='module')
def world(service):
    """What the tasks below find unchanged: an inventory with a host, a user, a label, a job."""
    admin = connect_as(service, service_auth='basic')
    tag = uuid.uuid4().hex[:8]
    inv = admin.request('POST', 'inventories', json_body={'name': 'paths-%s' % tag, 'organization': 1})
    admin.request('POST', 'hosts', json_body={'name': 'web-%s' % tag, 'inventory': inv['id'], 'variables': '{"a": 1}'})
    admin.request('POST', 'users', json_body={'username': 'paths-%s' % tag, 'password': 'pw-' + tag, 'first_name': 'P'})
    admin.request('POST', 'groups', json_body={'name': 'grp-%s' % tag, 'inventory': inv['id'], 'variables': '{"g": 1}'})
    admin.request('POST', 'labels', json_body={'name': 'paths-%s' % tag, 'organization': 1})
    return {'tag': tag, 'inventory': inv['name']}


def cases(world):
    tag, inv = world['tag'], world['inventory']
    return {
        'host': {'name': 'web-%s' % tag, 'inventory': inv, 'variables': {'a': 1}},
        'host_info': {'inventory': inv},
        'inventory': {'name': inv, 'organization': 'Default'},
        'user': {'username': 'paths-%s' % tag, 'first_name': 'P'},
        'user_info': {'username': 'paths-%s' % tag},
        'credential_info': {'name': 'no-such-credential-%s' % tag},
        'credential': {'name': 'no-such-credential-%s' % tag, 'credential_type': 'Machine',
                       'organization': 'Default', 'state': 'absent'},
        'group': {'name': 'grp-%s' % tag, 'inventory': inv, 'variables': {'g': 1}},
        'inventory_source': {'name': 'no-such-source-%s' % tag, 'inventory': inv, 'state': 'absent'},
        'credential_type': {'name': 'no-such-type-%s' % tag, 'state': 'absent'},
        'organization': {'name': 'Default'},
        'project': {'name': 'Demo Project'},
        'job_template': {'name': 'no-such-template-%s' % tag, 'state': 'absent'},
        'token': {'existing_token_id': 999999999, 'state': 'absent'},
        'job_launch': {'job_template': 'no-such-template-%s' % tag},
        'job_wait': {'job_id': 999999999, 'timeout': 5},
        'project_update': {'name': 'no-such-project-%s' % tag},
        'inventory_source_update': {'name': 'no-such-source-%s' % tag, 'inventory': inv},
        'instance_group': {'name': 'default'},
        'execution_environment': {'name': 'no-such-ee-%s' % tag, 'state': 'absent'},
        'label': {'name': 'paths-%s' % tag, 'organization': 'Default'},
        'license': {'state': 'absent'},
        'subscriptions': {'username': 'paths-%s' % tag, 'password': 'pw-%s' % tag},
        'team': {'name': 'no-such-team-%s' % tag, 'organization': 'Default', 'state': 'absent'},
        'controller_meta': {},
        'export': {'organizations': ['Default']},
        'import': {'assets': {'organizations': [{'name': 'Default', 'natural_key': {'type': 'organization',
                                                                                     'name': 'Default'}}]}},
        'job_cancel': {'job_id': 999999999},
        'job_list': {'status': 'canceled', 'query': {'id': 999999999}},
        'role': {'user': 'paths-%s' % tag, 'role': 'use', 'inventory': inv, 'state': 'absent'},
        'role_definition': {'name': 'no-such-role-definition-%s' % tag, 'state': 'absent'},
        'role_user_assignment': {'role_definition': 'Inventory Use', 'user': 'paths-%s' % tag,
                                 'object_id': 999999999, 'state': 'absent'},
        'role_team_assignment': {'role_definition': 'no-such-role-definition-%s' % tag, 'team': 'no-such-team',
                                 'object_id': 1},
        'application': {'name': 'no-such-app-%s' % tag, 'organization': 'Default', 'state': 'absent'},
        'authenticator': {'name': 'no-such-authenticator-%s' % tag, 'state': 'absent'},
        'authenticator_map': {'name': 'no-such-map-%s' % tag, 'authenticator': 'no-such-authenticator-%s' % tag,
                              'state': 'absent'},
        'authenticator_user': {'authenticator_user_id': 999999999, 'authenticator': 1},
        'http_port': {'name': 'no-such-port-%s' % tag, 'state': 'absent'},
        'route': {'name': 'no-such-route-%s' % tag, 'state': 'absent'},
        'service': {'name': 'no-such-service-%s' % tag, 'state': 'absent'},
        'service_cluster': {'name': 'no-such-cluster-%s' % tag, 'state': 'absent'},
        'service_node': {'name': 'no-such-node-%s' % tag, 'state': 'absent'},
        'service_key': {'name': 'no-such-key-%s' % tag, 'state': 'absent'},
        'service_type': {'name': 'no-such-type-%s' % tag, 'state': 'absent'},
        'ui_plugin_route': {'name': 'no-such-plugin-route-%s' % tag, 'state': 'absent'},
        'ca_certificate': {'name': 'no-such-ca-%s' % tag, 'pem_data': 'not read', 'state': 'absent'},
        'feature_flag': {'name': 'FEATURE_NO_SUCH_%s_ENABLED' % tag, 'state': 'exists'},
        'settings': {'name': 'MAX_UI_JOB_EVENTS', 'value': 4000},
        # Event-Driven Ansible's: on AWX, which has none, each fails before any request, alike either way
        'eda_controller_token': {'name': 'no-such-token-%s' % tag, 'state': 'absent'},
        'eda_credential': {'name': 'no-such-credential-%s' % tag, 'state': 'absent'},
        'eda_credential_info': {'name': 'no-such-credential-%s' % tag},
        'eda_credential_input_source': {'target_credential': 'no-such-target-%s' % tag,
                                        'source_credential': 'no-such-source-%s' % tag, 'input_field_name': 'password',
                                        'state': 'absent'},
        'eda_credential_input_source_info': {'target_credential': 'no-such-target-%s' % tag},
        'eda_credential_type': {'name': 'no-such-type-%s' % tag, 'state': 'absent'},
        'eda_credential_type_info': {'name': 'no-such-type-%s' % tag},
        'eda_decision_environment': {'name': 'no-such-environment-%s' % tag, 'state': 'absent'},
        'eda_decision_environment_info': {'name': 'no-such-environment-%s' % tag},
        'eda_event_stream': {'name': 'no-such-stream-%s' % tag, 'state': 'absent'},
        'eda_event_stream_info': {'name': 'no-such-stream-%s' % tag},
        'eda_project': {'name': 'no-such-project-%s' % tag, 'state': 'absent'},
        'eda_project_info': {'name': 'no-such-project-%s' % tag},
        'eda_role_team_assignment': {'role_definition': 'Organization Auditor', 'team': 'no-such-team-%s' % tag,
                                     'object_id': 1, 'state': 'absent'},
        'eda_rulebook_activation': {'name': 'no-such-activation-%s' % tag, 'state': 'absent'},
        'eda_rulebook_activation_copy': {'name': 'no-such-copy-%s' % tag, 'copy_from': 'no-such-activation-%s' % tag},
        'eda_rulebook_activation_info': {'name': 'no-such-activation-%s' % tag},
        'eda_rulebook_info': {'name': 'no-such-rulebook-%s' % tag},
        'eda_user': {'username': 'no-such-user-%s' % tag, 'state': 'absent'},
        # the reference service has no Automation Hub: both ways fail alike, before any write
        'ah_approval': {'namespace': 'no_such_namespace', 'name': 'none', 'version': '1.0.0'},
        'ah_build': {'path': 'no-such-dir-%s' % tag},  # no API: ansible-galaxy refuses alike either way
        'ah_collection': {'namespace': 'no_such_namespace', 'name': 'none', 'state': 'absent'},
        'ah_collection_upload': {'path': 'no-such-dir-%s/no_such_namespace-none-1.0.0.tar.gz' % tag},
        'ah_ee_image': {'name': 'no-such/image:1.0', 'state': 'absent'},
        'ah_ee_registry': {'name': 'no-such-registry', 'state': 'absent'},
        'ah_ee_registry_index': {'name': 'no-such-registry'},
        'ah_ee_registry_sync': {'name': 'no-such-registry'},
        'ah_ee_repository': {'name': 'no-such/repository', 'state': 'absent'},
        'ah_ee_repository_sync': {'name': 'no-such/repository'},
        'ah_namespace': {'name': 'no_such_namespace', 'state': 'absent'},
        'ah_token': {'state': 'absent'},
        'collection_remote': {'name': 'no-such-remote', 'state': 'absent'},
        'collection_repository': {'name': 'no-such-repository', 'state': 'absent'},
        'collection_repository_sync': {'name': 'no-such-repository'},
        'ah_group': {'name': 'no-such-group', 'state': 'absent'},
        'ah_role': {'name': 'galaxy.no_such_role', 'state': 'absent'},
        'ah_user': {'username': 'no-such-user', 'state': 'absent'},
        'group_roles': {'groups': ['no-such-group'], 'role_list': [{'roles': ['galaxy.group_admin']}], 'state': 'absent'},
        'instance': {'hostname': 'localhost', 'enabled': True},
        'workflow_job_template': {'name': 'no-such-workflow-%s' % tag, 'organization': 'Default', 'state': 'absent'},
        'bulk_host_create': {'inventory': inv, 'hosts': [{'name': 'web-%s' % tag}]},
        'bulk_host_delete': {'hosts': [999999999]},
        'bulk_job_launch': {'jobs': [{'unified_job_template': 'no-such-template-%s' % tag}]},
        'workflow_job_template_node': {'identifier': 'start', 'workflow_job_template': 'no-such-workflow-%s' % tag,
                                       'state': 'absent'},
        'credential_input_source': {'target_credential': 'no-such-credential-%s' % tag, 'input_field_name': 'password',
                                    'state': 'absent'},
        'notification_template': {'name': 'no-such-notification-%s' % tag, 'organization': 'Default', 'state': 'absent'},
        'schedule': {'name': 'no-such-schedule-%s' % tag, 'state': 'absent'},
        'ad_hoc_command': {'inventory': 'no-such-inventory-%s' % tag, 'module_name': 'ping'},
        'ad_hoc_command_wait': {'command_id': 999999999, 'timeout': 5},
        'ad_hoc_command_cancel': {'command_id': 999999999},
        'workflow_launch': {'name': 'no-such-workflow-%s' % tag},
        'workflow_node_wait': {'workflow_job_id': 999999999, 'name': 'start'},
        'workflow_approval': {'workflow_job_id': 999999999, 'name': 'start'},
    }


def tasks_for(given, ways, **keywords):
    """A task per case and way, each registered as <case>_<way>, and the task that writes them out.
    ``given``: (case, module, arguments) triples; ``keywords``: more keywords of every task."""
    tasks, names = [], []
    for case, module, args in given:
        for way in ways:
            register = '%s_%s' % (case, way)
            task = {'name': register, 'automation.service.%s' % module: args, 'register': register,
                    'ignore_errors': True}
            task.update(keywords)
            task.update(WAYS[way])
            tasks.append(task)
            names.append(register)
    tasks.append(dump_results(names))
    return tasks


def by_module(given):
    """The cases of ``cases()``, each named after its module, as tasks_for takes them."""
    return [(name, name, args) for name, args in sorted(given.items())]


def test_every_module_answers_alike_in_the_controller_and_as_a_module(service, world, tmp_path):
    given = cases(world)
    assert sorted(given) == module_names()
    code, out = run_playbook(tmp_path, tasks_for(by_module(given), ('here', 'module'), diff=True), env=REMOTE_ENV,
                             module_defaults=service_defaults(service), verbosity=3)
    assert code == 0, out
    # every module task of the "module" way went through Ansible's module packing
    assert set(given) <= set(re.findall(r'AnsiballZ_(\w+)\.py', out)), out
    results = read_results(tmp_path)
    for name in sorted(given):
        here, module = results['%s_here' % name], results['%s_module' % name]
        assert comparable(here) == comparable(module), name
    # the cases cover success, unchanged, and failures alike
    assert not results['host_here'].get('failed') and results['host_here']['changed'] is False
    assert not results['group_here'].get('failed') and results['group_here']['changed'] is False
    assert results['job_launch_here']['failed'] and 'was not found' in results['job_launch_here']['msg']


def test_an_async_job_answers_as_the_task_does_in_the_controller(service, world, tmp_path):
    """The async job's code is the same for every module (the worker forks, the job runs the task's
    logic and writes the job file): a few modules, each kind of result, through async_status."""
    given = dict((name, args) for name, args in cases(world).items()
                 if name in ('host', 'user_info', 'job_launch', 'export', 'token', 'settings'))
    code, out = run_playbook(tmp_path, tasks_for(by_module(given), ('here', 'job'), diff=True),
                             module_defaults=service_defaults(service))
    assert code == 0, out
    results = read_results(tmp_path)
    for name in sorted(given):
        here, job = results['%s_here' % name], results['%s_job' % name]
        assert 'ansible_job_id' in job and 'ansible_job_id' not in here, name
        assert comparable(here) == comparable(job), name
    assert results['job_launch_job']['failed'] and not results['host_job'].get('failed')


def test_bad_arguments_fail_alike(service, tmp_path):
    bad = [('host', {'name': 'x', 'inventory': 'y', 'bogus': 1}),
           ('host', {'inventory': 'y'}),
           ('host', {'name': 'x', 'inventory': 'y', 'state': 'gone'}),
           ('job_wait', {'job_id': float('inf')}),
           ('token', {'existing_token_id': 1, 'user': 'u', 'state': 'absent'})]
    tasks = tasks_for([('bad%d' % index, name, args) for index, (name, args) in enumerate(bad)],
                      ('here', 'module', 'job'))
    code, out = run_playbook(tmp_path, tasks, env=REMOTE_ENV, module_defaults=service_defaults(service))
    assert code == 0, out
    results = read_results(tmp_path)
    for index in range(len(bad)):
        here, module, job = (results['bad%d_%s' % (index, way)] for way in ('here', 'module', 'job'))
        assert here['failed'] and module['failed'] and job['failed'], bad[index]
        assert here['msg'] == module['msg'] == job['msg'], bad[index]
    assert 'Unsupported parameters for (automation.service.host) module: bogus' in results['bad0_here']['msg']
    assert 'whole number, not an infinity' in results['bad3_here']['msg']


def test_a_loop_runs_in_the_controller_on_one_connection(service, world, tmp_path):
    mark = service.mark()
    task = {'name': 'loop', 'automation.service.host': {'name': 'loop-{{ item }}-%s' % world['tag'],
                                                        'inventory': world['inventory'], 'state': 'absent'},
            'loop': list(range(6))}
    # one look-up per item (loop_reads off: the items share nothing), all on the worker's one connection
    code, out = run_playbook(tmp_path, [task], module_defaults=dict(service_defaults(service), loop_reads=False))
    assert code == 0, out
    gets = [e for e in service.since(mark) if e['path'] == '/api/v2/hosts/']
    assert len(gets) == 6
    assert len(set(e['conn'] for e in gets)) == 1


def test_awx_awx_old_names_run_in_the_controller_too(service, world, tmp_path):
    """``tower_host`` (redirected to ``host`` in meta/runtime.yml) takes the one action plugin as
    ``host`` does: the loop runs in the worker, on one connection, as the module it names."""
    mark = service.mark()
    task = {'name': 'loop', 'automation.service.tower_host': {
        'name': 'old-{{ item }}-%s' % world['tag'], 'inventory': world['inventory'], 'state': 'absent'},
        'loop': list(range(4)), 'register': 'old'}
    code, out = run_playbook(tmp_path, [task, dump_results(['old'])],
                             module_defaults=dict(service_defaults(service), loop_reads=False))
    assert code == 0, out
    results = read_results(tmp_path)['old']['results']
    assert [r['changed'] for r in results] == [False] * 4
    assert all('ansible_job_id' not in r for r in results)
    gets = [e for e in service.since(mark) if e['path'] == '/api/v2/hosts/']
    assert len(gets) == 4
    assert len(set(e['conn'] for e in gets)) == 1


def test_the_task_environment_reaches_the_options(service, tmp_path):
    """SERVICE_URL from the task's environment: keyword, as a module would see it."""
    defaults = service_defaults(service)
    url = defaults.pop('service_url')
    task = {'name': 'env', 'automation.service.user_info': {'username': service.admin_username},
            'environment': {'SERVICE_URL': url}, 'register': 'found'}
    code, out = run_playbook(tmp_path, [task, dump_results(['found'])], module_defaults=defaults)
    assert code == 0, out
    assert read_results(tmp_path)['found']['users'][0]['username'] == service.admin_username


def test_async_with_poll_zero_then_async_status(service, world, tmp_path):
    tasks = [
        {'name': 'start', 'automation.service.host_info': {'inventory': world['inventory']},
         'async': 60, 'poll': 0, 'register': 'started'},
        {'name': 'status', 'ansible.builtin.async_status': {'jid': '{{ started.ansible_job_id }}'},
         'register': 'done', 'until': 'done.finished', 'retries': 30, 'delay': 1},
        dump_results(['done']),
    ]
    code, out = run_playbook(tmp_path, tasks, module_defaults=service_defaults(service))
    assert code == 0, out
    assert [h['name'] for h in read_results(tmp_path)['done']['hosts']] == ['web-%s' % world['tag']]


def test_a_controller_without_requests_gets_one_line_saying_how_to_install_it(service, tmp_path):
    """A real ansible-playbook whose Python cannot import requests (a
    sitecustomize in PYTHONPATH hides it, as if it were not installed)."""
    hide = tmp_path / 'hide'
    hide.mkdir()
    (hide / 'sitecustomize.py').write_text(
        'import sys\n'
        'class Hide:\n'
        '    def find_spec(self, name, path=None, target=None):\n'
        '        if name == "requests" or name.startswith("requests."):\n'
        '            raise ImportError("No module named %r" % name)\n'
        '        return None\n'
        'sys.meta_path.insert(0, Hide())\n')
    task = {'name': 'no requests', 'automation.service.user_info': {'username': service.admin_username},
            'register': 'found', 'ignore_errors': True}
    env = {'PYTHONPATH': str(hide), 'SERVICE_CACHE_DIR': str(tmp_path / 'cache')}
    code, out = run_playbook(tmp_path, [task, dump_results(['found'])], env=env,
                             module_defaults=service_defaults(service))
    assert code == 0, out
    found = read_results(tmp_path)['found']
    assert found['failed']
    assert found['msg'].startswith('The Python package requests is not installed for ')
    assert '-m pip install requests' in found['msg']
    assert 'Traceback' not in out
