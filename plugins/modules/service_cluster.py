#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: service_cluster
short_description: Create, update or delete a cluster of services behind a platform gateway
version_added: 0.3.0
description:
  - Makes one of the service clusters of a platform gateway match the options given, at its
    C(/api/gateway/v1/service_clusters/). A cluster is a set of nodes (M(automation.service.service_node)) that
    serve one service; the gateway balances the traffic of its routes among them and checks their health.
  - Takes the options of ansible.platform's C(service_cluster) module.
author:
  - automation.service maintainers (@automation-service)
options:
  service_type:
    description:
      - The service type of the cluster, by name or id. Needed to create a cluster.
    type: str
  auth_type:
    description:
      - How the gateway authenticates the requests it forwards to the cluster. The gateway's default for a new
        cluster is V(JWT).
    type: str
    choices: [JWT, BASIC, TOKEN]
  upstream_hostname:
    description:
      - The host name the gateway sends to the nodes (TLS server name and C(Host) header), when set.
    type: str
  dns_discovery_type:
    description:
      - How the gateway uses the addresses a node's name resolves to. V(STRICT_DNS) (the default for a new cluster)
        balances among them all, V(LOGICAL_DNS) uses the first one.
    type: str
    choices: [STRICT_DNS, LOGICAL_DNS]
  dns_lookup_family:
    description:
      - Which addresses of a node's name the gateway uses. V(ALL) every one, V(AUTO) IPv6 first.
    type: str
    choices: [ALL, V4_ONLY, V6_ONLY, V4_PREFERRED, AUTO]
  outlier_detection_enabled:
    description:
      - Whether the gateway takes a node whose answers fail out of the cluster for a time.
    type: bool
  outlier_detection_consecutive_5xx:
    description:
      - How many 5xx answers in a row make a node an outlier.
    type: int
  outlier_detection_interval_seconds:
    description:
      - Seconds between two looks for outliers.
    type: int
  outlier_detection_base_ejection_time_seconds:
    description:
      - Seconds an outlier is first kept out.
    type: int
  outlier_detection_max_ejection_percent:
    description:
      - The largest share of the nodes, in percent, that may be kept out at once.
    type: int
  health_checks_enabled:
    description:
      - Whether the gateway checks the nodes' health.
    type: bool
  health_check_timeout_seconds:
    description:
      - Seconds a health check may take.
    type: int
  health_check_interval_seconds:
    description:
      - Seconds between two health checks.
    type: int
  health_check_unhealthy_threshold:
    description:
      - How many failed checks in a row make a node unhealthy.
    type: int
  health_check_healthy_threshold:
    description:
      - How many passed checks in a row make a node healthy again.
    type: int
  healthy_panic_threshold:
    description:
      - The share of unhealthy nodes, in percent, from which the gateway sends traffic to every node anyway; 0 never.
    type: int
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: The controller's cluster
  automation.service.service_cluster:
    name: Automation Controller
    service_type: controller
    health_checks_enabled: true
'''

RETURN = r'''
id:
  description: Id of the cluster (of the deleted one with O(state=absent)).
  returned: when the cluster exists or existed
  type: int
  sample: 4
name:
  description: Name of the cluster.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Automation Controller
service_cluster:
  description: The cluster as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 4, "name": "Automation Controller", "service_type": 2, "auth_type": "JWT",
           "dns_discovery_type": "STRICT_DNS", "health_checks_enabled": true}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED

NUMBERS = (
    'outlier_detection_consecutive_5xx', 'outlier_detection_interval_seconds',
    'outlier_detection_base_ejection_time_seconds', 'outlier_detection_max_ejection_percent',
    'health_check_timeout_seconds', 'health_check_interval_seconds', 'health_check_unhealthy_threshold',
    'health_check_healthy_threshold', 'healthy_panic_threshold',
)

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    service_type=dict(type='str'),
    auth_type=dict(type='str', choices=['JWT', 'BASIC', 'TOKEN']),
    upstream_hostname=dict(type='str'),
    dns_discovery_type=dict(type='str', choices=['STRICT_DNS', 'LOGICAL_DNS']),
    dns_lookup_family=dict(type='str', choices=['ALL', 'V4_ONLY', 'V6_ONLY', 'V4_PREFERRED', 'AUTO']),
    outlier_detection_enabled=dict(type='bool'),
    health_checks_enabled=dict(type='bool'),
    state=STATE_ENFORCED,
    **dict((option, dict(type='int')) for option in NUMBERS)
)

RESOURCE = GatewayResource('service_clusters', 'service_cluster', 'service cluster',
                           fields=('auth_type', 'upstream_hostname', 'dns_discovery_type', 'dns_lookup_family',
                                   'outlier_detection_enabled', 'health_checks_enabled') + NUMBERS,
                           references=('service_type',), required_on_create=('service_type',))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
