"""Session login at a platform gateway with a directory's credentials: django-ansible-base's LDAP
authenticator ("Test LDAP", slug test-ldap) against a real OpenLDAP server (tests/idp/idpctl.py, StartTLS
on loopback), in the reference service's gateway layout (svcctl start --layout gateway --with-idp).

The collection logs in with ``service_auth: session`` and the directory's username and password: the
gateway's login form tries its authenticators, the LDAP one binds as the user, and the user's first
login creates the gateway's (external) user. The authenticator's maps: only members of the directory's
``admins`` and ``users`` groups may log in, ``admins`` makes superusers, ``users`` makes members of the Default
organization (the role Organization Member) and ``admins`` administrators of the team "Directory admins" (Team
Admin), a team the login makes. Real HTTPS and LDAP round
trips; counts come from the service's request log."""

import re
import sys
import uuid
from pathlib import Path

import pytest

from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, AuthError
from ansible_collections.automation.service.plugins.module_utils._options import resolve
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache

from .helpers import forget_layouts  # noqa: F401 (the fixture)
from ...playbook import ROOT, run_playbook

sys.path.insert(0, str(Path(ROOT) / 'tests' / 'idp'))
import idpctl  # noqa: E402

GATEWAY_LOGIN = '/api/gateway/v1/login/'
ME = '/api/gateway/v1/me/'
SLUG = 'test-ldap'


@pytest.fixture(scope='module')
def gateway(gateway_service_factory):
    gw = gateway_service_factory(with_idp=True)
    assert gw.exports.get('LDAP_URL', '').startswith('ldap://127.0.0.1:'), \
        'the gateway was started without the LDAP test directory (slapd: make system-deps)'
    return gw


def client(gw, username, password, **given):
    options = {'service_url': gw.url, 'ca_path': gw.ca_path, 'service_auth': 'session',
               'service_username': username, 'service_password': password}
    options.update(given)
    return connect(resolve(options, environ={}), SessionCache(enabled=False))


def admin(gw):
    return client(gw, gw.admin_username, gw.admin_password, service_auth='basic')


def me(api):
    found = api.get(ME)['results']
    assert len(found) == 1, found
    return found[0]


def gateway_user(gw, username):
    found = admin(gw).get('/api/gateway/v1/users/', params={'username': username})['results']
    return found[0] if found else None


def ldap_authenticator(gw):
    found = admin(gw).get('/api/gateway/v1/authenticators/', params={'slug': SLUG})['results']
    assert len(found) == 1, found
    return found[0]


def logins(entries):
    return [(e['status'], e['user']) for e in entries if (e['method'], e['path']) == ('POST', GATEWAY_LOGIN)]


def test_the_ldap_authenticator_is_enabled_with_its_secret_hidden(gateway):
    authenticator = ldap_authenticator(gateway)
    assert authenticator['enabled'] is True
    assert authenticator['type'] == 'ansible_base.authentication.authenticator_plugins.ldap'
    configuration = authenticator['configuration']
    assert configuration['SERVER_URI'] == [gateway.exports['LDAP_URL']]
    assert configuration['START_TLS'] is True
    assert configuration['BIND_PASSWORD'] == '$encrypted$'


def test_a_directory_admin_logs_in_at_the_gateway_and_the_map_makes_a_superuser(gateway):
    username, password = gateway.exports['LDAP_ADMIN_USERNAME'], gateway.exports['LDAP_ADMIN_PASSWORD']
    mark = gateway.mark()
    api = client(gateway, username, password)
    found = me(api)
    assert (found['username'], found['is_superuser']) == (username, True)
    assert (found['first_name'], found['last_name'], found['email']) == ('Ada', 'Admin', 'ldap-admin@ldap.example.test')
    assert logins(gateway.since(mark)) == [(302, username)]
    # The controller sees the same user (one database), a superuser there too.
    controller = api.get('me')['results'][0]
    assert (controller['username'], controller['is_superuser']) == (username, True)


def test_a_first_login_creates_the_external_user_with_the_maps_it_matches(gateway):
    """A person new to the directory, in its users group: no gateway user before the login, one linked to the
    LDAP authenticator after it, not a superuser (the admins map does not match); a second login finds it."""
    name = 'ldap-%s' % uuid.uuid4().hex[:8]
    record = idpctl.add_ldap_user(gateway.dir, name, groups=['users'], given_name='Nina', family_name='New')
    assert gateway_user(gateway, name) is None
    found = me(client(gateway, name, record['password']))
    assert (found['username'], found['is_superuser'], found['first_name']) == (name, False, 'Nina')
    user = gateway_user(gateway, name)
    assert user['authenticators'] == [ldap_authenticator(gateway)['id']]
    assert user['authenticator_uid'] == name
    again = me(client(gateway, name, record['password']))
    assert again['id'] == found['id']


def assignments(gw, user_id):
    found = admin(gw).get('/api/gateway/v1/role_user_assignments/', params={'user': user_id, 'page_size': 200})
    return sorted((a['summary_fields']['role_definition']['name'], a['content_type'],
                   (a['summary_fields'].get('content_object') or {}).get('name')) for a in found['results'])


