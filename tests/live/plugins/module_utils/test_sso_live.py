"""service_auth sso against the live reference service and its real identity providers
(oidc-provider for OIDC, pysaml2 for SAML), over HTTPS. Counts come from the service's log."""

import json
import re
import sys
from pathlib import Path

import pytest

from ansible_collections.automation.service.plugins.module_utils import _auth_sso
from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, AuthError
from ansible_collections.automation.service.plugins.module_utils._options import resolve
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache

from ...playbook import ROOT, run_playbook

sys.path.insert(0, str(Path(ROOT) / 'tests' / 'idp'))
import idpctl  # noqa: E402

BACKENDS = ['oidc', 'saml']


def sso_options(svc, backend, username, password, **given):
    options = {
        'service_url': svc.url, 'ca_path': svc.exports['SERVICE_CA_PATH'], 'service_auth': 'sso',
        'service_sso_backend': backend, 'service_username': username, 'service_password': password,
    }
    if backend == 'saml':
        options['service_sso_idp'] = svc.exports['SSO_SAML_IDP']
    options.update(given)
    return resolve(options, environ={})


def sso_connect(svc, backend, username=None, password=None, cache=None, **given):
    username = username or svc.exports['SSO_USERNAME']
    password = password or svc.exports['SSO_PASSWORD']
    options = sso_options(svc, backend, username, password, **given)
    return connect(options, cache if cache is not None else SessionCache(enabled=False))


def me(client):
    return client.get('me')['results'][0]


def sso_starts(entries):
    return [e for e in entries if e['path'].startswith('/sso/login/') and e['status'] in (302, 303)]


def failure(svc, backend, username, password, **given):
    with pytest.raises(AuthError) as info:
        sso_connect(svc, backend, username, password, **given)
    message = str(info.value)
    assert password not in message
    assert given.get('service_sso_otp', '\0') not in message
    return message


@pytest.fixture
def variant(sso_service):
    def choose(name):
        assert sso_service.manage('sso_login_variant', name).strip() == name
    yield choose
    choose('get')


@pytest.mark.parametrize('backend', BACKENDS)
def test_login_gives_an_external_user_session(sso_service, backend):
    mark = sso_service.mark()
    client = sso_connect(sso_service, backend)
    user = me(client)
    assert user['username'] == sso_service.exports['SSO_USERNAME']
    assert user['external_account'] == 'social'
    entries = sso_service.since(mark)
    assert len(sso_starts(entries)) == 1
    assert [e['login'] for e in entries if e['path'] == '/sso/complete/%s/' % backend].count(True) == 1


@pytest.mark.parametrize('backend', BACKENDS)
def test_first_login_creates_the_user_and_the_second_finds_it(sso_service, backend):
    name = 'new-%s' % backend
    record = idpctl.add_user(sso_service.dir, name)
    status, found = sso_service.admin_request('GET', '/api/v2/users/?username=%s' % name)
    assert status == 200 and found['count'] == 0
    first = me(sso_connect(sso_service, backend, name, record['password']))
    second = me(sso_connect(sso_service, backend, name, record['password']))
    assert first['id'] == second['id']
    assert first['username'] == name and first['external_account'] == 'social'
    assert [link['provider'] for link in first['auth']] == [backend]
    status, found = sso_service.admin_request('GET', '/api/v2/users/?username=%s' % name)
    assert found['count'] == 1


@pytest.mark.parametrize('backend', BACKENDS)
def test_wrong_password_quotes_the_idp(sso_service, backend):
    message = failure(sso_service, backend, sso_service.exports['SSO_USERNAME'], 'not-the-password')
    assert 'rejected the login of %s' % sso_service.exports['SSO_USERNAME'] in message
    assert ('Invalid password.' if backend == 'oidc' else 'Wrong password.') in message


@pytest.mark.parametrize('backend', BACKENDS)
def test_unknown_user_quotes_the_idp(sso_service, backend):
    message = failure(sso_service, backend, 'nobody-here', 'whatever-password')
    assert ('Unknown user: nobody-here.' if backend == 'oidc' else 'No such user: nobody-here') in message


