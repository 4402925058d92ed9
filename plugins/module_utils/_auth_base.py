# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every auth method provides; one small subclass per method."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._errors import AuthError, ConfigError

NOT_PROCESSED_HINT = 'You do not have permission to perform this action.'


class AuthMethod:
    """``validate()`` checks options without I/O; ``authenticate()`` logs in.

    During requests the client calls ``apply()`` to add credentials, ``renew()``
    after a 401 (True: retry once), and ``unauthorized()`` / ``forbidden_hint()``
    to word errors.
    """

    name = None
    keeps_login = False     # True: the login is kept in the session cache (which connect() then opens)

    def __init__(self, options, cache=None):
        self.options = options
        self.cache = cache

    @property
    def username(self):
        return self.options.get('service_username')

    @property
    def password(self):
        return self.options.get('service_password')

    def validate(self):
        raise NotImplementedError

    def authenticate(self, client):
        """Obtain whatever the method needs before the first API request."""

    def apply(self, client, method, headers):
        raise NotImplementedError

    def renew(self, client):
        return False

    def answered(self, client, response):
        """Sees every answer to a request this method authenticated."""

    def private(self, client):
        """This method for a task that must not disturb other tasks' logins (see
        SessionAuth.private); most methods share nothing that a request could change."""
        return self

    def unauthorized(self, client):
        return AuthError('The service rejected the %s credentials.' % self.name, method=self.name)

    def forbidden_hint(self, method, detail):
        return None

    def refused_by_hub(self, client, detail):
        """The error for Automation Hub's refusal of the credentials (galaxy-ng answers a 403 in its errors form:
        ``detail`` is its title), in words that name no secret."""
        return AuthError('The Automation Hub at %s refused the %s credentials: %s'
                         % (client.base_url, self.name, detail), method=self.name)

    # helpers for subclasses
    def require(self, *names):
        missing = [name for name in names if not self.options.get(name)]
        if missing:
            raise ConfigError('service_auth %s needs %s.' % (self.name, ' and '.join(missing)))

    def refuse_plain_http(self):
        url = str(self.options.get('service_url') or '')
        if url.startswith('http://') and not self.options.get('allow_insecure_http'):
            raise ConfigError(
                'Refusing to send %s credentials over plain http:// to %s. Use https://, or set '
                'allow_insecure_http: true if you accept that anyone on the network can read them.'
                % (self.name, url))
