"""service_auth sso through a platform gateway's authenticators (django-ansible-base's), against the
reference service in its gateway layout with the test identity providers (svcctl start --layout gateway
--with-idp: an OIDC authenticator "Test OIDC", slug test-oidc, and a SAML one, "Test SAML", slug
test-saml). Real HTTPS round trips; counts come from the service's request log."""

import json
import re
import sys
from pathlib import Path

import pytest

from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError
from ansible_collections.automation.service.plugins.module_utils._options import resolve
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache

from .helpers import forget_layouts  # noqa: F401 (the fixture)
from ...playbook import ROOT, run_playbook

sys.path.insert(0, str(Path(ROOT) / 'tests' / 'idp'))
import idpctl  # noqa: E402

SLUGS = {'oidc': 'test-oidc', 'saml': 'test-saml'}
NAMES = {'oidc': 'Test OIDC', 'saml': 'Test SAML'}
AUTHENTICATORS = '/api/gateway/v1/authenticators/'


class Gateway:
    """A gateway-layout instance with the test identity providers (from the pool of tests/conftest.py),
    with what these tests ask of its authenticators."""

    def __init__(self, service):
        self.service = service

    def __getattr__(self, name):
        return getattr(self.service, name)

    def admin(self):
        return connect(resolve({'service_url': self.url, 'ca_path': self.ca_path, 'service_auth': 'basic',
                                'service_username': self.exports['SERVICE_ADMIN_USERNAME'],
                                'service_password': self.exports['SERVICE_ADMIN_PASSWORD']}, environ={}),
                       SessionCache(enabled=False))

    def authenticator(self, slug):
        found = self.admin().get(AUTHENTICATORS, params={'slug': slug})['results']
        assert len(found) == 1, found
        return found[0]


@pytest.fixture(scope='module')
def gateway(gateway_service_factory):
    return Gateway(gateway_service_factory(with_idp=True))


def sso_options(gw, backend, username=None, password=None, **given):
    options = {'service_url': gw.url, 'ca_path': gw.ca_path, 'service_auth': 'sso', 'service_sso_backend': backend,
               'service_username': username or gw.exports['SSO_USERNAME'],
               'service_password': password or gw.exports['SSO_PASSWORD']}
    options.update(given)
    return resolve(options, environ={})


def sso_connect(gw, backend, username=None, password=None, cache=None, **given):
    return connect(sso_options(gw, backend, username, password, **given),
                   cache if cache is not None else SessionCache(enabled=False))


def gateway_me(client):
    return client.get('/api/gateway/v1/me/')['results'][0]['username']


def controller_me(client):
    return client.get('me')['results'][0]['username']


def starts(entries, slug=None):
    return [e for e in entries if e['path'].startswith('/api/gateway/social/login/%s' % (slug or ''))]


def completions(entries, slug):
    return [e for e in entries if e['path'] == '/api/gateway/social/complete/%s/' % slug]


def failure(gw, backend, username=None, password=None, **given):
    password = password or gw.exports['SSO_PASSWORD']
    with pytest.raises(AuthError) as info:
        sso_connect(gw, backend, username, password, **given)
    message = str(info.value)
    assert password not in message
    assert given.get('service_sso_otp', '\0') not in message
    return message


# -- logins ------------------------------------------------------------------------------------


@pytest.mark.parametrize('backend', ['oidc', 'saml'])
def test_login_through_the_authenticator_gives_a_gateway_session(gateway, backend):
    mark = gateway.mark()
    client = sso_connect(gateway, backend)
    state = client.auth.state
    assert state['cookie_name'] == 'gateway_sessionid' and state['session_id']
    assert gateway_me(client) == gateway.exports['SSO_USERNAME']
    # the same session works for the controller behind the gateway
    assert controller_me(client) == gateway.exports['SSO_USERNAME']
    entries = gateway.since(mark)
    # the authenticator was found on the login page's list, anonymously
    listing = [e for e in entries if e['path'] == '/api/gateway/v1/ui_auth/']
    assert len(listing) == 1 and listing[0]['auth'] == 'anonymous'
    assert len(starts(entries)) == 1 and starts(entries, SLUGS[backend])[0]['method'] == 'GET'
    done = completions(entries, SLUGS[backend])
    assert [e['login'] for e in done].count(True) == 1
    # the login was confirmed at the gateway's me/ (then asked again above)
    assert [e['status'] for e in entries if e['path'] == '/api/gateway/v1/me/'] == [200, 200]