def test_the_maps_grant_organization_and_team_roles_at_login(gateway):
    """A new member of both groups: before the login no user; after it, the roles the maps grant, at the gateway
    and as the controller's memberships; the team the team map names was made by the login."""
    name = 'ldap-roles-%s' % uuid.uuid4().hex[:8]
    record = idpctl.add_ldap_user(gateway.dir, name, groups=['users', 'admins'])
    found = me(client(gateway, name, record['password']))
    assert assignments(gateway, found['id']) == [
        ('Organization Member', 'shared.organization', 'Default'),
        ('Team Admin', 'shared.team', 'Directory admins')]
    api = admin(gateway)
    default = api.get('organizations', params={'name': 'Default'})['results'][0]
    assert name in [u['username'] for u in api.get('organizations/%d/users' % default['id'], params={'page_size': 200})['results']]
    # A second login keeps them, once each.
    me(client(gateway, name, record['password']))
    assert len(assignments(gateway, found['id'])) == 2


def test_a_map_granting_a_role_of_the_wrong_kind_is_refused_in_the_gateways_words(gateway):
    api = admin(gateway)
    body = {'name': 'wrong-%s' % uuid.uuid4().hex[:8], 'authenticator': ldap_authenticator(gateway)['id'],
            'map_type': 'organization', 'organization': 'Default', 'role': 'Team Member', 'triggers': {'always': {}}}
    with pytest.raises(ApiError) as caught:
        api.request('POST', '/api/gateway/v1/authenticator_maps/', json_body=body)
    assert caught.value.status == 400
    assert 'For an organization map type you must specify an organization based role' in str(caught.value)
    body['role'] = 'No such role'
    with pytest.raises(ApiError) as caught:
        api.request('POST', '/api/gateway/v1/authenticator_maps/', json_body=body)
    assert "RoleDefinition No such role doesn't exist" in str(caught.value)


def test_a_directory_user_is_no_superuser(gateway):
    found = me(client(gateway, gateway.exports['LDAP_USERNAME'], gateway.exports['LDAP_PASSWORD']))
    assert (found['username'], found['is_superuser']) == (gateway.exports['LDAP_USERNAME'], False)


def test_a_wrong_directory_password_is_refused(gateway):
    username = gateway.exports['LDAP_USERNAME']
    mark = gateway.mark()
    with pytest.raises(AuthError, match='rejected the username or password of user %s' % username) as caught:
        client(gateway, username, 'not-the-password')
    assert 'not-the-password' not in str(caught.value)
    assert logins(gateway.since(mark)) == [(401, None)]


def test_the_allow_map_refuses_a_directory_user_outside_its_groups(gateway):
    """The right password, but in neither group: the LDAP bind succeeds and the allow map denies the login."""
    name = 'ldap-out-%s' % uuid.uuid4().hex[:8]
    record = idpctl.add_ldap_user(gateway.dir, name, groups=[])
    with pytest.raises(AuthError, match='rejected the username or password of user %s' % name):
        client(gateway, name, record['password'])


def test_a_play_runs_as_the_directory_user_through_the_gateway(gateway, tmp_path):
    username, password = gateway.exports['LDAP_ADMIN_USERNAME'], gateway.exports['LDAP_ADMIN_PASSWORD']
    inventory = 'ldap-inv-%s' % uuid.uuid4().hex[:8]
    defaults = {'service_url': gateway.url, 'ca_path': gateway.ca_path, 'service_auth': 'session',
                'service_username': username, 'service_password': password}
    tasks = [
        {'name': 'inventory', 'automation.service.inventory': {'name': inventory, 'organization': 'Default'},
         'register': 'made'},
        {'name': 'host', 'automation.service.host': {'name': 'web1.example.test', 'inventory': inventory,
                                                     'variables': {'role': 'web'}}},
        {'name': 'host again', 'automation.service.host': {'name': 'web1.example.test', 'inventory': inventory,
                                                           'variables': {'role': 'web'}},
         'register': 'again'},
        {'name': 'check', 'ansible.builtin.assert': {'that': ['made is changed', 'again is not changed']}},
    ]
    mark = gateway.mark()
    rc, output = run_playbook(tmp_path, tasks, env={'SERVICE_CACHE_DIR': str(tmp_path / 'cache')},
                              module_defaults=defaults)
    assert rc == 0, output
    assert password not in output
    entries = gateway.since(mark)
    # One login, as the directory user, for the whole play; two writes (the second host task changes nothing).
    assert logins(entries) == [(302, username)]
    writes = [e for e in entries if e['method'] in ('POST', 'PATCH', 'PUT', 'DELETE') and e['path'] != GATEWAY_LOGIN]
    assert [(e['method'], e['path'], e['status']) for e in writes] == [
        ('POST', '/api/v2/inventories/', 201), ('POST', '/api/v2/hosts/', 201)]
    # The controller records the directory user as the one who made them.
    found = admin(gateway).get('inventories', params={'name': inventory})['results']
    assert [i['summary_fields']['created_by']['username'] for i in found] == [username]
    hosts = admin(gateway).get('hosts', params={'name': 'web1.example.test', 'inventory': found[0]['id']})['results']
    assert [h['summary_fields']['created_by']['username'] for h in hosts] == [username]
    assert re.search(r'role: web|"role": "web"', hosts[0]['variables'])
