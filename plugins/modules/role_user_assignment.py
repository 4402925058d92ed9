#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: role_user_assignment
short_description: Give a user a role definition on an object, or take it back
version_added: 0.2.0
description:
  - Gives a user the permissions of a role definition on one object (a job template, an inventory, an
    organization, ...), through C(/api/v2/role_user_assignments/), or takes them back with O(state=absent).
  - Behind a platform gateway, the assignments of the role definitions C(Organization Member),
    C(Organization Admin), C(Team Member) and C(Team Admin) (the memberships of organizations and teams, which the
    controller keeps as the gateway's) are given and taken back at the gateway
    (C(/api/gateway/v1/role_user_assignments/)), to the gateway's user and organization or team of the same name as
    the controller's ones given; the gateway's role definition of the same name is used. Every other assignment
    is the controller's. RV(written_at) says where the task wrote.
  - Takes the options of awx.awx's C(role_user_assignment) module.
author:
  - automation.service maintainers (@automation-service)
options:
  user:
    description:
      - The user who receives the permissions, by username or id.
      - Exactly one of O(user) and O(user_ansible_id) is needed.
    type: str
  user_ansible_id:
    description:
      - The resource id (a UUID) of the user, instead of O(user).
      - The service gives it in the user's C(summary_fields.resource.ansible_id).
    type: str
  object_ids:
    description:
      - ansible.platform's option - the objects to give the role definition on (or take it back from), each as one
        assignment, in the order given, instead of O(object_id) or O(object_ansible_id). RV(assignments) says what
        each did.
      - Each is an id, or the name of an organization or a team when the O(role_definition) applies to one.
      - Every object is found before the first write.
    type: list
    elements: str
notes:
  - A user's permissions of the older kind, the roles of objects (C(admin), C(execute), ...), are managed with
    M(automation.service.role).
extends_documentation_fragment:
  - automation.service.role_assignment
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Let bob run job template 12
  automation.service.role_user_assignment:
    role_definition: JobTemplate Execute
    user: bob
    object_id: 12

- name: Take it back
  automation.service.role_user_assignment:
    role_definition: JobTemplate Execute
    user: bob
    object_id: 12
    state: absent

- name: Make bob an administrator of two organizations
  automation.service.role_user_assignment:
    role_definition: Organization Admin
    user: bob
    object_ids: [Engineering, Support]
'''

RETURN = r'''
id:
  description: Id of the assignment (of the deleted one with O(state=absent)).
  returned: when the assignment exists or existed
  type: int
  sample: 31
role_user_assignment:
  description:
    - The assignment as the service returns it.
    - In check mode, when it would be created, the fields that would be sent.
  returned: with O(state=present)
  type: dict
  sample: {"id": 31, "role_definition": 7, "user": 5, "content_type": "awx.jobtemplate", "object_id": "12",
           "object_ansible_id": null, "user_ansible_id": null}
assignments:
  description:
    - With O(object_ids), what the task did for each object, in their order - whether it changed anything, and the
      assignment's RV(id) and RV(role_user_assignment).
  returned: when O(object_ids) is given
  type: list
  elements: dict
  sample: [{"changed": true, "id": 31, "role_user_assignment": {"id": 31, "role_definition": 2, "user": 5,
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

RESOURCE = Assignment('user', several='object_ids')
SPEC = RESOURCE.spec(RESOURCE.options())
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
