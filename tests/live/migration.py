"""Moving an AWX into the platform, as a user does it: objects made in an AWX-layout service, then one play
that exports them from it and imports them into a service in the platform gateway's layout (in check mode
with a diff first, then for real, then again), between two reference services (test_migration.py)."""

import json
import os
import uuid

import requests

from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import run_module

from .playbook import run_playbook

GW = '/api/gateway/v1/'


def connection(values):
    """The collection's connection options for the SERVICE_* values of a service."""
    return dict(service_url=values['SERVICE_URL'], ca_path=values['SERVICE_CA_PATH'],
                service_username=values['SERVICE_ADMIN_USERNAME'], service_password=values['SERVICE_ADMIN_PASSWORD'])


class Reader:
    """Reads of one service's API as its administrator (Basic), to check where the objects landed."""

    def __init__(self, values, controller):
        self.url = values['SERVICE_URL'].rstrip('/')
        self.controller = controller      # /api/v2/ or /api/controller/v2/
        self.session = requests.Session()
        self.session.auth = (values['SERVICE_ADMIN_USERNAME'], values['SERVICE_ADMIN_PASSWORD'])
        self.ca = values['SERVICE_CA_PATH']

    def list(self, path, **filters):
        if not path.startswith('/'):
            path = self.controller + path
        response = self.session.get(self.url + path, params=filters, verify=self.ca, timeout=60)
        response.raise_for_status()
        return response.json()['results']

    def one(self, path, **filters):
        found = self.list(path, **filters)
        assert len(found) == 1, (path, filters, found)
        return found[0]


def module(module_name, values, **params):
    result = run_module(module_name, dict(connection(values), **params))
    assert not result.get('failed'), (module_name, params.get('name') or params.get('username'), result.get('msg'))
    return result


class Objects:
    """What the source service holds: an organization with a team, two users (a member of both, an admin of the
    organization), a credential with a secret, an inventory, and roles on them that stay at the controller."""

    def __init__(self):
        tag = uuid.uuid4().hex[:8]
        self.org, self.team, self.cred, self.inv = ('mig-%s-%s' % (kind, tag) for kind in ('org', 'team', 'cred', 'inv'))
        self.member, self.admin = 'mig-member-' + tag, 'mig-admin-' + tag
        self.secret = 'Mig-secret-' + uuid.uuid4().hex
        self.credential_label = 'credential %s/%s/Machine/ssh' % (self.org, self.cred)

    def make(self, source):
        module('organization', source, name=self.org, description='moved from AWX', max_hosts=50)
        module('team', source, name=self.team, organization=self.org, description='operators')
        for username in (self.member, self.admin):
            module('user', source, username=username, password=self.secret, email=username + '@example.com',
                   first_name='Mig')
        module('role', source, users=[self.member], organizations=[self.org], role='member')
        module('role', source, users=[self.member], target_teams=[self.team], lookup_organization=self.org,
               role='member')
        module('role', source, users=[self.admin], organizations=[self.org], role='admin')
        module('credential', source, name=self.cred, organization=self.org, credential_type='Machine',
               inputs={'username': 'deployer', 'password': self.secret})
        module('inventory', source, name=self.inv, organization=self.org, variables={'region': 'east'})
        module('role', source, users=[self.member], credentials=[self.cred], role='use')
        module('role', source, users=[self.admin], inventories=[self.inv], lookup_organization=self.org, role='admin')

    def selection(self):
        return dict(organizations=[self.org], teams=[self.team], users=[self.member, self.admin],
                    credentials=[self.cred], inventory=[self.inv])

    def remove(self, values):
        """Remove them (whatever of them is there), from either service."""
        for name, params in (('inventory', dict(name=self.inv, organization=self.org)),
                             ('credential', dict(name=self.cred, organization=self.org, credential_type='Machine')),
                             ('team', dict(name=self.team, organization=self.org)),
                             ('user', dict(username=self.member)), ('user', dict(username=self.admin)),
                             ('organization', dict(name=self.org))):
            run_module(name, dict(connection(values), state='absent', **params))


