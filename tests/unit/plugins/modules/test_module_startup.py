"""A real task's start: its module_utils come from the bytecode cache.

Real ansible-playbook runs of the host module against the reference service,
with a cache directory of the test's own. Only what lands on disk and the
task's result are asserted; the time saved is the benchmark's business.
"""

import stat

from .playbook import run_playbook, service_defaults

TASK = {'name': 'unchanged host', 'automation.service.host': {'name': 'startup-host', 'inventory': 'startup'}}


def test_the_module_utils_of_a_task_are_cached_once_and_reused(service, tmp_path):
    from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
    from ansible_collections.automation.service.plugins.module_utils._options import resolve
    admin = connect(resolve({'service_url': service.url, 'ca_path': str(service.ca_path), 'service_auth': 'basic',
                             'service_username': service.admin_username,
                             'service_password': service.admin_password}, environ={}))
    if not admin.get('inventories', params={'name': 'startup'})['results']:
        admin.request('POST', 'inventories', json_body={'name': 'startup', 'organization': 1})
    cache = tmp_path / 'cache'
    env = {'SERVICE_CACHE_DIR': str(cache), 'SERVICE_AUTH': 'basic',
           'SERVICE_USERNAME': service.admin_username, 'SERVICE_PASSWORD': service.admin_password}
    defaults = service_defaults(service)

    code, out = run_playbook(tmp_path, [TASK], env=env, module_defaults=defaults)
    assert code == 0, out
    stored = sorted((cache / 'bytecode').iterdir())
    # _api_base, _options, _errors, _authenticator, _client, _transport, _auth_base, _auth_basic at least
    assert len(stored) >= 8, [p.name for p in stored]
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in stored)
    assert stat.S_IMODE((cache / 'bytecode').stat().st_mode) == 0o700
    written = {p.name: p.stat().st_mtime_ns for p in stored}

    code, out = run_playbook(tmp_path, [TASK], env=env, module_defaults=defaults)
    assert code == 0 and 'changed=0' in out, out
    again = {p.name: p.stat().st_mtime_ns for p in (cache / 'bytecode').iterdir()}
    assert again == written  # read, not written again
