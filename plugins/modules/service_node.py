#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: service_node
short_description: Create, update or delete a node of a service cluster behind a platform gateway
version_added: 0.3.0
description:
  - Makes one of the service nodes of a platform gateway match the options given, at its
    C(/api/gateway/v1/service_nodes/). A node is an address the gateway forwards a cluster's traffic to.
  - Takes the options of ansible.platform's C(service_node) module.
author:
  - automation.service maintainers (@automation-service)
options:
  address:
    description:
      - The node's network address (a host name or an IP address), unique among the gateway's nodes. Needed to
        create a node.
    type: str
  service_cluster:
    description:
      - The cluster of the node, by name or id. Needed to create a node.
    type: str
  tags:
    description:
      - Tags of the node, separated by commas; a route whose O(automation.service.route#module:node_tags) name one
        of them sends its traffic to the node.
    type: str
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: A node of the controller's cluster
  automation.service.service_node:
    name: controller-1
    address: controller-1.example.com
    service_cluster: Automation Controller
    tags: primary
'''

RETURN = r'''
id:
  description: Id of the node (of the deleted one with O(state=absent)).
  returned: when the node exists or existed
  type: int
  sample: 5
name:
  description: Name of the node.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: controller-1
service_node:
  description: The node as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 5, "name": "controller-1", "address": "controller-1.example.com", "service_cluster": 4,
           "tags": "primary"}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    address=dict(type='str'),
    service_cluster=dict(type='str'),
    tags=dict(type='str'),
    state=STATE_ENFORCED,
)

RESOURCE = GatewayResource('service_nodes', 'service_node', 'service node', fields=('address', 'tags'),
                           references=('service_cluster',), required_on_create=('address', 'service_cluster'))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
