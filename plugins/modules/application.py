#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: application
short_description: Create, update or delete an OAuth2 application
version_added: 0.2.0
description:
  - Makes an OAuth2 application of an organization match the fields given; fields not given are left alone.
  - The service shows the client secret of a confidential application once, in the answer to its creation. The
    task that creates one returns it in RV(client_secret); no later run can read it again.
  - B(The result of a task that created a confidential application is hidden from the output), as if the task had
    C(no_log), because it holds the client secret. The registered variable keeps it.
  - Behind a platform gateway (Automation Platform 2.5 and later), the application is the gateway's
    (C(/api/gateway/v1/applications/)), where the platform keeps OAuth2 applications and their tokens;
    O(organization) names one of the gateway's organizations (an id is the gateway's). On AWX 24 it is the
    controller's (C(/api/v2/applications/)). The collection finds the layout itself (O(service_layout)).
  - Takes the options of awx.awx's C(application) module, and those of ansible.platform's (its gateway's fields).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the application, unique within its organization.
    type: str
    required: true
  new_name:
    description:
      - A new name for the application (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the application.
    type: str
  organization:
    description:
      - The organization of the application, by name or id.
    type: str
    required: true
  authorization_grant_type:
    description:
      - How users of the application get tokens. Needed to create an application.
    type: str
    choices: [password, authorization-code]
  client_type:
    description:
      - V(confidential) for a client that can keep a secret (it gets one), V(public) for one that cannot.
      - Needed to create an application.
    type: str
    choices: [public, confidential]
  redirect_uris:
    description:
      - The URIs the service may redirect to after authorizing; needed with O(authorization_grant_type=authorization-code).
      - The service keeps them as one space-separated text; V([]) clears them.
    type: list
    elements: str
  skip_authorization:
    description:
      - Whether users skip the step that asks them to authorize the application (for trusted applications).
    type: bool
  new_organization:
    description:
      - Moves the application (found in O(organization)) to this organization, by name or id. An application
        not found in O(organization) is looked for in this one (moved by an earlier run), and a new one is made
        there.
      - Taken from ansible.platform's C(application) module.
    type: str
  algorithm:
    description:
      - The OIDC token signing algorithm of the application; V('') for none.
      - Behind a platform gateway only (ansible.platform's option); on AWX 24 the task fails when it is given.
    type: str
    choices: ['', RS256, HS256]
  post_logout_redirect_uris:
    description:
      - The URIs allowed after a logout; the gateway keeps them as one space-separated text; V([]) clears them.
      - Behind a platform gateway only (ansible.platform's option); on AWX 24 the task fails when it is given.
    type: list
    elements: str
  app_url:
    description:
      - The URL of the application.
      - Behind a platform gateway only (ansible.platform's option); on AWX 24 the task fails when it is given.
    type: str
  user:
    description:
      - The user who owns the application, by username or id (the gateway's).
      - An application that exists is given this user when it has another one (or none).
      - Behind a platform gateway only (ansible.platform's option); on AWX 24 the task fails when it is given.
    type: str
  state:
    description:
      - V(present) creates or updates the application, V(absent) deletes it.
      - V(exists) creates the application when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - The client secret is never part of the diff, and the application returned by a later run shows it hidden.
  - Behind a platform gateway the gateway takes an application whose O(authorization_grant_type) is
    V(authorization-code) without O(redirect_uris), which AWX 24 refuses, and lets O(authorization_grant_type)
    change, which AWX 24 keeps as it was created.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A confidential application for a web portal
  automation.service.application:
    name: portal
    organization: Default
    description: The self-service portal
    authorization_grant_type: authorization-code
    client_type: confidential
    redirect_uris:
      - https://portal.example.com/oauth/callback
  register: portal

- name: Keep the client secret (shown only by the task that created the application)
  ansible.builtin.copy:
    dest: /etc/portal/client_secret
    content: "{{ portal.client_secret }}"
    mode: '0600'
  when: portal.client_secret is defined
  no_log: true

- name: A public application for a command line tool
  automation.service.application:
    name: cli
    organization: Default
    authorization_grant_type: password
    client_type: public

- name: Remove an application
  automation.service.application:
    name: cli
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the application (of the deleted one with O(state=absent)).
  returned: when the application exists or existed
  type: int
  sample: 4
client_id:
  description: The client id of the application.
  returned: with O(state=present) or O(state=exists), not in check mode when the application is new
  type: str
  sample: xK2qL8nZ0r
client_secret:
  description: The client secret of a confidential application.
  returned: when a confidential application was created (not in check mode)
  type: str
  sample: the secret
application:
  description:
    - The application as the service returns it (the would-be one in check mode), the gateway's behind a platform
      gateway and the controller's on AWX 24. Its C(client_secret) is the secret only in the answer to the creation;
      the service hides it on every later read.
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 4, "name": "portal", "organization": 1, "client_type": "confidential",
           "authorization_grant_type": "authorization-code", "redirect_uris": "https://portal.example.com/oauth/callback",
           "skip_authorization": false, "client_id": "xK2qL8nZ0r", "client_secret": "************"}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    organization=dict(type='str', required=True),
    authorization_grant_type=dict(type='str', choices=['password', 'authorization-code']),
    client_type=dict(type='str', choices=['public', 'confidential']),
    redirect_uris=dict(type='list', elements='str'),
    skip_authorization=dict(type='bool'),
    new_organization=dict(type='str'),
    algorithm=dict(type='str', choices=['', 'RS256', 'HS256']),
    post_logout_redirect_uris=dict(type='list', elements='str'),
    app_url=dict(type='str'),
    user=dict(type='str'),
    state=STATE_EXISTS,
)
# ansible.platform's options for fields only the gateway's applications have (django-ansible-base's).
GATEWAY_ONLY = ('algorithm', 'post_logout_redirect_uris', 'app_url', 'user')
# The service hides a client secret it has shown once as this.
HIDDEN = '************'


class Application(Resource):
    """The applications of the service's OAuth2 provider: behind a platform gateway the gateway's (django-ansible-base's
    oauth2_provider, with the gateway's organizations and users, and two more fields), else the controller's."""

    users = 'users'     # where the option ``user`` is looked up

    def placed(self, api):
        if self.placed_at is not None:
            return self
        layout = api.client.settled_layout()
        if not layout.is_gateway:
            given = [key for key in GATEWAY_ONLY if api.params.get(key) is not None]
            if given:
                raise ConfigError('%s: only a platform gateway\'s applications have %s; AWX 24\'s do not.'
                                  % (', '.join(given), 'this field' if len(given) == 1 else 'these fields'))
            return self
        placed = self.at_paths(layout.gateway_path, 'gateway')
        placed.users = layout.gateway_path(self.users)
        placed.fields = self.fields + GATEWAY_FIELDS
        return placed

    def find(self, api):
        existing = super(Application, self).find(api)
        moved = api.params.get('new_organization')
        if existing is None and moved:
            # Moved by an earlier run: found in the organization it was moved to.
            where = {'organization': int(moved)} if is_id(moved) else {'organization__name': moved}
            existing = api.lookup(self.endpoint, api.params[self.name], self.name, **where)
        return existing

    def create_fields(self, api):
        fields = super(Application, self).create_fields(api)
        if api.params.get('new_organization'):
            fields.pop('organization', None)    # a new application is made in the organization it moves to
        return fields

    def desired(self, api, existing):
        wanted = super(Application, self).desired(api, existing)
        for key in ('redirect_uris', 'post_logout_redirect_uris'):
            uris = api.params.get(key)
            if uris is not None:
                wanted[key] = ' '.join(uri.strip() for uri in uris if uri and uri.strip())
        moved = api.params.get('new_organization')
        if moved:
            wanted['organization'] = self.reference_id(api, existing, 'organization', self.scope['organization'], moved)
        owner = api.params.get('user')
        if owner:
            # django-ansible-base's applications take a new user on update (its serializer's
            # read_only_on_update_fields are a declaration no code of its reads)
            wanted['user'] = self.reference_id(api, existing, 'user', self.users, owner, name_field='username')
        return wanted


# The gateway's applications have two more fields sent as given.
GATEWAY_FIELDS = ('algorithm', 'app_url')
RESOURCE = Application('applications', 'application', 'application', scope={'organization': 'organizations'},
                       fields=('description', 'authorization_grant_type', 'client_type', 'skip_authorization'),
                       required_on_create=('authorization_grant_type', 'client_type'),
                       secret=('client_secret',))


def holds_secret(result):
    """A new client secret is in the result: no display shows it (the registered variable keeps it)."""
    return bool(result.get('client_secret'))


SPEC = RESOURCE.spec(ARGUMENT_SPEC, result_is_secret=holds_secret)


def run(api):
    application = RESOURCE.run(api)[0] or {}
    if application.get('client_id'):
        api.returns(client_id=application['client_id'])
    secret = application.get('client_secret')
    if secret and secret != HIDDEN and not secret.startswith('$encrypted$'):
        api.returns(client_secret=secret)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
