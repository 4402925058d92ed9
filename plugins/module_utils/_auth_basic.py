# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Basic authentication (RFC 7617): the password travels with every request."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64

from ansible_collections.automation.service.plugins.module_utils._auth_base import AuthMethod
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError, ServiceError


class BasicAuth(AuthMethod):
    name = 'basic'

    def validate(self):
        self.require('service_username', 'service_password')
        self.refuse_plain_http()

    def header(self):
        raw = ('%s:%s' % (self.username, self.password)).encode('utf-8')
        return 'Basic ' + base64.b64encode(raw).decode('ascii')

    def apply(self, client, method, headers):
        headers['Authorization'] = self.header()

    def refused_by_hub(self, client, detail):
        return AuthError('The Automation Hub at %s refused the username or password of user %s (Basic '
                         'authentication): %s' % (client.base_url, self.username, detail), method=self.name)

    def unauthorized(self, client):
        # The service answers a bad password and Basic switched off with the same
        # 401; one session login with the same credentials tells them apart.
        from ansible_collections.automation.service.plugins.module_utils._auth_session import SessionAuth
        probe = SessionAuth(self.options, cache=None)
        try:
            probe.login(client, confirm=False)
        except AuthError:
            return AuthError('The service rejected the username or password of user %s (Basic authentication).'
                             % self.username, method=self.name)
        except ServiceError as exc:
            return AuthError('The service rejected Basic authentication for user %s; telling a bad password '
                             'from Basic being disabled failed: %s' % (self.username, exc), method=self.name)
        probe.logout(client)
        if client.layout.is_gateway:
            # An administrator may turn Basic off at the gateway ("Gateway basic auth enabled"), and AAP 2.7
            # has removed it.
            return AuthError(
                'Basic authentication is turned off at this platform gateway (%s): the username and password of %s '
                'are valid, but the gateway ignores Basic headers. Use service_auth: session (or auto), which logs '
                'in at the gateway, or a token (service_token, made with automation.service.token) instead.'
                % (client.base_url, self.username), method=self.name)
        return AuthError(
            'Basic authentication is disabled on the service (an administrator switched off '
            'AUTH_BASIC_ENABLED); the username and password of %s are valid. Use service_auth: session '
            '(or auto) or a token instead.' % self.username, method=self.name)
