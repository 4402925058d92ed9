#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: role_team_assignment
short_description: Give a team a role definition on an object, or take it back
version_added: 0.2.0
description:
  - Gives a team (and so its members) the permissions of a role definition on one object (a job template, an
    inventory, an organization, ...), through C(/api/v2/role_team_assignments/), or takes them back with O(state=absent).
  - Behind a platform gateway, the assignments of the role definitions C(Organization Member),
    C(Organization Admin), C(Team Member) and C(Team Admin) (the memberships of organizations and teams, which the
    controller keeps as the gateway's) are given and taken back at the gateway
    (C(/api/gateway/v1/role_team_assignments/)), to the gateway's team and organization or team of the same name as
    the controller's ones given; the gateway's role definition of the same name is used. Every other assignment
    is the controller's. RV(written_at) says where the task wrote.
  - Takes the options of awx.awx's C(role_team_assignment) module.
author:
  - automation.service maintainers (@automation-service)
options:
  team:
    description:
      - The team that receives the permissions, by name or id. A team name must be unique on the service; otherwise
        give its id.
      - Exactly one of O(team) and O(team_ansible_id) is needed.
    type: str
  team_ansible_id:
    description:
      - The resource id (a UUID) of the team, instead of O(team).
      - The service gives it in the team's C(summary_fields.resource.ansible_id).
    type: str
  assignment_objects:
    description:
      - ansible.platform's option - the objects to give the role definition on (or take it back from), each as
        one assignment, in the order given, instead of O(object_id) or O(object_ansible_id). RV(assignments) says
        what each did.
      - Every object is found before the first write.
    type: list
    elements: dict
    suboptions:
      name:
        description:
          - The object's name, with O(assignment_objects[].type).
        type: str
      type:
        description:
          - The kind of the named object; it must be the kind the O(role_definition) applies to.
        type: str
        choices: [organizations, teams]
      object_id:
        description:
          - The object's id, instead of a name.
        type: int
      object_ansible_id:
        description:
          - The object's resource id (a UUID), instead of a name.
        type: str
notes:
  - A team's permissions of the older kind, the roles of objects (C(admin), C(execute), ...), are managed with
    M(automation.service.role).
extends_documentation_fragment:
  - automation.service.role_assignment
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Let the ops team run job template 12
  automation.service.role_team_assignment:
    role_definition: JobTemplate Execute
    team: ops
    object_id: 12

- name: Take it back
  automation.service.role_team_assignment:
    role_definition: JobTemplate Execute
    team: ops
    object_id: 12
    state: absent

- name: Let the ops team manage the inventories of two organizations
  automation.service.role_team_assignment:
    role_definition: Organization Inventory Admin
    team: ops
    assignment_objects:
      - name: Engineering
        type: organizations
      - name: Support
        type: organizations
'''

RETURN = r'''
id:
  description: Id of the assignment (of the deleted one with O(state=absent)).
  returned: when the assignment exists or existed
  type: int
  sample: 31
role_team_assignment:
  description:
    - The assignment as the service returns it.
    - In check mode, when it would be created, the fields that would be sent.
  returned: with O(state=present)
  type: dict
  sample: {"id": 31, "role_definition": 7, "team": 3, "content_type": "awx.jobtemplate", "object_id": "12",
           "object_ansible_id": null}
assignments:
  description:
    - With O(assignment_objects), what the task did for each object, in their order - whether it changed anything,
      and the assignment's RV(id) and RV(role_team_assignment).
  returned: when O(assignment_objects) is given
  type: list
  elements: dict
  sample: [{"changed": true, "id": 31, "role_team_assignment": {"id": 31, "role_definition": 2, "team": 3,
                                                                 "object_id": "1"}}]
written_at:
  description:
    - Where the task wrote (in check mode, would write) behind a platform gateway - V(gateway) for the memberships
      of organizations and teams, V(controller) for the other assignments.
    - An empty list when nothing changed.
  returned: when the service is a platform gateway
  type: list
  elements: str
  sample: [gateway]
'''

from ansible_collections.automation.service.plugins.module_utils._assignment import Assignment

RESOURCE = Assignment('team', several='assignment_objects')
SPEC = RESOURCE.spec(RESOURCE.options())
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