@pytest.mark.parametrize('backend', BACKENDS)
def test_one_time_code_missing_wrong_right(sso_service, backend):
    user, password = sso_service.exports['SSO_OTP_USERNAME'], sso_service.exports['SSO_OTP_PASSWORD']
    message = failure(sso_service, backend, user, password)
    assert 'asks %s for a one-time code' % user in message and 'service_sso_otp is not set' in message
    wrong = '999999' if sso_service.exports['SSO_OTP_CODE'] != '999999' else '111111'
    message = failure(sso_service, backend, user, password, service_sso_otp=wrong)
    assert 'rejected the one-time code' in message
    assert ('Invalid one-time code.' if backend == 'oidc' else 'The one-time code is not valid.') in message
    client = sso_connect(sso_service, backend, user, password, service_sso_otp=sso_service.exports['SSO_OTP_CODE'])
    assert me(client)['username'] == user


def test_consent_denied_quotes_the_idp(sso_service):
    users = idpctl.users(sso_service.dir)
    message = failure(sso_service, 'oidc', 'carol', users['carol']['password'])
    assert 'The identity provider refused the oidc single sign-on of carol' in message
    assert 'access_denied: Access to automation-service is not allowed for account carol' in message


def test_unknown_saml_idp_ends_on_the_service_error_page(sso_service):
    message = failure(sso_service, 'saml', sso_service.exports['SSO_USERNAME'], sso_service.exports['SSO_PASSWORD'],
                      service_sso_idp='no-such-idp')
    assert 'failed at the service' in message and '/sso/error/' in message


def test_unknown_backend_names_the_status(sso_service):
    message = failure(sso_service, 'nosuch', sso_service.exports['SSO_USERNAME'], sso_service.exports['SSO_PASSWORD'])
    assert 'answered 404' in message and '/sso/login/nosuch/' in message


@pytest.mark.parametrize('backend', BACKENDS)
def test_both_login_variants(sso_service, variant, backend):
    for name in ('get', 'post'):
        variant(name)
        mark = sso_service.mark()
        assert me(sso_connect(sso_service, backend))['username'] == sso_service.exports['SSO_USERNAME']
        starts = [(e['method'], e['status']) for e in sso_service.since(mark) if e['path'].startswith('/sso/login/')]
        assert starts == ([('GET', 302)] if name == 'get' else [('GET', 405), ('POST', 302)])


def test_cached_session_is_reused_then_renewed_after_expiry(sso_service):
    cache = SessionCache()
    mark = sso_service.mark()
    me(sso_connect(sso_service, 'oidc', cache=cache))
    second = sso_connect(sso_service, 'oidc', cache=cache)
    reused = sso_service.mark()
    me(second)
    assert len(sso_starts(sso_service.since(mark))) == 1
    assert [e['path'] for e in sso_service.since(reused)] == ['/api/v2/me/']
    sso_service.drop_sessions()
    renewed = sso_service.mark()
    third = sso_connect(sso_service, 'oidc', cache=cache)
    assert me(third)['username'] == sso_service.exports['SSO_USERNAME']
    entries = sso_service.since(renewed)
    assert [e['status'] for e in entries if e['path'] == '/api/v2/me/'][0] == 401
    assert len(sso_starts(entries)) == 1


def test_session_id_from_a_browser_sso_login(sso_service):
    state = sso_connect(sso_service, 'oidc').auth.state
    cookie = '%s=%s' % (state['cookie_name'], state['session_id'])
    for method in ('auto', 'sso'):
        options = resolve({'service_url': sso_service.url, 'ca_path': sso_service.exports['SERVICE_CA_PATH'],
                           'service_auth': method, 'service_session_id': cookie}, environ={})
        client = connect(options, SessionCache(enabled=False))
        assert me(client)['username'] == sso_service.exports['SSO_USERNAME']


def test_a_browser_sso_session_refused_a_token_gets_the_same_hint(sso_service):
    state = sso_connect(sso_service, 'oidc').auth.state
    options = resolve({'service_url': sso_service.url, 'ca_path': sso_service.exports['SERVICE_CA_PATH'],
                       'service_session_id': '%s=%s' % (state['cookie_name'], state['session_id'])}, environ={})
    client = connect(options, SessionCache(enabled=False))
    assert client.auth.name == 'session'
    with pytest.raises(ApiError) as info:
        client.request('POST', 'tokens', json_body={'description': 'browser', 'scope': 'read'})
    assert info.value.status == 403
    assert 'User %s is an external user' % sso_service.exports['SSO_USERNAME'] in str(info.value)
    assert 'ALLOW_OAUTH2_FOR_EXTERNAL_USERS' in str(info.value)


