#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: authenticator
short_description: Create, update or delete an authenticator of a platform gateway
version_added: 0.3.0
description:
  - Makes one of a platform gateway's authenticators (a way for users to log in, through a plugin of
    django-ansible-base such as OIDC, SAML, LDAP, GitHub or Azure AD) match the options given; options not given are
    left alone, but with O(state=enforced).
  - The authenticator is found by O(name), or by id when O(name) is one (its digits), at the gateway's
    C(/api/gateway/v1/authenticators/).
  - B(Needs an Automation Platform gateway) (2.5 to 2.7). On AWX 24, which has no authenticators of its own, the
    task fails before it writes anything and says so.
  - Takes the options of ansible.platform's C(authenticator) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the authenticator, unique at the gateway; or the id of an existing one.
    type: str
    required: true
  new_name:
    description:
      - A new name for the authenticator (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  slug:
    description:
      - The authenticator's identifier in the URLs of its logins (C(/api/gateway/social/login/<slug>/)), unique
        at the gateway, of letters, digits, V(_) and V(-). The gateway makes one when none is given, and keeps the one
        given in lower case.
      - It is fixed once the authenticator is made; a different one fails the task before any change.
    type: str
  enabled:
    description:
      - Whether users can log in through the authenticator. The gateway makes a new one disabled when this is not
        given, and refuses to disable or delete the last enabled authenticator.
    type: bool
  create_objects:
    description:
      - Whether a login through the authenticator may create the users, organizations and teams its maps name.
        The gateway's default for a new one is V(true).
    type: bool
  remove_users:
    description:
      - Whether a user who logs in through the authenticator is taken out of the teams and organizations they
        were put in before, so that the authenticator's maps decide them.
    type: bool
    default: true
  type:
    description:
      - The authenticator's plugin, by its Python module, for example
        V(ansible_base.authentication.authenticator_plugins.oidc), C(.saml), C(.ldap), C(.github), C(.azuread),
        C(.keycloak), C(.google_oauth2) or C(.local). The gateway's C(authenticator_plugins/) lists the ones it has.
      - Needed to create the authenticator; it is fixed once the authenticator is made.
    type: str
  configuration:
    description:
      - The plugin's settings, by the names its plugin gives them (for OIDC C(OIDC_ENDPOINT), C(KEY), C(SECRET);
        for LDAP C(SERVER_URI), C(BIND_DN), C(BIND_PASSWORD), C(USER_SEARCH); for SAML C(IDP), C(SP_ENTITY_ID),
        C(SP_PUBLIC_CERT), C(SP_PRIVATE_KEY)).
      - Only the settings given are compared; the gateway fills the others in with its plugin's defaults. When the
        configuration is written (a setting given differs), the settings given replace the stored ones, and a setting
        left out goes back to its default.
      - The plugin's secret settings (C(SECRET), C(BIND_PASSWORD), C(SP_PRIVATE_KEY)) are never shown; see the notes
        for how they are compared.
    type: dict
    default: {}
  order:
    description:
      - The order in which the gateway tries its username and password authenticators (LDAP, RADIUS, TACACS+,
        local), lowest first. The gateway puts a new one last when this is not given.
    type: int
  auto_migrate_users_to:
    description:
      - Another authenticator, by name or id, to which a user of this one is moved when they log in through that
        one with the same user id (for two ways into one user directory). V('') clears it.
    type: str
  state:
    description:
      - V(present) creates or updates the authenticator, V(absent) deletes it.
      - V(exists) (ansible.platform's) only checks that the authenticator is there, and fails when it is not; it changes
        nothing.
      - V(enforced) is V(present), and the options not given among O(enabled), O(create_objects) and O(order) go back
        to the gateway's defaults (as its OPTIONS says them; see the notes). O(configuration), O(type), O(slug) and
        O(auto_migrate_users_to) are left as they are.
    type: str
    choices: [present, absent, exists, enforced]
    default: present
notes:
  - The gateway reads a secret setting of O(configuration) back as C($encrypted$). Such a setting compares as set or
    not set, never by its value, so a new secret alone is not a change. The secrets given are sent whenever the
    configuration is written, that is when a setting given that the gateway shows differs; to send a new secret,
    change a setting with it (or delete the authenticator and make it again).
  - O(configuration) is a no_log option, so no log shows it; in the task's result only the values of secret
    settings are masked (diff mode shows them as C(VALUE_SPECIFIED_IN_NO_LOG_PARAMETER)), and a value of the
    configuration that happens to equal a secret is masked too.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_authentication
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: Log in through an OIDC identity provider
  automation.service.authenticator:
    name: Corporate SSO
    type: ansible_base.authentication.authenticator_plugins.oidc
    enabled: true
    configuration:
      OIDC_ENDPOINT: https://sso.example.com/realms/aap
      KEY: aap
      SECRET: "{{ oidc_client_secret }}"
      JWT_ALGORITHMS: [RS256]

- name: Log in with the directory's passwords, tried first
  automation.service.authenticator:
    name: Directory
    type: ansible_base.authentication.authenticator_plugins.ldap
    enabled: true
    order: 1
    configuration:
      SERVER_URI: [ldaps://ldap.example.com]
      BIND_DN: uid=aap,cn=users,dc=example,dc=com
      BIND_PASSWORD: "{{ ldap_bind_password }}"
      USER_SEARCH: ["cn=users,dc=example,dc=com", SCOPE_SUBTREE, "(uid=%(user)s)"]
      USER_ATTR_MAP: {first_name: givenName, last_name: sn, email: mail}

- name: Turn it off
  automation.service.authenticator:
    name: Directory
    enabled: false

- name: Remove an authenticator
  automation.service.authenticator:
    name: Corporate SSO
    state: absent
'''

RETURN = r'''
id:
  description: Id of the authenticator (of the deleted one with O(state=absent)).
  returned: when the authenticator exists or existed
  type: int
  sample: 3
name:
  description: Name of the authenticator.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Corporate SSO
authenticator:
  description: The authenticator as the gateway returns it, secret settings read as C($encrypted$) (the would-be
    authenticator in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 3, "name": "Corporate SSO", "slug": "corporate-sso", "enabled": true, "create_objects": true,
           "remove_users": true, "order": 1, "type": "ansible_base.authentication.authenticator_plugins.oidc",
           "configuration": {"OIDC_ENDPOINT": "https://sso.example.com/realms/aap", "KEY": "aap",
                             "SECRET": "$encrypted$"}, "auto_migrate_users_to": null,
           "sso_login_url": "/api/gateway/social/login/corporate-sso/"}
'''

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._gateway_authentication import (
    SecretNames, secret_keys, slug_of,
)
from ansible_collections.automation.service.plugins.module_utils._resource import (
    STATE_ENFORCED, Encrypted, Resource, as_data,
)

CONFIG = 'configuration'
ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    slug=dict(type='str'),
    enabled=dict(type='bool'),
    create_objects=dict(type='bool'),
    remove_users=dict(type='bool', default=True),
    type=dict(type='str'),
    configuration=dict(type='dict', default={}, no_log=True),
    order=dict(type='int'),
    auto_migrate_users_to=dict(type='str'),
    state=STATE_ENFORCED,
)


def plugin_type(api, existing):
    return (existing or {}).get('type') or api.params.get('type')


def stored(existing):
    return as_data((existing or {}).get(CONFIG))


def not_given(api, existing, desired):
    """The settings the gateway holds that the task does not give: its plugin's defaults, not compared."""
    given = api.params.get(CONFIG) or {}
    return dict((key, value) for key, value in stored(existing).items() if key not in given)


class Authenticator(Resource):
    def desired(self, api, existing):
        slug = api.params.get('slug')
        if existing is not None and slug is not None and slug_of(slug) != existing.get('slug'):
            raise ConfigError('The slug of authenticator %s is %r and cannot be changed to %r.'
                              % (existing.get('name'), existing.get('slug'), slug))
        wanted = super(Authenticator, self).desired(api, existing)
        if existing is None and slug is not None:
            wanted['slug'] = slug
        return wanted


RESOURCE = Authenticator(
    'authenticators', 'authenticator', 'authenticator',
    fields=('enabled', 'create_objects', 'remove_users', 'order'),
    references={'auto_migrate_users_to': 'authenticators'},
    json_data=(CONFIG,),
    create_only=('type',),
    required_on_create=('type',),
    encrypted=Encrypted(CONFIG, lambda api, existing, desired: secret_keys(plugin_type(api, existing), stored(existing)),
                        defaults=not_given, logged_secrets=SecretNames()),
    service='gateway',
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
