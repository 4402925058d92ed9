# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Session authentication: the CSRF login form of /api/login/ (a platform gateway's
/api/gateway/v1/login/), or a session id from a browser login, kept in the session cache
across tasks."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import time

from ansible_collections.automation.service.plugins.module_utils._auth_base import AuthMethod
from ansible_collections.automation.service.plugins.module_utils._client import PAGE_ACCEPT, UNSAFE
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError, ConfigError
from ansible_collections.automation.service.plugins.module_utils._session_cache import (
    check_verifier, entry_key, make_verifier,
)

LOGIN_PATH = '/api/login/'
ME_PATH = '/api/v2/me/'
# The session cookie of a platform gateway, when its login does not name it (X-API-Session-Cookie-Name).
GATEWAY_SESSION_COOKIE = 'gateway_sessionid'
# Stop reusing a cached session this long before the service would expire it.
EXPIRY_MARGIN = 30


def split_session_id(value):
    """``NAME=VALUE`` (as copied from a browser) or a bare ``VALUE``."""
    value = value.strip()
    if value.lower().startswith('cookie:'):
        value = value[len('cookie:'):].strip()
    if '=' in value:
        name, _sep, rest = value.partition('=')
        return name.strip(), rest.strip().rstrip(';')
    return None, value


EXTERNAL_HINT = ('(%s is an external user: it logged in through single sign-on. An administrator must turn on '
                 'ALLOW_OAUTH2_FOR_EXTERNAL_USERS in /api/v2/settings/authentication/ before external users can '
                 'create OAuth2 tokens.)')


