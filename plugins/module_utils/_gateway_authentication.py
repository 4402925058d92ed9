# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The platform gateway's authentication objects: its authenticators, their maps and their users.

An Automation Platform gateway (2.5 and later) keeps how users log in as django-ansible-base's
``ansible_base.authentication`` keeps it: ``/api/gateway/v1/authenticators/`` (a plugin ``type``, named
by its module, and its ``configuration``, whose secret keys the gateway reads back as ``$encrypted$``),
``authenticator_maps/`` (rules that grant a user logging in through one authenticator access, the
superuser flag, or an organization, team or role, all named by name) and ``authenticator_users/`` (the
gateway's link of a user to an authenticator, with the uid the identity provider gave). AWX 24 has none
of them: its logins are configured in its settings.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import unicodedata


PLUGINS = 'ansible_base.authentication.authenticator_plugins.'
# The configuration keys each of django-ansible-base's plugins keeps encrypted
# (``configuration_encrypted_fields`` of ansible_base/authentication/authenticator_plugins/*.py).
SECRET_KEYS = {
    'azuread': ('SECRET',),
    'github': ('SECRET',),
    'github_enterprise': ('SECRET',),
    'github_enterprise_org': ('SECRET',),
    'github_enterprise_team': ('SECRET',),
    'github_org': ('SECRET',),
    'github_team': ('SECRET',),
    'google_oauth2': ('SECRET',),
    'keycloak': ('SECRET',),
    'ldap': ('BIND_PASSWORD',),
    'local': (),
    'oidc': ('SECRET',),
    'radius': ('SECRET',),
    'saml': ('SP_PRIVATE_KEY',),
    'tacacs': ('SECRET',),
}
KNOWN_SECRETS = frozenset(key for keys in SECRET_KEYS.values() for key in keys)
ENCRYPTED = '$encrypted$'


def secret_keys(plugin_type, stored):
    """The configuration keys of an authenticator of ``plugin_type`` that are secrets: its plugin's, or for a
    plugin this collection does not know every key any plugin keeps secret; and the keys the gateway reads
    back as ``$encrypted$`` (``stored``: the configuration as read, or None)."""
    short = (plugin_type or '')[len(PLUGINS):] if (plugin_type or '').startswith(PLUGINS) else None
    keys = set(SECRET_KEYS.get(short, KNOWN_SECRETS))
    keys.update(key for key, value in (stored or {}).items() if value == ENCRYPTED)
    return keys


class SecretNames:
    """The configuration keys whose values no log or result shows: every key a plugin keeps secret, and any
    key whose name says it holds a secret (a plugin this collection does not know may have its own)."""

    WORDS = re.compile(r'SECRET|PASSWORD|PRIVATE_KEY|TOKEN', re.IGNORECASE)

    def __contains__(self, key):
        return key in KNOWN_SECRETS or bool(self.WORDS.search(str(key)))


def slug_of(value):
    """The slug the gateway makes of the one given (Django's ``slugify``: ASCII letters, digits, ``_`` and
    ``-``, lower case, spaces and runs of dashes as one dash)."""
    text = unicodedata.normalize('NFKD', str(value)).encode('ascii', 'ignore').decode('ascii')
    text = re.sub(r'[^\w\s-]', '', text.lower())
    return re.sub(r'[-\s]+', '-', text).strip('-_')
