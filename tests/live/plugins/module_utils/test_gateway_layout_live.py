"""The collection against the reference service in its gateway layout (an Automation Platform
2.5-2.7 platform gateway in front of the controller: tests/service/README.md, "Gateway layout"),
and against the default AWX 24 layout with ``service_layout: auto``. Real HTTPS requests; request
counts come from the service's own request log (requests.jsonl in its directory).

In the gateway layout the service logs a controller request under the path the controller sees
(``/api/controller/v2/me/`` as ``/api/v2/me/``), so where a test needs the path the client used it
reads the address of the answer.
"""

import os
import subprocess
import sys
import uuid

import pytest

from ansible_collections.automation.service.plugins.module_utils import _client
from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError
from ansible_collections.automation.service.plugins.module_utils._options import resolve
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache, entry_key

from .helpers import forget_layouts  # noqa: F401 (the fixture)
from ...playbook import run_playbook

GATEWAY_LOGIN = '/api/gateway/v1/login/'


# The instances come from the pool of tests/conftest.py: one per worker, stopped at the end of the run
# (ansible-test units runs each test in a fork, where a module's fixture would start one per test).
@pytest.fixture(scope='module')
def gateway(gateway_service_factory):
    return gateway_service_factory()


@pytest.fixture(scope='module')
def gateway_without_basic(gateway_service_factory):
    return gateway_service_factory(GATEWAY_BASIC_AUTH_ENABLED='false')


def options(svc, **given):
    base = {'service_url': svc.url, 'ca_path': str(svc.ca_path),
            'service_username': svc.admin_username, 'service_password': svc.admin_password}
    base.update(given)
    return resolve(base, environ={})


def connect_to(svc, **given):
    return connect(options(svc, **given))


def root_asks(entries):
    return [e for e in entries if (e['method'], e['path']) == ('GET', '/api/')]


def gateway_logins(entries):
    return [e for e in entries if (e['method'], e['path']) == ('POST', GATEWAY_LOGIN)]


def me(client):
    return client.get('me')['results'][0]['username']


# -- the layout, found and kept ------------------------------------------------------------


def test_the_layout_is_found_from_the_api_root_once_and_kept_in_the_session_cache(gateway, isolated_cache):
    mark = gateway.mark()
    first = connect_to(gateway)
    assert first.layout.is_gateway
    assert (first.layout.controller, first.layout.gateway) == ('/api/controller/v2/', '/api/gateway/v1/')
    entries = gateway.since(mark)
    assert len(root_asks(entries)) == 1
    assert entries[0]['path'] == '/api/' and entries[0]['auth'] == 'anonymous'  # before the login, no credentials
    # kept per service, whoever logs in
    assert (isolated_cache / (entry_key(first.base_url, 'layout') + '.json')).exists()

    # Another process (a fork, a later task) finds it in the session cache: no GET /api/.
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
    mark = gateway.mark()
    second = connect_to(gateway, service_auth='basic')
    assert second.layout.is_gateway and me(second) == gateway.admin_username
    assert not root_asks(gateway.since(mark))

    # The items of a loop in one process do not read the cache either.
    mark = gateway.mark()
    third = connect(options(gateway, service_auth='basic'), SessionCache(directory=str(isolated_cache),
                                                                         enabled=False))
    assert third.layout.is_gateway
    assert not root_asks(gateway.since(mark))


def test_a_layout_given_is_not_asked_for(gateway):
    mark = gateway.mark()
    client = connect_to(gateway, service_layout='gateway', service_auth='basic')
    assert me(client) == gateway.admin_username
    assert not root_asks(gateway.since(mark))


def test_without_the_session_cache_each_process_asks_again(gateway):
    connect_to(gateway, session_cache=False, service_auth='basic').get('organizations')
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
    mark = gateway.mark()
    connect_to(gateway, session_cache=False, service_auth='basic').get('organizations')
    assert len(root_asks(gateway.since(mark))) == 1


# -- controller endpoints, absolute paths and related links ----------------------------------


