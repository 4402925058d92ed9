#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ad_hoc_command
short_description: Run an ad hoc command (one Ansible module) on an inventory's hosts
version_added: 0.3.0
description:
  - Launches an ad hoc command on the service, which runs one Ansible module against the enabled hosts of
    an inventory (or those matching O(limit)), and optionally waits for it to finish.
  - The service only runs the modules listed in its C(AD_HOC_COMMANDS) setting, and refuses C(command) or
    C(shell) without O(module_args); those refusals come back as the task's error message.
  - The launch request is sent once and never retried once it may have reached the service. When the
    connection breaks after it was sent, the module fails and says how to find out whether the command started.
  - Takes the options of awx.awx's C(ad_hoc_command) module.
author:
  - automation.service maintainers (@automation-service)
options:
  inventory:
    description:
      - The inventory to run against, by name or numeric id.
    type: str
    required: true
  limit:
    description:
      - Host pattern the command runs on; all the inventory's enabled hosts without it.
    type: str
  credential:
    description:
      - Machine credential to connect with, by name or numeric id.
      - Optional, as it is for the service (awx.awx requires it).
    type: str
  execution_environment:
    description:
      - Execution environment to run in, by name or numeric id.
    type: str
  module_name:
    description:
      - The Ansible module to run, one that the service's C(AD_HOC_COMMANDS) setting allows (by default
        C(command), C(shell), C(ping), C(setup), C(service), C(user) and a few more).
    type: str
    required: true
  module_args:
    description:
      - The module's arguments, as on the C(ansible) command line (C(-a)).
      - Required by the service for C(command) and C(shell).
    type: str
  job_type:
    description:
      - C(run) runs the module; C(check) runs it in check mode.
    type: str
    choices: [run, check]
  forks:
    description:
      - How many hosts to run on at once (0 the service's default).
    type: int
  verbosity:
    description:
      - Verbosity of the run, 0 to 5.
    type: int
    choices: [0, 1, 2, 3, 4, 5]
  extra_vars:
    description:
      - Extra variables of the run. The service refuses variables whose names start with C(ansible_).
    type: dict
  become_enabled:
    description:
      - Run the module with privilege escalation (become).
    type: bool
  diff_mode:
    description:
      - Show the changes the module makes, where it supports it.
    type: bool
  wait:
    description:
      - Wait for the command to finish; fail when it does not succeed.
    type: bool
    default: false
  timeout:
    description:
      - With O(wait), how many seconds to wait at most. The module then fails, saying the command is still
        running and its id; the command goes on. Without it, waits as long as the command runs.
    type: int
  interval:
    description:
      - With O(wait), seconds between two polls of the command's status.
    type: float
    default: 2
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Looks up the inventory, credential and execution environment given; launches nothing.
    support: full
  diff_mode:
    description: A launch has no before and after; O(diff_mode) is the command's own option.
    support: none
notes:
  - A launch always reports C(changed).
seealso:
  - module: automation.service.ad_hoc_command_wait
  - module: automation.service.ad_hoc_command_cancel
'''

EXAMPLES = r'''
- name: Check that every web server answers, and wait for the result
  automation.service.ad_hoc_command:
    inventory: Production
    limit: webservers
    credential: Production SSH key
    module_name: ping
    wait: true
  register: pinged

- name: Show the output's last lines
  ansible.builtin.debug:
    var: pinged.stdout

- name: Start a long command and carry on
  automation.service.ad_hoc_command:
    inventory: Production
    credential: Production SSH key
    module_name: shell
    module_args: /usr/local/bin/rotate-logs --all
    become_enabled: true
  register: started

- name: Wait for it later, ten minutes at most
  automation.service.ad_hoc_command_wait:
    command_id: "{{ started.id }}"
    timeout: 600
'''

RETURN = r'''
id:
  description: Id of the ad hoc command (not returned in check mode).
  returned: when a command was launched
  type: int
  sample: 86
status:
  description: Status of the command; the final one with O(wait).
  returned: when a command was launched
  type: str
  sample: pending
command:
  description: The ad hoc command as the service returns it (at launch, or when it finished with O(wait)).
  returned: when a command was launched
  type: dict
  sample: {"id": 86, "status": "pending", "module_name": "ping", "limit": "webservers", "inventory": 3}
elapsed:
  description: Seconds the command ran.
  returned: with O(wait), also on failure
  type: float
  sample: 2.4
started:
  description: When the command started.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the command finished.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:02.523456Z"
stdout:
  description: The last lines of the command's output.
  returned: with O(wait) when the command finished, also on failure
  type: str
  sample: "web01 | SUCCESS => {\"changed\": false, \"ping\": \"pong\"}"
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils import _jobs
from ansible_collections.automation.service.plugins.module_utils._plan import Plan

ARGUMENT_SPEC = dict(
    inventory=dict(type='str', required=True),
    limit=dict(type='str'),
    credential=dict(type='str'),
    execution_environment=dict(type='str'),
    module_name=dict(type='str', required=True),
    module_args=dict(type='str'),
    job_type=dict(type='str', choices=['run', 'check']),
    forks=dict(type='int'),
    verbosity=dict(type='int', choices=[0, 1, 2, 3, 4, 5]),
    extra_vars=dict(type='dict'),
    become_enabled=dict(type='bool'),
    diff_mode=dict(type='bool'),
    wait=dict(type='bool', default=False),
    timeout=dict(type='int'),
    interval=dict(type='float', default=2.0),
)
FIELDS = ('limit', 'module_name', 'module_args', 'job_type', 'forks', 'verbosity', 'extra_vars',
          'become_enabled', 'diff_mode')
REFERENCES = (
    # option, endpoint, label
    ('inventory', 'inventories', 'inventory'),
    ('credential', 'credentials', 'credential'),
    ('execution_environment', 'execution_environments', 'execution environment'),
)


def launch_body(api):
    params = api.params
    body = dict((name, params[name]) for name in FIELDS if params[name] is not None)
    for option, endpoint, label in REFERENCES:
        if params[option] is not None:
            body[option] = api.resolve_id(endpoint, params[option], label)
    return body


def run(api):
    params = api.params
    body = launch_body(api)
    launched = api.apply(Plan(None, [_jobs.once(
        'ad_hoc_commands', body, 'the ad hoc command',
        'GET /api/v2/inventories/%d/ad_hoc_commands/?order_by=-created (or the service UI), then wait for it '
        'with automation.service.ad_hoc_command_wait' % body['inventory'])]))
    if api.check_mode:
        return
    command_id = launched['id']
    api.returns(id=command_id, status=launched.get('status'), command=launched)
    if params['wait']:
        api.returns(**_jobs.wait(api.client, command_id, params['timeout'], params['interval'],
                                 kind=_jobs.AD_HOC_COMMAND))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='ad_hoc_commands', result_key='command')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
