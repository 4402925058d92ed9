"""The Red Hat password given to the subscriptions module appears nowhere: not in
the output at -vvvv, not in Ansible's log file, not in any file the run wrote,
whether the module runs in the controller or as a module (async). Only
ansible-core's own module payload, which carries every argument, is left out."""

import os
import uuid

from ...playbook import run_playbook, service_defaults
from .test_secrets import files_under


def test_no_red_hat_password_anywhere(service, tmp_path):
    password = 'RH-%s-secret' % uuid.uuid4().hex
    env = {'T_RH_PASSWORD': password, 'SERVICE_CACHE_DIR': str(tmp_path / 'cache'),
           'ANSIBLE_LOG_PATH': str(tmp_path / 'ansible.log'), 'ANSIBLE_LOCAL_TEMP': str(tmp_path / 'tmp'),
           'ANSIBLE_REMOTE_TEMP': str(tmp_path / 'rtmp')}
    args = {'username': 'rh-user', 'password': "{{ lookup('ansible.builtin.env', 'T_RH_PASSWORD') }}",
            'filters': {'support_level': 'Premium'}}
    tasks = [
        {'name': 'here', 'automation.service.subscriptions': args, 'diff': True, 'ignore_errors': True},
        {'name': 'module', 'automation.service.subscriptions': args, 'async': 60, 'poll': 1, 'ignore_errors': True},
        {'name': 'check', 'automation.service.subscriptions': args, 'check_mode': True},
    ]
    defaults = service_defaults(service, service_username=service.admin_username,
                                service_password=service.admin_password)
    code, output = run_playbook(tmp_path, tasks, env=env, verbosity=4, module_defaults=defaults)
    assert code == 0, output[-3000:]
    assert output.count('Invalid Subscription') >= 2, output[-3000:]
    assert 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER' in output  # it was there, masked
    assert password not in output, 'the password was printed'
    for path in files_under(tmp_path):
        if os.path.basename(path).startswith('AnsiballZ_'):
            continue  # ansible-core's payload of the async task carries its arguments until it cleans up
        with open(path, 'rb') as handle:
            assert password.encode() not in handle.read(), 'the password is in %s' % path
