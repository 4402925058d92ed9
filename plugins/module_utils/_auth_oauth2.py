# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A token obtained by OAuth2 password grant at /api/o/token/ (a platform gateway's
/api/gateway/v1/o/token/) with an
application's client id (and secret), kept in the session cache until shortly
before it expires, refreshed with its refresh token when possible, and obtained
again with the password when the service rejects it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64
import time

from ansible_collections.automation.service.plugins.module_utils._auth_token import TokenAuth
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, AuthError
from ansible_collections.automation.service.plugins.module_utils._session_cache import (
    check_verifier, entry_key, make_verifier,
)

# Where the grant is asked for; behind a platform gateway the client sends it to the gateway's own
# o/token/ (its applications): Layout.path.
TOKEN_PATH = '/api/o/token/'

# Stop using a cached token this long before it expires.
EXPIRY_MARGIN = 30
EXTERNAL_SETTING = 'ALLOW_OAUTH2_FOR_EXTERNAL_USERS'


def _secret_of(options):
    """What a cached token must have been obtained with to be reused."""
    return '%s\0%s' % (options.get('service_password') or '', options.get('service_client_secret') or '')


class PasswordGrantAuth(TokenAuth):
    name = 'token'
    keeps_login = True

    def __init__(self, options, cache=None):
        super(PasswordGrantAuth, self).__init__(options, cache)
        self.state = None
        self.from_cache = False

    @property
    def client_id(self):
        return self.options.get('service_client_id')

    @property
    def token(self):
        return (self.state or {}).get('access_token')

    @property
    def scope(self):
        return (self.state or {}).get('scope')

    def validate(self):
        self.require('service_client_id', 'service_username', 'service_password')
        self.refuse_plain_http()

    def _key(self, client):
        return entry_key(client.base_url, 'oauth2-password', self.client_id, self.username)

    # -- the flow ------------------------------------------------------------

    def authenticate(self, client):
        cache = self.cache
        if cache is None or not cache.enabled:
            self.state = self._grant(client, {'grant_type': 'password'})
            return
        key = self._key(client)
        entry = cache.load(key)  # (atomic writes: an unexpired token is read without the lock)
        if self._mine(entry) and entry.get('access_expires_at', 0) > time.time():
            self.state, self.from_cache = entry, True
            return
        with cache.lock(key):
            entry = cache.load(key)
            if self._mine(entry):
                if entry.get('access_expires_at', 0) > time.time():
                    self.state, self.from_cache = entry, True
                    return
                if entry.get('refresh_token'):
                    self.state = self._refresh(client, entry['refresh_token'])
                    if self.state is not None:
                        self._store(key)
                        return
            self.state = self._grant(client, {'grant_type': 'password'})
            self._store(key)

    def _mine(self, entry):
        """A cached grant made with this task's secrets."""
        if not entry or not entry.get('access_token'):
            return False
        return check_verifier(_secret_of(self.options), entry.get('verifier', ''))

    def renew(self, client):
        """A cached token the service rejected (revoked): drop it, grant once more."""
        if not self.from_cache:
            return False
        self.from_cache = False
        key = self._key(client)
        with self.cache.lock(key):
            self.cache.drop(key)
            self.state = self._grant(client, {'grant_type': 'password'})
            self._store(key)
        return True

    def _store(self, key):
        entry = dict(self.state)
        entry['verifier'] = make_verifier(_secret_of(self.options))
        self.cache.save(key, entry)

    def _refresh(self, client, refresh_token):
        """A new token from the refresh token, or None when the service refuses it."""
        answer = self._post(client, {'grant_type': 'refresh_token', 'refresh_token': refresh_token})
        if answer.status != 200:
            return None
        return self._state_from(answer)

    def _grant(self, client, body):
        body = dict(body, username=self.username, password=self.password)
        answer = self._post(client, body)
        if answer.status != 200:
            raise self._grant_error(client, answer)
        return self._state_from(answer)

    def _post(self, client, body):
        headers = {}
        secret = self.options.get('service_client_secret')
        if secret:
            pair = ('%s:%s' % (self.client_id, secret)).encode('utf-8')
            headers['Authorization'] = 'Basic ' + base64.b64encode(pair).decode('ascii')
        else:
            body = dict(body, client_id=self.client_id)
        return client.send('POST', TOKEN_PATH, data=body, headers=headers, with_auth=False)

    @staticmethod
    def _state_from(answer):
        data = answer.json() or {}
        try:
            lifetime = float(data.get('expires_in') or 0)
        except (TypeError, ValueError):
            lifetime = 0.0
        return {
            'access_token': data.get('access_token'),
            'refresh_token': data.get('refresh_token'),
            'scope': data.get('scope'),
            'access_expires_at': time.time() + max(0.0, lifetime - EXPIRY_MARGIN),
        }

    def _grant_error(self, client, answer):
        text = answer.text if answer.content else ''
        try:
            body = answer.json()
        except ApiError:
            body = {}
        error = body.get('error') if isinstance(body, dict) else None
        where = client.url(TOKEN_PATH)
        if answer.status == 403 and 'external authentication provider' in text:
            message = ('The service refuses OAuth2 tokens to user %s because the user comes from an external '
                       'authentication provider (SSO) and the setting %s is off. Ask an administrator to turn it '
                       'on, or use a session login. The service said: %s'
                       % (self.username, EXTERNAL_SETTING, text.strip()))
        elif error == 'invalid_client':
            message = ('The service rejected the OAuth2 client %s: the client secret (service_client_secret) is '
                       'wrong, or no application has that client id.' % self.client_id)
        elif error == 'invalid_grant':
            message = ('Password grant failed: the service rejected the username or password of user %s.'
                       % self.username)
        elif error == 'unauthorized_client':
            message = ('The OAuth2 application %s does not allow the password grant (its authorization grant '
                       'type is not "password").' % self.client_id)
        else:
            message = 'Password grant at %s answered %s: %s' % (where, answer.status, text.strip()[:300])
        return AuthError(message, method=self.name)

    def unauthorized(self, client):
        return AuthError('The service rejected the token obtained by password grant for user %s (application %s) '
                         'even after a fresh one: it was revoked or has expired at once. Check the service\'s '
                         'ACCESS_TOKEN_EXPIRE_SECONDS.' % (self.username, self.client_id), method=self.name)
