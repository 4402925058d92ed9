"""examples/gateway.yml, a play of every gateway module (organization, team, user, authenticator, maps granting
organization and team roles, role assignments, service type and cluster, HTTP port, route, service, service key,
CA certificate, settings), run with ansible-playbook against the reference service in the gateway's layout: the
first run makes everything, the second changes nothing, and the same for taking it all away again."""

import os
import re
import subprocess
import sys
import uuid

from ...playbook import ROOT, collection_tree
from .gateway_helpers import gateway  # noqa: F401 (the fixture)

PLAY = os.path.join(ROOT, 'examples', 'gateway.yml')
RECAP = re.compile(r'^localhost\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)', re.M)


def play(svc, workdir, prefix, *extra):
    """(ok, changed, failed) of a run of the example, and its output."""
    env = dict(os.environ, SERVICE_URL=svc.url, SERVICE_CA_PATH=str(svc.ca_path),
               SERVICE_ADMIN_USERNAME=svc.admin_username, SERVICE_ADMIN_PASSWORD=svc.admin_password,
               ANSIBLE_COLLECTIONS_PATH=collection_tree(workdir), ANSIBLE_NOCOLOR='1', ANSIBLE_FORCE_COLOR='0',
               ANSIBLE_LOCALHOST_WARNING='0', ANSIBLE_INVENTORY_UNPARSED_WARNING='0', ANSIBLE_STDOUT_CALLBACK='default')
    command = [os.path.join(os.path.dirname(sys.executable), 'ansible-playbook'), PLAY,
               '-e', 'gateway_example_prefix=%s' % prefix, '-e', 'gateway_example_port=%d' % (30000 + int(prefix[2:], 16) % 20000)]
    command.extend(extra)
    result = subprocess.run(command, cwd=str(workdir), env=env, capture_output=True, text=True, timeout=600,
                            stdin=subprocess.DEVNULL)
    output = result.stdout + result.stderr
    found = RECAP.search(output)
    assert found, output
    ok, changed, unreachable, failed = (int(value) for value in found.groups())
    return (ok, changed, failed + unreachable), output


def test_the_gateway_example_makes_everything_once_and_takes_it_away_once(gateway, tmp_path):
    prefix = 'ex%s' % uuid.uuid4().hex[:6]
    (ok, changed, failed), output = play(gateway, tmp_path, prefix)
    assert failed == 0, output
    assert changed == ok, output                 # every task made something
    (ok_again, changed, failed), output = play(gateway, tmp_path, prefix)
    assert (ok_again, changed, failed) == (ok, 0, 0), output
    # The password given to the user is nowhere in the output, nor are the service's credentials.
    assert gateway.admin_password not in output

    (ok, changed, failed), output = play(gateway, tmp_path, prefix, '-e', 'gateway_example_state=absent')
    assert failed == 0, output
    assert changed == ok, output
    (ok_again, changed, failed), output = play(gateway, tmp_path, prefix, '-e', 'gateway_example_state=absent')
    assert (ok_again, changed, failed) == (ok, 0, 0), output
