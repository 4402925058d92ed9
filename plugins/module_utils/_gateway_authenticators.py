# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The single sign-on authenticators of an Automation Platform gateway, as its login page lists them.

The gateway (django-ansible-base's ``ansible_base.authentication``) lists its enabled authenticators
anonymously at ``/api/gateway/v1/ui_auth/``: ``{"ssos": [{"name", "login_url", "type"}, ...],
"passwords": [...]}``, ``type`` the last part of the plugin's module (``oidc``, ``saml``, ``azuread``,
``github_org``, ...) and ``login_url`` the start of its login, ``/api/gateway/social/login/<slug>/``
(``?idp=IdP`` for SAML). A disabled authenticator is not listed."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.automation.service.plugins.module_utils._errors import AuthError

try:
    from urllib.parse import urlsplit
except ImportError:  # pragma: no cover - Python 2 is not supported
    from urlparse import urlsplit  # type: ignore

UI_AUTH = 'ui_auth'
# AWX 24's social-auth backend names whose authenticator type is spelled otherwise at the gateway.
AWX_NAMES = {'azuread-oauth2': 'azuread', 'google-oauth2': 'google_oauth2'}


def slug_of(login_url):
    """The authenticator's slug: the last segment of its login URL's path."""
    match = re.search(r'/login/([^/?#]+)/?$', urlsplit(login_url or '').path)
    return match.group(1) if match else None


def type_for(backend):
    """The authenticator type an AWX-style backend name stands for (``oidc``, ``saml``, ``github-org``)."""
    name = backend.strip().lower()
    return AWX_NAMES.get(name, name.replace('-', '_'))


def _label(entry):
    return '%s (type %s, slug %s)' % (entry.get('name'), entry.get('type'), slug_of(entry.get('login_url')))


def listed(client):
    """The gateway's enabled single sign-on authenticators (one anonymous GET)."""
    path = client.layout.gateway_path(UI_AUTH)
    response, body = client.anonymous_json(path)
    if not isinstance(body, dict) or not isinstance(body.get('ssos'), list):
        raise AuthError('The platform gateway at %s did not list its authenticators: GET %s answered %s%s. Single '
                        'sign-on through the gateway needs that list (django-ansible-base\'s ui_auth/, the one its '
                        'login page reads).' % (client.base_url, client.url(path), response.status,
                                                (': %s' % response.snippet()) if response.content else ''),
                        method='sso')
    return [entry for entry in body['ssos'] if isinstance(entry, dict) and entry.get('login_url')]


def find(client, backend):
    """The one enabled authenticator that ``service_sso_backend`` names: by slug, else by name, else by type
    (``oidc``, ``saml`` as on AWX 24). AuthError when none or several do."""
    ssos = listed(client)
    wanted = backend.strip()
    for rule in (lambda e: slug_of(e.get('login_url')) == wanted,
                 lambda e: e.get('name') == wanted,
                 lambda e: str(e.get('name', '')).casefold() == wanted.casefold()):
        found = [entry for entry in ssos if rule(entry)]
        if len(found) == 1:
            return found[0]
    found = [entry for entry in ssos if str(entry.get('type', '')).lower() == type_for(wanted)]
    if len(found) == 1:
        return found[0]
    if found:
        raise AuthError('service_sso_backend %s matches %d enabled authenticators of the platform gateway at %s: %s. '
                        'Set service_sso_backend to the slug or the name of the one to use.'
                        % (wanted, len(found), client.base_url, '; '.join(_label(e) for e in found)), method='sso')
    if not ssos:
        raise AuthError('The platform gateway at %s has no enabled single sign-on authenticator (service_sso_backend '
                        '%s). An authenticator that is disabled is not offered for a login: an administrator enables '
                        'it under Access Management, Authentication Methods.' % (client.base_url, wanted),
                        method='sso')
    raise AuthError('No enabled single sign-on authenticator of the platform gateway at %s matches service_sso_backend '
                    '%s (by slug, name or type). The gateway offers: %s. A disabled authenticator is not offered: an '
                    'administrator enables it under Access Management, Authentication Methods.'
                    % (client.base_url, wanted, '; '.join(_label(e) for e in ssos)), method='sso')
