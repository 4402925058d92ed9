#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_user
short_description: Create, update or delete a user of Automation Hub
version_added: 0.5.0
description:
  - Makes a user of Automation Hub (the Hub's C(_ui/v1/users/)) match the options given, or deletes it. Options not
    given are left as they are, but for O(is_superuser), which is V(false) unless given, as ansible.hub has it.
  - The Hub never shows a password. With O(update_password=always) (the default) the task checks whether the user
    can log in with O(password) (one request as the user, which writes nothing) and sets it only when not, so a
    second run reports no change; with O(update_password=on_create) the password is set only when the user is
    created.
  - A superuser is first made an ordinary user, then deleted, as the Hub deletes no superuser.
  - Takes the options and return values of ansible.hub's C(ah_user) module. Unlike it, a password that is already
    the user's is no change, and a diff says what changed (never the password).
author:
  - automation.service maintainers (@automation-service)
options:
  username:
    description:
      - Name of the user, matched exactly.
    type: str
    required: true
  groups:
    description:
      - Names of the groups the user is in. Every group must exist (see M(automation.service.ah_group)).
      - With O(append=true) the user is added to them and stays in the others; with O(append=false) the user ends
        in exactly these, and when O(groups) is not given either, in none.
    type: list
    elements: str
  append:
    description:
      - Whether O(groups) adds groups to those the user is in (V(true)) or replaces them (V(false)).
    type: bool
    default: true
  first_name:
    description:
      - The user's first name.
    type: str
  last_name:
    description:
      - The user's last name.
    type: str
  email:
    description:
      - The user's e-mail address; the Hub refuses one that is not well formed.
    type: str
  is_superuser:
    description:
      - Whether the user is a superuser, who has every permission. Not given, it is V(false), as in ansible.hub.
    type: bool
    default: false
    aliases: [superuser]
  password:
    description:
      - The user's password. The Hub refuses one shorter than 9 characters, one too common, all digits or too like
        the username. Never shown in the output or the diff; see O(update_password).
    type: str
  update_password:
    description:
      - V(always) sets O(password) whenever the user cannot log in with it; V(on_create) sets it only when the user
        is created.
      - ansible.hub has no such option; its C(ah_user) sends the password on every run.
    type: str
    choices: [always, on_create]
    default: always
  state:
    description:
      - V(present) creates or updates the user, V(absent) deletes it (nothing happens when there is none).
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: automation.service.ah_group
  - module: automation.service.group_roles
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure Lena can log in to the Hub and is an operator
  automation.service.ah_user:
    username: lvasquez
    first_name: Lena
    last_name: Vasquez
    email: lvasquez@example.com
    password: "{{ lvasquez_password }}"
    groups:
      - operators
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Make the user a member of exactly these two groups
  automation.service.ah_user:
    username: qhazelrigg
    groups:
      - operators
      - developers
    append: false

- name: Set a password only when the user is created
  automation.service.ah_user:
    username: jziglar
    password: "{{ initial_password }}"
    update_password: on_create

- name: Remove the user
  automation.service.ah_user:
    username: dwilde
    state: absent
'''

RETURN = r'''
name:
  description: The username.
  returned: when the user exists or existed
  type: str
  sample: lvasquez
id:
  description: Id of the user.
  returned: when the user exists or existed (not for a user check mode would create)
  type: int
  sample: 7
type:
  description: The kind of object, V(user).
  returned: when the user exists or existed
  type: str
  sample: user
user:
  description: The user as the Hub returns it, never with a password (the would-be user in check mode).
  returned: with O(state=present)
  type: dict
  sample:
    id: 7
    username: lvasquez
    first_name: Lena
    last_name: Vasquez
    email: lvasquez@example.com
    groups: [{"id": 3, "name": "operators"}]
    is_superuser: false
    auth_provider: [django]
'''

from ansible_collections.automation.service.plugins.module_utils._hub_access import USER, user_spec

ARGUMENT_SPEC = dict(
    username=dict(type='str', required=True),
    first_name=dict(type='str'),
    last_name=dict(type='str'),
    email=dict(type='str'),
    is_superuser=dict(type='bool', default=False, aliases=['superuser']),
    password=dict(type='str', no_log=True),
    update_password=dict(type='str', choices=['always', 'on_create'], default='always', no_log=False),
    groups=dict(type='list', elements='str'),
    append=dict(type='bool', default=True),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)

SPEC = user_spec(ARGUMENT_SPEC)
run = USER.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
