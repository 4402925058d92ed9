#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: job_cancel
short_description: Cancel a job
version_added: 0.2.0
description:
  - Asks the service to cancel a job that has not finished yet (new, pending, waiting or running).
  - A job that has already finished is left as it is, and the task reports no change (or fails, with
    O(fail_if_not_running=true)).
  - Takes the options of awx.awx's C(job_cancel) module.
author:
  - automation.service maintainers (@automation-service)
options:
  job_id:
    description:
      - Id of the job, for example the RV(automation.service.job_launch#module:id) of M(automation.service.job_launch).
    type: int
    required: true
  fail_if_not_running:
    description:
      - Fail when the job can no longer be canceled (it has finished).
    type: bool
    default: false
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Reads whether the job can be canceled and reports the change without asking for it.
    support: full
  diff_mode:
    description: Returns no diff.
    support: none
seealso:
  - module: automation.service.job_launch
  - module: automation.service.job_wait
'''

EXAMPLES = r'''
- name: Start a job
  automation.service.job_launch:
    job_template: Deploy
  register: started

- name: Cancel it
  automation.service.job_cancel:
    job_id: "{{ started.id }}"

- name: Cancel it, failing if it already finished
  automation.service.job_cancel:
    job_id: "{{ started.id }}"
    fail_if_not_running: true
'''

RETURN = r'''
id:
  description: Id of the job.
  returned: always
  type: int
  sample: 94
status:
  description: The job's status when the task read it (before the cancel took effect).
  returned: when the job was found
  type: str
  sample: running
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils import _jobs

ARGUMENT_SPEC = dict(
    job_id=dict(type='int', required=True),
    fail_if_not_running=dict(type='bool', default=False),
)


def run(api):
    _jobs.cancel(api, api.params['job_id'], api.params['fail_if_not_running'])


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='jobs', result_key='job')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
