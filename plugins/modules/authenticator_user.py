#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: authenticator_user
short_description: Move a user of a platform gateway to another authenticator
version_added: 0.3.0
description:
  - An authenticator user is the platform gateway's link between one of its users and the authenticator they log in
    through, with the user id the identity provider gave (its uid). This module moves such a link to another
    authenticator, for example when an organization changes identity providers, so that the user keeps their
    account when they log in through the new one.
  - The link is read at C(/api/gateway/v1/authenticator_users/<id>/) and moved with its C(move/) action. A link
    already at O(authenticator) is left as it is, so a second run changes nothing.
  - B(Needs an Automation Platform gateway) (2.5 to 2.7). On AWX 24, which has no authenticators of its own, the
    task fails before it writes anything and says so.
  - Takes the options of ansible.platform's C(authenticator_user) module.
author:
  - automation.service maintainers (@automation-service)
options:
  authenticator_user_id:
    description:
      - The id of the authenticator user (the link, not the user), as the gateway's C(authenticator_users/) lists it.
    type: str
    required: true
  authenticator:
    description:
      - The authenticator to move the user to, by id or name.
    type: str
    required: true
  new_uid:
    description:
      - The user's id at the new authenticator's identity provider (for GitHub, their GitHub login), set by the
        move. Without it the uid stays as it was.
    type: str
  keep_memberships:
    description:
      - Whether the user keeps their roles (organizations, teams). With V(false) the move takes them away, and the
        new authenticator's maps give them back at the next login.
    type: bool
    default: false
  merge_with_user:
    description:
      - The id of another user of the gateway to merge this one into (the link is moved to that user).
      - Not with O(merge_accounts_with_same_uid).
    type: str
  merge_accounts_with_same_uid:
    description:
      - Whether to merge the user into the one the new authenticator already links to the same uid, if there is one
        (without it, such a user makes the move fail).
      - Not with O(merge_with_user).
    type: bool
    default: false
  remove_other_authenticators:
    description:
      - Whether the move deletes the user's other links to the authenticator they are moved from.
    type: bool
    default: false
  state:
    description:
      - V(present) moves the link when it is not at O(authenticator) yet.
      - V(exists) only checks that the link is at O(authenticator) (with the uid O(new_uid), when given), and fails
        when it is not; it never writes.
    type: str
    choices: [present, exists]
    default: present
notes:
  - A move that merges the user into another one (O(merge_with_user), O(merge_accounts_with_same_uid)) makes a new
    link, whose id the task returns; the id given then names no link any more, and a second run with it fails as
    not found. Run it again with the id returned.
  - The gateway cannot move a link to the authenticator it is at, so a link already at O(authenticator) keeps its
    uid even when O(new_uid) differs (the task says so in a warning).
  - ansible.platform's module takes O(authenticator) by id only. The endpoint and its fields are the platform
    gateway's own (C(authenticator_users/) and its C(move/) action, with the fields C(new_authenticator),
    C(new_uid), C(keep_memberships), C(merge_with_user), C(merge_accounts_with_same_uid) and
    C(remove_other_authenticators)).
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_authentication
'''

EXAMPLES = r'''
- name: Move a user from the old identity provider to the new one, with the login they have there
  automation.service.authenticator_user:
    authenticator_user_id: 9
    authenticator: Corporate SSO
    new_uid: jdoe
    keep_memberships: true

- name: Move a user and merge them with the account the new authenticator already has for the same uid
  automation.service.authenticator_user:
    authenticator_user_id: 4
    authenticator: 2
    merge_accounts_with_same_uid: true
    remove_other_authenticators: true

- name: Check that a user logs in through the directory
  automation.service.authenticator_user:
    authenticator_user_id: 4
    authenticator: Directory
    state: exists
'''

RETURN = r'''
id:
  description: Id of the authenticator user (the one given, or the new link a merging move made).
  returned: always, when the authenticator user was found
  type: int
  sample: 9
authenticator_user:
  description: The authenticator user as the gateway returns it, after the move (the would-be one in check mode).
  returned: always, when the authenticator user was found
  type: dict
  sample: {"id": 9, "provider": 2, "user": 12, "uid": "jdoe", "access_allowed": true}