class SessionAuth(AuthMethod):
    name = 'session'
    keeps_login = True

    def __init__(self, options, cache=None):
        super(SessionAuth, self).__init__(options, cache)
        self.state = None          # {'cookie_name', 'session_id', 'csrftoken', ...}
        self.from_cache = False

    @property
    def session_id(self):
        return self.options.get('service_session_id')

    def validate(self):
        if not self.session_id:
            self.require('service_username', 'service_password')
        elif not split_session_id(self.session_id)[1]:
            raise ConfigError('service_session_id is empty.')
        self.refuse_plain_http()

    def _key(self, client):
        if self.session_id:
            digest = hashlib.sha256(self.session_id.encode('utf-8')).hexdigest()
            return entry_key(client.base_url, 'session-id', digest)
        return entry_key(client.base_url, 'session', self.username)

    def _usable(self, entry):
        if not entry or not entry.get('session_id') or not entry.get('cookie_name'):
            return False
        if self.session_id:
            return True
        return check_verifier(self.password, entry.get('verifier', ''))

    # -- the flow ------------------------------------------------------------

    def authenticate(self, client):
        cache = self.cache
        if cache is None or not cache.enabled:
            self.state = self._fresh(client)
            return
        key = self._key(client)
        # Entries are written atomically, so reading one needs no lock: forks
        # that find a usable session do not queue behind each other's checks.
        entry = cache.load(key)
        if self._usable(entry):
            self.state, self.from_cache = entry, True
            return
        with cache.lock(key):
            entry = cache.load(key)  # another fork may have logged in meanwhile
            if self._usable(entry):
                self.state, self.from_cache = entry, True
                return
            self.state = self._fresh(client)
            self._store(key)

    def _fresh(self, client):
        if self.session_id:
            return self.adopt_session_id(client)
        return self.login(client)

    def _store(self, key):
        entry = dict(self.state)
        if not self.session_id:
            entry['verifier'] = make_verifier(self.password)
        self.cache.save(key, entry)

    def answered(self, client, response):
        """The service may replace the session while answering: AWX cycles the session key of
        a request that sets a user's password (update_session_auth_hash), deleting the old
        one. Go on with the new one, and put it in the cache, where the other tasks find it
        when the old one is refused."""
        state = self.state or {}
        name = state.get('cookie_name')
        new = response.cookies.get(name) if name else None
        if not new or new == state.get('session_id'):
            self.renewed(client, response)
            return
        self.state = dict(state, session_id=new, csrftoken=response.cookies.get('csrftoken') or state.get('csrftoken'))
        cache = self.cache
        if cache is not None and cache.enabled and not self.session_id:
            key = self._key(client)
            with cache.lock(key):
                self._store(key)

    def renewed(self, client, response):
        """AWX renews a session with every request it answers (``Session-Timeout``: its lifetime from now,
        SessionTimeoutMiddleware): the cache's entry follows it, so that a session in use is not taken for an
        expired one. The entry is written again once half of its time is gone, not after every request."""
        state = self.state
        timeout = response.headers.get('Session-Timeout')
        if not timeout or not state or not isinstance(state.get('expires_at'), (int, float)):
            return
        try:
            seconds = float(timeout)
        except ValueError:
            return
        if state['expires_at'] - time.time() > seconds / 2:
            return
        self.state = dict(state, expires_at=self._expiry(response))
        cache = self.cache
        if cache is None or not cache.enabled or self.session_id:
            return
        key = self._key(client)
        with cache.lock(key):
            entry = cache.load(key)
            if entry and entry.get('session_id') == state.get('session_id'):
                cache.save(key, dict(entry, expires_at=self.state['expires_at']))

    def private(self, client):
        """A session of this task's own, for a request after which the service replaces the
        session (setting a user's password, see answered()): the shared session would be
        deleted under the other tasks that use it, and their requests in flight fail (the
        service answers 400, after it may have carried them out). Logs in once more; a
        session given as service_session_id, or kept out of the cache, stays as it is."""
        if self.session_id or self.cache is None or not self.cache.enabled:
            return self
        own = type(self)(self.options, cache=None)
        own.authenticate(client)
        return own

    def renew(self, client):
        """A 401 with a session that came from the cache: drop it and log in once more."""
        if not self.from_cache or self.session_id:
            return False
        self.from_cache = False
        cache = self.cache
        key = self._key(client)
        stale = self.state.get('session_id')
        with cache.lock(key):
            entry = cache.load(key)
            if self._usable(entry) and entry.get('session_id') != stale:
                self.state = entry      # another fork logged in meanwhile
                return True
            cache.drop(key)
            self.state = self.login(client)
            self._store(key)
        return True

    @staticmethod
    def cookie_name_of(client, answer):
        """The session cookie's name: what the service says, else a platform gateway's own."""
        name = answer.headers.get('X-API-Session-Cookie-Name')
        if not name and client.layout.is_gateway:
            return GATEWAY_SESSION_COOKIE
        return name

    def login(self, client, confirm=True):
        """GET the CSRF cookie, POST the form, confirm with /api/v2/me/ (a gateway's /api/gateway/v1/me/)."""
        first = client.send('GET', client.layout.login_path, with_auth=False, headers={'Accept': PAGE_ACCEPT})
        # Known now: a gateway answers 404 to AWX's login page, a service no longer a gateway to the gateway's.
        path = client.layout.login_path
        gateway = client.layout.is_gateway
        csrftoken = first.cookies.get('csrftoken')
        if not csrftoken:
            raise AuthError('GET %s answered %s without a csrftoken cookie: is %s an automation service?'
                            % (client.url(path), first.status, client.base_url), method=self.name)
        login_url = client.url(path)
        answer = client.send('POST', path, with_auth=False,
                             data={'username': self.username, 'password': self.password},
                             headers={'X-CSRFToken': csrftoken, 'Referer': login_url, 'Accept': PAGE_ACCEPT,
                                      'Cookie': 'csrftoken=%s' % csrftoken})
        cookie_name = self.cookie_name_of(client, answer)
        if gateway:
            # The gateway's login: a session cookie is the only sign of success it is sure to give.
            rejected = answer.status in (400, 401) or (answer.status == 200 and not answer.cookies.get(cookie_name))
        else:
            rejected = answer.status == 401 or (
                answer.status == 200 and 'X-API-Session-Cookie-Name' not in answer.headers)
        if rejected:
            raise AuthError('Session login failed: the service rejected the username or password of user %s.'
                            % self.username, method=self.name)
        if answer.status == 403:
            raise AuthError('Session login failed: the service rejected the CSRF token or Referer (403 from %s).'
                            % login_url, method=self.name)
        if answer.status not in ((200, 204, 301, 302, 303) if gateway else (301, 302, 303)):
            raise AuthError('Session login failed: POST %s answered %s.' % (login_url, answer.status),
                            method=self.name)
        if not cookie_name:
            raise AuthError('Session login to %s gave no X-API-Session-Cookie-Name header, so the session '
                            'cookie cannot be found.' % login_url, method=self.name)
        session_id = answer.cookies.get(cookie_name)
        if not session_id:
            raise AuthError('Session login to %s named the session cookie %s but did not set it.'
                            % (login_url, cookie_name), method=self.name)
        state = {
            'cookie_name': cookie_name,
            'session_id': session_id,
            'csrftoken': answer.cookies.get('csrftoken') or csrftoken,
            'expires_at': self._expiry(answer),
        }
        if confirm:
            self.state = state
            me = self.confirm(client)
            state['username'] = me.get('username')
        return state

    def adopt_session_id(self, client):
        name, value = split_session_id(self.session_id)
        first = client.send('GET', client.layout.login_path, with_auth=False, headers={'Accept': PAGE_ACCEPT})
        name = name or self.cookie_name_of(client, first)
        if not name:
            raise ConfigError('The service does not tell the name of its session cookie before a login: give '
                              'service_session_id as NAME=VALUE, as the browser shows the cookie.')
        self.state = {'cookie_name': name, 'session_id': value,
                      'csrftoken': first.cookies.get('csrftoken') or ''}
        me = self.confirm(client)
        self.state['username'] = me.get('username')
        return self.state

    def confirm(self, client):
        me_path = client.layout.me_path
        response = client.send('GET', me_path)
        if response.status == 401:
            if self.session_id:
                raise AuthError('The session in service_session_id is not valid on %s: it expired, was logged '
                                'out, or belongs to another service.' % client.base_url, method=self.name)
            raise AuthError('The session login of %s looked successful but %s refused the session.'
                            % (self.username, me_path), method=self.name)
        if response.status != 200:
            raise client.error_for('GET', response)
        body = response.json() or {}
        results = body.get('results') if isinstance(body, dict) else None
        return results[0] if results else {}

    def logout(self, client):
        if self.state:
            client.send('GET', client.layout.logout_path, headers={'Accept': PAGE_ACCEPT})

    @staticmethod
    def _expiry(answer):
        try:
            seconds = float(answer.headers.get('Session-Timeout', 1800))
        except ValueError:
            seconds = 1800.0
        return time.time() + max(0.0, seconds - EXPIRY_MARGIN)

    # -- per request -----------------------------------------------------------

    def apply(self, client, method, headers):
        state = self.state or {}
        cookies = ['%s=%s' % (state['cookie_name'], state['session_id'])] if state.get('session_id') else []
        if state.get('csrftoken'):
            cookies.append('csrftoken=%s' % state['csrftoken'])
            if method in UNSAFE:
                headers['X-CSRFToken'] = state['csrftoken']
        if method in UNSAFE:
            headers['Referer'] = client.base_url + '/'
        if cookies:
            headers['Cookie'] = '; '.join(cookies)

    def unauthorized(self, client):
        if self.session_id:
            return AuthError('The session in service_session_id is not valid on %s: it expired, was logged out, '
                             'or belongs to another service.' % client.base_url, method=self.name)
        return AuthError('The service refused the session of user %s even after a fresh login.'
                         % self.username, method=self.name)

    def forbidden_hint(self, method, detail):
        if 'CSRF' in str(detail):
            return '(The service rejected the CSRF token or Referer of the session.)'
        if 'external authentication provider' in str(detail):
            # an SSO login, made here or in a browser (service_session_id)
            user = (self.state or {}).get('username') or self.username
            return EXTERNAL_HINT % ('User %s' % user if user else "The session's user")
        return None
