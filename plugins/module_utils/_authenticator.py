# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Picks the auth method (the ``auto`` rules) and builds a ready client."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._client import Client
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, ConnectionFailure, OutcomeUnknown


# The auth methods: the class each name of ``service_auth`` stands for. Each class is imported only
# when chosen, so that each task pays for its own method alone (SSO's HTML parsing is not free); the
# imports stay static so that Ansible's module packaging finds them.
def _session(options):
    from ansible_collections.automation.service.plugins.module_utils._auth_session import SessionAuth
    return SessionAuth


def _basic(options):
    from ansible_collections.automation.service.plugins.module_utils._auth_basic import BasicAuth
    return BasicAuth


def _token(options):
    """A token given, or one obtained by password grant when an OAuth2 application is named instead."""
    if not options.get('service_token') and options.get('service_client_id'):
        from ansible_collections.automation.service.plugins.module_utils._auth_oauth2 import PasswordGrantAuth
        return PasswordGrantAuth
    from ansible_collections.automation.service.plugins.module_utils._auth_token import TokenAuth
    return TokenAuth


def _sso(options):
    from ansible_collections.automation.service.plugins.module_utils._auth_sso import SsoAuth
    return SsoAuth


# service_auth's value (but ``auto``, see select_method) -> the class of its method, given the options
METHODS = {
    'session': _session,
    'basic': _basic,
    'token': _token,
    'sso': _sso,
}


def select_method(options):
    """The method ``service_auth`` names, or the first ``auto`` rule that matches."""
    chosen = options.get('service_auth') or 'auto'
    if chosen != 'auto':
        return chosen
    if options.get('service_token'):
        return 'token'
    if options.get('service_session_id'):
        return 'session'
    if options.get('service_sso_backend'):
        return 'sso'
    has_password = options.get('service_username') and options.get('service_password')
    if options.get('service_client_id') and has_password:
        return 'token'
    if has_password:
        return 'session'
    raise ConfigError('No credentials: set service_token, service_session_id, or service_username and '
                      'service_password (or their SERVICE_* / CONTROLLER_* environment variables).')


def method_class(options):
    """The class of the method ``options`` call for."""
    name = select_method(options)
    if name not in METHODS:
        raise ConfigError('service_auth %s is not available in this version of the collection.' % name)
    return METHODS[name](options)


def build_auth(options, cache=None):
    """Return the validated auth method for ``options`` (no I/O)."""
    method = method_class(options)(options, cache=cache)
    method.validate()
    return method


def connect(options, cache=None, warn=None, environ=None, bounded=False, on_write=None):
    """A Client for ``options`` whose auth method has authenticated.

    The session cache is opened for a method that keeps logins in it, and to keep the
    service's layout when ``service_layout`` is ``auto`` (found before the login, whose pages
    depend on it); ``warn`` receives what the cache has to say (another owner, no space).
    ``environ`` is the task's environment (proxies, the cache directory);
    ``bounded``: the task runs on the controller, where the bound on requests
    in flight applies; ``on_write``: the client's (see Client).
    """
    finds_layout = (options.get('service_layout') or 'auto') == 'auto'
    if cache is None and (method_class(options).keeps_login or finds_layout):
        from ansible_collections.automation.service.plugins.module_utils._private_dir import default_directory
        from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache
        cache = SessionCache(directory=default_directory(environ), enabled=bool(options.get('session_cache', True)))
    try:
        client = Client(options, environ=environ, bounded=bounded, on_write=on_write)
        client.auth = build_auth(options, cache=cache)
        client.cache = cache
        client.find_layout(cache)
        if client.hub_root is not None:
            client.auth = hub_auth(client, options, cache) or client.auth
        client.auth.authenticate(client)
        return client
    except (ConfigError, ConnectionFailure) as exc:
        if isinstance(exc, OutcomeUnknown):
            raise
        unresolved = unresolvable(options.get('service_url'), environ)
        if unresolved:
            raise ConnectionFailure(unresolved)
        raise
    finally:
        for warning in (cache.warnings if cache is not None and warn else ()):
            warn(warning)


def hub_auth(client, options, cache):
    """For a Hub module on a standalone Automation Hub, which has no session login of the platform's kind: with
    ``service_auth: auto``, Basic authentication in place of the session a username and password call for
    (galaxy-ng takes Basic; its UI's own login, a JSON form with a CSRF token, is not used); a session or single
    sign-on asked for by name is refused before anything is sent. None to keep the method chosen. The layout is
    settled for it (asked for once, see Client.discover())."""
    method = select_method(options)
    if method not in ('session', 'sso') or not client.settled_layout().is_standalone_hub:
        return None
    if (options.get('service_auth') or 'auto') != 'auto' or options.get('service_session_id') or method == 'sso':
        raise ConfigError('service_auth %s is not available on a standalone Automation Hub (%s): use a username '
                          'and password (service_auth basic, or auto) or a token of the Hub (ah_token).'
                          % (method, client.base_url))
    return build_auth(dict(options, service_auth='basic'), cache=cache)


def unresolvable(url, environ=None):
    """Why the host of ``url`` cannot be resolved (None when it can, or a proxy is set for its
    scheme): awx.awx says so before anything else, and so do we once the connection failed."""
    import os
    import socket
    from urllib.parse import urlsplit
    environ = os.environ if environ is None else environ
    text = str(url or '')
    if not text.startswith(('http://', 'https://')):
        text = 'https://' + text  # as awx.awx reads controller_host: DNE://junk.com names the host dne
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or environ.get(parts.scheme + '_proxy') or environ.get(parts.scheme.upper() + '_PROXY'):
        return None
    try:
        socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        return 'Unable to resolve controller_host (%s): %s' % (exc, host)  # awx.awx's words, in its order
    except OSError:
        return None
    return None
