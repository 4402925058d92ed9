#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: workflow_node_wait
short_description: Wait for the job of one node of a workflow job to finish
version_added: 0.1.0
description:
  - Waits until a node of a running workflow job has started its job, then until that job finishes,
    and returns the job. Fails when the job does not succeed, when the node will not run (the workflow
    took another path), or when O(timeout) runs out.
  - For an approval node, waits until the approval is approved, denied or timed out.
author:
  - automation.service maintainers (@automation-service)
options:
  workflow_job_id:
    description:
      - Id of the workflow job, for example the RV(automation.service.workflow_launch#module:id) of
        M(automation.service.workflow_launch).
    type: int
    required: true
  name:
    description:
      - The node, by its identifier in the workflow. When no node has that identifier, the node that
        runs the job template (or approval) of that name, as awx.awx looks nodes up.
    type: str
    required: true
  timeout:
    description:
      - How many seconds to wait at most, for the node to start and its job to finish. The module then
        fails; the workflow job goes on. V(0) or no value waits as long as it takes.
    type: int
    default: 10
  interval:
    description:
      - Seconds between two polls.
    type: float
    default: 1
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
notes:
  - Unlike awx.awx, fails at once when the workflow job has no such node, or when the node will not run.
seealso:
  - module: automation.service.workflow_launch
  - module: automation.service.workflow_approval
'''

EXAMPLES = r'''
- name: Start a workflow
  automation.service.workflow_launch:
    name: Release
    wait: false
  register: release

- name: Wait for its build node
  automation.service.workflow_node_wait:
    workflow_job_id: "{{ release.id }}"
    name: build
    timeout: 600
  register: build

- name: Show how long the build ran
  ansible.builtin.debug:
    msg: "Build job {{ build.id }} {{ build.status }} in {{ build.elapsed }} seconds"
'''

RETURN = r'''
id:
  description: Id of the node's job (or approval).
  returned: when the node started
  type: int
  sample: 44
status:
  description: Final status of the node's job (or the current one when the wait ran out).
  returned: when the node started
  type: str
  sample: successful
elapsed:
  description: Seconds the job ran.
  returned: when the node started
  type: float
  sample: 3.2
started:
  description: When the job started.
  returned: when the node started
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the job finished.
  returned: when the node started
  type: str
  sample: "2024-05-01T10:00:03.323456Z"
job_data:
  description: The node's job (or approval) as the service returns it.
  returned: when the node started
  type: dict
  sample: {"id": 44, "status": "successful", "job_template": 7}
node:
  description: The workflow job node.
  returned: when the node was found
  type: dict
  sample: {"id": 90, "identifier": "build", "job": 44, "do_not_run": false}
stdout:
  description: The last lines of the job's output.
  returned: when the node's job finished
  type: str
  sample: "PLAY RECAP ****\nweb01 : ok=2 changed=0 unreachable=0 failed=0"
'''

import time

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils import _jobs, _workflow_jobs

ARGUMENT_SPEC = dict(
    workflow_job_id=dict(type='int', required=True),
    name=dict(type='str', required=True),
    timeout=dict(type='int', default=10),
    interval=dict(type='float', default=1.0),
)


def node_result(result):
    result = dict(result)
    result['job_data'] = result.pop('job')
    return result


def run(api):
    params = api.params
    timeout = params['timeout'] or None
    started = time.time()
    node = _workflow_jobs.wait_for_node(api.client, params['workflow_job_id'], params['name'], timeout, params['interval'])
    api.returns(node=node)
    api.returns(**_jobs.wait(api.client, node['job'], _workflow_jobs.remaining(timeout, started), params['interval'],
                             kind=_workflow_jobs.kind_of(node), shape=node_result))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='workflow_job_nodes', result_key='node')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
