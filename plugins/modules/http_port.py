#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: http_port
short_description: Create, update or delete a port a platform gateway listens on
version_added: 0.3.0
description:
  - Makes one of the ports of a platform gateway match the options given, at its C(/api/gateway/v1/http_ports/).
    Routes and services are served on a port.
  - Takes the options of ansible.platform's C(http_port) module.
author:
  - automation.service maintainers (@automation-service)
options:
  number:
    description:
      - The port number, unique among the gateway's ports. Needed to create a port.
    type: int
  use_https:
    description:
      - Whether the gateway serves the port over HTTPS.
    type: bool
    default: false
  is_api_port:
    description:
      - Whether the gateway serves the platform's APIs on this port; one port at most is.
    type: bool
    default: false
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: The gateway listens on 8443, over HTTPS
  automation.service.http_port:
    name: Public HTTPS
    number: 8443
    use_https: true

- name: Remove a port
  automation.service.http_port:
    name: Public HTTPS
    state: absent
'''

RETURN = r'''
id:
  description: Id of the port (of the deleted one with O(state=absent)).
  returned: when the port exists or existed
  type: int
  sample: 3
name:
  description: Name of the port.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Public HTTPS
http_port:
  description: The port as the gateway returns it (the would-be port in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 3, "name": "Public HTTPS", "number": 8443, "use_https": true, "is_api_port": false}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    number=dict(type='int'),
    use_https=dict(type='bool', default=False),
    is_api_port=dict(type='bool', default=False),
    state=STATE_ENFORCED,
)

RESOURCE = GatewayResource('http_ports', 'http_port', 'HTTP port', fields=('number', 'use_https', 'is_api_port'),
                           required_on_create=('number',))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
