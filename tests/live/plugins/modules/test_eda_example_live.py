"""examples/eda.yml, a play of every Event-Driven Ansible module (users, a team's role assignment, controller
tokens, credential types, credentials and their input sources, decision environments, projects, rulebooks, event
streams, rulebook activations and their copies, and each one's _info module), run with ansible-playbook against
the reference service's gateway layout, once with each of the gateway's authentication methods: made with a
session, then unchanged with a token and with Basic, then taken away (with a token) in one run."""

import os
import re
import uuid

import yaml

from ...playbook import ROOT, run_example
from .gateway_helpers import gateway  # noqa: F401 (the fixture)

EXAMPLE = 'eda.yml'


def reads():
    """How many tasks of the example's present run only read (its _info modules and its asserts)."""
    with open('%s/examples/%s' % (ROOT, EXAMPLE)) as handle:
        play = yaml.safe_load(handle)[0]
    count = 0
    for block in play['tasks']:
        if block.get('when') == 'present':
            count += sum(1 for task in block['block']
                         if any(key.endswith('_info') or key == 'ansible.builtin.assert' for key in task))
    return count


def test_the_example_uses_every_eda_module():
    with open('%s/examples/%s' % (ROOT, EXAMPLE)) as handle:
        used = set(re.findall(r'automation\.service\.(eda_\w+):', handle.read()))
    modules = set(name[:-3] for name in os.listdir('%s/plugins/modules' % ROOT) if name.startswith('eda_'))
    assert used == modules


def test_the_eda_example_makes_everything_once_whatever_the_login(gateway, tmp_path):
    prefix = 'ex%s' % uuid.uuid4().hex[:6]
    status, minted = gateway.admin_request('POST', '/api/gateway/v1/tokens/', {'description': prefix, 'scope': 'write'})
    assert status == 201, minted
    token = minted['token']
    named = ['-e', 'eda_example_prefix=%s' % prefix]

    (ok, changed, failed), output = run_example(gateway, tmp_path, EXAMPLE, named, {'SERVICE_AUTH': 'session'})
    assert failed == 0, output
    assert changed == ok - reads(), output          # every task that writes made something
    for method, secret in (('token', token), ('basic', None)):
        env = {'SERVICE_AUTH': method, 'SERVICE_TOKEN': secret or ''}
        again, output_again = run_example(gateway, tmp_path, EXAMPLE, named, env)
        assert again == (ok, 0, 0), (method, output_again)
        output += output_again

    (ok, changed, failed), output_gone = run_example(gateway, tmp_path, EXAMPLE,
                                                     named + ['-e', 'eda_example_state=absent'],
                                                     {'SERVICE_AUTH': 'token', 'SERVICE_TOKEN': token})
    assert failed == 0 and changed == ok, output_gone
    # neither the service's credentials nor the token are in any output
    for secret in (gateway.admin_password, token):
        assert secret not in output + output_gone
