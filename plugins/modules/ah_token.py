#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_token
short_description: Create or revoke the API token of an Automation Hub user
version_added: 0.5.0
description:
  - Makes a new API token for the user the task authenticates as (the Hub's C(v3/auth/token/)), returned as the
    fact C(ah_token), which the other Hub modules take as O(ah_token); or revokes the user's token.
  - Takes the options of ansible.hub's C(ah_token) module, and returns what it returns.
  - The Hub keeps one token per user. A new one replaces the one before, which stops working; so each task with
    O(state=present) makes a new token and reports a change.
  - The token's value is only ever in the fact and the registered result; no display of the task shows it.
author:
  - automation.service maintainers (@automation-service)
options:
  state:
    description:
      - V(present) makes a new token (the previous one of the user stops working); V(absent) revokes the user's
        token.
      - With V(absent) and a token to authenticate with (O(ah_token)) that the Hub does not know (revoked already),
        nothing is changed. Authenticated with a username and password, the Hub does not say whether the user had a
        token, and the task reports a change.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
notes:
  - Behind a platform gateway, the token the Hub makes here is the Hub's own; the gateway's tokens are made with
    M(automation.service.token).
'''

EXAMPLES = r'''
- name: A token for the following tasks
  automation.service.ah_token:
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_password }}"

- name: A namespace, authenticated with that token
  automation.service.ah_namespace:
    ah_host: https://hub.example.com
    ah_token: "{{ ah_token }}"
    name: platform_team

- name: Revoke it
  automation.service.ah_token:
    ah_host: https://hub.example.com
    ah_token: "{{ ah_token }}"
    state: absent
'''

RETURN = r'''
ansible_facts:
  description: The fact C(ah_token), the token made, which the Hub modules take as O(ah_token).
  returned: with O(state=present), once the token is made (not in check mode)
  type: dict
  contains:
    ah_token:
      description: The token as the Hub returned it.
      type: dict
      contains:
        token:
          description: The token. The Hub never shows it again.
          type: str
msg:
  description: What was done, in ansible.hub's words.
  returned: with O(state=absent), when the token was revoked
  type: str
  sample: Token Revoked
'''

from ansible_collections.automation.service.plugins.module_utils._errors import AuthError
from ansible_collections.automation.service.plugins.module_utils._hub import UI, V3, hub_spec, place
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

MODULE = 'ah_token'
# What the diff shows of a new token: never its value
MINTED = 'a new token'

ARGUMENT_SPEC = dict(
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)


def holds_secret(result):
    """The result holds the token just made: no display shows it (the fact and the registered result keep it)."""
    token = (result.get('ansible_facts') or {}).get('ah_token')
    return isinstance(token, dict) and bool(token.get('token'))


def token_known(api):
    """Whether the Hub takes the token this task authenticates with (one read of the user it is); True when the
    task authenticates otherwise (the Hub does not say whether that user has a token)."""
    if api.client.auth.name != 'token':
        return True
    try:
        api.client.get(place(api, UI + 'me/', MODULE))
    except AuthError:
        return False
    return True


def run(api):
    path = place(api, V3 + 'auth/token/', MODULE)
    if api.params['state'] == 'absent':
        if not token_known(api):
            api.says('The token is unknown to the Hub: nothing to revoke.')
            return
        api.apply(Plan(None, [Write('DELETE', path, expect=(200, 202, 204), before={'state': 'present'},
                                    after={'state': 'absent'})]))
        api.says('Token Revoked')
        return
    made = api.apply(Plan(None, [Write('POST', path, {}, expect=(200, 201), before={}, after={'token': MINTED},
                                       secret=('token',), makes=True, answer={})]))
    if not api.check_mode:
        api.returns(ansible_facts={'ah_token': made})


SPEC = hub_spec(ARGUMENT_SPEC, result_is_secret=holds_secret)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
