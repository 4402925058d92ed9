#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: feature_flag
short_description: Turn a feature flag of the platform on or off
version_added: 0.3.0
description:
  - Reads one of the platform's feature flags at the gateway (C(/api/gateway/v1/feature_flags/), found by O(name)) and,
    with O(value), toggles it there (C(PATCH) of its C(value)) when its value differs.
  - Only a run-time flag (C(toggle_type) V(run-time)) can be toggled, and only while the gateway's read-only setting
    C(RUNTIME_FEATURE_FLAGS) (set at install time) is on; otherwise the task fails before anything is written. An
    install-time flag given the value it has is no change.
  - Flags are neither created nor deleted through the API; a name the gateway does not have fails the task.
  - Needs an Automation Platform gateway; on AWX the task fails before anything is read.
  - Takes the options of ansible.platform's C(feature_flag) module (not in its releases yet).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the flag, C(FEATURE_<name>_ENABLED), for example V(FEATURE_INDIRECT_NODE_COUNTING_ENABLED).
    type: str
    required: true
  value:
    description:
      - The value the flag should have. A flag of the C(boolean) condition takes V(true) or V(false) (a boolean, or
        the text V(True) or V(False) in any case), sent as the text V(True) or V(False), as the gateway keeps it.
      - Without it, the flag is only read.
    type: raw
  state:
    description:
      - V(present) (and V(enforced), the same for one value) makes the flag hold O(value); V(exists) only reads it
        (failing when there is no such flag). V(absent) fails, as flags cannot be deleted.
      - ansible.platform's module reads by default (V(exists)); this one toggles when given O(value).
    type: str
    choices: [present, exists, enforced, absent]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Count indirectly managed nodes
  automation.service.feature_flag:
    name: FEATURE_INDIRECT_NODE_COUNTING_ENABLED
    value: true

- name: Is IPv6 on at the gateway?
  automation.service.feature_flag:
    name: FEATURE_GATEWAY_IPV6_USAGE_ENABLED
    state: exists
  register: ipv6
'''

RETURN = r'''
id:
  description: Id of the flag at the gateway.
  returned: always
  type: int
  sample: 3
name:
  description: Name of the flag.
  returned: always
  type: str
  sample: FEATURE_INDIRECT_NODE_COUNTING_ENABLED
value:
  description: The flag's value after the task (the would-be one in check mode).
  returned: always
  type: str
  sample: "True"
feature_flag:
  description: The flag as the gateway returns it (the would-be flag in check mode).
  returned: always
  type: dict
  sample: {"id": 3, "name": "FEATURE_INDIRECT_NODE_COUNTING_ENABLED", "condition": "boolean", "value": "True",
           "toggle_type": "run-time", "state": true}
'''

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    value=dict(type='raw'),
    state=dict(type='str', choices=['present', 'exists', 'enforced', 'absent'], default='present'),
)
BOOLEAN_TEXT = {'true': 'True', 'false': 'False'}


def wanted_value(flag, value):
    """``value`` as the gateway keeps it for ``flag`` (the text True or False for a boolean one)."""
    if flag.get('condition') != 'boolean':
        return str(value)
    if isinstance(value, bool):
        return 'True' if value else 'False'
    if isinstance(value, str) and value.strip().lower() in BOOLEAN_TEXT:
        return BOOLEAN_TEXT[value.strip().lower()]
    raise ConfigError("Feature flag %s has a boolean condition: its value is true or false, not %r." % (flag['name'], value))


def same(flag, current, wanted):
    if flag.get('condition') == 'boolean':
        return str(current).lower() == wanted.lower()
    return str(current) == wanted


def runtime_toggles_on(api):
    """Whether the gateway lets run-time flags be toggled (its setting RUNTIME_FEATURE_FLAGS; a gateway that does
    not show the setting is left to answer)."""
    found = api.client.get(api.client.layout.gateway_path('settings/all'))
    if not isinstance(found, dict) or 'RUNTIME_FEATURE_FLAGS' not in found:
        return True
    return bool(found['RUNTIME_FEATURE_FLAGS'])


class FeatureFlag(GatewayResource):
    """A feature flag of the gateway: found by name, never created or deleted; its ``value`` is the one field a task
    writes, for a run-time flag only. ``state: exists`` (and ``enforced``, as ``present``) as the gateway resources'."""

    def read_ahead(self, api):
        """Nothing for a loop's shared reads to count: find() reads with a request of its own."""

    def find(self, api):
        flag = api.get_one(self.endpoint, name=api.params['name'])
        if flag is None:
            raise NotFound("Feature flag %r does not exist (feature flags cannot be created through the API)."
                           % api.params['name'], total_results=0)
        return flag

    def plan(self, api):
        """The toggle of the flag's value, when it differs; refused before anything is written when the flag
        cannot be toggled, and for ``state: absent`` before the flag is read."""
        params = api.params
        if params['state'] == 'absent':
            raise ConfigError('Feature flags cannot be deleted through the API.')
        flag = self.find(api)
        if params['value'] is None:
            return Plan(flag)
        wanted = wanted_value(flag, params['value'])
        current = flag.get('value')
        if same(flag, current, wanted):
            return Plan(flag)
        if flag.get('toggle_type') != 'run-time':
            raise ConfigError('Feature flag %s is an install-time flag: it cannot be toggled at run time.'
                              % flag['name'])
        if not runtime_toggles_on(api):
            raise ConfigError('The platform gateway does not let feature flags be toggled at run time (its '
                              'setting RUNTIME_FEATURE_FLAGS, set at install time, is off).')
        would_be = dict(flag, value=wanted)
        if 'state' in flag and flag.get('condition') == 'boolean':
            would_be['state'] = wanted == 'True'

        def refused(exc):
            exc.reword('The platform gateway refused to toggle feature flag %s: %s' % (flag['name'], exc.message))

        return Plan(flag, [Write('PATCH', flag.get('url') or '%s%s/' % (self.endpoint, flag['id']), {'value': wanted},
                                 before={'value': current}, after={'value': wanted}, makes=True, answer=would_be,
                                 refused=refused)])

    def returns(self, api, existing, made, plan=None):
        if not isinstance(made, dict):
            raise ApiError('The platform gateway answered no feature flag.', status=None)
        api.returns(id=made.get('id'), name=made.get('name'), value=made.get('value'), feature_flag=made)


RESOURCE = FeatureFlag('feature_flags', 'feature_flag', 'feature flag')
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
