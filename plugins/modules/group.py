#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: group
short_description: Create, update or delete a group of an inventory
version_added: 0.2.0
description:
  - Makes a group of an inventory of the service match the fields given; fields not given are left alone.
  - O(variables) are compared as data, so an unchanged set of variables reports no change.
  - Takes the options of awx.awx's C(group) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the group, unique within its inventory.
    type: str
    required: true
  new_name:
    description:
      - A new name for the group (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the group.
    type: str
  inventory:
    description:
      - The inventory of the group, by name or id.
    type: str
    required: true
  variables:
    description:
      - Group variables, compared as data with what the service holds.
    type: dict
  hosts:
    description:
      - The hosts of the group, by name or id, in the same inventory. The list given replaces the group's hosts
        unless O(preserve_existing_hosts) is true; V([]) empties it.
    type: list
    elements: str
  children:
    description:
      - The groups nested in this group, by name or id, in the same inventory. The list given replaces the
        group's children unless O(preserve_existing_children) is true; V([]) empties it.
    type: list
    elements: str
    aliases: [groups]
  preserve_existing_hosts:
    description:
      - With V(true), the hosts of O(hosts) are added and the group's other hosts stay.
    type: bool
    default: false
  preserve_existing_children:
    description:
      - With V(true), the groups of O(children) are added and the group's other children stay.
    type: bool
    default: false
    aliases: [preserve_existing_groups]
  state:
    description:
      - V(present) creates or updates the group, V(absent) deletes it.
      - V(exists) creates the group when it is missing and leaves a group found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - O(state=present) with only O(name) and O(inventory) creates the group when it is missing and changes nothing
    when it is there.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: The web servers of the Production inventory
  automation.service.group:
    name: web
    inventory: Production
    variables:
      http_port: 8080
    hosts:
      - web01.example.com
      - web02.example.com

- name: Nest the web group in a frontend group, keeping its other children
  automation.service.group:
    name: frontend
    inventory: Production
    children: [web]
    preserve_existing_children: true

- name: Remove a group
  automation.service.group:
    name: frontend
    inventory: Production
    state: absent
'''

RETURN = r'''
id:
  description: Id of the group (of the deleted group with O(state=absent)).
  returned: when the group exists or existed
  type: int
  sample: 12
group:
  description: The group as the service returns it (the would-be group in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 12, "name": "web", "inventory": 3, "variables": "{\"http_port\": 8080}"}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    inventory=dict(type='str', required=True),
    variables=dict(type='dict'),
    hosts=dict(type='list', elements='str'),
    children=dict(type='list', elements='str', aliases=['groups']),
    preserve_existing_hosts=dict(type='bool', default=False),
    preserve_existing_children=dict(type='bool', default=False, aliases=['preserve_existing_groups']),
    state=STATE_EXISTS,
)

RESOURCE = Resource(
    'groups', 'group', 'group',
    scope={'inventory': 'inventories'},
    fields=('description',),
    text_data=('variables',),
    associations={'hosts': ('hosts', 'hosts'), 'children': ('children', 'groups')},
    scoped_associations=('hosts', 'children'),
    preserve={'hosts': 'preserve_existing_hosts', 'children': 'preserve_existing_children'},
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
