"""The auth layer against the live reference service over HTTPS.

Request and login counts come from the service's own request log.
"""

import json
import multiprocessing
import os
import stat

import pytest

from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError, ConnectionFailure
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache

from .helpers import connect_as, logins, mint_token, options_for


def me(client):
    return client.get('me')['results'][0]['username']


@pytest.mark.parametrize('method', ['basic', 'session'])
def test_password_methods_work(service, method):
    client = connect_as(service, service_auth=method)
    assert me(client) == service.admin_username


def test_basic_sends_rfc7617_header_and_no_login(service):
    mark = service.mark()
    client = connect_as(service, service_auth='basic')
    me(client)
    entries = service.since(mark)
    assert not logins(entries)
    assert [e['auth'] for e in entries] == ['basic']


def test_token_string_and_dict(service):
    token = mint_token(service)
    assert token['token'] and token['scope'] == 'write'
    mark = service.mark()
    assert me(connect_as(service, service_username=None, service_password=None,
                         service_token=token['token'])) == service.admin_username
    assert me(connect_as(service, service_token=token)) == service.admin_username
    assert [e['auth'] for e in service.since(mark)] == ['bearer', 'bearer']


def test_auto_with_password_uses_a_session_with_csrf_on_writes(service):
    mark = service.mark()
    client = connect_as(service)
    created = client.request('POST', 'organizations', json_body={'name': 'org-auto-csrf'})
    client.request('DELETE', created['url'])
    entries = service.since(mark)
    assert len(logins(entries)) == 1
    assert [e['auth'] for e in entries if e['path'].startswith('/api/v2/organizations')] == ['session', 'session']


def test_second_task_reuses_the_cached_session(service):
    connect_as(service)  # task 1 logs in
    mark = service.mark()
    client = connect_as(service)  # task 2
    assert me(client) == service.admin_username
    entries = service.since(mark)
    assert not logins(entries)
    assert len(entries) == 1 and entries[0]['auth'] == 'session'
    assert sum(e['password_checks'] for e in entries) == 0


def test_cache_files_are_private(service, isolated_cache):
    connect_as(service)
    assert stat.S_IMODE(os.stat(str(isolated_cache)).st_mode) == 0o700
    files = [f for f in os.listdir(str(isolated_cache)) if f.endswith('.json')]
    assert files
    for name in os.listdir(str(isolated_cache)):
        assert stat.S_IMODE(os.stat(os.path.join(str(isolated_cache), name)).st_mode) == 0o600
    text = open(os.path.join(str(isolated_cache), files[0])).read()
    assert service.admin_password not in text


def test_a_different_password_does_not_reuse_the_session(service):
    connect_as(service)
    with pytest.raises(AuthError, match='rejected the username or password'):
        connect_as(service, service_password='not-the-password')


def test_dropped_session_is_renewed_once(service):
    connect_as(service)
    service.drop_sessions()
    mark = service.mark()
    client = connect_as(service)
    assert me(client) == service.admin_username
    entries = service.since(mark)
    assert len(logins(entries)) == 1
    statuses = [e['status'] for e in entries if e['path'] == '/api/v2/me/']
    assert statuses[0] == 401 and statuses[-1] == 200
    # the renewed session is cached again
    mark = service.mark()
    me(connect_as(service))
    assert not logins(service.since(mark))


def test_corrupt_cache_file_is_discarded_with_a_warning(service, isolated_cache):
    connect_as(service)
    for name in os.listdir(str(isolated_cache)):
        if name.endswith('.json'):
            with open(os.path.join(str(isolated_cache), name), 'w') as handle:
                handle.write('{"session_id": "trunc')
    cache = SessionCache()
    mark = service.mark()
    client = connect(options_for(service), cache)
    assert me(client) == service.admin_username
    assert any('corrupt' in warning for warning in cache.warnings)
    assert len(logins(service.since(mark))) == 1


def test_cache_file_readable_by_others_is_not_trusted(service, isolated_cache):
    connect_as(service)
    for name in os.listdir(str(isolated_cache)):
        if name.endswith('.json'):
            os.chmod(os.path.join(str(isolated_cache), name), 0o644)
    cache = SessionCache()
    mark = service.mark()
    connect(options_for(service), cache)
    assert any('other users' in warning for warning in cache.warnings)
    assert len(logins(service.since(mark))) == 1


def test_session_cache_off_logs_in_every_time(service):
    mark = service.mark()
    connect_as(service, session_cache=False)
    connect_as(service, session_cache=False)
    assert len(logins(service.since(mark))) == 2


def _fork_task(args):
    url, ca_path, username, password, cache_dir = args
    os.environ['SERVICE_CACHE_DIR'] = cache_dir
    from ansible_collections.automation.service.plugins.module_utils._options import resolve
    client = connect(resolve({'service_url': url, 'ca_path': ca_path, 'service_username': username,
                              'service_password': password}, environ={}))
    return client.get('me')['results'][0]['username']