@pytest.mark.parametrize('backend', ['test-oidc', 'Test SAML', 'test saml'])
def test_the_authenticator_is_named_by_slug_or_name(gateway, backend):
    mark = gateway.mark()
    assert gateway_me(sso_connect(gateway, backend)) == gateway.exports['SSO_USERNAME']
    slug = 'test-oidc' if 'oidc' in backend.lower() else 'test-saml'
    assert len(starts(gateway.since(mark), slug)) == 1


@pytest.mark.parametrize('backend', ['oidc', 'saml'])
def test_one_time_code_missing_wrong_right(gateway, backend):
    user, password = gateway.exports['SSO_OTP_USERNAME'], gateway.exports['SSO_OTP_PASSWORD']
    message = failure(gateway, backend, user, password)
    assert 'asks %s for a one-time code' % user in message and 'service_sso_otp is not set' in message
    wrong = '999999' if gateway.exports['SSO_OTP_CODE'] != '999999' else '111111'
    message = failure(gateway, backend, user, password, service_sso_otp=wrong)
    assert 'rejected the one-time code' in message
    client = sso_connect(gateway, backend, user, password, service_sso_otp=gateway.exports['SSO_OTP_CODE'])
    assert gateway_me(client) == user


@pytest.mark.parametrize('backend', ['oidc', 'saml'])
def test_wrong_password_quotes_the_idp(gateway, backend):
    message = failure(gateway, backend, gateway.exports['SSO_USERNAME'], 'not-the-password')
    assert 'rejected the login of %s' % gateway.exports['SSO_USERNAME'] in message
    assert ('Invalid password.' if backend == 'oidc' else 'Wrong password.') in message


def test_consent_denied_quotes_the_idp_and_the_gateway_failure(gateway):
    users = idpctl.users(gateway.dir)
    message = failure(gateway, 'oidc', 'carol', users['carol']['password'])
    assert 'The identity provider refused the oidc single sign-on of carol' in message
    assert 'access_denied' in message and "Test OIDC" in message


@pytest.mark.parametrize('backend', ['oidc', 'saml'])
def test_the_post_variant_of_the_start(gateway, backend):
    assert gateway.manage('sso_login_variant', 'post').strip() == 'post'
    try:
        mark = gateway.mark()
        assert gateway_me(sso_connect(gateway, backend)) == gateway.exports['SSO_USERNAME']
        entries = gateway.since(mark)
        assert [(e['method'], e['status']) for e in starts(entries)] == [('GET', 405), ('POST', 302)]
        assert [e['login'] for e in completions(entries, SLUGS[backend])].count(True) == 1
    finally:
        assert gateway.manage('sso_login_variant', 'get').strip() == 'get'


def test_a_cached_session_is_reused(gateway, tmp_path):
    cache = SessionCache(directory=str(tmp_path / 'cache'))
    assert gateway_me(sso_connect(gateway, 'oidc', cache=cache)) == gateway.exports['SSO_USERNAME']
    mark = gateway.mark()
    assert gateway_me(sso_connect(gateway, 'oidc', cache=cache)) == gateway.exports['SSO_USERNAME']
    entries = gateway.since(mark)
    assert not starts(entries) and not [e for e in entries if e['path'] == '/api/gateway/v1/ui_auth/']


# -- which authenticator -------------------------------------------------------------------------


def test_no_such_authenticator_names_those_offered(gateway):
    mark = gateway.mark()
    message = failure(gateway, 'nosuch')
    assert 'No enabled single sign-on authenticator of the platform gateway at %s matches service_sso_backend ' \
           'nosuch' % gateway.url in message
    assert 'Test OIDC (type oidc, slug test-oidc)' in message and 'Test SAML (type saml, slug test-saml)' in message
    assert not starts(gateway.since(mark))


