#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: inventory_source
short_description: Create, update or delete an inventory source
version_added: 0.2.0
description:
  - Makes an inventory source of an inventory of the service match the fields given; fields not given are left
    alone.
  - O(source_vars) are compared as data, so unchanged variables report no change.
  - Takes the options of awx.awx's C(inventory_source) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the inventory source, unique within its inventory.
    type: str
    required: true
  new_name:
    description:
      - A new name for the inventory source (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the inventory source.
    type: str
  inventory:
    description:
      - The inventory the source fills, by name or id.
    type: str
    required: true
  organization:
    description:
      - The organization of O(inventory) and of O(source_project), by name or id, when inventories or projects of
        that name are in several organizations.
    type: str
  notification_templates_started:
    description:
      - Notification templates sent when an update of the source starts, by name or id; the list replaces the
        source's, V([]) empties it.
    type: list
    elements: str
  notification_templates_success:
    description:
      - Notification templates sent when an update succeeds, by name or id; as O(notification_templates_started).
    type: list
    elements: str
  notification_templates_error:
    description:
      - Notification templates sent when an update fails, by name or id; as O(notification_templates_started).
    type: list
    elements: str
  source:
    description:
      - Where the hosts come from. Required to create an inventory source.
    type: str
    choices: [scm, ec2, gce, azure_rm, vmware, satellite6, openstack, rhv, controller, insights, terraform,
              openshift_virtualization]
  source_path:
    description:
      - With O(source=scm), the inventory file or script in the project.
    type: str
  source_vars:
    description:
      - Variables of the inventory plugin, compared as data with what the service holds.
    type: dict
  scm_branch:
    description:
      - With O(source=scm), the branch of O(source_project) to use; the project must allow branch override.
    type: str
  source_project:
    description:
      - With O(source=scm), the project that holds the inventory, by name or id; looked up in O(organization) when
        it is given.
    type: str
  credential:
    description:
      - The cloud credential of the source, by name or id; V('') removes it.
    type: str
  execution_environment:
    description:
      - The execution environment the update runs in, by name or id; V('') removes it.
    type: str
  enabled_var:
    description:
      - The host variable that tells whether a host is enabled, for example C(status.power_state).
    type: str
  enabled_value:
    description:
      - The value of O(enabled_var) that means enabled, for example C(powered_on).
    type: str
  host_filter:
    description:
      - A regular expression; only the hosts whose names match it are imported.
    type: str
  limit:
    description:
      - A host pattern that limits the hosts imported.
    type: str
  overwrite:
    description:
      - Whether the hosts and groups no longer in the source are removed from the inventory.
    type: bool
  overwrite_vars:
    description:
      - Whether the variables of the source replace those of the inventory's hosts and groups.
    type: bool
  timeout:
    description:
      - Seconds an update may run before it is cancelled; V(0) means no limit.
    type: int
  verbosity:
    description:
      - The verbosity of the update.
    type: int
    choices: [0, 1, 2]
  update_on_launch:
    description:
      - Whether the inventory is updated from the source before each job that uses it.
    type: bool
  update_cache_timeout:
    description:
      - Seconds for which the last update counts as current for O(update_on_launch).
    type: int
  state:
    description:
      - V(present) creates or updates the inventory source, V(absent) deletes it.
      - V(exists) creates the inventory source when it is missing and leaves an inventory source found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.custom_virtualenv
'''

EXAMPLES = r'''
- name: Hosts from a file of the inventory project
  automation.service.inventory_source:
    name: From git
    inventory: Production
    source: scm
    source_project: Inventory Project
    source_path: hosts.yml
    overwrite: true
    update_on_launch: true

- name: Hosts from EC2, the running instances enabled
  automation.service.inventory_source:
    name: EC2
    inventory: Production
    source: ec2
    credential: AWS
    source_vars:
      regions: [eu-west-1]
    enabled_var: ec2_state
    enabled_value: running

- name: Remove an inventory source
  automation.service.inventory_source:
    name: EC2
    inventory: Production
    state: absent
'''

RETURN = r'''
id:
  description: Id of the inventory source (of the deleted one with O(state=absent)).
  returned: when the inventory source exists or existed
  type: int
  sample: 100001
inventory_source:
  description: The inventory source as the service returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 100001, "name": "From git", "inventory": 3, "source": "scm", "source_path": "hosts.yml"}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import CUSTOM_VIRTUALENV, STATE_EXISTS, Resource

SOURCES = ['scm', 'ec2', 'gce', 'azure_rm', 'vmware', 'satellite6', 'openstack', 'rhv', 'controller', 'insights',
           'terraform', 'openshift_virtualization']

ARGUMENT_SPEC = dict(
    custom_virtualenv=CUSTOM_VIRTUALENV,
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    inventory=dict(type='str', required=True),
    organization=dict(type='str'),
    source=dict(type='str', choices=SOURCES),
    source_path=dict(type='str'),
    source_vars=dict(type='dict'),
    scm_branch=dict(type='str'),
    source_project=dict(type='str'),
    credential=dict(type='str'),
    execution_environment=dict(type='str'),
    enabled_var=dict(type='str'),
    enabled_value=dict(type='str'),
    host_filter=dict(type='str'),
    limit=dict(type='str'),
    overwrite=dict(type='bool'),
    overwrite_vars=dict(type='bool'),
    timeout=dict(type='int'),
    verbosity=dict(type='int', choices=[0, 1, 2]),
    update_on_launch=dict(type='bool'),
    update_cache_timeout=dict(type='int'),
    state=STATE_EXISTS,
)
NOTIFICATIONS = ('notification_templates_started', 'notification_templates_success', 'notification_templates_error')
ARGUMENT_SPEC.update((option, dict(type='list', elements='str')) for option in NOTIFICATIONS)

RESOURCE = Resource(
    'inventory_sources', 'inventory_source', 'inventory source',
    scope={'inventory': 'inventories'},
    scope_within={'inventory': 'organization', 'source_project': 'organization'},
    fields=('description', 'source', 'source_path', 'scm_branch', 'enabled_var', 'enabled_value', 'host_filter',
            'limit', 'overwrite', 'overwrite_vars', 'timeout', 'verbosity', 'update_on_launch',
            'update_cache_timeout'),
    text_data=('source_vars',),
    references={'credential': 'credentials', 'execution_environment': 'execution_environments',
                'source_project': 'projects'},
    required_on_create=('source',),
    associations=dict((option, (option, 'notification_templates')) for option in NOTIFICATIONS),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
