"""Option precedence and the auto rules: pure functions, no service needed."""

import json

import pytest

from ansible_collections.automation.service.plugins.module_utils._authenticator import build_auth, select_method, unresolvable
from ansible_collections.automation.service.plugins.module_utils._client import api_path, normalize_url
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._options import resolve


def test_task_value_beats_environment_which_beats_config_file(tmp_path):
    config = tmp_path / 'tower_cli.cfg'
    config.write_text('[general]\nhost = https://from-file\nusername = fileuser\npassword = filepass\n'
                      'verify_ssl = false\nrequest_timeout = 7\n')
    env = {'SERVICE_URL': 'https://from-env', 'CONTROLLER_USERNAME': 'envuser'}
    values = resolve({'service_url': 'https://from-task', 'service_config_file': str(config)}, environ=env)
    assert values['service_url'] == 'https://from-task'
    assert values['service_username'] == 'envuser'
    assert values['service_password'] == 'filepass'
    assert values['validate_certs'] is False
    assert values['request_timeout'] == 7.0


def test_first_environment_variable_wins_and_tower_is_last():
    env = {'CONTROLLER_HOST': 'https://controller', 'TOWER_HOST': 'https://tower'}
    assert resolve({}, environ=env)['service_url'] == 'https://controller'
    assert resolve({}, environ={'TOWER_HOST': 'https://tower'})['service_url'] == 'https://tower'
    both = {'SERVICE_URL': 'https://svc', 'CONTROLLER_HOST': 'https://controller'}
    assert resolve({}, environ=both)['service_url'] == 'https://svc'


def test_ansible_platform_variables_gateway_before_aap():
    env = {'GATEWAY_HOSTNAME': 'https://gw', 'GATEWAY_USERNAME': 'gwuser', 'GATEWAY_PASSWORD': 'gwpass',
           'GATEWAY_VERIFY_SSL': 'false', 'GATEWAY_REQUEST_TIMEOUT': '12', 'AAP_HOSTNAME': 'https://aap',
           'AAP_USERNAME': 'aapuser', 'AAP_REQUEST_TIMEOUT': '3'}
    values = resolve({}, environ=env)
    assert (values['service_url'], values['service_username'], values['service_password']) == \
        ('https://gw', 'gwuser', 'gwpass')
    assert values['validate_certs'] is False and values['request_timeout'] == 12.0
    assert resolve({}, environ={'GATEWAY_API_TOKEN': 'tok', 'AAP_TOKEN': 'other'})['service_token'] == 'tok'
    assert resolve({}, environ={'AAP_HOSTNAME': 'https://aap'})['service_url'] == 'https://aap'
    assert resolve({}, environ={'TOWER_HOST': 'https://t', 'GATEWAY_HOSTNAME': 'https://gw'})['service_url'] == 'https://t'


@pytest.mark.parametrize('text', [
    'host: https://yaml-host\nusername: u\npassword: p\n',
    json.dumps({'host': 'https://yaml-host', 'username': 'u', 'password': 'p'}),
    'host = https://yaml-host\nusername = u\npassword = p\n',
])
def test_config_file_formats(tmp_path, text):
    config = tmp_path / 'config'
    config.write_text(text)
    values = resolve({}, environ={'SERVICE_CONFIG_FILE': str(config)})
    assert (values['service_url'], values['service_username'], values['service_password']) == (
        'https://yaml-host', 'u', 'p')


def test_config_file_errors_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match='Cannot read config file'):
        resolve({'service_config_file': str(tmp_path / 'missing')}, environ={})
    bad = tmp_path / 'bad.yml'
    bad.write_text('- just\n- a list\n')
    with pytest.raises(ConfigError, match='mapping'):
        resolve({'service_config_file': str(bad)}, environ={})


def test_defaults_and_bad_values():
    values = resolve({}, environ={})
    assert values['service_auth'] == 'auto' and values['session_cache'] is True
    assert values['validate_certs'] is True and values['request_timeout'] == 10.0
    with pytest.raises(ConfigError, match='SERVICE_VERIFY_SSL'):
        resolve({}, environ={'SERVICE_VERIFY_SSL': 'maybe'})