'''

from ansible_collections.automation.service.plugins.module_utils._errors import NotFound, ServiceError
from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

try:
    from urllib.parse import quote
except ImportError:  # pragma: no cover - Python 2 is not supported
    from urllib import quote  # type: ignore

ARGUMENT_SPEC = dict(
    authenticator_user_id=dict(type='str', required=True),
    authenticator=dict(type='str', required=True),
    new_uid=dict(type='str'),
    keep_memberships=dict(type='bool', default=False),
    merge_with_user=dict(type='str'),
    merge_accounts_with_same_uid=dict(type='bool', default=False),
    remove_other_authenticators=dict(type='bool', default=False),
    state=dict(type='str', choices=['present', 'exists'], default='present'),
)


def provider_of(link):
    """The authenticator ``link`` is at, as the gateway names it: django-ansible-base's ``AuthenticatorUser.provider``
    keys on the authenticator's slug (the 2.7 and 2.6 schemas' ``provider`` is a string); some answers give its id."""
    provider = link.get('provider')
    if isinstance(provider, dict):
        provider = provider.get('id')
    return provider if provider is not None else ((link.get('summary_fields') or {}).get('provider') or {}).get('id')


def linked_to(link, authenticator):
    """Whether ``link`` is at ``authenticator`` (named by its slug or its id)."""
    provider = provider_of(link)
    return provider is not None and str(provider) in (str(authenticator['id']), str(authenticator.get('slug')))


class AuthenticatorUser(GatewayResource):
    """An authenticator user (a user's link to an authenticator), named by its id: never created or deleted here;
    ``present`` moves it to the authenticator given (the gateway's ``move/``), ``exists`` checks that it is there."""

    def read_ahead(self, api):
        """Nothing for a loop's shared reads to count: find() reads with a request of its own."""

    def find(self, api):
        """The authenticator user the task names (NotFound when there is none)."""
        link_id = api.params[self.name]
        try:
            link = api.client.get(self.detail(quote(str(link_id).strip(), safe='')))
        except NotFound:
            raise NotFound('Authenticator user %s was not found at the platform gateway (%s lists them).'
                           % (link_id, self.endpoint), total_results=0)
        return dict(link, url=link.get('url') or self.detail(link['id']))

    def detail(self, key):
        """The path of the authenticator user ``key`` (its id) names."""
        return '%s/%s/' % (self.endpoint.rstrip('/'), key)

    def plan(self, api):
        """The move of the link to the authenticator given (none when it is there already); with ``state: exists``,
        none, and the task fails when the link is not as given."""
        params = api.params
        link = self.find(api)
        authenticator = api.lookup(self.references['authenticator'], params['authenticator'], label='authenticator',
                                   required=True)
        if params['state'] == 'exists':
            wrong = []
            if not linked_to(link, authenticator):
                wrong.append('its authenticator is %s, not %s (%s)'
                             % (provider_of(link), authenticator['id'], authenticator.get('name')))
            if params.get('new_uid') and params['new_uid'] != link.get('uid'):
                wrong.append('its uid is %r, not %r' % (link.get('uid'), params['new_uid']))
            if wrong:
                self.returns(api, link, link)
                raise ServiceError('Authenticator user %s is not as expected: %s.' % (link['id'], '; '.join(wrong)))
            return Plan(link)
        if linked_to(link, authenticator):
            if params.get('new_uid') and params['new_uid'] != link.get('uid'):
                api.warn('Authenticator user %s is at authenticator %s already: its uid stays %r (the gateway sets a '
                         'new uid only when it moves a user).'
                         % (link.get('id'), authenticator.get('name'), link.get('uid')))
            return Plan(link)
        body = {'new_authenticator': authenticator['id']}
        for option in ('keep_memberships', 'merge_accounts_with_same_uid', 'remove_other_authenticators'):
            body[option] = bool(params.get(option))
        for option in ('new_uid', 'merge_with_user'):
            if params.get(option):
                body[option] = params[option]
        before = {'authenticator': provider_of(link), 'uid': link.get('uid')}
        after = {'authenticator': authenticator['id'], 'uid': params.get('new_uid') or link.get('uid')}
        answer = dict(link, provider=authenticator.get('slug') or authenticator['id'], uid=after['uid'])
        return Plan(link, [Write('POST', link['url'] + 'move/', body, before=before, after=after, makes=True,
                                 answer=answer)])

    def returns(self, api, existing, made, plan=None):
        api.returns(id=made.get('id'), authenticator_user=made)


RESOURCE = AuthenticatorUser('authenticator_users', 'authenticator_user', 'authenticator user',
                             name='authenticator_user_id', references={'authenticator': 'authenticators'},
                             exists_checks=False)
SPEC = RESOURCE.spec(ARGUMENT_SPEC, mutually_exclusive=[('merge_with_user', 'merge_accounts_with_same_uid')])
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
