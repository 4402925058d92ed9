# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OAuth2 bearer token: a string, or the dict the token module returns."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._auth_base import AuthMethod, NOT_PROCESSED_HINT
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError, ConfigError


def token_value(token):
    """The secret of a token given as a string or as a token dict."""
    if isinstance(token, dict):
        token = token.get('token')
    if token is None:
        return None
    if not isinstance(token, str):
        raise ConfigError('service_token must be a string or a dict with a token key.')
    token = token.strip()
    if token.lower().startswith('bearer '):
        token = token[len('bearer '):].strip()
    return token


class TokenAuth(AuthMethod):
    name = 'token'

    def __init__(self, options, cache=None):
        super(TokenAuth, self).__init__(options, cache)
        self._token = None

    @property
    def token(self):
        if self._token is None:
            self._token = token_value(self.options.get('service_token'))
        return self._token

    @property
    def scope(self):
        given = self.options.get('service_token')
        return given.get('scope') if isinstance(given, dict) else None

    def validate(self):
        if self.options.get('service_client_id'):
            raise ConfigError('Obtaining a token by password grant (service_client_id) is not supported yet: '
                              'create a token with the token module and pass it as service_token.')
        if not self.token:
            raise ConfigError('service_auth token needs service_token (or SERVICE_TOKEN / CONTROLLER_OAUTH_TOKEN).')
        if '\n' in self.token or '\r' in self.token:
            raise ConfigError('service_token must not contain line breaks.')
        self.refuse_plain_http()

    def apply(self, client, method, headers):
        headers['Authorization'] = 'Bearer ' + self.token

    def unauthorized(self, client):
        return AuthError('The service rejected the token: it is unknown to %s, expired, or revoked. '
                         'Create a new one (automation.service.token) and pass it as service_token.'
                         % client.base_url, method=self.name)

    def forbidden_hint(self, method, detail):
        if method == 'GET' or NOT_PROCESSED_HINT not in str(detail):
            return None
        if self.scope == 'read':
            return '(The token has read scope: it cannot change anything. Use a token with write scope.)'
        return '(If the token has read scope it cannot change anything; use a token with write scope.)'
