#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: role_definition
short_description: Create, update or delete a custom role definition
version_added: 0.2.0
description:
  - Makes a role definition of the service (C(/api/v2/role_definitions/)) hold the permissions given, for one type
    of object. Users and teams receive a role definition on an object with
    M(automation.service.role_user_assignment) and M(automation.service.role_team_assignment).
  - Permissions are compared as a set, so their order does not matter, and a permission may be given with or
    without its prefix (V(view_jobtemplate) is V(awx.view_jobtemplate)).
  - Takes the options of awx.awx's C(role_definition) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the role definition, unique on the service.
    type: str
    required: true
  new_name:
    description:
      - A new name for the role definition (found by O(name), or by O(new_name) when it was already renamed).
      - Taken from ansible.platform's C(role_definition) module.
    type: str
  permissions:
    description:
      - The permissions the role definition conveys, such as V(awx.view_jobtemplate) and
        V(awx.execute_jobtemplate). The list replaces the permissions of an existing role definition.
      - Needed to create a role definition; left as they are when not given.
      - A role definition of an organization (O(content_type=shared.organization)) may hold permissions on the
        objects inside the organization too (V(awx.view_inventory), ...).
    type: list
    elements: str
  content_type:
    description:
      - The type of object the role definition applies to, such as V(awx.jobtemplate), V(awx.inventory) or
        V(shared.organization) (the prefix may be left out).
      - Needed to create a role definition. The service cannot change the type of an existing one.
    type: str
  description:
    description:
      - Description of the role definition. Left as it is when not given.
    type: str
  state:
    description:
      - V(present) creates or updates the role definition, V(absent) deletes it (with the assignments made of it).
      - V(exists) (ansible.platform's) only checks that the role definition is there, and fails when it is not; it
        changes nothing.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - In awx.awx, O(permissions) and O(content_type) are required even to delete, and a missing O(description) empties
    the description. Here they are needed only to create, and what is not given stays as it is.
  - The service refuses to change or delete the role definitions it manages itself (such as C(JobTemplate Execute));
    the task then fails with the service's message.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A role that may see and run one job template
  automation.service.role_definition:
    name: Launch JT
    description: View and run a job template
    content_type: awx.jobtemplate
    permissions:
      - awx.view_jobtemplate
      - awx.execute_jobtemplate

- name: Give it to a user on a job template
  automation.service.role_user_assignment:
    role_definition: Launch JT
    user: alice
    object_id: 12

- name: Remove the role definition
  automation.service.role_definition:
    name: Launch JT
    state: absent
'''

RETURN = r'''
id:
  description: Id of the role definition (of the deleted one with O(state=absent)).
  returned: when the role definition exists or existed
  type: int
  sample: 42
role_definition:
  description: The role definition as the service returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 42, "name": "Launch JT", "content_type": "awx.jobtemplate", "managed": false,
           "permissions": ["awx.execute_jobtemplate", "awx.view_jobtemplate"]}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    permissions=dict(type='list', elements='str'),
    content_type=dict(type='str'),
    description=dict(type='str'),
    # exists: ansible.platform's (the role definition is checked, never made); awx.awx's module has no exists.
    state=dict(STATE, choices=STATE['choices'] + ['exists']),
)

# The service's two applications: organizations and teams are shared, every other type is awx's.
SHARED_MODELS = ('organization', 'team')


def content_type(value):
    """``jobtemplate`` -> ``awx.jobtemplate``; a value with its prefix stays as it is."""
    if not value or '.' in value:
        return value
    return ('shared.' if value in SHARED_MODELS else 'awx.') + value


def permission(value):
    """``view_jobtemplate`` -> ``awx.view_jobtemplate``; ``member_organization`` -> ``shared.member_organization``."""
    if '.' in value:
        return value
    return ('shared.' if value.rsplit('_', 1)[-1] in SHARED_MODELS else 'awx.') + value


def permission_set(values):
    return sorted(set(permission(value) for value in values or []))


def adjust(params):
    """The type and the permissions as the service names them."""
    read = {'content_type': content_type(params['content_type'])}
    if params['permissions'] is not None:
        read['permissions'] = permission_set(params['permissions'])
    return read


RESOURCE = Resource(
    'role_definitions', 'role_definition', 'role definition',
    fields=('description', 'permissions'),
    # The service cannot change the type of a role definition: delete it and create it again.
    create_only=('content_type',),
    compared_as={'permissions': permission_set},
    required_on_create=('permissions', 'content_type'),
    exists_checks=True,     # ansible.platform's state: exists
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC, adjust=adjust)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
