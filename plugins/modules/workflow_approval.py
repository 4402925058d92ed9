#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: workflow_approval
short_description: Approve or deny an approval step of a workflow job
version_added: 0.1.0
description:
  - Waits until an approval node of a running workflow job is reached, then approves or denies its approval.
    A denied approval fails, and the workflow follows the node's failure edges.
  - An approval already decided the same way is left alone (no change); one decided the other way, or
    that timed out or was canceled, fails the task.
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
      - The approval node, by its identifier in the workflow. When no node has that identifier, the node
        whose approval has that name, as awx.awx looks it up.
    type: str
    required: true
  action:
    description:
      - Approve or deny.
    type: str
    choices: [approve, deny]
    default: approve
  timeout:
    description:
      - How many seconds to wait at most for the workflow to reach the approval node. V(0) or no value
        waits as long as it takes.
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
    description: Waits for the approval and says whether it would be decided; decides nothing.
    support: full
  diff_mode:
    description: Returns the approval's status before and after.
    support: full
notes:
  - Unlike awx.awx, fails when the node is not an approval node, when it will not be reached, or when
    the approval was already decided the other way.
seealso:
  - module: automation.service.workflow_launch
  - module: automation.service.workflow_node_wait
'''

EXAMPLES = r'''
- name: Start a workflow with an approval step
  automation.service.workflow_launch:
    name: Deploy with approval
    wait: false
  register: deploy

- name: Approve its sign-off step
  automation.service.workflow_approval:
    workflow_job_id: "{{ deploy.id }}"
    name: sign-off
    action: approve
    timeout: 120
'''

RETURN = r'''
id:
  description: Id of the workflow approval.
  returned: when the approval node was reached
  type: int
  sample: 51
status:
  description: Status of the approval after the task (V(successful) approved, V(failed) denied).
  returned: when the approval node was reached
  type: str
  sample: successful
workflow_approval:
  description: The approval as the service returns it, after the task.
  returned: when the approval node was reached
  type: dict
  sample: {"id": 51, "name": "sign-off", "status": "successful", "can_approve_or_deny": false}
node:
  description: The workflow job node.
  returned: when the node was found
  type: dict
  sample: {"id": 90, "identifier": "sign-off", "job": 51}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, ServiceError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils import _workflow_jobs

ARGUMENT_SPEC = dict(
    workflow_job_id=dict(type='int', required=True),
    name=dict(type='str', required=True),
    action=dict(type='str', choices=['approve', 'deny'], default='approve'),
    timeout=dict(type='int', default=10),
    interval=dict(type='float', default=1.0),
)
OUTCOME = {'approve': 'successful', 'deny': 'failed'}
DECIDED = {'successful': 'approved', 'failed': 'denied', 'canceled': 'canceled'}


def run(api):
    params = api.params
    node = _workflow_jobs.wait_for_node(api.client, params['workflow_job_id'], params['name'],
                                        params['timeout'] or None, params['interval'], monitoring='Workflow Approval')
    api.returns(node=node)
    if _workflow_jobs.kind_of(node) is not _workflow_jobs.APPROVAL:
        raise ConfigError('Node %r of workflow job %d is not an approval node.' % (params['name'], params['workflow_job_id']))
    path = 'workflow_approvals/%d' % node['job']
    approval = api.client.get(path)
    api.returns(id=approval['id'], status=approval['status'], workflow_approval=approval)
    wanted = OUTCOME[params['action']]
    if approval['status'] == wanted and not approval.get('timed_out'):
        return
    if approval['status'] != 'pending':
        state = 'timed out' if approval.get('timed_out') else DECIDED.get(approval['status'], approval['status'])
        raise ServiceError('Workflow approval %d cannot be %s: it was already %s (status %s).'
                           % (approval['id'], DECIDED[wanted], state, approval['status']))
    api.apply(Plan(approval, [Write('POST', '%s/%s' % (path, params['action']), expect=(204,),
                                    before={'status': 'pending'}, after={'status': wanted})]))
    if api.check_mode:
        api.returns(status=wanted)
        return
    approval = api.client.get(path)
    api.returns(status=approval['status'], workflow_approval=approval)


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='workflow_approvals', result_key='workflow_approval')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
