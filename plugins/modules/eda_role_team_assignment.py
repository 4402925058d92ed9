#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_role_team_assignment
short_description: Give a team a role in Event-Driven Ansible, or take it back
version_added: 0.4.0
description:
  - Gives a team the permissions of one of Event-Driven Ansible's role definitions, on one of its objects or
    everywhere the role definition allows, or takes them back, at C(/api/eda/v1/role_team_assignments/) behind the
    platform gateway.
  - An assignment cannot be changed, only made or deleted.
  - Takes the options of ansible.eda's C(role_team_assignment) module.
author:
  - automation.service maintainers (@automation-service)
options:
  role_definition:
    description:
      - The role definition, by name or id (EDA's, at C(/api/eda/v1/role_definitions/)).
    type: str
    required: true
  team:
    description:
      - The team given the role, by name or id. One of O(team) and O(team_ansible_id) is needed.
    type: str
  team_ansible_id:
    description:
      - The team given the role, by its resource id (a UUID).
    type: str
  object_id:
    description:
      - The id of the object the role is given on (of the kind the role definition is for); none for a role
        definition that is not for one object.
    type: int
  object_ansible_id:
    description:
      - The object the role is given on, by its resource id (a UUID).
    type: str
  state:
    description:
      - V(present) makes the assignment, V(absent) deletes it (nothing to delete when its role definition or team is
        gone, where ansible.eda fails).
      - V(exists) only looks it up and returns it (with RV(msg) when there is none); nothing changes.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
notes:
  - Digits given as O(role_definition) or O(team) are an id, as ansible.eda takes them.
'''

EXAMPLES = r'''
- name: The operators may run activations of the Default organization
  automation.service.eda_role_team_assignment:
    role_definition: Organization Activation Admin
    team: operators
    object_id: 1
'''

RETURN = r'''
id:
  description: Id of the assignment (of the deleted one with O(state=absent)).
  returned: when the assignment exists or existed
  type: int
  sample: 42
role_team_assignment:
  description: The assignment as EDA returns it (the would-be one in check mode).
  returned: with O(state=present), or O(state=exists) when found
  type: dict
  sample: {"id": 42, "role_definition": 6, "team": 1, "object_id": "1", "content_type": "shared.organization"}
role_definition:
  description: Id of the role definition.
  returned: with O(state=exists) when found
  type: int
team:
  description: Id of the team.
  returned: with O(state=exists) when found
  type: int
object_id:
  description: Id of the object, as EDA shows it (text).
  returned: with O(state=exists) when found
  type: str
content_type:
  description: The kind of the object.
  returned: with O(state=exists) when found
  type: str
object_ansible_id:
  description: The resource id of the object, when EDA shows one.
  returned: with O(state=exists) when found
  type: str
team_ansible_id:
  description: The resource id of the team, when EDA shows one.
  returned: with O(state=exists) when found
  type: str
msg:
  description: C(Role team assignment not found).
  returned: with O(state=exists) when there is none
  type: str
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec, is_id
from ansible_collections.automation.service.plugins.module_utils._eda import PAGE_SIZE, find, place
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ARGUMENT_SPEC = dict(
    role_definition=dict(type='str', required=True),
    team=dict(type='str'),
    team_ansible_id=dict(type='str'),
    object_id=dict(type='int'),
    object_ansible_id=dict(type='str'),
    state=dict(type='str', choices=['present', 'absent', 'exists'], default='present'),
)
MODULE = 'eda_role_team_assignment'
SPEC = ModuleSpec(ARGUMENT_SPEC, result_key='role_team_assignment',
                  mutually_exclusive=[('team', 'team_ansible_id'), ('object_id', 'object_ansible_id')])


class Gone(Exception):
    """The role definition or the team named is not there: with state: absent, neither is the assignment."""


def resolved(api, endpoint, value, label):
    """The id ``value`` gives: its digits (as ansible.eda reads them), else the object of that name."""
    if is_id(value):
        return int(value)
    found = find(api, place(api, endpoint, MODULE), value, 'name', label)
    if found is None:
        if api.params['state'] == 'absent':
            raise Gone()
        raise NotFound("%s '%s' not found" % (label.capitalize(), value), total_results=0)
    return found['id']


def locate(api, path):
    """The assignment of the role definition to the team on the object (None when there is none), and the body
    that makes it."""
    params = api.params
    body = {'role_definition': resolved(api, 'role_definitions', params['role_definition'], 'role definition')}
    if params['team'] is not None:
        body['team'] = resolved(api, 'teams', params['team'], 'team')
    else:
        body['team_ansible_id'] = params['team_ansible_id']
    if params['object_id'] is not None:
        body['object_id'] = params['object_id']
    elif params['object_ansible_id'] is not None:
        body['object_ansible_id'] = params['object_ansible_id']
    query = dict((key, value) for key, value in body.items() if key != 'object_id')
    for item in api.client.iterate(path, params=dict(query, page_size=PAGE_SIZE)):
        if params['object_ansible_id'] is not None:
            if str(item.get('object_ansible_id')) == str(params['object_ansible_id']):
                return item, body
        elif (params['object_id'] is None and item.get('object_id') is None) or (
                params['object_id'] is not None and str(item.get('object_id')) == str(params['object_id'])):
            return item, body
    return None, body


def run(api):
    if api.params['team'] is None and api.params['team_ansible_id'] is None:
        # ansible.eda's required_one_of, in ansible-core's words, checked once the options' types are
        raise ConfigError('one of the following is required: team, team_ansible_id')
    path = place(api, 'role_team_assignments', MODULE)
    try:
        existing, body = locate(api, path)
    except Gone:
        return
    state = api.params['state']
    if state == 'exists':
        if existing is None:
            api.says('Role team assignment not found')
            return
        api.returns(**existing)
        api.returns(role_team_assignment=existing)
        return
    if state == 'absent':
        if existing is None:
            return
        api.returns(id=existing['id'])
        api.apply(Plan(existing, [Write('DELETE', '%s%d/' % (path, existing['id']), expect=(202, 204, 404),
                                        before=dict(body), after={})]))
        return
    if existing is not None:
        api.returns(id=existing['id'], role_team_assignment=existing)
        return
    made = api.apply(Plan(None, [Write('POST', path, body, expect=(200, 201), before={}, after=dict(body),
                                       makes=True, answer=dict(body))]))
    api.returns(role_team_assignment=made)
    if made.get('id') is not None:
        api.returns(id=made['id'])


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