def test_controller_endpoints_go_to_the_controller_prefix_and_links_keep_working(gateway):
    client = connect_to(gateway, service_auth='basic')
    answer = client.send('GET', 'me')
    assert answer.status == 200
    assert answer.url == gateway.url + '/api/controller/v2/me/'
    assert client.url('jobs/5/stdout?format=json') == gateway.url + '/api/controller/v2/jobs/5/stdout/?format=json'

    orgs = client.get('organizations')
    default = orgs['results'][0]
    assert default['url'].startswith('/api/controller/v2/organizations/')
    # a related link the service gave, as it is
    teams = client.send('GET', default['related']['teams'])
    assert teams.status == 200 and teams.url == gateway.url + default['related']['teams']
    # an absolute /api/v2/ path written for AWX goes to the controller's API too
    assert client.get('/api/v2/organizations/%d/' % default['id'])['id'] == default['id']
    # a page's next link
    pages = list(client.iterate('organizations', params={'page_size': 1}))
    assert len(pages) == orgs['count']


def test_a_create_and_delete_through_the_controller_prefix(gateway):
    client = connect_to(gateway)  # auto: a session at the gateway
    name = 'gw-' + uuid.uuid4().hex[:8]
    created = client.request('POST', 'inventories', json_body={'name': name, 'organization': 1})
    assert created['url'].startswith('/api/controller/v2/inventories/')
    assert client.get('inventories', params={'name': name})['count'] == 1
    client.request('DELETE', created['url'])
    assert client.get('inventories', params={'name': name})['count'] == 0


# -- authentication through the gateway ------------------------------------------------------


def test_session_login_at_the_gateway_is_confirmed_there_and_reused(gateway):
    mark = gateway.mark()
    first = connect_to(gateway, service_auth='session')
    entries = gateway.since(mark)
    assert [(e['method'], e['path'], e['status']) for e in entries] == [
        ('GET', '/api/', 200),
        ('GET', GATEWAY_LOGIN, 200),
        ('POST', GATEWAY_LOGIN, 302),
        ('GET', '/api/gateway/v1/me/', 200),
    ]
    assert first.auth.state['cookie_name'] == 'gateway_sessionid'
    assert first.auth.state['username'] == gateway.admin_username
    assert me(first) == gateway.admin_username

    # a later task reuses it: no login, no GET /api/
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
    mark = gateway.mark()
    second = connect_to(gateway, service_auth='session')
    assert second.auth.from_cache and me(second) == gateway.admin_username
    entries = gateway.since(mark)
    assert not gateway_logins(entries) and not root_asks(entries)
    assert [e['status'] for e in entries] == [200]

    # logout at the gateway ends it
    ended = second.auth.state['session_id']
    mark = gateway.mark()
    second.auth.logout(second)
    assert [(e['method'], e['path']) for e in gateway.since(mark)] == [('GET', '/api/gateway/v1/logout/')]
    cookie = {'Cookie': 'gateway_sessionid=%s' % ended}
    assert second.send('GET', '/api/gateway/v1/me/', headers=cookie, with_auth=False).status == 401


def test_a_bad_password_at_the_gateway_login(gateway):
    with pytest.raises(AuthError, match='rejected the username or password of user %s' % gateway.admin_username):
        connect_to(gateway, service_auth='session', service_password='not-the-password')


def test_a_gateway_token_works_on_both_apis(gateway):
    admin = connect_to(gateway, service_auth='basic')
    token = admin.request('POST', admin.settled_layout().gateway_path('tokens'), json_body={'description': 'gw', 'scope': 'write'})
    assert token['token'] and token['url'].startswith('/api/gateway/v1/tokens/')
    mark = gateway.mark()
    client = connect_to(gateway, service_username=None, service_password=None, service_token=token['token'])
    assert me(client) == gateway.admin_username
    assert client.get(client.layout.gateway_path('me'))['results'][0]['username'] == gateway.admin_username
    assert [e['status'] for e in gateway.since(mark)] == [200, 200]
    admin.request('DELETE', token['url'])
    with pytest.raises(AuthError, match='rejected the token'):
        me(connect_to(gateway, service_username=None, service_password=None, service_token=token))


def test_basic_at_the_gateway(gateway):
    mark = gateway.mark()
    client = connect_to(gateway, service_auth='basic')
    assert me(client) == gateway.admin_username
    entries = gateway.since(mark)
    assert not gateway_logins(entries)
    assert [e['auth'] for e in entries if e['path'] == '/api/v2/me/'] == ['basic']


def test_basic_turned_off_at_the_gateway_says_so_and_names_the_alternatives(gateway_without_basic):
    svc = gateway_without_basic
    client = connect_to(svc, service_auth='basic')
    with pytest.raises(AuthError) as caught:
        me(client)
    message = str(caught.value)
    assert 'Basic authentication is turned off at this platform gateway (%s)' % svc.url in message
    assert 'service_auth: session' in message and 'service_token' in message
    # a wrong password is still told apart
    with pytest.raises(AuthError, match='rejected the username or password of user'):
        me(connect_to(svc, service_auth='basic', service_password='not-the-password'))
    # and the session login works there
    assert me(connect_to(svc)) == svc.admin_username


