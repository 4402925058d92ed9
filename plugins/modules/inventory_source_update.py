#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: inventory_source_update
short_description: Update an inventory source (sync its hosts and groups), and optionally wait for it
version_added: 0.1.0
description:
  - Starts an update of an inventory source (the service reads the source again and brings its hosts
    and groups into the source's inventory), and optionally waits for it to finish.
  - The update request is sent once and never retried once it may have reached the service. When the
    connection breaks after it was sent, the module fails and says how to find out whether the update started.
  - A source the service cannot update (source C(file), or C(scm) without a project) makes the module fail saying so.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The inventory source to update, by name or numeric id.
    type: str
    required: true
    aliases: [inventory_source]
  inventory:
    description:
      - The inventory of the source, by name or numeric id.
    type: str
    required: true
  organization:
    description:
      - Organization of the inventory, by name or numeric id, to find it when several organizations have
        an inventory of that name.
    type: str
  wait:
    description:
      - Wait for the update to finish; fail when it does not succeed.
    type: bool
    default: false
  interval:
    description:
      - With O(wait), seconds between two polls of the update's status.
    type: float
    default: 2
  timeout:
    description:
      - With O(wait), how many seconds to wait at most. The module then fails, saying the update is still
        running and its id; the update goes on. Without it, waits as long as the update runs.
    type: int
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Finds the inventory source and checks that it can be updated; starts nothing.
    support: full
  diff_mode:
    description: An update has no before and after.
    support: none
notes:
  - An update always reports C(changed).
seealso:
  - module: automation.service.inventory_source
  - module: automation.service.project_update
'''

EXAMPLES = r'''
- name: Update one inventory source and wait for it
  automation.service.inventory_source_update:
    name: Servers from git
    inventory: Production
    organization: Default
    wait: true
    timeout: 300

- name: Update every source of an inventory
  automation.service.inventory_source_update:
    name: "{{ item }}"
    inventory: Production
  loop: "{{ query('automation.service.controller_api', 'inventory_sources', query_params={'inventory': 30}, return_ids=true) }}"
'''

RETURN = r'''
id:
  description: Id of the inventory update.
  returned: success, except in check mode
  type: int
  sample: 86
status:
  description: Status of the update (its final status when the module waited).
  returned: success, except in check mode
  type: str
  sample: pending
elapsed:
  description: Seconds the update ran.
  returned: when the module waited
  type: float
  sample: 2.4
started:
  description: When the update started.
  returned: when the module waited
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the update finished.
  returned: when the module waited
  type: str
  sample: "2024-05-01T10:00:02.523456Z"
stdout:
  description: The last lines of the update's output.
  returned: when the module waited and the update finished
  type: str
  sample: "Loaded 3 hosts and 2 groups into inventory 'Production'"
inventory_source:
  description: Id of the inventory source.
  returned: success
  type: int
  sample: 30
inventory_update:
  description: The inventory update as the service returns it.
  returned: success, except in check mode
  type: dict
  sample: {"id": 86, "status": "successful", "inventory_source": 30, "inventory": 4}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils import _jobs

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True, aliases=['inventory_source']),
    inventory=dict(type='str', required=True),
    organization=dict(type='str'),
    wait=dict(type='bool', default=False),
    interval=dict(type='float', default=2.0),
    timeout=dict(type='int'),
)


def run(api):
    params = api.params
    org_id = api.resolve_id('organizations', params['organization'], 'organization')
    inventory_id = api.resolve_id('inventories', params['inventory'], 'inventory', organization=org_id)
    source_id = api.resolve_id('inventory_sources', params['name'], 'inventory source', inventory=inventory_id)
    source = api.get_one('inventory_sources', id=source_id, inventory=inventory_id)
    if source is None:
        raise NotFound('inventory source %r was not found in inventory %r.' % (params['name'], params['inventory']))
    api.returns(inventory_source=source_id)
    what = 'Inventory source %r has source %r%s: it' % (
        source['name'], source.get('source'), ' and no source_project' if source.get('source') == 'scm' else '')
    _jobs.run_update(api, 'inventory_sources/%d/update' % source_id, _jobs.INVENTORY_UPDATE,
                     'inventory_sources/%d/inventory_updates/' % source_id, what)


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='inventory_updates', result_key='inventory_update')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
