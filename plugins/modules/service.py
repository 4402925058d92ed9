#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: service
short_description: Create, update or delete the API route of a service behind a platform gateway
version_added: 0.3.0
description:
  - Makes one of the services of a platform gateway match the options given, at its C(/api/gateway/v1/services/).
    A service is the route of a service's API, C(/api/<api_slug>/) at the gateway (the controller's is
    C(/api/controller/)), to a path of a service cluster.
  - Takes the options of ansible.platform's C(service) module.
author:
  - automation.service maintainers (@automation-service)
options:
  api_slug:
    description:
      - The part of the service's path at the gateway after C(/api/), for example C(controller), C(galaxy) or C(eda).
        The gateway's own API is C(gateway).
    type: str
  description:
    description:
      - A description of the service.
    type: str
  order:
    description:
      - The order in which the gateway matches its services, lowest first (those of the same order in no set
        order). The gateway's default for a new service is 50.
    type: int
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.gateway_routing.traffic
  - automation.service.gateway_routing.forwarded
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: The controller's API
  automation.service.service:
    name: Controller API
    api_slug: controller
    http_port: Public HTTPS
    service_cluster: Automation Controller
    service_path: /api/controller/
    service_port: 8052
'''

RETURN = r'''
id:
  description: Id of the service (of the deleted one with O(state=absent)).
  returned: when the service exists or existed
  type: int
  sample: 9
name:
  description: Name of the service.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Controller API
service:
  description: The service as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 9, "name": "Controller API", "api_slug": "controller", "gateway_path": "/api/controller/",
           "http_port": 3, "service_cluster": 4, "service_path": "/api/controller/", "service_port": 8052,
           "order": 50}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import FORWARDED, GatewayResource, SINCE_2_7, TIMEOUTS, TRAFFIC
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    api_slug=dict(type='str'),
    order=dict(type='int'),
    state=STATE_ENFORCED,
    **dict(TRAFFIC, **FORWARDED)
)

RESOURCE = GatewayResource('services', 'service', 'service',
                           fields=('description', 'api_slug', 'is_service_https', 'enable_gateway_auth', 'is_internal_route',
                                   'enable_mtls', 'service_path', 'service_port', 'node_tags', 'order') + TIMEOUTS,
                           references=('http_port', 'service_cluster'), since=SINCE_2_7,
                           required_on_create=('http_port', 'service_cluster', 'service_path', 'service_port'))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
