#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_role
short_description: Create, update or delete a custom role of Automation Hub
version_added: 0.5.0
description:
  - Makes a role of Automation Hub (Pulp's C(pulp/api/v3/roles/) under the Hub's API) hold the permissions and
    description given, or deletes it. Roles are given to groups with M(automation.service.group_roles).
  - The roles the Hub ships (C(galaxy.collection_admin), C(galaxy.content_admin), C(core.task_owner), ...) are
    locked; the task fails, writing nothing, when it would change or delete one of them.
  - Takes the options and return values of ansible.hub's C(ah_role) module. Unlike it, a description not given is
    left as it is, permissions are compared as a set (their order does not count), a permission may also be any
    of the Hub's own names (V(galaxy.view_user)), and a diff says what changed.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the role, matched exactly. The Hub's user interface expects custom roles to start with V(galaxy.);
        the API takes any name.
    type: str
    required: true
  description:
    description:
      - Description of the role.
    type: str
  perms:
    description:
      - The permissions of the role; the role ends with exactly these. Needed unless O(state=absent).
      - Either ansible.hub's short names or the Hub's own names, C(<app>.<codename>).
      - The short names are V(add_user), V(change_user), V(delete_user), V(view_user); V(add_group),
        V(change_group), V(delete_group), V(view_group); V(add_namespace), V(change_namespace),
        V(upload_to_namespace), V(delete_namespace); V(modify_ansible_repo_content), V(delete_collection),
        V(sign_ansiblerepository); V(add_collectionremote), V(change_collectionremote), V(delete_collectionremote),
        V(view_collectionremote), V(manage_roles_collectionremote); V(add_ansiblerepository),
        V(change_ansiblerepository), V(delete_ansiblerepository), V(view_ansiblerepository),
        V(repair_ansiblerepository), V(manage_roles_ansiblerepository); V(change_containernamespace_perms),
        V(change_container), V(change_image_tag), V(create_container), V(push_container),
        V(namespace_add_containerdistribution), V(manage_roles_containernamespace), V(delete_containerrepository);
        V(add_containerregistryremote), V(change_containerregistryremote), V(delete_containerregistryremote);
        V(change_task), V(view_task), V(delete_task).
      - V(*) or V(all) stands for every permission of the short names.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the role, V(absent) deletes it (nothing happens when there is none).
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: automation.service.group_roles
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A role for the user administrators
  automation.service.ah_role:
    name: galaxy.user_managers
    description: Manage the users of the Hub
    perms:
      - add_user
      - change_user
      - delete_user
      - view_user

- name: A role that holds every permission ansible.hub names
  automation.service.ah_role:
    name: galaxy.everything
    perms: ['*']

- name: Remove the role
  automation.service.ah_role:
    name: galaxy.user_managers
    state: absent
'''

RETURN = r'''
name:
  description: Name of the role.
  returned: when the role exists or existed
  type: str
  sample: galaxy.user_managers
href:
  description: Path of the role in Pulp's API (C(pulp_href)).
  returned: when the role exists or existed (not for a role check mode would create)
  type: str
  sample: /api/galaxy/pulp/api/v3/roles/01a22aaa-bede-71d2-82d9-b2b666235b4b/
type:
  description: The kind of object, V(role).
  returned: when the role exists or existed
  type: str
  sample: role
pulp_href:
  description: The role's path, as the Hub names it.
  returned: with O(state=present), when the role exists
  type: str
  sample: /api/galaxy/pulp/api/v3/roles/01a22aaa-bede-71d2-82d9-b2b666235b4b/
description:
  description: Description of the role.
  returned: with O(state=present)
  type: str
  sample: Manage the users of the Hub
permissions:
  description: The Hub's names of the role's permissions.
  returned: with O(state=present)
  type: list
  elements: str
  sample: [galaxy.add_user, galaxy.view_user]
locked:
  description: Whether the role is one the Hub ships (never true for a role this module made).
  returned: with O(state=present), when the role exists
  type: bool
  sample: false
role:
  description: The role as the Hub returns it (the would-be role in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"name": "galaxy.user_managers", "description": null, "permissions": ["galaxy.view_user"], "locked": false}
'''

from ansible_collections.automation.service.plugins.module_utils._hub_access import ROLE, role_spec

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    description=dict(type='str'),
    perms=dict(type='list', elements='str'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)

SPEC = role_spec(ARGUMENT_SPEC)
run = ROLE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
