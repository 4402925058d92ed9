#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: bulk_host_create
short_description: Add many hosts to an inventory in few requests
version_added: 0.1.0
description:
  - Adds the hosts to an inventory with the service's bulk action (C(/api/v2/bulk/host_create/)),
    one request for up to 100 hosts (the service's default C(BULK_HOST_MAX_CREATE), over which it refuses a request;
    awx.awx sends every host in one request, so more than 100 fail there).
  - Hosts of the inventory that already have one of the names are left out (one filtered read before the
    request), so running the task again reports no change. Such hosts are not updated; use
    M(automation.service.host) to change a host.
  - Each request is sent once and never retried once it may have reached the service. When one is refused, the task
    fails and the hosts of the requests before it stay created; running the task again leaves them out.
author:
  - automation.service maintainers (@automation-service)
options:
  hosts:
    description:
      - The hosts to add.
    type: list
    elements: dict
    required: true
    suboptions:
      name:
        description: Name of the host, unique in the inventory.
        type: str
        required: true
      description:
        description: Description of the host.
        type: str
      enabled:
        description: Whether the host is enabled (the service's default is V(true)).
        type: bool
      instance_id:
        description: The host's id in a remote inventory source.
        type: str
      variables:
        description: Host variables, as a mapping or as JSON or YAML text.
        type: raw
  inventory:
    description:
      - The inventory to add the hosts to, by name or numeric id. It must be a regular inventory
        (not smart or constructed).
    type: str
    required: true
  organization:
    description:
      - Organization of the inventory, by name or numeric id, when its name is not unique.
    type: str
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Reads which hosts exist and reports which would be added; adds none.
    support: full
  diff_mode:
    description: Shows the names of the requested hosts that existed before and all of them after.
    support: full
notes:
  - The service limits how many hosts one request may add (its setting C(BULK_HOST_MAX_CREATE), 100 unless
    changed, in the C(bulk) settings category); a longer list fails with the service's message.
  - The hosts are added all at once or not at all.
seealso:
  - module: automation.service.bulk_host_delete
  - module: automation.service.host
'''

EXAMPLES = r'''
- name: Add the web servers
  automation.service.bulk_host_create:
    inventory: Production
    organization: Default
    hosts:
      - name: web01.example.com
        variables:
          http_port: 8080
      - name: web02.example.com
        enabled: false
        description: Kept out of rotation
'''

RETURN = r'''
inventory:
  description: Id of the inventory.
  returned: always
  type: int
  sample: 3
hosts:
  description: The hosts added, as the service answers them (empty when all existed; not returned in check mode).
  returned: success
  type: list
  elements: dict
  sample: [{"id": 12, "name": "web01.example.com", "enabled": true, "instance_id": "", "description": "",
            "variables": "{\"http_port\": 8080}", "url": "/api/v2/hosts/12/", "inventory": "/api/v2/inventories/3/"}]
created:
  description: Names of the hosts added (in check mode, that would be added).
  returned: always
  type: list
  elements: str
  sample: [web01.example.com, web02.example.com]
existing:
  description: Names of the requested hosts the inventory already had; they were left as they are.
  returned: always
  type: list
  elements: str
  sample: []
'''

import json

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan
from ansible_collections.automation.service.plugins.module_utils import _bulk

HOST_FIELDS = ('name', 'description', 'enabled', 'instance_id', 'variables')
# Hosts per request: the service's default BULK_HOST_MAX_CREATE (AWX 24), which refuses a request of more.
BATCH = 100
ARGUMENT_SPEC = dict(
    hosts=dict(type='list', elements='dict', required=True, options=dict(
        name=dict(type='str', required=True),
        description=dict(type='str'),
        enabled=dict(type='bool'),
        instance_id=dict(type='str'),
        variables=dict(type='raw'),
    )),
    inventory=dict(type='str', required=True),
    organization=dict(type='str'),
)


def host_body(host):
    body = dict((key, host[key]) for key in HOST_FIELDS if host.get(key) is not None)
    if isinstance(body.get('variables'), dict):
        body['variables'] = json.dumps(body['variables'])
    elif 'variables' in body and not isinstance(body['variables'], str):
        raise ConfigError('Host %r: variables must be a mapping or JSON or YAML text.' % host['name'])
    return body


def run(api):
    params = api.params
    names = [host['name'] for host in params['hosts']]
    twice = sorted(set(name for name in names if names.count(name) > 1))
    if twice:
        raise ConfigError('These host names are given more than once: %s.' % ', '.join(twice))
    org_id = api.resolve_id('organizations', params['organization'], 'organization')
    inv_id = api.resolve_id('inventories', params['inventory'], 'inventory', organization=org_id)
    bodies = [host_body(host) for host in params['hosts']]
    existing = _bulk.hosts_by_name(api.client, inv_id, names)
    wanted = [body for body in bodies if body['name'] not in existing]
    api.returns(inventory=inv_id, created=[body['name'] for body in wanted],
                existing=[name for name in names if name in existing])
    if not api.check_mode:
        api.returns(hosts=[])
    if not wanted:
        return
    made = []
    writes = []
    for start in range(0, len(wanted), BATCH):
        write = _bulk.write('host_create', dict(inventory=inv_id, hosts=wanted[start:start + BATCH]), 'host creation',
                            'look at the hosts of inventory %d first, then run the task again: hosts that exist are '
                            'left out.' % inv_id)
        write.then = lambda answer: made.extend((answer or {}).get('hosts') or []) or []
        writes.append(write)
    writes[0].before, writes[0].after = dict(hosts=sorted(existing)), dict(hosts=sorted(names))
    api.apply(Plan(None, writes))
    if not api.check_mode:
        api.returns(hosts=made)


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='hosts')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
