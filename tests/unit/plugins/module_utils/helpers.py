"""Small helpers shared by the auth-layer tests."""

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._options import resolve


def options_for(service, environ=None, **given):
    """Resolved options for ``service`` with the admin's credentials unless overridden."""
    base = {
        'service_url': service.url,
        'ca_path': service.ca_path,
        'service_username': service.admin_username,
        'service_password': service.admin_password,
    }
    base.update(given)
    return resolve(base, environ=environ if environ is not None else {})


def connect_as(service, **given):
    return connect(options_for(service, **given))


def logins(entries):
    return [e for e in entries if e['method'] == 'POST' and e['path'] == '/api/login/']


def mint_token(service, scope='write'):
    """A personal access token made by a plain request, as the admin."""
    client = connect_as(service, service_auth='basic')
    return client.request('POST', 'tokens', json_body={'description': 'test', 'scope': scope})


SVCCTL = Path(__file__).resolve().parents[4] / 'tests' / 'service' / 'svcctl'


class Gateway:
    """One instance of the reference service in the gateway layout, in a directory of its own
    (``start('--with-idp')`` with the test identity providers behind its authenticators)."""

    def __init__(self, directory):
        self.dir = Path(directory)

    def start(self, *extra):
        env = dict(os.environ, REFSVC_PASSWORD_ITERATIONS=os.environ.get('REFSVC_PASSWORD_ITERATIONS', '1000'))
        command = [sys.executable, str(SVCCTL), 'start', '--dir', str(self.dir), '--layout', 'gateway'] + list(extra)
        result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
        if result.returncode != 0:
            self.stop()
            raise RuntimeError('svcctl start failed:\n%s\n%s' % (result.stdout, result.stderr))
        self.exports = {}
        for line in result.stdout.splitlines():
            if line.startswith('export '):
                name, _sep, value = line[len('export '):].partition('=')
                self.exports[name] = shlex.split(value)[0] if value else ''
        assert self.exports['SERVICE_LAYOUT'] == 'gateway'
        self.url = self.exports['SERVICE_URL']
        self.ca_path = self.exports['SERVICE_CA_PATH']  # with --with-idp, the identity providers' CA too
        self.admin_username = self.exports['SERVICE_ADMIN_USERNAME']
        self.admin_password = self.exports['SERVICE_ADMIN_PASSWORD']
        return self

    def stop(self):
        try:
            pid = int((self.dir / 'gunicorn.pid').read_text().strip())
        except (OSError, ValueError):
            pid = None
        try:
            subprocess.run([sys.executable, str(SVCCTL), 'stop', '--dir', str(self.dir)], capture_output=True,
                           timeout=120)
        finally:
            # Never leave a service behind, whatever svcctl managed (its workers follow their master).
            if pid is not None:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def manage(self, *args):
        result = subprocess.run([sys.executable, str(SVCCTL), 'manage', '--dir', str(self.dir)] + list(args),
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout

    def log(self):
        """The service's request log (requests.jsonl in its directory)."""
        try:
            text = (self.dir / 'requests.jsonl').read_text()
        except FileNotFoundError:
            return []
        entries = []
        for line in text.splitlines():
            try:
                entries.append(json.loads(line))
            except ValueError:
                pass  # a line being written right now
        return entries

    def mark(self):
        return len(self.log())

    def since(self, mark):
        return self.log()[mark:]
