"""The live tests' helpers: run a real ansible-playbook against the reference service, with the
collection from this work tree. The service itself comes from tests/conftest.py (``service``,
``service_factory``, ``sso_service``, ``gateway_service_factory``, ``svc``; ``Service.new_user()``)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

# The collection's root: the repository, or the copy ansible-test units runs in (tests/ci/units.sh
# puts this folder at tests/unit/live there, one level deeper).
ROOT = next(str(p) for p in Path(__file__).resolve().parents if (p / 'galaxy.yml').is_file())


def collection_tree(base):
    """A collections path whose automation.service is this work tree."""
    tree = os.path.join(str(base), 'collections')
    link = os.path.join(tree, 'ansible_collections', 'automation', 'service')
    if not os.path.exists(link):
        os.makedirs(os.path.dirname(link))
        os.symlink(ROOT, link)
    return tree


def run_playbook(workdir, tasks, env=None, verbosity=0, module_defaults=None, forks=5):
    """Run ``tasks`` on localhost; return (exit code, combined output)."""
    workdir = str(workdir)
    play = {
        'name': 'test play',
        'hosts': 'localhost',
        'connection': 'local',
        'gather_facts': False,
        'vars': {'ansible_python_interpreter': sys.executable},
        'tasks': tasks,
    }
    if module_defaults:
        play['module_defaults'] = {'group/automation.service.api': module_defaults}
    path = os.path.join(workdir, 'play.yml')
    with open(path, 'w') as handle:
        yaml.safe_dump([play], handle, sort_keys=False)
    full_env = dict(os.environ)
    full_env.update({
        'ANSIBLE_COLLECTIONS_PATH': collection_tree(workdir),
        'ANSIBLE_NOCOLOR': '1',
        'ANSIBLE_FORCE_COLOR': '0',
        'ANSIBLE_LOCALHOST_WARNING': '0',
        'ANSIBLE_INVENTORY_UNPARSED_WARNING': '0',
        'ANSIBLE_STDOUT_CALLBACK': 'default',
    })
    full_env.update(env or {})
    command = [os.path.join(os.path.dirname(sys.executable), 'ansible-playbook'), path, '-f', str(forks)]
    if verbosity:
        command.append('-' + 'v' * verbosity)
    result = subprocess.run(command, cwd=workdir, env=full_env, capture_output=True, text=True, timeout=600,
                            stdin=subprocess.DEVNULL)
    return result.returncode, result.stdout + result.stderr


RECAP = re.compile(r'^localhost\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)', re.M)


def run_example(svc, workdir, example, extra=(), env=None):
    """((ok, changed, failed), output) of a run of examples/``example`` against ``svc``, which it reads from
    SERVICE_URL, SERVICE_CA_PATH and the administrator's SERVICE_ADMIN_USERNAME and SERVICE_ADMIN_PASSWORD;
    ``extra``: more arguments of ansible-playbook; ``env``: more environment (SERVICE_AUTH, SERVICE_TOKEN)."""
    full_env = dict(os.environ, SERVICE_URL=svc.url, SERVICE_CA_PATH=str(svc.ca_path),
                    SERVICE_ADMIN_USERNAME=svc.admin_username, SERVICE_ADMIN_PASSWORD=svc.admin_password,
                    ANSIBLE_COLLECTIONS_PATH=collection_tree(workdir), ANSIBLE_NOCOLOR='1', ANSIBLE_FORCE_COLOR='0',
                    ANSIBLE_LOCALHOST_WARNING='0', ANSIBLE_INVENTORY_UNPARSED_WARNING='0',
                    ANSIBLE_STDOUT_CALLBACK='default')
    full_env.update(env or {})
    command = [os.path.join(os.path.dirname(sys.executable), 'ansible-playbook'),
               os.path.join(ROOT, 'examples', example)] + list(extra)
    result = subprocess.run(command, cwd=str(workdir), env=full_env, capture_output=True, text=True, timeout=600,
                            stdin=subprocess.DEVNULL)
    output = result.stdout + result.stderr
    found = RECAP.search(output)
    assert found, output
    ok, changed, unreachable, failed = (int(value) for value in found.groups())
    return (ok, changed, failed + unreachable), output


def service_defaults(service, **extra):
    options = {'service_url': service.url, 'ca_path': str(service.ca_path)}
    options.update(extra)
    return options


def dump(data):
    return json.dumps(data, sort_keys=True)
