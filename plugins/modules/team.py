#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: team
short_description: Create, update or delete a team
version_added: 0.2.0
description:
  - Makes a team of an organization match the fields given; fields not given are left alone.
  - A team is named within its organization; O(organization) says which one.
  - Takes the options of awx.awx's C(team) module.
  - Behind an Automation Platform platform gateway (see O(service_layout)), the gateway keeps the teams; the team is
    created, changed and deleted there (C(/api/gateway/v1/teams/)), in the gateway's organization of the name given
    (an id names the controller's organization, whose name the gateway's has). RV(written_at) says where the task
    wrote.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the team, unique within its organization.
    type: str
    required: true
  new_name:
    description:
      - A new name for the team (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the team.
    type: str
  organization:
    description:
      - The organization of the team, by name or id.
    type: str
    required: true
  new_organization:
    description:
      - Moves the team (found in O(organization)) to this organization, by name or id (an id names the controller's
        organization). A team not found in O(organization) is looked for in this one (moved by an earlier run), and
        a new one is made there.
      - Behind a platform gateway the team is moved at the gateway, whose organization of that name it joins.
      - Taken from ansible.platform's C(team) module.
    type: str
  state:
    description:
      - V(present) creates or updates the team, V(absent) deletes it.
      - V(exists) creates the team when it is missing and leaves a team found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure the Operators team exists
  automation.service.team:
    name: Operators
    organization: Default
    description: Runs the production jobs

- name: Rename it
  automation.service.team:
    name: Operators
    new_name: Operations
    organization: Default

- name: Remove a team
  automation.service.team:
    name: Operations
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the team (of the deleted team with O(state=absent)).
  returned: when the team exists or existed
  type: int
  sample: 4
team:
  description: The team as the service returns it (the would-be team in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 4, "name": "Operators", "organization": 1, "description": "Runs the production jobs"}
written_at:
  description:
    - Where the task wrote (in check mode, would write) behind a platform gateway - V(gateway), or nothing (an empty
      list) when nothing changed.
  returned: when the service is a platform gateway
  type: list
  elements: str
  sample: [gateway]
'''

from ansible_collections.automation.service.plugins.module_utils._team import RESOURCE, SPEC

run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
