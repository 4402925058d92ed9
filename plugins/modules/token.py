#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: token
short_description: Mint or revoke OAuth2 access tokens of the service
version_added: 0.1.0
description:
  - With O(state=present), mints a new token for the connecting user (always a change), a personal access token,
    or an application token when O(application) is given. The result holds the secret, also as the fact
    C(service_token) (and, as awx.awx names it, C(controller_token)), which later tasks pass as O(service_token).
  - With O(state=absent), revokes the token O(existing_token) or O(existing_token_id); a token that is already
    gone is no change. With O(user) and O(all_tokens=true), revokes every token of that user (administrators).
  - B(The result of a task that minted a token is hidden from the output), as if the task had C(no_log), because
    it holds the secret. The registered variable and the fact keep it. To see the token, show it explicitly,
    for example with M(ansible.builtin.debug) and C(var=result.token). Hiding the whole result is the only way
    to keep the secret out of C(-v) output, logs and job events while the secret stays usable.
author:
  - automation.service maintainers (@automation-service)
options:
  description:
    description:
      - Description of the new token.
    type: str
  scope:
    description:
      - Scope of the new token. A V(read) token can read but not change anything.
    type: str
    choices: [read, write]
    default: write
  application:
    description:
      - The OAuth2 application of the new token, by name or id. Without it the token is a personal access token.
      - Behind a platform gateway, one of the gateway's applications (C(/api/gateway/v1/applications/)), where the
        token is made too.
    type: str
  organization:
    description:
      - The organization of O(application), by name or id, for an application name that two organizations use.
      - Without it the application is found by its name alone.
      - Taken from ansible.platform's C(token) module.
    type: str
  state:
    description:
      - V(present) mints a token; V(absent) revokes one (or all of a user's).
    type: str
    choices: [present, absent]
    default: present
  existing_token:
    description:
      - A token as a previous run of this module returned it (the C(token) result or the C(service_token) fact),
        to revoke with O(state=absent). Only its C(id) is used.
    type: dict
  existing_token_id:
    description:
      - Id of the token to revoke with O(state=absent) (a positive integer).
    type: raw
  user:
    description:
      - With O(state=absent) and O(all_tokens=true), the user (username or id) whose tokens are all revoked.
      - Behind a platform gateway, the gateway's user of that username (an id is the gateway's), whose tokens
        the gateway keeps.
    type: str
  all_tokens:
    description:
      - Revoke every token of O(user). Needs O(state=absent).
    type: bool
    default: false
notes:
  - A token used for the connection (O(service_token)) may revoke itself; later tasks using it then fail with a
    message that says it was revoked.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Mint a personal access token with the password once
  automation.service.token:
    description: nightly automation
    scope: write
    service_url: https://svc.example.com
    service_username: admin
    service_password: "{{ service_admin_password }}"
  register: minted

- name: Use it for the next tasks (the fact service_token holds it too)
  automation.service.host:
    name: web01.example.com
    inventory: Production
    service_url: https://svc.example.com
    service_token: "{{ service_token }}"

- name: Revoke it at the end
  automation.service.token:
    existing_token: "{{ minted.token }}"
    state: absent
    service_url: https://svc.example.com
    service_token: "{{ service_token }}"

- name: Revoke every token of a user (administrators)
  automation.service.token:
    user: alice
    all_tokens: true
    state: absent
    service_url: https://svc.example.com
    service_username: admin
    service_password: "{{ service_admin_password }}"
'''

RETURN = r'''
id:
  description: Id of the token minted or revoked.
  returned: when a token was minted or a single token revoked
  type: int
  sample: 12
token:
  description:
    - The minted token as the service returns it, with the secret in C(token) (and C(refresh_token) for an
      application token). Pass the whole dictionary as O(service_token).
    - In check mode, the would-be token without a secret.
  returned: with O(state=present)
  type: dict
  sample: {"id": 12, "token": "the secret", "scope": "write", "expires": "3024-01-01T00:00:00Z", "application": null}
revoked:
  description: Ids of the tokens revoked with O(all_tokens=true).
  returned: with O(all_tokens=true)
  type: list
  elements: int
  sample: [12, 13]
ansible_facts:
  description: Facts set by the module.
  returned: when a token was minted
  type: dict
  contains:
    service_token:
      description: The minted token, the same dictionary as RV(token).
      type: dict
      returned: when a token was minted
    controller_token:
      description: The same dictionary, under the name awx.awx gives it.
      type: dict
      returned: when a token was minted
    tower_token:
      description: The same dictionary, under awx.awx's older name.
      type: dict
      returned: when a token was minted
    aap_token:
      description: The same dictionary, under the name ansible.platform gives it.
      type: dict
      returned: when a token was minted
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._info import object_id
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import Resource