def test_tokens_refused_to_sso_users_unless_allowed(sso_service):
    client = sso_connect(sso_service, 'oidc')
    with pytest.raises(ApiError) as info:
        client.request('POST', 'tokens', json_body={'description': 'sso', 'scope': 'read'})
    assert info.value.status == 403
    assert 'ALLOW_OAUTH2_FOR_EXTERNAL_USERS' in str(info.value)
    assert 'external authentication provider' in str(info.value)
    path = '/api/v2/settings/authentication/'
    assert sso_service.admin_request('PATCH', path, {'ALLOW_OAUTH2_FOR_EXTERNAL_USERS': True})[0] == 200
    try:
        token = client.request('POST', 'tokens', json_body={'description': 'sso', 'scope': 'read'})
        assert token['token'] and token['scope'] == 'read'
    finally:
        sso_service.admin_request('PATCH', path, {'ALLOW_OAUTH2_FOR_EXTERNAL_USERS': False})


def test_a_play_of_many_tasks_makes_one_idp_round_trip(sso_service, tmp_path):
    user, password = sso_service.exports['SSO_OTP_USERNAME'], sso_service.exports['SSO_OTP_PASSWORD']
    code = sso_service.exports['SSO_OTP_CODE']
    defaults = {'service_url': sso_service.url, 'ca_path': sso_service.exports['SERVICE_CA_PATH'],
                'service_auth': 'sso', 'service_sso_backend': 'oidc', 'service_username': user,
                'service_password': password, 'service_sso_otp': code}
    tasks = [{'name': 'absent %d' % n, 'automation.service.inventory': {
        'name': 'sso-none-%d' % n, 'organization': 'Default', 'state': 'absent'}} for n in range(5)]
    tasks.append({'name': 'me', 'ansible.builtin.debug': {'msg': "{{ lookup('automation.service.api', 'me') }}"},
                  'vars': {'automation_service_url': sso_service.url, 'automation_service_auth': 'sso',
                           'automation_service_ca_path': sso_service.exports['SERVICE_CA_PATH'],
                           'automation_service_sso_backend': 'oidc', 'automation_service_username': user,
                           'automation_service_password': password}})
    mark = sso_service.mark()
    rc, output = run_playbook(tmp_path, tasks, env={'SERVICE_CACHE_DIR': str(tmp_path / 'cache')},
                              verbosity=4, module_defaults=defaults)
    assert rc == 0, output
    assert re.search(r'''["']username["']: ["']%s["']''' % user, output)
    assert len(sso_starts(sso_service.since(mark))) == 1
    assert password not in output and code not in output


# -- the reference service and its real identity providers ------------------------------


@pytest.mark.parametrize('backend', ['oidc', 'saml'])
def test_the_real_identity_providers_are_the_ones_the_service_redirects_to(sso_service, backend, monkeypatch):
    """Against the reference service and its real identity providers, over https: the login goes
    through with the option left at its default, and the origin that got the password is the
    provider's the service is wired to."""
    flows = []
    real_run = _auth_sso._Flow.run

    def run(flow):
        flows.append(flow)
        return real_run(flow)

    monkeypatch.setattr(_auth_sso._Flow, 'run', run)
    options = {'service_url': sso_service.url, 'ca_path': sso_service.exports['SERVICE_CA_PATH'],
               'service_auth': 'sso', 'service_sso_backend': backend,
               'service_username': sso_service.exports['SSO_USERNAME'],
               'service_password': sso_service.exports['SSO_PASSWORD']}
    if backend == 'saml':
        options['service_sso_idp'] = sso_service.exports['SSO_SAML_IDP']
    resolved = resolve(options, environ={})
    assert resolved['service_sso_allow_insecure_idp'] is False
    client = connect(resolved, SessionCache(enabled=False))
    assert client.get('me')['results'][0]['username'] == sso_service.exports['SSO_USERNAME']
    wiring = json.loads((sso_service.dir / 'sso.json').read_text())
    provider = wiring['oidc']['endpoint'] if backend == 'oidc' else wiring['saml']['url']
    assert [flow.idp_origin for flow in flows] == [_auth_sso._origin(provider)]
    assert flows[0].idp_origin.startswith('https://')
