#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: user
short_description: Create, update or delete a user of the service
version_added: 0.1.0
description:
  - Makes a user of the service match the fields given; fields not given are left alone.
  - The service never shows a password, so it cannot be compared. With O(update_password=on_create) (the
    default) the password is set only when the user is created, and re-runs stay unchanged; with
    O(update_password=always) it is sent on every run, which always reports a change.
author:
  - automation.service maintainers (@automation-service)
options:
  username:
    description:
      - The user's username.
    type: str
    required: true
  new_username:
    description:
      - Rename the user to this username. Running the task again after the rename finds the user by it.
    type: str
  first_name:
    description:
      - First name.
    type: str
  last_name:
    description:
      - Last name.
    type: str
  email:
    description:
      - E-mail address.
    type: str
  password:
    description:
      - The user's password; see O(update_password).
    type: str
  update_password:
    description:
      - V(on_create) sets O(password) only when creating the user; V(always) sets it on every run.
    type: str
    choices: [on_create, always]
    default: on_create
  is_superuser:
    description:
      - Whether the user is a system administrator.
    type: bool
  is_system_auditor:
    description:
      - Whether the user is a system auditor (reads everything).
    type: bool
  state:
    description:
      - V(present) creates or updates the user, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure alice exists; her password is set when she is created
  automation.service.user:
    username: alice
    first_name: Alice
    email: alice@example.com
    password: "{{ alice_initial_password }}"

- name: Reset her password on every run
  automation.service.user:
    username: alice
    password: "{{ alice_password }}"
    update_password: always

- name: Remove her
  automation.service.user:
    username: alice
    state: absent
'''

RETURN = r'''
id:
  description: Id of the user (of the deleted user with O(state=absent)).
  returned: when the user exists or existed
  type: int
  sample: 7
user:
  description: The user as the service returns it (never with a password; the would-be user in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 7, "username": "alice", "first_name": "Alice", "email": "alice@example.com", "is_superuser": false}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec

ARGUMENT_SPEC = dict(
    username=dict(type='str', required=True),
    new_username=dict(type='str'),
    first_name=dict(type='str'),
    last_name=dict(type='str'),
    email=dict(type='str'),
    password=dict(type='str', no_log=True),
    update_password=dict(type='str', choices=['on_create', 'always'], default='on_create', no_log=False),
    is_superuser=dict(type='bool'),
    is_system_auditor=dict(type='bool'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)
FIELDS = ('first_name', 'last_name', 'email', 'is_superuser', 'is_system_auditor')


def run(api):
    params = api.params
    existing = api.get_one('users', username=params['username'])
    if existing is None and params['new_username']:
        existing = api.get_one('users', username=params['new_username'])

    if params['state'] == 'absent':
        api.ensure_absent(existing)
    else:
        desired = dict((key, params[key]) for key in FIELDS if params[key] is not None)
        desired['username'] = params['new_username'] or params['username']
        password = params['password']
        if existing is not None and password and params['update_password'] == 'always':
            desired['password'] = password
        api.ensure_present(existing, desired, create=lambda: {'password': password} if password else {},
                           secret=('password',))
        api.result[api.result_key].pop('password', None)


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='users', result_key='user')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
