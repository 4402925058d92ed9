#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: host
short_description: Create, update or delete a host in an inventory
version_added: 0.1.0
description:
  - Makes a host of an inventory of the service match the fields given; fields not given are left alone.
  - An unchanged host costs one request when a session or token is cached.
  - A loop over many hosts of one inventory reads the inventory's hosts as a list once that costs no more than
    reading them one by one (see O(loop_reads)), so an unchanged loop over 1,000 hosts costs a few requests.
  - A plain C(loop) that creates many hosts in one inventory creates them through the service's bulk endpoint,
    100 a request, each item still reporting its own host (C(changed), its C(id)); see O(loop_reads).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the host, unique within its inventory.
    type: str
    required: true
  new_name:
    description:
      - Rename the host to this name. Running the task again after the rename finds the host by this name.
    type: str
  inventory:
    description:
      - The inventory of the host, by name or by numeric id.
    type: str
    required: true
  description:
    description:
      - Description of the host.
    type: str
  enabled:
    description:
      - Whether the host is enabled.
    type: bool
  variables:
    description:
      - Host variables. Compared as data with what the service holds, so formatting differences do not count.
    type: dict
  state:
    description:
      - V(present) creates or updates the host, V(absent) deletes it.
      - V(exists) creates the host when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure web01 is in the Production inventory
  automation.service.host:
    name: web01.example.com
    inventory: Production
    description: Front-end web server
    variables:
      http_port: 8080
    service_url: https://svc.example.com
    service_username: admin
    service_password: "{{ service_admin_password }}"

- name: Rename a host
  automation.service.host:
    name: web01.example.com
    new_name: web01.prod.example.com
    inventory: Production

- name: Remove a host
  automation.service.host:
    name: web01.prod.example.com
    inventory: Production
    state: absent
'''

RETURN = r'''
id:
  description: Id of the host (of the deleted host with O(state=absent)).
  returned: when the host exists or existed
  type: int
  sample: 42
host:
  description: The host as the service returns it (the would-be host in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 42, "name": "web01.example.com", "inventory": 3, "enabled": true, "variables": "{\"http_port\": 8080}"}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    inventory=dict(type='str', required=True),
    description=dict(type='str'),
    enabled=dict(type='bool'),
    variables=dict(type='dict'),
    state=STATE_EXISTS,
)

RESOURCE = Resource(
    'hosts', 'host', 'host',
    scope={'inventory': 'inventories'},
    fields=('description', 'enabled'),
    text_data=('variables',),
    bulk='host_create',
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
