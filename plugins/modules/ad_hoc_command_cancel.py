#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ad_hoc_command_cancel
short_description: Cancel an ad hoc command
version_added: 0.3.0
description:
  - Asks the service to cancel an ad hoc command that has not finished yet (new, pending, waiting or
    running), then waits until the service no longer reports it as cancelable.
  - A command that has already finished is left as it is, and the task reports no change (or fails,
    with O(fail_if_not_running=true)).
  - Takes the options of awx.awx's C(ad_hoc_command_cancel) module.
author:
  - automation.service maintainers (@automation-service)
options:
  command_id:
    description:
      - Id of the ad hoc command, for example the RV(automation.service.ad_hoc_command#module:id) of
        M(automation.service.ad_hoc_command).
    type: int
    required: true
  fail_if_not_running:
    description:
      - Fail when the command can no longer be canceled (it has finished).
    type: bool
    default: false
  interval:
    description:
      - Seconds between two checks of whether the cancel has taken effect.
    type: float
    default: 1
  timeout:
    description:
      - How many seconds to wait at most for the cancel to take effect; the module then fails.
      - V(0) waits as long as it takes.
    type: int
    default: 0
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Reads whether the command can be canceled and reports the change without asking for it.
    support: full
  diff_mode:
    description: Returns no diff.
    support: none
seealso:
  - module: automation.service.ad_hoc_command
  - module: automation.service.ad_hoc_command_wait
'''

EXAMPLES = r'''
- name: Start a long command
  automation.service.ad_hoc_command:
    inventory: Production
    module_name: command
    module_args: /usr/local/bin/reindex
  register: started

- name: Cancel it, waiting at most a minute for it to stop
  automation.service.ad_hoc_command_cancel:
    command_id: "{{ started.id }}"
    timeout: 60

- name: Cancel it, failing if it already finished
  automation.service.ad_hoc_command_cancel:
    command_id: "{{ started.id }}"
    fail_if_not_running: true
'''

RETURN = r'''
id:
  description: Id of the ad hoc command.
  returned: always
  type: int
  sample: 94
status:
  description: >-
    The command's status: after the cancel took effect (usually C(canceled)) when the task canceled it,
    otherwise as the task found it.
  returned: when the command was found
  type: str
  sample: canceled
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils import _jobs

ARGUMENT_SPEC = dict(
    command_id=dict(type='int', required=True),
    fail_if_not_running=dict(type='bool', default=False),
    interval=dict(type='float', default=1.0),
    timeout=dict(type='int', default=0),
)


def run(api):
    params = api.params
    _jobs.cancel(api, params['command_id'], params['fail_if_not_running'], kind=_jobs.AD_HOC_COMMAND,
                 interval=params['interval'], timeout=params['timeout'])


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='ad_hoc_commands', result_key='command')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
