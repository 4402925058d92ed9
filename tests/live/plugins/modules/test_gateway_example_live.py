"""examples/gateway.yml, a play of every gateway module (organization, team, user, authenticator, maps granting
organization and team roles, role assignments, service type and cluster, HTTP port, route, service, service key,
CA certificate, settings), run with ansible-playbook against the reference service in the gateway's layout: the
first run makes everything, the second changes nothing, and the same for taking it all away again."""

import uuid

from ...playbook import run_example
from .gateway_helpers import gateway  # noqa: F401 (the fixture)


def play(svc, workdir, prefix, *extra):
    """(ok, changed, failed) of a run of the example, and its output."""
    port = 30000 + int(prefix[2:], 16) % 20000
    named = ['-e', 'gateway_example_prefix=%s' % prefix, '-e', 'gateway_example_port=%d' % port]
    return run_example(svc, workdir, 'gateway.yml', named + list(extra))


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