def test_single_sign_on_without_an_authenticator_at_the_gateway_fails_clearly(gateway):
    # (SSO through the gateway's authenticators: test_gateway_sso_live.py)
    with pytest.raises(AuthError, match='The platform gateway at .* has no enabled single sign-on authenticator'):
        connect_to(gateway, service_auth='sso', service_sso_backend='oidc')


# -- awx.awx's and ansible.platform's names ------------------------------------------------


def test_the_aap_environment_variables_connect(gateway):
    environ = {'AAP_HOSTNAME': gateway.url, 'AAP_USERNAME': gateway.admin_username,
               'AAP_PASSWORD': gateway.admin_password, 'AAP_VALIDATE_CERTS': 'true', 'AAP_REQUEST_TIMEOUT': '7'}
    resolved = resolve({'ca_path': str(gateway.ca_path)}, environ=environ)
    assert resolved['request_timeout'] == 7.0 and resolved['validate_certs'] is True
    assert me(connect(resolved)) == gateway.admin_username
    # AAP_TOKEN
    admin = connect_to(gateway, service_auth='basic')
    token = admin.request('POST', admin.layout.gateway_path('tokens'), json_body={'scope': 'read'})
    resolved = resolve({'ca_path': str(gateway.ca_path)}, environ={'AAP_HOSTNAME': gateway.url, 'AAP_TOKEN': token['token']})
    client = connect(resolved)
    assert client.auth.name == 'token' and me(client) == gateway.admin_username
    admin.request('DELETE', token['url'])
    # the names of this collection come first
    assert resolve({}, environ={'SERVICE_URL': 'https://ours', 'AAP_HOSTNAME': 'https://theirs'})['service_url'] == \
        'https://ours'


# -- modules through the action plugin ----------------------------------------------------


def test_modules_on_the_gateway_with_aap_names(gateway, tmp_path):
    tag = uuid.uuid4().hex[:8]
    connection = {'aap_hostname': gateway.url, 'aap_username': gateway.admin_username,
                  'aap_password': gateway.admin_password, 'ca_path': str(gateway.ca_path)}
    tasks = [
        {'name': 'organization', 'automation.service.organization': dict(connection, name='gw-org-' + tag),
         'register': 'org'},
        {'name': 'inventory', 'automation.service.inventory': dict(
            connection, name='gw-inv-' + tag, organization='gw-org-' + tag), 'register': 'inv'},
        {'name': 'again', 'automation.service.organization': dict(connection, name='gw-org-' + tag),
         'register': 'again'},
        {'name': 'personal token', 'automation.service.token': dict(connection, description='gw ' + tag),
         'register': 'minted'},
        {'name': 'use it', 'automation.service.organization': {
            'aap_hostname': gateway.url, 'ca_path': str(gateway.ca_path), 'aap_token': '{{ minted.token }}',
            'name': 'gw-org-' + tag, 'description': 'by token'}, 'register': 'by_token'},
        {'name': 'revoke it', 'automation.service.token': dict(
            connection, existing_token='{{ minted.token }}', state='absent'), 'register': 'revoked'},
        {'name': 'check', 'ansible.builtin.assert': {'that': [
            'org is changed', 'inv is changed', 'again is not changed', 'by_token is changed',
            'revoked is changed', "minted.token.url.startswith('/api/gateway/v1/tokens/')"]}},
    ]
    mark = gateway.mark()
    code, output = run_playbook(tmp_path, tasks, env={'SERVICE_CACHE_DIR': str(tmp_path / 'cache')})
    assert code == 0, output
    entries = gateway.since(mark)
    # one GET /api/ for the whole play: the forks and later tasks read the session cache
    assert len(root_asks(entries)) == 1
    # the token was minted and revoked at the gateway
    assert [e['status'] for e in entries if (e['method'], e['path']) == ('POST', '/api/gateway/v1/tokens/')] == [201]
    assert [e['status'] for e in entries if e['method'] == 'DELETE' and e['path'].startswith('/api/gateway/v1/tokens/')
            ] == [204]
    client = connect_to(gateway, service_auth='basic')
    org = client.get('organizations', params={'name': 'gw-org-' + tag})['results'][0]
    assert org['description'] == 'by token'
    assert client.get('inventories', params={'name': 'gw-inv-' + tag})['results'][0]['organization'] == org['id']


