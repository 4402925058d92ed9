"""Two hundred concurrent tasks share the session cache while the server forgets
its sessions twice: every task succeeds, no cache file is ever seen corrupt,
and there is one login per session the server knew, not one per task."""

import multiprocessing
import os

from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._options import resolve
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache

from .helpers import logins


def _task(args):
    url, ca_path, username, password, cache_dir = args
    os.environ['SERVICE_CACHE_DIR'] = cache_dir
    cache = SessionCache()
    client = connect(resolve({'service_url': url, 'ca_path': ca_path, 'service_username': username,
                              'service_password': password}, environ={}), cache)
    name = client.get('me')['results'][0]['username']
    return name, cache.warnings


def test_two_hundred_concurrent_tasks(service_factory, isolated_cache):
    """Four waves of 50 concurrent tasks; between waves 1-2 and 2-3 the server forgets
    every session (as a restart does). Dropping sessions while requests are in flight
    is left out: Django then answers 400 for the interrupted session, on the real
    service too."""
    svc = service_factory(SESSION_COOKIE_AGE=1803)  # its own instance: sessions get dropped
    args = (svc.url, svc.ca_path, svc.admin_username, svc.admin_password, str(isolated_cache))
    mark = svc.mark()
    results = []
    with multiprocessing.get_context('fork').Pool(25) as pool:
        for wave in range(4):
            results.extend(pool.map(_task, [args] * 50, chunksize=1))
            if wave < 2:
                svc.drop_sessions()
    assert [name for name, _ in results] == [svc.admin_username] * 200
    warnings = [w for _, ws in results for w in ws]
    assert not warnings, warnings
    assert len(logins(svc.since(mark))) == 3
    for name in os.listdir(str(isolated_cache)):
        assert not name.startswith('.tmp-'), 'a temporary cache file was left behind'


def test_a_task_with_a_cached_session_does_not_wait_for_the_lock(service, isolated_cache):
    """The lock serialises logins only: while another process holds it (a fork
    logging in), a task whose session is in the cache goes ahead."""
    import fcntl
    import threading

    from ansible_collections.automation.service.plugins.module_utils._auth_session import SessionAuth

    options = resolve({'service_url': service.url, 'ca_path': str(service.ca_path),
                       'service_username': service.admin_username,
                       'service_password': service.admin_password}, environ={})
    first = connect(options, SessionCache(directory=str(isolated_cache)))
    key = first.auth._key(first)
    holder = os.open(os.path.join(str(isolated_cache), key + '.lock'), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(holder, fcntl.LOCK_EX)
    done = []
    try:
        worker = threading.Thread(target=lambda: done.append(
            connect(options, SessionCache(directory=str(isolated_cache)))), daemon=True)
        worker.start()
        worker.join(20)
        assert done, 'the task waited for the lock although its session was cached'
        assert isinstance(done[0].auth, SessionAuth) and done[0].auth.from_cache
    finally:
        fcntl.flock(holder, fcntl.LOCK_UN)
        os.close(holder)
