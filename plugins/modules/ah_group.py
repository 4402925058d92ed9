#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_group
short_description: Create or delete a group of users of Automation Hub
version_added: 0.5.0
description:
  - Makes a group of Automation Hub (Pulp's C(pulp/api/v3/groups/) under the Hub's API) exist, or not.
  - A group has a name only; its members are set with M(automation.service.ah_user) and its roles with
    M(automation.service.group_roles).
  - Takes the options and return values of ansible.hub's C(ah_group) module; a diff says what changed.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the group, matched exactly.
    type: str
    required: true
  state:
    description:
      - V(present) creates the group when it is missing, V(absent) deletes it (nothing happens when there is none).
    type: str
    choices: [present, absent]
    default: present
seealso:
  - module: automation.service.ah_user
  - module: automation.service.group_roles
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure the operators group exists
  automation.service.ah_group:
    name: operators
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Remove the group of former contractors
  automation.service.ah_group:
    name: contractors
    state: absent
'''

RETURN = r'''
name:
  description: Name of the group.
  returned: when the group exists or existed
  type: str
  sample: operators
id:
  description: Id of the group.
  returned: when the group exists or existed (not for a group check mode would create)
  type: int
  sample: 3
href:
  description: Path of the group in Pulp's API (C(pulp_href)).
  returned: when the group exists or existed (not for a group check mode would create)
  type: str
  sample: /api/galaxy/pulp/api/v3/groups/3/
pulp_href:
  description: The same path, as the Hub names it.
  returned: with O(state=present), when the group exists
  type: str
  sample: /api/galaxy/pulp/api/v3/groups/3/
type:
  description: The kind of object, V(group).
  returned: when the group exists or existed
  type: str
  sample: group
group:
  description: The group as the Hub returns it (the would-be group in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"name": "operators", "pulp_href": "/api/galaxy/pulp/api/v3/groups/3/", "id": 3}
'''

from ansible_collections.automation.service.plugins.module_utils._hub_access import GROUP, group_spec

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)

SPEC = group_spec(ARGUMENT_SPEC)
run = GROUP.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