def test_application_tokens_and_all_tokens_at_the_gateway(gateway, tmp_path):
    """An application token is made at the gateway for one of the gateway's applications, and
    all_tokens revokes the tokens the gateway keeps for a user."""
    tag = uuid.uuid4().hex[:8]
    admin = connect_to(gateway, service_auth='basic')
    layout = admin.settled_layout()
    org = admin.get(layout.gateway_path('organizations'), params={'name': 'Default'})['results'][0]
    app = admin.request('POST', layout.gateway_path('applications'), json_body={
        'name': 'gw-app-' + tag, 'organization': org['id'], 'client_type': 'confidential',
        'authorization_grant_type': 'password'})
    connection = {'service_url': gateway.url, 'service_username': gateway.admin_username,
                  'service_password': gateway.admin_password, 'ca_path': str(gateway.ca_path)}
    tasks = [
        {'name': 'application token', 'automation.service.token': dict(
            connection, description='app ' + tag, application='gw-app-' + tag), 'register': 'app_token'},
        {'name': 'a personal one', 'automation.service.token': dict(connection, description='own ' + tag),
         'register': 'own'},
        {'name': 'revoke every token of the admin', 'automation.service.token': dict(
            connection, user=gateway.admin_username, all_tokens=True, state='absent'), 'register': 'revoked_all'},
        {'name': 'check', 'ansible.builtin.assert': {'that': [
            'app_token is changed', 'app_token.token.application == %d' % app['id'],
            "app_token.token.url.startswith('/api/gateway/v1/tokens/')",
            'app_token.id in revoked_all.revoked', 'own.id in revoked_all.revoked']}},
    ]
    mark = gateway.mark()
    code, output = run_playbook(tmp_path, tasks, env={'SERVICE_CACHE_DIR': str(tmp_path / 'cache')})
    assert code == 0, output
    entries = gateway.since(mark)
    assert [e['status'] for e in entries if (e['method'], e['path']) == ('POST', '/api/gateway/v1/tokens/')] == [201, 201]
    assert not [e for e in entries if '/tokens/' in e['path'] and not e['path'].startswith('/api/gateway/v1/')]
    left = admin.get(layout.gateway_path('tokens'), params={'description__startswith': 'app ' + tag})['results']
    assert left == []


# -- AWX 24 ---------------------------------------------------------------------------------


def test_auto_against_awx_finds_awx_and_works_as_before(service, isolated_cache):
    mark = service.mark()
    client = connect_to(service)
    assert client.layout.name == 'awx'
    assert me(client) == service.admin_username
    entries = service.since(mark)
    # AWX 24 answers AWX's paths: the layout is never asked for
    assert [(e['method'], e['path']) for e in entries] == [
        ('GET', '/api/login/'), ('POST', '/api/login/'), ('GET', '/api/v2/me/'), ('GET', '/api/v2/me/')]
    assert client.send('GET', 'ping').url == service.url + '/api/v2/ping/'
    # the next task: the cached session and the cached layout, one request
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
    mark = service.mark()
    assert me(connect_to(service)) == service.admin_username
    assert [(e['method'], e['path']) for e in service.since(mark)] == [('GET', '/api/v2/me/')]


def remember_layout(cache_dir, svc, layout):
    """A session cache entry, as a task against another service at the same URL would have left it."""
    SessionCache(directory=str(cache_dir)).save(entry_key(svc.url, 'layout'), layout.as_entry())


def test_a_gateway_remembered_where_awx_answers_now_is_asked_for_again(service, isolated_cache):
    # The URL was a gateway's (a test bed on the same port, a platform since taken down): its layout is in the
    # session cache, and AWX answers there now.
    remember_layout(isolated_cache, service, _client.Layout.platform_gateway())
    mark = service.mark()
    client = connect_to(service)
    assert me(client) == service.admin_username
    asked = [(e['method'], e['path'], e['status']) for e in service.since(mark)]
    # the gateway's login page: 404; then GET /api/ once, and AWX's login
    assert asked[:3] == [('GET', GATEWAY_LOGIN, 404), ('GET', '/api/', 200), ('GET', '/api/login/', 200)]
    assert ('POST', '/api/login/', 302) in asked and len(root_asks(service.since(mark))) == 1
    assert client.layout.name == 'awx'
    entry = SessionCache(directory=str(isolated_cache)).load(entry_key(service.url, 'layout'))
    assert entry['layout'] == 'awx'
    # the next process finds AWX in the cache: nothing asked again
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
    mark = service.mark()
    assert me(connect_to(service)) == service.admin_username
    assert not root_asks(service.since(mark))