@pytest.mark.parametrize('given, expected', [
    ({'service_token': 't', 'service_session_id': 's', 'service_username': 'u', 'service_password': 'p'}, 'token'),
    ({'service_session_id': 's', 'service_username': 'u', 'service_password': 'p'}, 'session'),
    ({'service_sso_backend': 'oidc', 'service_username': 'u', 'service_password': 'p'}, 'sso'),
    ({'service_client_id': 'c', 'service_username': 'u', 'service_password': 'p'}, 'token'),
    ({'service_username': 'u', 'service_password': 'p'}, 'session'),
    ({'service_auth': 'basic', 'service_token': 't'}, 'basic'),
])
def test_auto_rules(given, expected):
    assert select_method(given) == expected


def test_no_credentials_is_a_clear_error():
    with pytest.raises(ConfigError, match='No credentials'):
        select_method({'service_username': 'u'})


def test_credentials_refused_over_plain_http_unless_allowed():
    options = resolve({'service_url': 'http://svc.example.com', 'service_username': 'u',
                       'service_password': 'p'}, environ={})
    with pytest.raises(ConfigError, match='plain http'):
        build_auth(options)
    options['allow_insecure_http'] = True
    assert build_auth(options).name == 'session'


def test_url_normalisation():
    assert normalize_url('svc.example.com') == 'https://svc.example.com'
    assert normalize_url('https://svc.example.com/') == 'https://svc.example.com'
    assert normalize_url('https://[::1]:8443/prefix/') == 'https://[::1]:8443/prefix'
    for bad in ('', 'ftp://x', 'https://', 'https://host:notaport'):
        with pytest.raises(ConfigError):
            normalize_url(bad)
    assert api_path('hosts') == '/api/v2/hosts/'
    assert api_path('hosts/5') == '/api/v2/hosts/5/'
    assert api_path('/api/v2/me/') == '/api/v2/me/'
    assert api_path('ad_hoc_commands/2/stdout/?format=json') == '/api/v2/ad_hoc_commands/2/stdout/?format=json'
    assert api_path('jobs/5/stdout?format=txt') == '/api/v2/jobs/5/stdout/?format=txt'


def test_unresolvable_host_in_awx_words():
    # .invalid never resolves (RFC 6761). As awx.awx reads controller_host, a URL that does not
    # start with http:// or https:// gets https:// in front: DNE.invalid://x names the host dne.invalid.
    for url in ('https://nohost.invalid:8443/', 'nohost.invalid'):
        msg = unresolvable(url, environ={})
        assert msg.startswith('Unable to resolve controller_host (') and msg.endswith('): nohost.invalid')
    assert unresolvable('DNE.invalid://junk.com', environ={}).endswith('): dne.invalid')
    assert unresolvable('https://127.0.0.1:1/', environ={}) is None
    assert unresolvable('https://nohost.invalid/', environ={'https_proxy': 'http://proxy:3128'}) is None


def test_one_map_of_auth_methods():
    from ansible_collections.automation.service.plugins.module_utils._authenticator import METHODS, method_class
    from ansible_collections.automation.service.plugins.module_utils._options import AUTH_METHODS
    assert AUTH_METHODS == ('auto',) + tuple(METHODS)
    password = {'service_username': 'u', 'service_password': 'p'}
    chosen = dict((name, method_class(dict(password, service_auth=name, service_token='t'))) for name in METHODS)
    assert dict((name, cls.name) for name, cls in chosen.items()) == dict((name, name) for name in METHODS)
    # the methods that keep a login in the session cache, which connect() opens for them alone
    assert sorted(name for name, cls in chosen.items() if cls.keeps_login) == ['session', 'sso']
    grant = method_class(dict(password, service_auth='token', service_client_id='app'))
    assert grant.__name__ == 'PasswordGrantAuth' and grant.name == 'token' and grant.keeps_login
    assert method_class(dict(password, service_client_id='app')) is grant
    with pytest.raises(ConfigError, match='service_auth ldap is not available'):
        method_class(dict(password, service_auth='ldap'))
