#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: instance
short_description: Add an execution or hop node, or change an instance
version_added: 0.2.0
description:
  - Finds the instance (a node of the service's mesh) by O(hostname) and makes it match the fields given; fields not
    given are left alone. An instance that does not exist yet is added.
  - Only execution and hop nodes can be added, and the service adds them only when it runs on Kubernetes or
    OpenShift; elsewhere the task fails with the service's message.
  - Takes the options of awx.awx's C(instance) module.
author:
  - automation.service maintainers (@automation-service)
notes:
  - The service has no way to delete an instance through its API. To take a node out of the mesh, set
    O(node_state=deprovisioning). There is no C(state) option, as in awx.awx.
  - The service does not let an instance's host name or node type change, nor its listener port once set. An
    option left out and one given as V(null) are alike here, so this module does not remove a listener port.
  - The service refuses to deprovision, or to change the listener port or peers of, the nodes it manages itself.
  - O(capacity_adjustment) is compared to two decimals, as the service keeps it.
options:
  hostname:
    description:
      - Host name of the instance, its name in the mesh.
    type: str
    required: true
  capacity_adjustment:
    description:
      - Where the instance's capacity sits between the one its memory allows (V(0)) and the one its CPUs allow (V(1)).
    type: float
  enabled:
    description:
      - Whether the instance takes jobs.
    type: bool
  managed_by_policy:
    description:
      - Whether the instance groups' policies put the instance in groups automatically.
    type: bool
  node_type:
    description:
      - The role of a new instance in the mesh. It cannot change once the instance exists.
    type: str
    choices: [execution, hop]
  node_state:
    description:
      - V(installed) for a node that is set up, V(deprovisioning) to take it out of the mesh.
    type: str
    choices: [deprovisioning, installed]
  listener_port:
    description:
      - The port the instance's receptor listens on for other nodes.
    type: int
  peers:
    description:
      - The receptor addresses the instance connects to, each by id or by address (an instance's address is its
        host name). The list given replaces the instance's peers; V([]) removes them all.
    type: list
    elements: str
  peers_from_control_nodes:
    description:
      - Whether the control nodes connect to this instance by themselves. Needs a listener port.
    type: bool
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A hop node that control nodes connect to
  automation.service.instance:
    hostname: hop1.example.com
    node_type: hop
    listener_port: 27199
    peers_from_control_nodes: true

- name: An execution node behind the hop node
  automation.service.instance:
    hostname: exec1.example.com
    node_type: execution
    peers:
      - hop1.example.com

- name: Lower its capacity
  automation.service.instance:
    hostname: exec1.example.com
    capacity_adjustment: 0.4

- name: Take it out of the mesh
  automation.service.instance:
    hostname: exec1.example.com
    node_state: deprovisioning
'''

RETURN = r'''
id:
  description: Id of the instance.
  returned: always, except in check mode for an instance that does not exist yet
  type: int
  sample: 3
instance:
  description: The instance as the service returns it (the would-be one in check mode).
  returned: always
  type: dict
  sample: {"id": 3, "hostname": "exec1.example.com", "node_type": "execution", "node_state": "installed",
           "capacity_adjustment": "0.40", "enabled": true, "peers": [1], "listener_port": null}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._resource import Resource

ARGUMENT_SPEC = dict(
    hostname=dict(type='str', required=True),
    capacity_adjustment=dict(type='float'),
    enabled=dict(type='bool'),
    managed_by_policy=dict(type='bool'),
    node_type=dict(type='str', choices=['execution', 'hop']),
    node_state=dict(type='str', choices=['deprovisioning', 'installed']),
    listener_port=dict(type='int'),
    peers=dict(type='list', elements='str'),
    peers_from_control_nodes=dict(type='bool'),
)
FIELDS = ('capacity_adjustment', 'enabled', 'managed_by_policy', 'node_type', 'node_state', 'listener_port',
          'peers_from_control_nodes')


def two_decimals(value):
    return None if value in (None, '') else round(float(value), 2)


def id_set(value):
    return sorted(set(int(item) for item in value or []))


NORMALIZE = {'capacity_adjustment': two_decimals, 'peers': id_set}


# Not Resource.run: an instance is found by host name, never deleted here, and its peers are receptor
# addresses compared as a set.
def run(api):
    params = api.params
    existing = api.get_one('instances', hostname=params['hostname'])
    desired = dict((key, params[key]) for key in FIELDS if params[key] is not None)
    desired['hostname'] = params['hostname']
    if params['peers'] is not None:
        # A peer is a receptor address, by id or by address (an instance's is its host name).
        desired['peers'] = sorted(set(Resource.reference_id(api, None, 'peers', 'receptor_addresses', value, 'address',
                                                            'receptor address') for value in params['peers'] if value))
    api.ensure_present(existing, desired, normalize=NORMALIZE)


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='instances', result_key='instance')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