def test_awx_remembered_where_a_gateway_answers_now_is_asked_for_again(gateway, isolated_cache):
    # An AWX upgraded to a platform gateway at the same URL, with its layout in the session cache.
    remember_layout(isolated_cache, gateway, _client.Layout.awx())
    for auth in ('session', 'basic'):
        _client._FOUND_LAYOUTS.clear()
        _client._ASKED_LAYOUTS.clear()
        remember_layout(isolated_cache, gateway, _client.Layout.awx())
        mark = gateway.mark()
        client = connect_to(gateway, service_auth=auth)
        assert me(client) == gateway.admin_username, auth
        assert client.layout.is_gateway
        assert len(root_asks(gateway.since(mark))) == 1, auth


def test_a_remembered_layout_the_service_still_has_costs_one_ask_on_a_404_at_most(service, isolated_cache):
    connect_to(service, service_auth='basic').get('me')      # found and kept
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
    client = connect_to(service, service_auth='basic')
    mark = service.mark()
    for _ in range(2):
        assert client.send('GET', 'inventories/999999/').status == 404
    asked = [(e['method'], e['path']) for e in service.since(mark)]
    assert asked == [('GET', '/api/v2/inventories/999999/'), ('GET', '/api/'), ('GET', '/api/v2/inventories/999999/')]
    assert client.layout.name == 'awx'


def test_awx_layout_given_against_awx_asks_nothing_more(service):
    mark = service.mark()
    client = connect_to(service, service_layout='awx', service_auth='basic')
    assert me(client) == service.admin_username
    assert [(e['method'], e['path'], e['auth']) for e in service.since(mark)] == [('GET', '/api/v2/me/', 'basic')]
    # an absolute /api/v2/ path stays as it is on AWX
    assert client.url('/api/v2/hosts/') == service.url + '/api/v2/hosts/'


def test_sso_against_awx_is_not_refused_for_the_layout(service):
    # The SSO round trip is not started against a service without that backend, but the refusal is not
    # the gateway's.
    with pytest.raises(AuthError) as caught:
        connect_to(service, service_auth='sso', service_sso_backend='nosuchbackend')
    assert 'platform gateway' not in str(caught.value)


def test_the_lookup_and_the_inventory_plugin_on_the_gateway(gateway, tmp_path):
    admin = connect_to(gateway, service_auth='basic')
    tag = uuid.uuid4().hex[:8]
    inv = admin.request('POST', 'inventories', json_body={'name': 'gw-lookup-' + tag, 'organization': 1})
    admin.request('POST', 'hosts', json_body={'name': 'web-' + tag, 'inventory': inv['id']})
    env = {'SERVICE_CACHE_DIR': str(tmp_path / 'cache'), 'AAP_HOSTNAME': gateway.url,
           'SERVICE_CA_PATH': str(gateway.ca_path), 'AAP_USERNAME': gateway.admin_username,
           'AAP_PASSWORD': gateway.admin_password}
    tasks = [
        {'name': 'lookup', 'ansible.builtin.set_fact': {
            'found': "{{ query('automation.service.api', 'hosts', query_params={'inventory': %d}) }}" % inv['id']}},
        {'name': 'check', 'ansible.builtin.assert': {'that': [
            "found | map(attribute='name') | list == ['web-%s']" % tag,
            "found[0].url.startswith('/api/controller/v2/hosts/')"]}},
    ]
    code, output = run_playbook(tmp_path, tasks, env=env)
    assert code == 0, output

    source = tmp_path / 'gw.controller.yml'
    source.write_text('plugin: automation.service.controller\ninventory_id: %d\n' % inv['id'])
    full_env = dict(os.environ, **env)
    full_env['ANSIBLE_COLLECTIONS_PATH'] = str(tmp_path / 'collections')
    full_env['ANSIBLE_INVENTORY_ENABLED'] = 'automation.service.controller'
    result = subprocess.run([os.path.join(os.path.dirname(sys.executable), 'ansible-inventory'), '-i', str(source),
                             '--list'], env=full_env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert 'web-' + tag in result.stdout, result.stdout + result.stderr
