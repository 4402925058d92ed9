"""gunicorn's settings for the reference service (svcctl start passes them with --config):
the TLS context of a worker, and the service's dispatcher.

gunicorn makes a new TLS context for every connection it accepts: it reads the
certificate and key files again each time, which cost the service about 4% of
its processor time (each task of a play opens connections of its own). A worker
here makes its context once and serves every connection with it.
"""

_contexts = {}


def ssl_context(conf, default_ssl_context_factory):
    key = (conf.certfile, conf.keyfile)
    context = _contexts.get(key)
    if context is None:
        context = _contexts[key] = default_ssl_context_factory()
    return context


# The service's dispatcher (refsvc/dispatcher.py) lives as long as gunicorn's master: started
# once the service is ready, stopped when it stops (and ending by itself if the master is killed).
_dispatcher = []


def when_ready(server):
    import subprocess
    import sys

    _dispatcher.append(subprocess.Popen([sys.executable, "-m", "refsvc.dispatcher"], stdin=subprocess.DEVNULL))


def on_exit(server):
    for proc in _dispatcher:
        proc.terminate()
        try:
            proc.wait(10)
        except Exception:  # subprocess.TimeoutExpired: it is gone with the master anyway
            proc.kill()
