#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_user
short_description: Create, update or delete a user of Event-Driven Ansible (the platform's user)
version_added: 0.4.0
description:
  - Makes a user of Event-Driven Ansible match the options given. From Automation Platform 2.5 on, EDA takes its users
    from the platform gateway (C(/api/eda/v1/users/) only reads them and changes whether one is a superuser), so the
    user is made, changed and deleted at the gateway, as M(automation.service.user) does it, and EDA has it from
    there; the result says the user as EDA shows it.
  - Takes the options of ansible.eda's C(user) module.
author:
  - automation.service maintainers (@automation-service)
options:
  username:
    description:
      - The user's name; 150 characters or fewer, letters, digits and C(@), C(.), C(+), C(-), C(_) only.
    type: str
    required: true
  new_username:
    description:
      - A new name for the user (found by O(username), or by O(new_username) when it was renamed already).
    type: str
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
      - The user's email address.
    type: str
  password:
    description:
      - The user's password, written, never read back. Kept out of logs and results.
    type: str
  update_secrets:
    description:
      - V(true) (the default, as ansible.eda's) writes O(password) on every run of a user that exists, and the task says
        changed; V(false) writes it only to create the user.
    type: bool
    default: true
  is_superuser:
    description:
      - Whether the user is a superuser (of the whole platform). As with ansible.eda, not given is V(false).
    type: bool
    default: false
  roles:
    description:
      - The roles of an AAP 2.4 EDA user. Automation Platform 2.5 and later have none (their roles are role
        assignments); given, they are ignored with a warning, as ansible.eda ignores them there.
    type: list
    elements: str
    choices: [Admin, Editor, Contributor, Operator, Auditor, Viewer]
  state:
    description:
      - V(present) creates or updates the user, V(absent) deletes it (from the whole platform).
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
notes:
  - ansible.eda writes to C(/api/eda/v1/users/), which Automation Platform 2.5 to 2.7 do not let create, rename or
    delete a user (the published schemas have only its GET and a PATCH of C(is_superuser)); this module writes where
    the platform keeps its users.
'''

EXAMPLES = r'''
- name: An EDA user
  automation.service.eda_user:
    username: operator1
    first_name: Op
    email: op@example.com
    password: "{{ operator_password }}"
    update_secrets: false
'''

RETURN = r'''
id:
  description: Id of the user in EDA (of the deleted one with O(state=absent)); none in check mode for a new user.
  returned: when the user exists in EDA or existed
  type: int
  sample: 7
user:
  description: The user as EDA shows it.
  returned: with O(state=present), when EDA has the user
  type: dict
  sample: {"id": 7, "username": "operator1", "first_name": "Op", "last_name": "", "is_superuser": false}
gateway_id:
  description: Id of the user at the platform gateway.
  returned: when the user exists or existed
  type: int
  sample: 12
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._eda import find, place
from ansible_collections.automation.service.plugins.module_utils._options import OPTIONS
from ansible_collections.automation.service.plugins.module_utils import _user as platform_user

ARGUMENT_SPEC = dict(
    username=dict(type='str', required=True),
    new_username=dict(type='str'),
    first_name=dict(type='str'),
    last_name=dict(type='str'),
    email=dict(type='str'),
    password=dict(type='str', no_log=True),
    update_secrets=dict(type='bool', default=True, no_log=False),
    is_superuser=dict(type='bool', default=False),
    roles=dict(type='list', elements='str', choices=['Admin', 'Editor', 'Contributor', 'Operator', 'Auditor', 'Viewer']),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)
MODULE = 'eda_user'
SPEC = ModuleSpec(ARGUMENT_SPEC, result_key='user')
# the options the platform's user module takes from this one's
PASSED = ('username', 'new_username', 'first_name', 'last_name', 'email', 'password', 'update_secrets', 'is_superuser',
          'state')


def eda_user(api, path, username):
    return find(api, path, username, 'username', 'user', filter_param='username') if username else None


def run(api):
    path = place(api, 'users', MODULE)      # on AWX, which has no EDA, nothing further is read or written
    params = api.params
    if params['roles'] is not None:
        api.warn('roles is ignored: Automation Platform 2.5 and later have no EDA user roles (give the user role '
                 'assignments instead).')
    before = eda_user(api, path, params['username']) or eda_user(api, path, params['new_username'])
    given = dict((name, spec.get('default')) for name, spec in platform_user.SPEC.argument_spec.items())
    given.update((name, params.get(name)) for name in OPTIONS)
    given.update((name, params[name]) for name in PASSED)
    task = api.subtask(platform_user.SPEC, given)
    try:
        platform_user.RESOURCE.run(task)
    finally:
        api.merge(task)
    at_gateway = task.outcome.get('id')
    if at_gateway is not None:
        api.returns(gateway_id=at_gateway)
    if params['state'] == 'absent':
        if before is not None:
            api.returns(id=before['id'])
        return
    after = before if api.check_mode else eda_user(api, path, params['new_username'] or params['username'])
    if after is not None:
        api.returns(id=after['id'], user=after)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
