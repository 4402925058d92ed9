#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_controller_token
short_description: Give Event-Driven Ansible a token of the controller, or take it back
version_added: 0.4.0
description:
  - Keeps one of the controller tokens of the user the task logs in as in Event-Driven Ansible (the token a
    rulebook activation uses to run the controller's job templates), at C(/api/eda/v1/users/me/awx-tokens/) behind
    the platform gateway.
  - Takes the options of ansible.eda's C(controller_token) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The name of the token, among the user's.
    type: str
    required: true
  description:
    description:
      - The description of the token.
    type: str
  token:
    description:
      - The controller's token (a personal token of the controller, or of the gateway). Needed to create one.
      - Kept out of logs, results and the diff.
    type: str
  update_secrets:
    description:
      - EDA never shows a token again, and cannot change one. When a token of that name exists, V(false) (the
        default) leaves it as it is unless O(description) changes; V(true) replaces it with O(token) on every run
        (and says changed), as ansible.eda does.
    type: bool
    default: false
  state:
    description:
      - V(present) gives EDA the token, V(absent) takes it back.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
notes:
  - EDA cannot change a token (it has no PATCH), so a change is the deletion of the token and the creation of a new one, as
    ansible.eda makes it. Unlike ansible.eda, which does so on every run, a token found with the description given is
    left as it is (see O(update_secrets)), so that a second run changes nothing.
'''

EXAMPLES = r'''
- name: EDA may run the controller's job templates
  automation.service.eda_controller_token:
    name: controller
    description: for rulebook activations
    token: "{{ controller_token_value }}"

- name: Take it back
  automation.service.eda_controller_token:
    name: controller
    state: absent
'''

RETURN = r'''
id:
  description: Id of the token (of the deleted one with O(state=absent)).
  returned: when the token exists or existed
  type: int
  sample: 4
controller_token:
  description: The token as EDA shows it (never its value; the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 4, "name": "controller", "description": "for rulebook activations", "user_id": 1}
existing:
  description: The token before the task (empty when there was none).
  returned: always
  type: dict
end_state:
  description: The token after the task (empty once deleted).
  returned: always
  type: dict
'''

from ansible_collections.automation.service.plugins.module_utils._eda import EdaResource
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    description=dict(type='str'),
    token=dict(type='str', no_log=True),
    update_secrets=dict(type='bool', default=False, no_log=False),
    state=STATE,
)


class ControllerToken(EdaResource):
    """A token EDA keeps and never shows again, nor changes: made, or deleted and made anew."""

    def plan_object(self, api, existing, desired, lists):
        params = api.params
        body = dict(desired, token=params['token'])
        shown = dict((key, body.get(key)) for key in ('name', 'description', 'token') if key in body)
        create = Write('POST', self.endpoint, body, expect=(200, 201), before={}, after=shown, secret=('token',),
                       makes=True, answer=dict(desired))
        if existing is None:
            return Plan(None, [create])
        replaced = params['update_secrets'] or (
            params['description'] is not None and params['description'] != (existing.get('description') or ''))
        if not replaced:
            return Plan(existing)
        if not params['token']:
            raise ConfigError('Unable to replace controller token %s: token is required to replace it (EDA cannot '
                              'change a token).' % params['name'])
        before = dict((key, existing.get(key)) for key in ('name', 'description'))
        before['token'] = 'present'
        delete = Write('DELETE', api.detail_path(existing, self.endpoint), expect=(202, 204, 404))
        return Plan(existing, [delete, create.but(before=before)])


RESOURCE = ControllerToken('users/me/awx-tokens', 'controller_token', 'controller token', 'eda_controller_token',
                           fields=('description',), required_on_create=('token',), filter_param='search',
                           secret=('token',))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