ARGUMENT_SPEC = dict(
    description=dict(type='str'),
    scope=dict(type='str', choices=['read', 'write'], default='write'),
    application=dict(type='str'),
    organization=dict(type='str'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
    existing_token=dict(type='dict', no_log=False),
    existing_token_id=dict(type='raw'),
    user=dict(type='str'),
    all_tokens=dict(type='bool', default=False),
)
REVOKE_OPTIONS = ('existing_token', 'existing_token_id', 'user')


def personal_tokens(api, token_id=None):
    """The personal tokens' endpoint: a platform gateway's own (/api/gateway/v1/tokens/), which the
    gateway and the controller behind it both accept, else the service's tokens/."""
    endpoint = 'tokens' if token_id is None else 'tokens/%d' % token_id
    layout = api.client.settled_layout()
    return layout.gateway_path(endpoint) if layout.is_gateway else endpoint


def user_id(api, user, users='users'):
    if is_id(user):
        return int(user)
    found = api.get_one(users, username=user)
    if found is None:
        raise NotFound('user %r was not found.' % user)
    return found['id']


def users_tokens(api, user):
    """The personal tokens of ``user``: the gateway's (its own list, filtered by its user's id) behind a
    platform gateway, else the controller's users/N/tokens/."""
    layout = api.client.settled_layout()
    if layout.is_gateway:
        owner = user_id(api, user, layout.gateway_path('users'))
        return api.client.iterate(personal_tokens(api), params={'user': owner, 'page_size': 200})
    return api.client.iterate('users/%d/tokens' % user_id(api, user), params={'page_size': 200})


class Token(Resource):
    """A personal token: it has no name to find it by; ``present`` mints one (each time), ``absent`` revokes the one
    given (``existing_token``, ``existing_token_id``) or all of a user's (``user`` with ``all_tokens``)."""

    def read_ahead(self, api):
        """Nothing for a loop's shared reads to count: a token is not looked up by name."""

    def plan(self, api):
        """The mint, or the revocations; the options checked and every name resolved first."""
        params = api.params
        secret = (params['existing_token'] or {}).get('token')
        if secret:
            api.no_log_values.add(str(secret))
        if params['state'] == 'present':
            given = [name for name in REVOKE_OPTIONS if params[name] is not None] + \
                (['all_tokens'] if params['all_tokens'] else [])
            if given:
                raise ConfigError('%s only make sense with state absent.' % ', '.join(given))
            return self.plan_mint(api)
        if params['user'] is not None:
            if not params['all_tokens']:
                raise ConfigError('user revokes tokens only with all_tokens: true.')
            return self.plan_revoke_all(api)
        if params['all_tokens']:
            raise ConfigError('all_tokens needs user: whose tokens to revoke.')
        return self.plan_revoke_one(api)

    def plan_mint(self, api):
        params = api.params
        body = {'description': params['description'] or '', 'scope': params['scope']}
        endpoint, application = personal_tokens(api), None
        if params['application']:
            layout = api.client.settled_layout()
            where = {}
            if params['organization']:
                organizations = layout.gateway_path('organizations') if layout.is_gateway else 'organizations'
                where['organization'] = api.resolve_id(organizations, params['organization'], 'organization')
            if layout.is_gateway:
                # The gateway's applications; its token list takes the application in the body.
                application = api.resolve_id(layout.gateway_path('applications'), params['application'],
                                             'application', **where)
                body['application'] = application
            else:
                application = api.resolve_id('applications', params['application'], 'application', **where)
                endpoint = 'applications/%d/tokens' % application
        return Plan(None, [Write('POST', endpoint, body, expect=(201,), before={},
                                 after=dict(body, application=application), makes=True,
                                 answer=dict(body, application=application, token=None))])

    def plan_revoke_one(self, api):
        params = api.params
        token_id = object_id('existing_token_id', params['existing_token_id'])
        if token_id is None and is_id((params['existing_token'] or {}).get('id')):
            token_id = int(params['existing_token']['id'])
        if token_id is None:
            raise ConfigError('state absent needs existing_token (with its id), existing_token_id, or user with '
                              'all_tokens.')
        try:
            found = api.client.get(personal_tokens(api, token_id))
        except NotFound:
            found = None
        return api.plan_absent(found)

    def plan_revoke_all(self, api):
        tokens = list(users_tokens(api, api.params['user']))
        # The token this task connects with (if it is among them) goes last.
        current = api.client.auth.options.get('service_token')
        current = current.get('id') if isinstance(current, dict) else None
        ids = sorted((t['id'] for t in tokens), key=lambda i: (i == current, i))
        api.returns(revoked=ids)
        writes = [Write('DELETE', personal_tokens(api, token_id), expect=(202, 204, 404)) for token_id in ids]
        if writes:
            writes[0].before, writes[0].after = {'tokens': ids}, {'tokens': []}
        return Plan(None, writes)

    def apply_deletion(self, api, plan):
        """The one token revoked, returned as awx.awx returns a deletion; or a user's, said in ``revoked``."""
        if api.params['user'] is not None:
            api.apply(plan)
        else:
            api.apply_absent(plan)

    def returns(self, api, existing, made, plan=None):
        """The token minted (in check mode, what would be sent, without a value), and as facts under awx.awx's and
        ansible.platform's names."""
        if api.check_mode:
            api.returns(token=made)
            return
        # controller_token and tower_token are awx.awx's names for the same fact, aap_token ansible.platform's.
        api.returns(id=made['id'], token=made,
                    ansible_facts={'service_token': made, 'controller_token': made, 'tower_token': made,
                                   'aap_token': made})
        api.returns_created(made)


def holds_secret(result):
    """A minted token's value is in the result: no display shows it (the registered variable and the
    ``service_token`` fact keep it)."""
    token = result.get('token')
    return isinstance(token, dict) and bool(token.get('token'))


RESOURCE = Token('tokens', 'token', 'token')
SPEC = RESOURCE.spec(ARGUMENT_SPEC, mutually_exclusive=[REVOKE_OPTIONS], result_is_secret=holds_secret)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
