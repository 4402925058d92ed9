#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: service_key
short_description: Create, update or delete a key a platform gateway signs a cluster's tokens with
version_added: 0.3.0
description:
  - Makes one of the service keys of a platform gateway match the options given, at its
    C(/api/gateway/v1/service_keys/). The gateway signs the tokens it gives the services of a cluster with the
    cluster's active key.
  - Takes the options of ansible.platform's C(service_key) module.
author:
  - automation.service maintainers (@automation-service)
options:
  is_active:
    description:
      - Whether the key is in use. The gateway's default for a new key is V(true).
    type: bool
  service_cluster:
    description:
      - The cluster of the key, by name or id. Needed to create a key.
    type: str
  algorithm:
    description:
      - The signing algorithm. The gateway's default for a new key is V(HS256).
    type: str
    choices: [HS256, HS384, HS512]
  secret:
    description:
      - Taken, as ansible.platform's module takes it, and never sent. The gateway makes a key's secret itself (the
        platform's published API schemas, 2.6 and 2.7, have C(secret) read-only), so a secret given is warned about
        and left out. Use O(secret_length) for the length of the one the gateway makes.
      - Never shown in a diff, a result or a log.
    type: str
  secret_length:
    description:
      - The number of random bytes of the secret the gateway makes for a new key (at least 64, and 64 when not
        given, in the published schemas); sent only to create the key.
    type: int
  mark_previous_inactive:
    description:
      - Whether the gateway makes the cluster's other keys inactive when it creates this one; sent only to create
        the key.
      - The platform requires it of a new key (its published API schemas, 2.6 and 2.7); when not given, V(false)
        is sent.
    type: bool
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: A new key for the controller's cluster, the others retired
  automation.service.service_key:
    name: Controller key 2
    service_cluster: Automation Controller
    algorithm: HS384
    secret: "{{ vault_controller_key }}"
    mark_previous_inactive: true
'''

RETURN = r'''
id:
  description: Id of the key (of the deleted one with O(state=absent)).
  returned: when the key exists or existed
  type: int
  sample: 6
name:
  description: Name of the key.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Controller key 2
service_key:
  description: The key as the gateway returns it (the would-be one in check mode), its secret as C($encrypted$).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 6, "name": "Controller key 2", "service_cluster": 4, "is_active": true, "algorithm": "HS384",
           "secret": "$encrypted$"}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    is_active=dict(type='bool'),
    service_cluster=dict(type='str'),
    algorithm=dict(type='str', choices=['HS256', 'HS384', 'HS512']),
    secret=dict(type='str', no_log=True),
    secret_length=dict(type='int', no_log=False),
    mark_previous_inactive=dict(type='bool'),
    state=STATE_ENFORCED,
)


class ServiceKey(GatewayResource):
    """A service key, whose secret the gateway makes (``secret`` is taken and never sent)."""

    def desired(self, api, existing):
        if api.params.get('secret') not in (None, ''):
            api.warn('secret is not sent: the platform gateway makes the secret of a service key itself (it is '
                     'read-only); secret_length sets the length of the one it makes.')
        wanted = super(ServiceKey, self).desired(api, existing)
        if existing is None:
            wanted.setdefault('mark_previous_inactive', False)   # required of a new key
        return wanted


RESOURCE = ServiceKey('service_keys', 'service_key', 'service key', fields=('is_active', 'algorithm'),
                      references=('service_cluster',), required_on_create=('service_cluster',),
                      write_only=('secret_length', 'mark_previous_inactive'), secret=('secret',))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