def test_a_disabled_authenticator_is_not_offered(gateway):
    admin = gateway.admin()
    saml = gateway.authenticator('test-saml')
    admin.request('PATCH', '%s%d/' % (AUTHENTICATORS, saml['id']), json_body={'enabled': False})
    try:
        message = failure(gateway, 'saml')
        assert 'matches service_sso_backend saml' in message and 'A disabled authenticator is not offered' in message
        assert 'test-saml' not in message
    finally:
        admin.request('PATCH', '%s%d/' % (AUTHENTICATORS, saml['id']), json_body={'enabled': True})
    assert gateway_me(sso_connect(gateway, 'saml')) == gateway.exports['SSO_USERNAME']


def test_several_authenticators_of_one_type_need_the_slug_or_the_name(gateway):
    admin = gateway.admin()
    oidc = gateway.authenticator('test-oidc')
    configuration = dict(oidc['configuration'], CALLBACK_URL=gateway.url + '/api/gateway/social/complete/second-oidc/')
    configuration.pop('SECRET', None)
    configuration['SECRET'] = 'another-secret'
    second = admin.request('POST', AUTHENTICATORS, json_body={
        'name': 'Second OIDC', 'slug': 'second-oidc', 'type': oidc['type'], 'enabled': True,
        'configuration': configuration})
    try:
        message = failure(gateway, 'oidc')
        assert 'service_sso_backend oidc matches 2 enabled authenticators' in message
        assert 'Second OIDC (type oidc, slug second-oidc)' in message and 'Test OIDC (type oidc, slug test-oidc)' \
            in message
        assert 'Set service_sso_backend to the slug or the name' in message
        assert gateway_me(sso_connect(gateway, 'test-oidc')) == gateway.exports['SSO_USERNAME']
    finally:
        admin.request('DELETE', '%s%d/' % (AUTHENTICATORS, second['id']))


# -- in a play ---------------------------------------------------------------------------------


def test_modules_and_the_lookup_log_in_once_and_show_no_secret(gateway, tmp_path):
    user, password = gateway.exports['SSO_OTP_USERNAME'], gateway.exports['SSO_OTP_PASSWORD']
    code = gateway.exports['SSO_OTP_CODE']
    defaults = {'service_url': gateway.url, 'ca_path': gateway.ca_path, 'service_auth': 'sso',
                'service_sso_backend': 'saml', 'service_username': user, 'service_password': password,
                'service_sso_otp': code}
    tasks = [
        {'name': 'users', 'automation.service.user_info': {'username': user}, 'register': 'found'},
        {'name': 'check', 'ansible.builtin.assert': {'that': ["found.users | map(attribute='username') | list == ['%s']"
                                                              % user]}},
        {'name': 'me', 'ansible.builtin.debug': {'msg': "{{ lookup('automation.service.api', 'me') }}"},
         'vars': {'automation_service_url': gateway.url, 'automation_service_auth': 'sso',
                  'automation_service_ca_path': gateway.ca_path, 'automation_service_sso_backend': 'saml',
                  'automation_service_username': user, 'automation_service_password': password,
                  'automation_service_sso_otp': code}},
    ]
    cache_dir = tmp_path / 'cache'
    mark = gateway.mark()
    rc, output = run_playbook(tmp_path, tasks, env={'SERVICE_CACHE_DIR': str(cache_dir)}, verbosity=4,
                              module_defaults=defaults)
    assert rc == 0, output
    assert re.search(r'''["']username["']: ["']%s["']''' % user, output)
    entries = gateway.since(mark)
    assert len(starts(entries, 'test-saml')) == 1
    # the controller's users, with the gateway's SSO session
    assert [e['status'] for e in entries if e['path'] == '/api/v2/users/'] == [200]
    sessions = [json.loads(p.read_text()).get('session_id') for p in cache_dir.rglob('*.json')]
    sessions = [s for s in sessions if s]
    assert sessions
    for secret in [password, code] + sessions:
        assert secret not in output
