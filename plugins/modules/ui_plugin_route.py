#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ui_plugin_route
short_description: Create, update or delete the route of a UI plugin behind a platform gateway
version_added: 0.3.0
description:
  - Makes one of the UI plugin routes of a platform gateway match the options given, at its
    C(/api/gateway/v1/ui_plugin_routes/). A UI plugin route serves a plugin of the platform's user interface from
    a service cluster, at C(/plugin/<cluster>/<ui_plugin_path>/) at the gateway.
  - Takes the options of ansible.platform's C(ui_plugin_route) module.
author:
  - automation.service maintainers (@automation-service)
options:
  ui_plugin_path:
    description:
      - The plugin's path on the cluster, which the gateway also serves it under. Needed to create a UI plugin
        route.
      - Kept without leading and trailing slashes, and compared so (V(/my-plugin/) is V(my-plugin)).
    type: str
  description:
    description:
      - A description of the UI plugin route.
    type: str
  order:
    description:
      - The order in which the gateway matches its UI plugin routes, lowest first (those of the same order in no set
        order). The gateway's default for a new UI plugin route is 50.
    type: int
notes:
  - The gateway sets the route's gateway path itself (from O(ui_plugin_path)); it is not an option.
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.gateway_routing.traffic
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: A plugin served by the controller's cluster
  automation.service.ui_plugin_route:
    name: Reports plugin
    ui_plugin_path: reports
    http_port: Public HTTPS
    service_cluster: Automation Controller
    service_port: 8052
'''

RETURN = r'''
id:
  description: Id of the UI plugin route (of the deleted one with O(state=absent)).
  returned: when the UI plugin route exists or existed
  type: int
  sample: 10
name:
  description: Name of the UI plugin route.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Reports plugin
ui_plugin_route:
  description: The UI plugin route as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 10, "name": "Reports plugin", "ui_plugin_path": "reports",
           "gateway_path": "/plugin/automation-controller/reports/", "http_port": 3,
           "service_cluster": 4, "service_port": 8052, "order": 50}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource, SINCE_2_7, TIMEOUTS, TRAFFIC
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED


def plugin_path(value):
    """A UI plugin path as the gateway keeps it: without leading and trailing slashes."""
    return value.strip('/') if isinstance(value, str) else value


ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    ui_plugin_path=dict(type='str'),
    order=dict(type='int'),
    state=STATE_ENFORCED,
    **TRAFFIC
)

RESOURCE = GatewayResource('ui_plugin_routes', 'ui_plugin_route', 'UI plugin route',
                           fields=('description', 'ui_plugin_path', 'is_service_https', 'service_port', 'node_tags', 'order') + TIMEOUTS,
                           references=('http_port', 'service_cluster'), since=SINCE_2_7,
                           required_on_create=('ui_plugin_path', 'http_port', 'service_cluster', 'service_port'),
                           compared_as={'ui_plugin_path': plugin_path})
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
