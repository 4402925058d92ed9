"""Inside an AWX job: the environment the 'Red Hat Ansible Automation Platform' credential
injects is all the collection needs, and its cache lives in the job's private data
directory. Pure functions, no service needed."""

import os

from ansible_collections.automation.service.plugins.module_utils._authenticator import select_method
from ansible_collections.automation.service.plugins.module_utils._options import resolve
from ansible_collections.automation.service.plugins.module_utils._private_dir import default_directory, job_private_data_dir
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache


def injected(host='https://awx.example.com', username='', password='', token='', verify='False'):
    """The variables of the credential as AWX 24.6.1 renders its env injectors: every name is
    set, an input that is not given is an empty string, verify_ssl is 'True' or 'False'."""
    env = {}
    for prefix in ('TOWER', 'CONTROLLER'):
        env.update({prefix + '_HOST': host, prefix + '_USERNAME': username, prefix + '_PASSWORD': password,
                    prefix + '_VERIFY_SSL': verify, prefix + '_OAUTH_TOKEN': token})
    return env


def test_a_token_credential_gives_token_authentication():
    values = resolve({}, environ=injected(token='tok-1'))
    assert values['service_url'] == 'https://awx.example.com'
    assert values['service_token'] == 'tok-1'
    assert values['service_username'] is None and values['service_password'] is None
    assert values['validate_certs'] is False
    assert select_method(values) == 'token'


def test_a_username_and_password_credential_logs_in():
    values = resolve({}, environ=injected(username='alice', password='pw', verify='True'))
    assert values['service_username'] == 'alice' and values['service_password'] == 'pw'
    assert values['validate_certs'] is True
    assert select_method(values) in ('session', 'basic')


def test_the_tower_names_alone_are_enough():
    env = {k: v for k, v in injected(username='bob', password='pw').items() if k.startswith('TOWER_')}
    values = resolve({}, environ=env)
    assert (values['service_url'], values['service_username'], values['service_password']) == (
        'https://awx.example.com', 'bob', 'pw')


def job_dirs(tmp_path, ident='7'):
    private = tmp_path / 'awx_7_abc'
    (private / 'artifacts' / ident).mkdir(parents=True)
    return private


def test_inside_a_job_the_cache_is_in_the_private_data_directory(tmp_path):
    private = job_dirs(tmp_path)
    environ = {'AWX_ISOLATED_DATA_DIR': str(private / 'artifacts' / '7'), 'HOME': str(tmp_path / 'home'),
               'XDG_CACHE_HOME': str(tmp_path / 'shared')}
    assert job_private_data_dir(environ) == str(private)
    assert default_directory(environ) == str(private / '.automation.service')


def test_awx_private_data_dir_when_the_artifacts_path_is_the_containers(tmp_path):
    private = job_dirs(tmp_path)
    environ = {'AWX_ISOLATED_DATA_DIR': '/nonexistent-runner/artifacts/7', 'AWX_PRIVATE_DATA_DIR': str(private)}
    assert default_directory(environ) == str(private / '.automation.service')


def test_service_cache_dir_still_wins_and_outside_a_job_the_home_cache_is_used(tmp_path):
    private = job_dirs(tmp_path)
    environ = {'AWX_ISOLATED_DATA_DIR': str(private / 'artifacts' / '7'), 'SERVICE_CACHE_DIR': str(tmp_path / 'mine')}
    assert default_directory(environ) == str(tmp_path / 'mine')
    assert default_directory({'XDG_CACHE_HOME': str(tmp_path / 'x')}) == str(tmp_path / 'x' / 'automation.service')
    # an artifacts path that is not in any private data directory is no job
    assert job_private_data_dir({'AWX_ISOLATED_DATA_DIR': str(tmp_path / 'elsewhere')}) is None


def test_the_job_cache_is_private_and_goes_with_the_directory(tmp_path):
    private = job_dirs(tmp_path)
    directory = default_directory({'AWX_ISOLATED_DATA_DIR': str(private / 'artifacts' / '7')})
    cache = SessionCache(directory=directory)
    cache.save('entry', {'kind': 'session', 'value': 'x'})
    assert oct(os.stat(directory).st_mode & 0o777) == '0o700'
    assert os.listdir(directory)
    assert str(private) in directory and not str(directory).startswith(os.path.expanduser('~'))
