"""make compat's redirect collections: a role written as infra.aap_configuration's are (its meta/main.yml names
ansible.controller and awx.awx, or ansible.platform, or ansible.eda; module names bare and in full; its async
pattern) runs with them first on the collections path, against the reference service in the platform gateway's
layout, and every request the service gets comes from automation.service's code (the User-Agent only it sends; the
results carry what only its modules return)."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import yaml

from . import compat
from .playbook import collection_tree, run_playbook, service_defaults

HERE = Path(__file__).resolve().parent
ANSIBLE_PLAYBOOK = str(Path(sys.executable).parent / 'ansible-playbook')
AGENT = 'automation.service-ansible-collection'


def runtime(tree, collection):
    namespace, name = collection.split('.')
    with open(os.path.join(tree, 'ansible_collections', namespace, name, 'meta', 'runtime.yml')) as handle:
        return yaml.safe_load(handle)


@pytest.fixture(scope='module')
def compat_tree(tmp_path_factory):
    tree = str(tmp_path_factory.mktemp('compat'))
    compat.write(tree)
    return tree


def test_every_name_is_redirected_to_automation_service_or_said_not_to_be(compat_tree):
    names = compat.load_names()
    for collection in ('awx.awx', 'ansible.controller', 'ansible.platform', 'ansible.eda', 'ansible.hub'):
        routing = runtime(compat_tree, collection)['plugin_routing']
        with open(os.path.join(compat_tree, 'ansible_collections', *collection.split('.'), 'README.md')) as handle:
            readme = handle.read()
        for kind in compat.KINDS:
            for name in names[collection][kind]:
                target = routing.get(kind, {}).get(name, {}).get('redirect')
                if target is None:
                    assert '%s `%s`' % (kind, name) in readme, (collection, kind, name)
                    continue
                assert target == 'automation.service.%s' % compat.target(names[collection], name)
        # No action is redirected (the modules take their action plugin where they go): see the role test.
        assert 'action' not in routing, collection
    # awx.awx and ansible.controller lose nothing; ansible.platform only what this collection lacks or has apart.
    for collection in ('awx.awx', 'ansible.controller'):
        routing = runtime(compat_tree, collection)['plugin_routing']
        assert sorted(routing['modules']) == sorted(names['awx.awx']['modules'])
        assert sorted(routing['lookup']) == sorted(names['awx.awx']['lookup'])
        assert sorted(routing['inventory']) == sorted(names['awx.awx']['inventory'])
    platform = runtime(compat_tree, 'ansible.platform')['plugin_routing']['modules']
    assert 'settings' in platform and 'team' in platform and 'role_user_assignment' in platform
    # ansible.eda loses nothing either: each of its names goes to an eda_* module, and its group holds them all.
    eda = runtime(compat_tree, 'ansible.eda')
    assert sorted(eda['plugin_routing']['modules']) == sorted(names['ansible.eda']['modules'])
    assert sorted(eda['action_groups']['eda']) == sorted(names['ansible.eda']['action_groups']['eda'])


# ansible.eda 2.13's modules (its action group eda) and the names they have here: fixed by the issue that brought
# EDA into this collection (ansible.eda's names clash with the controller's modules, so each takes the prefix eda_).
EDA_MODULES = {
    'activation': 'eda_rulebook_activation', 'activation_info': 'eda_rulebook_activation_info',
    'controller_token': 'eda_controller_token', 'credential': 'eda_credential', 'credential_info': 'eda_credential_info',
    'credential_input_source': 'eda_credential_input_source',
    'credential_input_source_info': 'eda_credential_input_source_info', 'credential_type': 'eda_credential_type',
    'credential_type_info': 'eda_credential_type_info', 'decision_environment': 'eda_decision_environment',
    'decision_environment_info': 'eda_decision_environment_info', 'event_stream': 'eda_event_stream',
    'event_stream_info': 'eda_event_stream_info', 'project': 'eda_project', 'project_info': 'eda_project_info',
    'role_team_assignment': 'eda_role_team_assignment', 'rulebook_activation': 'eda_rulebook_activation',
    'rulebook_activation_copy': 'eda_rulebook_activation_copy', 'rulebook_activation_info': 'eda_rulebook_activation_info',
    'rulebook_info': 'eda_rulebook_info', 'user': 'eda_user',
}


def test_ansible_eda_s_names_go_to_the_eda_modules_and_its_group_holds_them():
    names = compat.load_names()
    eda = names['ansible.eda']
    assert sorted(eda['modules']) == sorted(EDA_MODULES) and sorted(eda['action_groups']['eda']) == sorted(EDA_MODULES)
    have = compat.ours()
    with_eda = dict(have, modules=have['modules'] | set(EDA_MODULES.values()))
    runtime_, skipped = compat.plan(names, with_eda)['ansible.eda']
    assert skipped == {}
    routing = runtime_['plugin_routing']
    assert set(routing) == {'modules'}
    assert dict((name, route['redirect']) for name, route in routing['modules'].items()) == dict(
        (name, 'automation.service.' + ours) for name, ours in EDA_MODULES.items())
    # ansible.eda's old names keep its deprecation; no other name has one.
    deprecated = dict((name, route['deprecation']) for name, route in routing['modules'].items() if 'deprecation' in route)
    assert sorted(deprecated) == ['activation', 'activation_info']
    assert deprecated['activation']['removal_version'] == '4.0.0'
    assert 'rulebook_activation_info' in deprecated['activation_info']['warning_text']
    # module_defaults: group/ansible.eda.eda reaches every one of them, the old names too.
    assert sorted(runtime_['action_groups']['eda']) == sorted(EDA_MODULES)
    # A module this collection lacks is named in the README instead (and the group lists only what is redirected).
    without = dict(have, modules=with_eda['modules'] - {'eda_rulebook_activation'})
    runtime_, skipped = compat.plan(names, without)['ansible.eda']
    assert sorted(skipped) == [('modules', 'activation'), ('modules', 'rulebook_activation')]
    assert 'activation' not in runtime_['action_groups']['eda'] and 'user' in runtime_['action_groups']['eda']
    text = compat.readme('ansible.eda', eda, skipped)
    assert 'modules `rulebook_activation`: automation.service has no module plugin eda_rulebook_activation' in text
    assert 'extensions/eda/plugins' in text and 'with the prefix `eda_`' in text


# ansible.hub 1.0.0's modules: the issue that brought the Hub into this collection keeps every one under its own name.
HUB_MODULES = (
    'ah_approval', 'ah_build', 'ah_collection', 'ah_collection_upload', 'ah_ee_image', 'ah_ee_registry',
    'ah_ee_registry_index', 'ah_ee_registry_sync', 'ah_ee_repository', 'ah_ee_repository_sync', 'ah_group',
    'ah_namespace', 'ah_role', 'ah_token', 'ah_user', 'collection_remote', 'collection_repository',
    'collection_repository_sync', 'group_roles',
)


def test_ansible_hub_s_names_go_to_the_same_names_and_its_group_holds_them():
    names = compat.load_names()
    hub = names['ansible.hub']
    assert sorted(hub['modules']) == sorted(HUB_MODULES) and hub['lookup'] == [] and hub['inventory'] == []
    assert 'prefix' not in hub and 'renamed' not in hub
    # Its group hub holds every module but ah_build (a local build: ansible.hub's runtime.yml leaves it out).
    assert sorted(hub['action_groups']) == ['hub']
    assert sorted(hub['action_groups']['hub']) == sorted(set(HUB_MODULES) - {'ah_build'})
    have = compat.ours()
    with_hub = dict(have, modules=have['modules'] | set(HUB_MODULES))
    runtime_, skipped = compat.plan(names, with_hub)['ansible.hub']
    assert skipped == {}
    assert set(runtime_['plugin_routing']) == {'modules'}
    assert runtime_['plugin_routing']['modules'] == dict(
        (name, {'redirect': 'automation.service.' + name}) for name in HUB_MODULES)
    # module_defaults: group/ansible.hub.hub reaches each redirected name, as ansible-core 2.19+ looks it up.
    assert runtime_['action_groups'] == {'hub': hub['action_groups']['hub']}
    # A module this collection lacks is named in the README and left out of the group.
    without = dict(have, modules=with_hub['modules'] - {'ah_token'})
    runtime_, skipped = compat.plan(names, without)['ansible.hub']
    assert sorted(skipped) == [('modules', 'ah_token')] and 'ah_token' not in runtime_['action_groups']['hub']
    assert 'ah_user' in runtime_['action_groups']['hub']
    text = compat.readme('ansible.hub', hub, skipped)
    assert 'modules `ah_token`: automation.service has no module plugin ah_token' in text
    assert 'prefix' not in text and 'ah_build' in text


def test_a_role_written_as_infra_s_calls_only_automation_service(gateway_service_factory, compat_tree, tmp_path):
    service = gateway_service_factory()
    prefix = 'compat-' + uuid.uuid4().hex[:6]
    organizations = [prefix + '-one', prefix + '-two']
    # ansible.eda's users reach EDA through a gateway with a token (its docs: Basic is not supported there).
    status, token = service.admin_request('POST', '/api/gateway/v1/tokens/', {'description': prefix, 'scope': 'write'})
    assert status == 201, token
    eda_secret = uuid.uuid4().hex
    play = [{
        'name': 'Roles written for awx.awx, ansible.controller and ansible.platform',
        'hosts': 'localhost',
        'connection': 'local',
        'gather_facts': False,
        'vars': {
            'ansible_python_interpreter': '{{ ansible_playbook_python }}',
            'aap_hostname': service.url,
            'aap_username': service.admin_username,
            'aap_password': service.admin_password,
            'compat_prefix': prefix,
            'compat_organizations': organizations,
            'compat_teams': [{'name': prefix + '-team-%d' % i, 'organization': org} for i, org in enumerate(organizations)],
            'compat_label': prefix + '-label',
            'compat_users': [prefix + '-user-%d' % i for i in range(3)],
            'compat_user_password': uuid.uuid4().hex,
            'compat_platform_team': prefix + '-platform-team',
            'compat_ca_bundle': str(service.ca_path),
            # The lookup's own variable for its CA (module_defaults reach modules only).
            'automation_service_ca_path': str(service.ca_path),
            'compat_role_definition': prefix + '-role',
            'aap_token': token['token'],
            'compat_eda_prefix': prefix,
            'compat_eda_credentials': [
                {'name': prefix + '-key', 'type': prefix + '-type', 'inputs': {'api_key': eda_secret}},
                {'name': prefix + '-registry', 'type': 'Container Registry', 'description': 'pulls the images',
                 'inputs': {'host': 'quay.io', 'username': 'puller', 'password': eda_secret}},
                {'name': prefix + '-stream-credential', 'type': 'Basic Event Stream',
                 'inputs': {'username': 'sender', 'password': eda_secret}},
            ],
            'compat_eda_decision_environments': [
                {'name': prefix + '-de', 'image_url': 'quay.io/ansible/ansible-rulebook:main',
                 'credential': prefix + '-registry', 'pull_policy': 'missing'},
                {'name': prefix + '-de-public', 'image_url': 'quay.io/ansible/ansible-rulebook:latest'},
            ],
            # The public sample project ansible.eda's integration targets import: the reference service clones
            # its own copy of it (no network).
            'compat_eda_project_url': 'https://github.com/ansible/eda-sample-project',
        },
        # The groups of the redirect collections hold our modules: the CA comes only from here for the
        # controller role, the platform role's role definitions and every task of the EDA role.
        'module_defaults': {'group/awx.awx.controller': {'aap_ca_bundle': str(service.ca_path)},
                            'group/ansible.platform.gateway': {'aap_ca_bundle': str(service.ca_path)},
                            'group/ansible.eda.eda': {'aap_ca_bundle': str(service.ca_path)}},
        'roles': ['compat_controller', 'compat_platform', 'compat_eda'],
    }]
    playbook = tmp_path / 'play.yml'
    playbook.write_text(json.dumps(play))
    env = dict((k, v) for k, v in os.environ.items()
               if not k.startswith(('SERVICE_', 'CONTROLLER_', 'TOWER_', 'AAP_', 'GATEWAY_', 'ANSIBLE_')))
    env.update({
        # The redirect collections first, then the one that holds automation.service and nothing else.
        'ANSIBLE_COLLECTIONS_PATH': os.pathsep.join([compat_tree, collection_tree(tmp_path)]),
        'ANSIBLE_COLLECTIONS_SCAN_SYS_PATH': 'false',
        'ANSIBLE_ROLES_PATH': str(HERE / 'compat_roles'),
        'ANSIBLE_LOCALHOST_WARNING': 'false',
        'ANSIBLE_INVENTORY_UNPARSED_WARNING': 'false',
        'ANSIBLE_NOCOLOR': '1',
        'SERVICE_CACHE_DIR': str(tmp_path / 'session-cache'),
    })
    mark = service.mark()
    result = subprocess.run([ANSIBLE_PLAYBOOK, str(playbook), '-i', 'localhost,'], env=env, capture_output=True,
                            text=True, cwd=str(tmp_path), timeout=900, stdin=subprocess.DEVNULL)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert 'failed=0' in output and 'ok=' in output

    entries = service.since(mark)
    writes = [(e['method'], e['path']) for e in entries if e['method'] in ('POST', 'PATCH', 'PUT', 'DELETE')]
    assert writes, 'no request reached the service'
    agents = set(e.get('agent') for e in entries)
    assert agents == {AGENT}, agents
    # What the roles asked for is there, made at the gateway and the controller behind it.
    for path, name in [('/api/gateway/v1/organizations/', organizations[0]), ('/api/gateway/v1/organizations/', organizations[1]),
                       ('/api/gateway/v1/teams/', prefix + '-team-0'),
                       ('/api/controller/v2/labels/', prefix + '-label'),
                       ('/api/controller/v2/role_definitions/', prefix + '-role-renamed')]:
        status, data = service.admin_request('GET', '%s?name=%s' % (path, name))
        assert status == 200 and data['count'] == 1, (path, name, data)
    status, data = service.admin_request('GET', '/api/gateway/v1/users/?username__startswith=%s' % prefix)
    assert status == 200 and data['count'] == 3, data
    # The team new_organization moved: at the gateway, in the second organization.
    status, data = service.admin_request('GET', '/api/gateway/v1/organizations/?name=%s' % organizations[1])
    second = data['results'][0]['id']
    status, data = service.admin_request('GET', '/api/gateway/v1/teams/?name=%s-platform-team' % prefix)
    assert status == 200 and [team['organization'] for team in data['results']] == [second], data
    # The EDA role's objects, made in EDA behind the gateway; its old name activation warned as ansible.eda does.
    eda = '/api/eda/v1/'
    assert any(path.startswith(eda) for method, path in writes)
    for endpoint, names in [('credential-types/', [prefix + '-type']),
                            ('eda-credentials/', [prefix + '-key', prefix + '-registry', prefix + '-stream-credential']),
                            ('decision-environments/', [prefix + '-de', prefix + '-de-public']),
                            ('projects/', [prefix + '-project']), ('event-streams/', [prefix + '-stream']),
                            ('activations/', [prefix + '-activation'])]:
        status, data = service.admin_request('GET', '%s%s?name=%s&page_size=50' % (eda, endpoint, prefix))
        assert status == 200, (endpoint, data)
        assert sorted(obj['name'] for obj in data['results'] if obj['name'] in names) == sorted(names), (endpoint, data)
    status, data = service.admin_request('GET', '%sactivations/?name=%s-activation' % (eda, prefix))
    assert [obj['is_enabled'] for obj in data['results']] == [False], data
    assert 'renamed to rulebook_activation' in ' '.join(output.split()), output[-4000:]
    assert eda_secret not in output and token['token'] not in output


def test_new_organization_moves_a_team_on_awx_24(svc, tmp_path):
    prefix = 'move-' + uuid.uuid4().hex[:6]
    status, data = svc.admin_request('POST', '/api/v2/organizations/', {'name': prefix + '-to'})
    assert status == 201, data
    target = data['id']
    team = {'name': prefix + '-team', 'organization': 'Default'}
    moved = dict(team, new_organization=prefix + '-to')
    tasks = [
        {'name': 'made', 'automation.service.team': team, 'register': 'made'},
        {'name': 'moved', 'automation.service.team': moved, 'register': 'moved'},
        {'name': 'again', 'automation.service.team': moved, 'register': 'again'},
        {'name': 'made in the new one', 'automation.service.team': dict(moved, name=prefix + '-new'), 'register': 'new'},
        {'ansible.builtin.assert': {'that': [
            'made is changed and moved is changed and again is not changed',
            'moved.id == made.id and again.id == made.id',
            'moved.team.organization == %d and again.team.organization == %d' % (target, target),
            'new is changed and new.team.organization == %d' % target,
        ]}},
    ]
    code, output = run_playbook(tmp_path, tasks, module_defaults=service_defaults(
        svc, service_username=svc.admin_username, service_password=svc.admin_password))
    assert code == 0, output[-4000:]
    status, data = svc.admin_request('GET', '/api/v2/teams/?name__startswith=%s' % prefix)
    assert sorted((t['name'], t['organization']) for t in data['results']) == [
        (prefix + '-new', target), (prefix + '-team', target)], data
