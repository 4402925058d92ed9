#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: inventory
short_description: Create, update or delete an inventory
version_added: 0.1.0
description:
  - Makes an inventory of the service match the fields given; fields not given are left alone.
  - O(variables) are compared as data, so an unchanged set of variables reports no change.
  - Takes the options of awx.awx's C(inventory) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the inventory, unique within its organization.
    type: str
    required: true
  new_name:
    description:
      - A new name for the inventory (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  organization:
    description:
      - The organization of the inventory, by name or numeric id. Required to create an inventory; without it an
        existing inventory is found by name alone.
    type: str
  description:
    description:
      - Description of the inventory.
    type: str
  variables:
    description:
      - Inventory variables, compared as data with what the service holds.
    type: dict
  kind:
    description:
      - The kind of inventory, set when it is created; V('') holds hosts of its own, V(smart) the hosts of the
        organization that O(host_filter) matches, V(constructed) is built from O(input_inventories).
      - Asking for another kind than an existing inventory's fails before any change (the service keeps it).
    type: str
    choices: ['', smart, constructed]
  host_filter:
    description:
      - For a smart inventory, the filter its hosts are matched with (for example V(name__startswith=web)).
    type: str
  instance_groups:
    description:
      - The instance groups the inventory's jobs prefer, by name or id, in the order they are tried. The list given
        replaces the inventory's list, order included; V([]) empties it.
    type: list
    elements: str
  prevent_instance_group_fallback:
    description:
      - With V(true), the jobs run only on the inventory's O(instance_groups), never on the organization's.
    type: bool
  input_inventories:
    description:
      - For a constructed inventory, the inventories it is built from, by name or id, in order. The list given replaces
        the inventory's list, order included.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the inventory, V(absent) deletes it. The service removes a deleted inventory
        in the background and lists it meanwhile, pending deletion; V(absent) takes such an inventory as gone.
      - V(exists) creates the inventory when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - O(input_inventories) is applied whenever it is given; awx.awx applies it only together with O(kind=constructed).
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.copy_from
'''

EXAMPLES = r'''
- name: Make sure the Production inventory exists
  automation.service.inventory:
    name: Production
    organization: Default
    description: Production servers
    variables:
      env: prod
    instance_groups: [fast, default]

- name: A smart inventory of the web servers
  automation.service.inventory:
    name: Web servers
    organization: Default
    kind: smart
    host_filter: name__startswith=web

- name: A constructed inventory of two others
  automation.service.inventory:
    name: Everything
    organization: Default
    kind: constructed
    input_inventories: [Production, Staging]

- name: Remove an inventory
  automation.service.inventory:
    name: Staging
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the inventory (of the deleted inventory with O(state=absent)).
  returned: when the inventory exists or existed
  type: int
  sample: 3
inventory:
  description: The inventory as the service returns it (the would-be inventory in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 3, "name": "Production", "organization": 1, "kind": "", "variables": "{\"env\": \"prod\"}"}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    copy_from=dict(type='str'),
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    organization=dict(type='str'),
    description=dict(type='str'),
    variables=dict(type='dict'),
    kind=dict(type='str', choices=['', 'smart', 'constructed']),
    host_filter=dict(type='str'),
    instance_groups=dict(type='list', elements='str'),
    prevent_instance_group_fallback=dict(type='bool'),
    input_inventories=dict(type='list', elements='str'),
    state=STATE_EXISTS,
)


class InventoryResource(Resource):
    def find(self, api):
        existing = Resource.find(self, api)
        # A deleted inventory stays listed, pending deletion, until the service's background task
        # removes it (its DELETE answers 400 then): to state absent it is gone already.
        if existing is not None and existing.get('pending_deletion') and api.params.get('state') == 'absent':
            return None
        return existing


RESOURCE = InventoryResource(
    'inventories', 'inventory', 'inventory',
    scope={'organization': 'organizations'},
    fields=('description', 'host_filter', 'prevent_instance_group_fallback'),
    create_only=('kind',),
    text_data=('variables',),
    associations={'instance_groups': ('instance_groups', 'instance_groups'),
                  'input_inventories': ('input_inventories', 'inventories')},
    ordered=('instance_groups', 'input_inventories'),
    required_on_create=('organization',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
