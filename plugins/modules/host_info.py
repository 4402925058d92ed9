#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: host_info
short_description: Read hosts of the service
version_added: 0.1.0
description:
  - Reads the hosts of the service that match all the filters given, and returns them as a list (empty when none match).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only hosts with this name.
    type: str
  inventory:
    description:
      - Only hosts of this inventory, by name or id.
    type: str
extends_documentation_fragment:
  - automation.service.info
  - automation.service.auth
  - automation.service.attributes.info_module
'''

EXAMPLES = r'''
- name: The hosts of the Production inventory
  automation.service.host_info:
    inventory: Production
  register: prod

- name: Web hosts anywhere
  automation.service.host_info:
    query:
      name__startswith: web
  register: web
'''

RETURN = r'''
hosts:
  description: The matching hosts, as the service returns them.
  returned: always
  type: list
  elements: dict
  sample: [{"id": 42, "name": "web01.example.com", "inventory": 3, "enabled": true}]
'''

from ansible_collections.automation.service.plugins.module_utils._info import info_spec, read_all, related_filter

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
    inventory=dict(type='str'),
)


def filters(params):
    query = related_filter('inventory', params['inventory'])
    if params['name']:
        query['name'] = params['name']
    return query


def run(api):
    read_all(api, filters(api.params))


SPEC = info_spec('hosts', 'hosts', ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
