#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: route
short_description: Create, update or delete a route of a platform gateway
version_added: 0.3.0
description:
  - Makes one of the routes of a platform gateway match the options given, at its C(/api/gateway/v1/routes/). A
    route forwards what the gateway receives under a path of one of its ports to a path of a service cluster; the
    APIs of the platform's services are M(automation.service.service)s instead.
  - Takes the options of ansible.platform's C(route) module.
author:
  - automation.service maintainers (@automation-service)
options:
  gateway_path:
    description:
      - The path at the gateway the route takes traffic from, unique among its routes. Needed to create a route.
    type: str
  description:
    description:
      - A description of the route.
    type: str
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.gateway_routing.traffic
  - automation.service.gateway_routing.forwarded
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: The metrics of the controller's nodes, at the gateway
  automation.service.route:
    name: Controller metrics
    gateway_path: /metrics/controller/
    http_port: Public HTTPS
    service_cluster: Automation Controller
    service_path: /api/v2/metrics/
    service_port: 8052
    is_service_https: false
'''

RETURN = r'''
id:
  description: Id of the route (of the deleted one with O(state=absent)).
  returned: when the route exists or existed
  type: int
  sample: 8
name:
  description: Name of the route.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Controller metrics
route:
  description: The route as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 8, "name": "Controller metrics", "gateway_path": "/metrics/controller/", "http_port": 3,
           "service_cluster": 4, "service_path": "/api/v2/metrics/", "service_port": 8052, "is_service_https": false,
           "enable_gateway_auth": true, "is_internal_route": false, "node_tags": ""}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import FORWARDED, GatewayResource, SINCE_2_7, TIMEOUTS, TRAFFIC
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    gateway_path=dict(type='str'),
    state=STATE_ENFORCED,
    **dict(TRAFFIC, **FORWARDED)
)

RESOURCE = GatewayResource('routes', 'route', 'route',
                           fields=('description', 'gateway_path', 'is_service_https', 'enable_gateway_auth', 'is_internal_route',
                                   'enable_mtls', 'service_path', 'service_port', 'node_tags') + TIMEOUTS,
                           references=('http_port', 'service_cluster'), since=SINCE_2_7,
                           required_on_create=('gateway_path', 'http_port', 'service_cluster', 'service_path', 'service_port'))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