def test_parallel_forks_log_in_once(service, isolated_cache):
    args = (service.url, service.ca_path, service.admin_username, service.admin_password, str(isolated_cache))
    mark = service.mark()
    with multiprocessing.get_context('fork').Pool(8) as pool:
        names = pool.map(_fork_task, [args] * 16)
    assert names == [service.admin_username] * 16
    assert len(logins(service.since(mark))) == 1


def test_other_session_cookie_name(service_factory):
    other = service_factory(SESSION_COOKIE_NAME='svc_sessionid')
    client = connect_as(other)
    assert me(client) == other.admin_username
    assert client.auth.state['cookie_name'] == 'svc_sessionid'


def test_bad_password_session(service):
    with pytest.raises(AuthError, match='rejected the username or password of user'):
        connect_as(service, service_password='wrong')


def test_bad_password_basic_says_so(service):
    client = connect_as(service, service_auth='basic', service_password='wrong')
    with pytest.raises(AuthError, match='rejected the username or password') as info:
        client.get('me')
    assert 'disabled' not in str(info.value)


def test_basic_switched_off_is_told_apart(service_factory):
    off = service_factory(AUTH_BASIC_ENABLED=False)
    client = connect_as(off, service_auth='basic')
    with pytest.raises(AuthError, match='Basic authentication is disabled'):
        client.get('me')


def test_bad_token(service):
    client = connect_as(service, service_token='not-a-real-token')
    with pytest.raises(AuthError, match='unknown to .* expired, or revoked'):
        client.get('me')


def test_revoked_token_fails_in_one_request(service):
    token = mint_token(service)
    connect_as(service, service_auth='basic').request('DELETE', 'tokens/%d' % token['id'])
    client = connect_as(service, service_token=token)
    mark = service.mark()
    with pytest.raises(AuthError, match='revoked'):
        client.get('me')
    assert len(service.since(mark)) == 1


def test_read_scoped_token_cannot_write(service):
    token = mint_token(service, scope='read')
    client = connect_as(service, service_token=token)
    assert me(client) == service.admin_username
    with pytest.raises(Exception, match='read scope'):
        client.request('POST', 'organizations', json_body={'name': 'never-created'})


def test_wrong_ca_fails(service, service_factory, tmp_path):
    other = service_factory(SESSION_COOKIE_AGE=1799)  # its own CA
    with pytest.raises(ConnectionFailure, match='TLS verification of 127.0.0.1:%d failed against the CA bundle %s'
                       % (service.port, other.ca_path)):
        connect_as(service, ca_path=other.ca_path)


def test_system_ca_fails_and_right_ca_passes(service):
    with pytest.raises(ConnectionFailure, match="system's default CA bundle"):
        connect_as(service, ca_path=None)
    assert me(connect_as(service)) == service.admin_username


def test_validate_certs_false_skips_verification(service):
    assert me(connect_as(service, ca_path=None, validate_certs=False)) == service.admin_username


def test_environment_supplies_the_options(service, monkeypatch):
    env = service.env()
    monkeypatch.setenv('CONTROLLER_HOST', env['SERVICE_URL'])
    monkeypatch.setenv('SERVICE_CA_PATH', env['SERVICE_CA_PATH'])
    monkeypatch.setenv('CONTROLLER_USERNAME', env['SERVICE_ADMIN_USERNAME'])
    monkeypatch.setenv('CONTROLLER_PASSWORD', env['SERVICE_ADMIN_PASSWORD'])
    from ansible_collections.automation.service.plugins.module_utils._options import resolve
    assert me(connect(resolve({}))) == service.admin_username


def test_config_file_supplies_the_options(service, tmp_path):
    config = tmp_path / 'tower_cli.cfg'
    config.write_text(json.dumps({'host': service.url, 'username': service.admin_username,
                                  'password': service.admin_password, 'ca_path': service.ca_path}))
    from ansible_collections.automation.service.plugins.module_utils._options import resolve
    assert me(connect(resolve({'service_config_file': str(config)}, environ={}))) == service.admin_username


def test_service_session_id_is_used_as_is(service):
    source = connect_as(service, session_cache=False)
    state = source.auth.state
    value = '%s=%s' % (state['cookie_name'], state['session_id'])
    mark = service.mark()
    client = connect_as(service, service_username=None, service_password=None, service_session_id=value)
    assert me(client) == service.admin_username
    assert not logins(service.since(mark))
    with pytest.raises(AuthError, match='service_session_id is not valid'):
        connect_as(service, service_username=None, service_password=None,
                   service_session_id='%s=garbage' % state['cookie_name'])
