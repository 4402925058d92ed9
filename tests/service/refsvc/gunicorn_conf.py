"""gunicorn's settings for the reference service (svcctl start passes them with --config).

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
