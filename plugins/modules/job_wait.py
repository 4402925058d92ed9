#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: job_wait
short_description: Wait for a job to finish
version_added: 0.1.0
description:
  - Polls a job until it finishes, and fails when it does not succeed or when O(timeout) runs out.
  - Returns at once for a job that has already finished.
author:
  - automation.service maintainers (@automation-service)
options:
  job_id:
    description:
      - Id of the job, for example the RV(automation.service.job_launch#module:id) of M(automation.service.job_launch).
    type: int
    required: true
  job_type:
    description:
      - The kind of the job O(job_id) names.
    type: str
    choices: [inventory_updates, jobs, project_updates, workflow_jobs]
    default: jobs
  timeout:
    description:
      - How many seconds to wait at most. The module then fails, saying the job is still running;
        the job goes on. Without it, waits as long as the job runs.
    type: int
  interval:
    description:
      - Seconds between two polls of the job's status.
    type: float
    default: 2
  min_interval:
    description:
      - Deprecated in awx.awx and taken for its playbooks; use O(interval). With O(max_interval), the interval is the
        average of the two (a missing one counts as 1 and 30), whatever O(interval) says.
    type: float
  max_interval:
    description:
      - Deprecated in awx.awx and taken for its playbooks; see O(min_interval).
    type: float
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
  - module: automation.service.job_launch
'''

EXAMPLES = r'''
- name: Start a job
  automation.service.job_launch:
    job_template: Deploy
  register: started

- name: Wait up to ten minutes for it
  automation.service.job_wait:
    job_id: "{{ started.id }}"
    timeout: 600
    interval: 5
  register: finished

- name: Show how long it ran
  ansible.builtin.debug:
    msg: "Job {{ finished.id }} {{ finished.status }} in {{ finished.elapsed }} seconds"
'''

RETURN = r'''
id:
  description: Id of the job.
  returned: always
  type: int
  sample: 42
status:
  description: Final status of the job (or the current one when the wait ran out).
  returned: always
  type: str
  sample: successful
elapsed:
  description: Seconds the job ran.
  returned: always
  type: float
  sample: 3.2
started:
  description: When the job started.
  returned: always
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the job finished (null while it runs).
  returned: always
  type: str
  sample: "2024-05-01T10:00:03.323456Z"
job:
  description: The job as the service returns it.
  returned: always
  type: dict
  sample: {"id": 42, "status": "successful", "job_template": 7}
stdout:
  description: The last lines of the job's output.
  returned: when the job finished
  type: str
  sample: "PLAY RECAP ****\nweb01 : ok=2 changed=0 unreachable=0 failed=0"
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils import _jobs

KINDS = {'jobs': _jobs.JOB, 'project_updates': _jobs.PROJECT_UPDATE, 'inventory_updates': _jobs.INVENTORY_UPDATE,
         'workflow_jobs': _jobs.WORKFLOW_JOB}
ARGUMENT_SPEC = dict(
    job_id=dict(type='int', required=True),
    job_type=dict(type='str', choices=sorted(KINDS), default='jobs'),
    timeout=dict(type='int'),
    interval=dict(type='float', default=2.0),
    min_interval=dict(type='float'),
    max_interval=dict(type='float'),
)


def run(api):
    params = api.params
    interval = params['interval']
    if params['min_interval'] is not None or params['max_interval'] is not None:
        interval = ((params['min_interval'] or 1) + (params['max_interval'] or 30)) / 2.0
        api.warn('min_interval and max_interval are deprecated: the interval is their average, %s seconds; '
                 'use interval instead.' % interval)
    api.returns(**_jobs.wait(api.client, params['job_id'], params['timeout'], interval,
                             kind=KINDS[params['job_type']], monitoring='Job - %s' % params['job_id']))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='jobs', result_key='job')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
