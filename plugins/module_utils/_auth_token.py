# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OAuth2 bearer token: a string, or the dict the token module returns."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

from ansible_collections.automation.service.plugins.module_utils._auth_base import AuthMethod, NOT_PROCESSED_HINT
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError, ConfigError


def plain_type_name(value):
    """The name of ``value``'s built-in type (a templated value may be of a subclass of it)."""
    for kind in (bool, int, float, list, tuple, set, bytes):
        if isinstance(value, kind):
            return kind.__name__
    return type(value).__name__


def token_value(token, option=None):
    """The secret of a token given as a string or as a token dict (``option``: the option it was given as, named in
    the messages; awx.awx's controller_oauthtoken by default)."""
    # awx.awx's messages for a dict without a token and for another type (playbooks compare them); ansible.hub's are
    # the same with its option's name.
    option = option or 'controller_oauthtoken'
    if isinstance(token, dict):
        if 'token' not in token:
            raise ConfigError('The provided dict in %s did not properly contain the token entry' % option)
        token = token.get('token')
    elif token is not None and not isinstance(token, str):
        raise ConfigError('The provided %s type was not valid (%s). Valid options are str or dict.'
                          % (option, plain_type_name(token)))
    if token is None:
        return None
    if not isinstance(token, str):
        raise ConfigError('service_token must be a string or a dict with a token key.')
    token = token.strip()
    if token.lower().startswith('bearer '):
        token = token[len('bearer '):].strip()
    return token


def _parse_utc(text):
    """A naive UTC datetime from the service's ISO 8601 time, or None."""
    text = (text or '').rstrip('Z').replace('+00:00', '')
    for pattern in ('%Y-%m-%dT%H:%M:%S.%f', '%Y-%m-%dT%H:%M:%S'):
        try:
            return datetime.datetime.strptime(text, pattern)
        except ValueError:
            pass
    return None


class TokenAuth(AuthMethod):
    name = 'token'

    def __init__(self, options, cache=None):
        super(TokenAuth, self).__init__(options, cache)
        self._token = None

    @property
    def token(self):
        if self._token is None:
            self._token = token_value(self.options.get('service_token'), self.options.get('token_option'))
        return self._token

    @property
    def scope(self):
        given = self.options.get('service_token')
        return given.get('scope') if isinstance(given, dict) else None

    @property
    def expires(self):
        """The expiry (UTC, ISO 8601) of a token given as a dict, else None."""
        given = self.options.get('service_token')
        value = given.get('expires') if isinstance(given, dict) else None
        return str(value) if value else None

    def validate(self):
        if not self.token:
            raise ConfigError('service_auth token needs service_token (or SERVICE_TOKEN / CONTROLLER_OAUTH_TOKEN).')
        if '\n' in self.token or '\r' in self.token:
            raise ConfigError('service_token must not contain line breaks.')
        self.refuse_plain_http()

    def apply(self, client, method, headers):
        # A standalone Automation Hub takes its own tokens (galaxy-ng's, Django REST framework's TokenAuthentication)
        # in the ``Token`` scheme; behind a gateway the gateway's tokens are bearer tokens
        scheme = 'Token ' if client.layout.is_standalone_hub else 'Bearer '
        headers['Authorization'] = scheme + self.token

    def refused_by_hub(self, client, detail):
        why = str(detail).rstrip('.')
        return AuthError('The Automation Hub at %s refused the token: %s. It is unknown to the Hub, or was replaced: '
                         'the Hub keeps one token per user, and making a new one (ah_token) ends the one before. '
                         'Create one and pass it as ah_token.' % (client.base_url, why), method=self.name)

    def unauthorized(self, client):
        expires = self.expires
        moment = _parse_utc(expires)
        if moment is not None and moment <= datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None):
            why = 'it expired at %s' % expires
        elif expires:
            why = 'it was revoked (it would expire only at %s), or is unknown to %s' % (expires, client.base_url)
        else:
            why = 'it is unknown to %s, expired, or revoked' % client.base_url
        return AuthError('The service rejected the token: %s. Create a new one (automation.service.token) and '
                         'pass it as service_token.' % why, method=self.name)

    def forbidden_hint(self, method, detail):
        if method == 'GET' or NOT_PROCESSED_HINT not in str(detail):
            return None
        if self.scope == 'read':
            return '(The token has read scope: it cannot change anything. Use a token with write scope.)'
        return '(If the token has read scope it cannot change anything; use a token with write scope.)'
