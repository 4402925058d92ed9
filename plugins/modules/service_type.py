#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: service_type
short_description: Create, update or delete a kind of service behind a platform gateway
version_added: 0.3.0
description:
  - Makes one of the service types of a platform gateway match the options given, at its
    C(/api/gateway/v1/service_types/). A service type says where the gateway pings, logs in to and out of the
    services of its clusters, and where it reads their resources.
  - Takes the options of ansible.platform's C(service_type) module.
author:
  - automation.service maintainers (@automation-service)
options:
  ping_url:
    description:
      - The path of the services' ping (status) API, for example C(/api/ping/).
    type: str
  login_path:
    description:
      - The path of the services' login.
    type: str
  logout_path:
    description:
      - The path of the services' logout.
    type: str
  service_index_path:
    description:
      - The path of the services' resource index (the gateway reads their resources there).
    type: str
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: A controller-like kind of service
  automation.service.service_type:
    name: controller
    ping_url: /api/controller/v2/ping/
    login_path: /api/controller/login/
    logout_path: /api/controller/logout/
    service_index_path: /api/controller/v2/service-index/
'''

RETURN = r'''
id:
  description: Id of the service type (of the deleted one with O(state=absent)).
  returned: when the service type exists or existed
  type: int
  sample: 2
name:
  description: Name of the service type.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: controller
service_type:
  description: The service type as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 2, "name": "controller", "ping_url": "/api/controller/v2/ping/", "login_path": "/api/controller/login/",
           "logout_path": "/api/controller/logout/", "service_index_path": "/api/controller/v2/service-index/"}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    ping_url=dict(type='str'),
    login_path=dict(type='str'),
    logout_path=dict(type='str'),
    service_index_path=dict(type='str'),
    state=STATE_ENFORCED,
)

RESOURCE = GatewayResource('service_types', 'service_type', 'service type',
                           fields=('ping_url', 'login_path', 'logout_path', 'service_index_path'))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
