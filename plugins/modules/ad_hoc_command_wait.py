#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ad_hoc_command_wait
short_description: Wait for an ad hoc command to finish
version_added: 0.3.0
description:
  - Polls an ad hoc command until it finishes, and fails when it does not succeed (with the last lines of
    its output) or when O(timeout) runs out.
  - Returns at once for a command that has already finished.
  - Takes the options of awx.awx's C(ad_hoc_command_wait) module.
author:
  - automation.service maintainers (@automation-service)
options:
  command_id:
    description:
      - Id of the ad hoc command, for example the RV(automation.service.ad_hoc_command#module:id) of
        M(automation.service.ad_hoc_command).
    type: int
    required: true
  timeout:
    description:
      - How many seconds to wait at most. The module then fails, saying the command is still running;
        the command goes on. Without it, waits as long as the command runs.
    type: int
  interval:
    description:
      - Seconds between two polls of the command's status.
    type: float
    default: 2
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Only reads, so it waits in check mode too.
    support: full
  diff_mode:
    description: Only reads; returns no diff.
    support: none
seealso:
  - module: automation.service.ad_hoc_command
'''

EXAMPLES = r'''
- name: Start an ad hoc command
  automation.service.ad_hoc_command:
    inventory: Production
    credential: Production SSH key
    module_name: setup
  register: started

- name: Wait up to two minutes for it
  automation.service.ad_hoc_command_wait:
    command_id: "{{ started.id }}"
    timeout: 120
  register: finished

- name: Show how long it ran
  ansible.builtin.debug:
    msg: "Command {{ finished.id }} {{ finished.status }} in {{ finished.elapsed }} seconds"
'''

RETURN = r'''
id:
  description: Id of the ad hoc command.
  returned: always
  type: int
  sample: 99
status:
  description: Final status of the command (or the current one when the wait ran out).
  returned: when the command was found
  type: str
  sample: successful
elapsed:
  description: Seconds the command ran.
  returned: when the command was found
  type: float
  sample: 10.879
started:
  description: When the command started.
  returned: when the command was found
  type: str
  sample: "2024-05-01T17:03:53.200234Z"
finished:
  description: When the command finished (null while it runs).
  returned: when the command was found
  type: str
  sample: "2024-05-01T17:04:04.078782Z"
command:
  description: The ad hoc command as the service returns it.
  returned: when the command was found
  type: dict
  sample: {"id": 99, "status": "successful", "module_name": "ping"}
stdout:
  description: The last lines of the command's output.
  returned: when the command finished, also on failure
  type: str
  sample: "web01 | SUCCESS => {\"changed\": false, \"ping\": \"pong\"}"
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils import _jobs

ARGUMENT_SPEC = dict(
    command_id=dict(type='int', required=True),
    timeout=dict(type='int'),
    interval=dict(type='float', default=2.0),
)


def run(api):
    params = api.params
    api.returns(id=params['command_id'])
    api.returns(**_jobs.wait(api.client, params['command_id'], params['timeout'], params['interval'],
                             kind=_jobs.AD_HOC_COMMAND, monitoring='ad hoc command - %s' % params['command_id']))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='ad_hoc_commands', result_key='command')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