def migrate(workdir, objects, source, target):
    """The play: export from ``source``, import into ``target`` in check mode with a diff, for real, and again.
    The registered results, by task."""
    results = os.path.join(str(workdir), 'results.json')
    tasks = [
        {'name': 'Export from AWX', 'automation.service.export': dict(objects.selection(), **connection(source)),
         'register': 'exported'},
        {'name': 'The plan', 'automation.service.import': dict(assets='{{ exported.assets }}', **connection(target)),
         'check_mode': True, 'diff': True, 'register': 'planned'},
        {'name': 'Import into the platform',
         'automation.service.import': dict(assets='{{ exported.assets }}', **connection(target)),
         'diff': True, 'register': 'imported'},
        {'name': 'Import again', 'automation.service.import': dict(assets='{{ exported.assets }}', **connection(target)),
         'register': 'again'},
        {'name': 'Keep the results', 'ansible.builtin.copy': {
            'dest': results, 'mode': '0600',
            'content': '{{ {"exported": exported, "planned": planned, "imported": imported, "again": again} | to_json }}'}},
    ]
    code, output = run_playbook(workdir, tasks)
    assert code == 0, output[-6000:]
    assert objects.secret not in output
    with open(results) as handle:
        return json.load(handle), output


def check_migration(workdir, objects, source, target):
    """Make the objects in ``source``, move them to ``target`` (a gateway layout), and check where each landed."""
    controller = Reader(target, '/api/controller/v2/')
    objects.make(source)
    results, output = migrate(workdir, objects, source, target)
    planned, imported, again = results['planned'], results['imported'], results['again']

    # check mode: the whole plan, nothing written
    for label in ('organization ' + objects.org, 'team %s/%s' % (objects.org, objects.team), 'user ' + objects.member,
                  'user ' + objects.admin, objects.credential_label, 'inventory %s/%s' % (objects.org, objects.inv)):
        assert label in planned['created'], (label, planned['created'])
    assert planned['changed'] and planned['diff']
    assert imported['created'] == planned['created']

    # organizations, teams, users and memberships at the gateway
    org = controller.one(GW + 'organizations/', name=objects.org)
    assert org['description'] == 'moved from AWX'
    team = controller.one(GW + 'teams/', name=objects.team, organization=org['id'])
    member = controller.one(GW + 'users/', username=objects.member)
    admin = controller.one(GW + 'users/', username=objects.admin)
    assert member['email'] == objects.member + '@example.com' and member['first_name'] == 'Mig'
    definitions = dict((d['name'], d['id']) for d in controller.list(GW + 'role_definitions/', page_size=200))
    for user, definition, target_id in ((member, 'Organization Member', org['id']), (member, 'Team Member', team['id']),
                                        (admin, 'Organization Admin', org['id'])):
        controller.one(GW + 'role_user_assignments/', user=user['id'], role_definition=definitions[definition],
                       object_id=target_id)
    # everything else at the controller, the organization's own fields too
    copy = controller.one('organizations/', name=objects.org)
    assert copy['max_hosts'] == 50
    listed = [u['username'] for u in controller.list('organizations/%d/users/' % copy['id'])]
    assert objects.member in listed, listed
    credential = controller.one('credentials/', name=objects.cred, organization=copy['id'])
    assert credential['inputs'] == {'username': 'deployer'}
    inventory = controller.one('inventories/', name=objects.inv, organization=copy['id'])
    assert json.loads(inventory['variables'] or '{}') == {'region': 'east'} or 'region: east' in inventory['variables']
    member_copy = controller.one('users/', username=objects.member)
    roles = [(r['name'], r['summary_fields'].get('resource_name')) for r in controller.list(
        'users/%d/roles/' % member_copy['id'], page_size=200)]
    assert ('Use', objects.cred) in roles, roles

    # who needs a password, which secrets are missing
    assert sorted(imported['users_without_password']) == sorted([objects.member, objects.admin])
    assert imported['secrets_needed'] == {objects.credential_label: ['password']}

    # the second import changes nothing, and still says what is missing
    assert not again['changed'] and again['created'] == [] and again['updated'] == [], again
    assert again['users_without_password'] == []
    assert again['secrets_needed'] == {objects.credential_label: ['password']}
    assert objects.secret not in json.dumps(results)
    return results
