"""gunicorn's settings for the reference service (svcctl start passes them with --config):
the TLS context of a worker, the service's dispatcher, and what a fork from the master
must not share.

gunicorn makes a new TLS context for every connection it accepts: it reads the
certificate and key files again each time, which cost the service about 4% of
its processor time (each task of a play opens connections of its own). A worker
here makes its context once and serves every connection with it.

svcctl starts gunicorn with --preload: the master sets Django up and imports the
service once, prepares the database as svcctl start asked, and the workers and the
dispatcher are forked from it. Set up in each
of them, the service would cost a second of processor time more per process, and
the tests start a service many times.
"""
import os
import signal
import time

_contexts = {}


def ssl_context(conf, default_ssl_context_factory):
    key = (conf.certfile, conf.keyfile)
    context = _contexts.get(key)
    if context is None:
        context = _contexts[key] = default_ssl_context_factory()
    return context


def _close_connections():
    """The master's database connections (if it opened any) are not a fork's to use."""
    from django.db import connections

    connections.close_all()


# The runners the start-up asked for (the seed's Demo Project update): there is no dispatcher yet, and
# refsvc/dispatcher.py would start each as ``python -m`` (Django set up anew: about a second of processor
# time, half of what a start costs). The dispatcher forks them from the master's Django once it is forked.
_deferred = []


def on_starting(server):
    """Before it listens: the seed and start-up settings svcctl start asked for (refsvc/svc/prepare.py),
    and the URLconf loaded."""
    from django.conf import settings

    from refsvc import dispatcher
    from refsvc.svc import prepare

    start = dispatcher.start
    dispatcher.start = lambda argv: _deferred.append([str(arg) for arg in argv])
    try:
        prepare.run(settings.INSTANCE_DIR)
    finally:
        dispatcher.start = start
    _load_urls()
    _load_lazy_parts()
    _close_connections()


def _load_urls():
    """The URLconf, every view and serializer it imports, and its reverse lookups: Django loads them at
    a process's first request, which would be each worker's (about a quarter of a second each)."""
    from django.urls import get_resolver

    get_resolver().reverse_dict  # pylint: disable=expression-not-assigned


def _load_lazy_parts():
    """What Django loads at its first use in a process, which would be each worker's: the
    authentication backends (the SSO ones import social-auth's OIDC and SAML code, about 0.15 s) and
    the e-mail validator's expressions (compiled at the first address checked, about 0.1 s)."""
    from django.contrib.auth import get_backends
    from django.core.validators import validate_email

    get_backends()
    validate_email("operators@example.test")


def post_fork(server, worker):
    _close_connections()


# The service's dispatcher (refsvc/dispatcher.py) lives as long as gunicorn's master: forked
# from it once the service is ready, stopped when it stops (and ending by itself if the master
# is killed).
_dispatcher = []

# The signals gunicorn's master handles; the dispatcher takes them as any process does.
_MASTER_SIGNALS = ("SIGHUP", "SIGQUIT", "SIGINT", "SIGTERM", "SIGTTIN", "SIGTTOU", "SIGUSR1", "SIGUSR2",
                   "SIGWINCH", "SIGCHLD")


def when_ready(server):
    _close_connections()
    pid = os.fork()
    if pid:
        _dispatcher.append(pid)
        return
    code = 1
    try:
        for name in _MASTER_SIGNALS:
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        for listener in list(getattr(server, "LISTENERS", [])):
            listener.close()
        from django.conf import settings

        from refsvc import dispatcher

        for argv in _deferred:  # each in a child of its own, as the dispatcher runs a runner
            if not os.fork():
                dispatcher._run_child(argv, str(settings.INSTANCE_DIR))  # pylint: disable=protected-access
        dispatcher.serve()  # which reaps them too
        code = 0
    finally:
        os._exit(code)


def on_exit(server):
    for pid in _dispatcher:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    break
            except ChildProcessError:
                break
            time.sleep(0.05)
        else:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
