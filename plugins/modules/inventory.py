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
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the inventory, unique within its organization.
    type: str
    required: true
  organization:
    description:
      - The organization of the inventory, by name or numeric id. Required to create an inventory.
    type: str
  description:
    description:
      - Description of the inventory.
    type: str
  variables:
    description:
      - Inventory variables, compared as data with what the service holds.
    type: dict
  state:
    description:
      - V(present) creates or updates the inventory, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure the Production inventory exists
  automation.service.inventory:
    name: Production
    organization: Default
    description: Production servers
    variables:
      env: prod

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
  returned: with O(state=present)
  type: dict
  sample: {"id": 3, "name": "Production", "organization": 1, "variables": "{\"env\": \"prod\"}"}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import (
    ModuleSpec, dump_variables, is_id, parse_variables,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    organization=dict(type='str'),
    description=dict(type='str'),
    variables=dict(type='dict'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)


def organization_filter(organization):
    if organization is None:
        return {}
    return {'organization': int(organization)} if is_id(organization) else {'organization__name': organization}


def run(api):
    params = api.params
    existing = api.get_one('inventories', name=params['name'], **organization_filter(params['organization']))
    if params['state'] == 'absent':
        api.ensure_absent(existing)
    else:
        if existing is None and not params['organization']:
            raise ConfigError('organization is required to create inventory %s.' % params['name'])
        desired = dict((key, params[key]) for key in ('description', 'variables') if params[key] is not None)
        desired['name'] = params['name']
        api.ensure_present(
            existing, desired,
            create=lambda: {'organization': api.resolve_id('organizations', params['organization'],
                                                           'organization')},
            normalize={'variables': parse_variables},
            encode={'variables': dump_variables},
        )


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='inventories', result_key='inventory')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
