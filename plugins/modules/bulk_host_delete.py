#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: bulk_host_delete
short_description: Delete many hosts in one request
version_added: 0.1.0
description:
  - Deletes hosts with the service's bulk action (C(/api/v2/bulk/host_delete/)), one request for all of them.
  - Hosts that do not exist (any more) are left out, so running the task again reports no change;
    when none is left, nothing is sent.
  - The request is sent once and never retried once it may have reached the service.
author:
  - automation.service maintainers (@automation-service)
options:
  hosts:
    description:
      - The hosts to delete, by numeric id; or by name, together with O(inventory).
    type: list
    elements: str
    required: true
  inventory:
    description:
      - Inventory of the hosts, by name or numeric id. Needed to name hosts by name; when given, a host id
        of another inventory is refused.
    type: str
  organization:
    description:
      - Organization of the inventory, by name or numeric id, when its name is not unique.
    type: str
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Reads which of the hosts exist and reports which would be deleted; deletes none.
    support: full
  diff_mode:
    description: Shows the names of the hosts before and none after.
    support: full
notes:
  - The service limits how many hosts one request may delete (its setting C(BULK_HOST_MAX_DELETE), 250 unless
    changed, in the C(bulk) settings category); a longer list fails with the service's message.
  - Unlike awx.awx's module, O(inventory) is optional (the service deletes hosts by id alone), and hosts that are
    already gone are no change rather than an error.
  - Hosts are looked up as the connecting user sees them, so a host that user may not see counts as gone too (no
    change, nothing sent for it).
seealso:
  - module: automation.service.bulk_host_create
  - module: automation.service.host
'''

EXAMPLES = r'''
- name: Delete hosts by id
  automation.service.bulk_host_delete:
    hosts: [12, 13, 27]

- name: Delete hosts of an inventory by name
  automation.service.bulk_host_delete:
    inventory: Production
    hosts:
      - web01.example.com
      - web02.example.com
'''

RETURN = r'''
deleted:
  description: Ids of the hosts deleted (in check mode, that would be deleted).
  returned: always
  type: list
  elements: int
  sample: [12, 13]
hosts:
  description: The service's answer, a message per deleted host id (not returned in check mode).
  returned: success
  type: dict
  sample: {"12": "The host web01.example.com was deleted"}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec, is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan
from ansible_collections.automation.service.plugins.module_utils import _bulk

ARGUMENT_SPEC = dict(
    hosts=dict(type='list', elements='str', required=True),
    inventory=dict(type='str'),
    organization=dict(type='str'),
)


def run(api):
    params = api.params
    ids = [int(h) for h in params['hosts'] if is_id(h)]
    names = [h for h in params['hosts'] if not is_id(h)]
    inv_id = None
    if params['inventory'] is not None:
        org_id = api.resolve_id('organizations', params['organization'], 'organization')
        inv_id = api.resolve_id('inventories', params['inventory'], 'inventory', organization=org_id)
    elif names:
        raise ConfigError('Hosts named by name (%s) need inventory.' % ', '.join(names))
    found = _bulk.hosts_by_id(api.client, ids) if ids else {}
    if inv_id is not None:
        elsewhere = sorted(h for h, host in found.items() if host.get('inventory') != inv_id)
        if elsewhere:
            raise ConfigError('Not in inventory %d: host %s. Leave inventory out, or these ids.'
                              % (inv_id, ', '.join(str(h) for h in elsewhere)))
        found.update((host['id'], host) for host in _bulk.hosts_by_name(api.client, inv_id, names).values())
    doomed = sorted(found)
    api.returns(deleted=doomed)
    if not api.check_mode:
        api.returns(hosts={})
    if not doomed:
        return
    write = _bulk.write('host_delete', dict(hosts=doomed), 'host deletion',
                        'run the task again, it leaves out hosts that are gone.')
    write.before, write.after = dict(hosts=sorted(found[h]['name'] for h in doomed)), dict(hosts=[])
    answer = api.apply(Plan(None, [write]))
    if not api.check_mode:
        api.returns(hosts=answer.get('hosts', {}))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='hosts')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
