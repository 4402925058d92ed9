# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Picks the auth method (the ``auto`` rules) and builds a ready client."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._client import Client
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache

METHODS = ('basic', 'session', 'sso', 'token')


def method_class(name):
    """The class of one method, imported only when chosen: each task pays for its own
    method alone (SSO's HTML parsing is not free). The imports stay static so that
    Ansible's module packaging finds them."""
    if name == 'basic':
        from ansible_collections.automation.service.plugins.module_utils._auth_basic import BasicAuth
        return BasicAuth
    if name == 'session':
        from ansible_collections.automation.service.plugins.module_utils._auth_session import SessionAuth
        return SessionAuth
    if name == 'sso':
        from ansible_collections.automation.service.plugins.module_utils._auth_sso import SsoAuth
        return SsoAuth
    if name == 'password_grant':
        from ansible_collections.automation.service.plugins.module_utils._auth_oauth2 import PasswordGrantAuth
        return PasswordGrantAuth
    from ansible_collections.automation.service.plugins.module_utils._auth_token import TokenAuth
    return TokenAuth


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


def build_auth(options, cache=None):
    """Return the validated auth method for ``options`` (no I/O)."""
    name = select_method(options)
    if name not in METHODS:
        raise ConfigError('service_auth %s is not available in this version of the collection.' % name)
    if name == 'token' and not options.get('service_token') and options.get('service_client_id'):
        name = 'password_grant'  # a token by password grant
    method = method_class(name)(options, cache=cache)
    method.validate()
    return method


def connect(options, cache=None):
    """A Client for ``options`` whose auth method has authenticated."""
    if cache is None:
        cache = SessionCache(enabled=bool(options.get('session_cache', True)))
    client = Client(options)
    auth = build_auth(options, cache=cache)
    client.auth = auth
    client.cache = cache
    auth.authenticate(client)
    return client
