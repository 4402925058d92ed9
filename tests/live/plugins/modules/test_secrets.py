"""No secret in the output at -vvvv, in the log file, in returned values or on disk.

Every module and the lookup run with unique, recognisable secrets; then the
output, Ansible's log file and every file the run wrote are searched for them.
The only file allowed to hold a session id or token is the session cache entry.
"""

import os
import uuid

import pytest

from ...playbook import run_playbook, service_defaults

# A credential's secret input, from the environment like the auth options.
CREDENTIAL_INPUTS = {'username': '{{ prefix }}-login', 'password': "{{ lookup('ansible.builtin.env', 'T_CRED_SECRET') }}"}

MODULE_TASKS = [
    ('automation.service.inventory', {'name': '{{ prefix }}-inv', 'organization': 'Default',
                                      'variables': {'a': 1}}),
    ('automation.service.host', {'name': '{{ prefix }}-h1', 'inventory': '{{ prefix }}-inv',
                                 'variables': {'b': 2}, 'description': 'first'}),
    ('automation.service.host', {'name': '{{ prefix }}-h1', 'inventory': '{{ prefix }}-inv',
                                 'description': 'second'}),
    ('automation.service.host', {'name': '{{ prefix }}-h1', 'inventory': '{{ prefix }}-inv', 'state': 'absent'}),
    ('automation.service.inventory', {'name': '{{ prefix }}-inv', 'organization': 'Default', 'state': 'absent'}),
    ('automation.service.credential', {'name': '{{ prefix }}-cred', 'credential_type': 'Machine',
                                       'organization': 'Default', 'inputs': CREDENTIAL_INPUTS}),
    ('automation.service.credential', {'name': '{{ prefix }}-cred', 'credential_type': 'Machine',
                                       'organization': 'Default', 'inputs': CREDENTIAL_INPUTS}),
    ('automation.service.credential', {'name': '{{ prefix }}-cred', 'credential_type': 'Machine',
                                       'organization': 'Default', 'description': 'changed',
                                       'inputs': CREDENTIAL_INPUTS}),
    ('automation.service.credential', {'name': '{{ prefix }}-cred', 'credential_type': 'Machine',
                                       'organization': 'Default', 'state': 'absent'}),
]


def tasks_for(prefix, auth, service):
    """Tasks that read each auth option from the environment (so the playbook file holds no secret)."""
    from_env = dict((name, "{{ lookup('ansible.builtin.env', 'T_%s') }}" % name.upper()) for name in auth)
    tasks = [{'name': 'prefix', 'ansible.builtin.set_fact': {'prefix': prefix}}]
    for number, (module, args) in enumerate(MODULE_TASKS):
        tasks.append({'name': '%s %d' % (module, number), module: dict(args, **from_env), 'diff': True})
    lookup_args = ', '.join("%s=lookup('ansible.builtin.env', 'T_%s')" % (name, name.upper()) for name in auth)
    tasks.append({'name': 'lookup', 'ansible.builtin.debug': {
        'msg': "{{ lookup('automation.service.api', 'me', expect_one=true, service_url=%r, ca_path=%r, %s).username }}"
               % (service.url, str(service.ca_path), lookup_args)}})
    return tasks


def files_under(top):
    for directory, _dirs, names in os.walk(str(top)):
        for name in names:
            path = os.path.join(directory, name)
            if not os.path.islink(path) and os.path.isfile(path):
                yield path


@pytest.fixture(scope='module')
def secret_user(service):
    password = 'PW-%s-secret' % uuid.uuid4().hex
    user = service.create_user('secret-%s' % uuid.uuid4().hex[:8], password, is_superuser=True)
    return user['username'], password


def mint(service, username, password):
    import base64
    import json
    import ssl
    import urllib.request
    request = urllib.request.Request(service.url + '/api/v2/tokens/', method='POST',
                                     data=json.dumps({'description': 'secrets test'}).encode())
    request.add_header('Authorization', 'Basic ' + base64.b64encode(
        ('%s:%s' % (username, password)).encode()).decode())
    request.add_header('Content-Type', 'application/json')
    with urllib.request.urlopen(request, context=ssl.create_default_context(cafile=str(service.ca_path))) as answer:
        return json.loads(answer.read())['token']


@pytest.mark.parametrize('method', ['basic', 'session', 'token', 'session_id'])
def test_no_secret_anywhere(service, secret_user, tmp_path, method):
    username, password = secret_user
    home = tmp_path / 'home'
    home.mkdir()
    cache = tmp_path / 'cache'
    env = {'HOME': str(home), 'SERVICE_CACHE_DIR': str(cache), 'ANSIBLE_LOG_PATH': str(tmp_path / 'ansible.log'),
           'ANSIBLE_LOCAL_TEMP': str(tmp_path / 'tmp'), 'ANSIBLE_REMOTE_TEMP': str(tmp_path / 'rtmp')}
    secrets = [password, 'CRED-%s-secret' % uuid.uuid4().hex]
    env['T_CRED_SECRET'] = secrets[1]
    if method in ('basic', 'session'):
        auth = {'service_auth': method, 'service_username': username, 'service_password': password}
    elif method == 'token':
        token = mint(service, username, password)
        secrets.append(token)
        auth = {'service_token': token}
    else:
        from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
        from ansible_collections.automation.service.plugins.module_utils._options import resolve
        client = connect(resolve({'service_url': service.url, 'ca_path': str(service.ca_path),
                                  'service_username': username, 'service_password': password,
                                  'session_cache': False}, environ={}))
        state = client.auth.state
        secrets.append(state['session_id'])
        auth = {'service_session_id': '%s=%s' % (state['cookie_name'], state['session_id'])}

    env.update(('T_%s' % name.upper(), value) for name, value in auth.items())
    code, output = run_playbook(tmp_path, tasks_for('sec-%s' % method, auth, service), env=env, verbosity=4,
                                module_defaults=service_defaults(service))
    assert code == 0, output[-3000:]
    assert 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER' in output  # the secrets were there, masked
    for secret in secrets:
        assert secret not in output, 'a secret was printed'
    for path in files_under(tmp_path):
        with open(path, 'rb') as handle:
            content = handle.read()
        in_cache = path.startswith(str(cache) + os.sep) and path.endswith('.json')
        for secret in secrets:
            if secret.encode() in content:
                assert in_cache and secret not in secrets[:2], 'secret found in %s' % path
