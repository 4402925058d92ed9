# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # The options the role_user_assignment and role_team_assignment modules share.
    DOCUMENTATION = r'''
options:
  role_definition:
    description:
      - The role definition to give, by name or id (see M(automation.service.role_definition)).
    type: str
    required: true
  object_id:
    description:
      - Id of the object the permissions apply to; its type is the O(role_definition)'s content type.
      - One of O(object_id) and O(object_ansible_id) is needed, unless the role definition applies to the whole
        system.
      - A positive integer (awx.awx declares it C(int)).
    type: raw
  object_ansible_id:
    description:
      - The resource id (a UUID) of the object, instead of O(object_id).
      - Only shared objects have one (organizations and teams, in their C(summary_fields.resource.ansible_id)).
    type: str
  state:
    description:
      - V(present) gives the role definition, V(absent) takes it back.
      - V(exists) (ansible.platform's) only checks that the assignment is there, and fails when it is not; it changes
        nothing.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - The service cannot edit an assignment; one exists or not, so a task either creates it, deletes it, or changes
    nothing.
  - awx.awx declares O(object_id) required and the resource ids (C(*_ansible_id)) as integers. Here O(object_id) may
    be left out when O(object_ansible_id) names the object, and the resource ids are strings, since the service's
    resource ids are UUIDs.
  - The service does not give an assignment's resource ids back (C(object_ansible_id) and C(user_ansible_id) read
    null, C(team_ansible_id) is left out), so the module turns a resource id into the id of the object it names and
    finds the assignment by ids.
'''
