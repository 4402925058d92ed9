#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: workflow_launch
short_description: Launch a workflow job from a workflow job template, and optionally wait for it
version_added: 0.1.0
description:
  - Launches a workflow job from a workflow job template, with the launch-time values the template prompts for.
  - Before launching, reads what the workflow prompts for and fails when a value is given that it does not
    prompt for (the service would silently ignore it).
  - The launch request is sent once and never retried once it may have reached the service.
  - With O(wait), polls the workflow job until it finishes and fails when it does not succeed, naming the
    nodes that failed and the last lines of the output of the last failed job.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The workflow job template to launch, by name or numeric id.
    type: str
    required: true
    aliases: [workflow_template]
  organization:
    description:
      - Organization of the workflow job template, by name or id, to tell apart templates of the same name.
    type: str
  inventory:
    description:
      - Inventory the workflow's jobs run against, by name or id. The workflow must prompt for it
        (C(ask_inventory_on_launch)).
    type: str
  limit:
    description:
      - Host pattern limiting the hosts of the workflow's jobs. The workflow must prompt for it (C(ask_limit_on_launch)).
    type: str
  scm_branch:
    description:
      - Branch of the projects of the workflow's jobs. The workflow must prompt for it (C(ask_scm_branch_on_launch)).
    type: str
  extra_vars:
    description:
      - Extra variables of the workflow job, passed to each of its jobs. The workflow must prompt for them
        (C(ask_variables_on_launch)) or have a survey.
    type: dict
  job_tags:
    description:
      - Tags to run (a list, or comma-separated). The workflow must prompt for them (C(ask_tags_on_launch)).
    type: list
    elements: str
    aliases: [tags]
  skip_tags:
    description:
      - Tags to skip (a list, or comma-separated). The workflow must prompt for them (C(ask_skip_tags_on_launch)).
    type: list
    elements: str
  labels:
    description:
      - Labels of the workflow job, by name or id; they replace the template's. The workflow must prompt
        for them (C(ask_labels_on_launch)).
    type: list
    elements: str
  wait:
    description:
      - Wait for the workflow job to finish; fail when it does not succeed.
    type: bool
    default: true
  timeout:
    description:
      - With O(wait), how many seconds to wait at most. The module then fails, saying the workflow job is
        still running and its id; the workflow job goes on. Without it, waits as long as the workflow runs.
    type: int
  interval:
    description:
      - With O(wait), seconds between two polls of the workflow job's status.
    type: float
    default: 2
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Checks the template, the values given and what the workflow prompts for; launches nothing.
    support: full
  diff_mode:
    description: A launch has no before and after.
    support: none
notes:
  - A launch always reports C(changed).
  - Every launch value the workflow does not prompt for fails the task before launching, not only
    O(inventory), O(limit), O(scm_branch) and O(extra_vars).
seealso:
  - module: automation.service.workflow_node_wait
  - module: automation.service.workflow_approval
  - module: automation.service.workflow_job_template
'''

EXAMPLES = r'''
- name: Run the release workflow and wait up to half an hour
  automation.service.workflow_launch:
    name: Release
    organization: Engineering
    extra_vars:
      version: 1.2.3
    timeout: 1800
  register: release

- name: Start a workflow that has an approval step, and carry on
  automation.service.workflow_launch:
    workflow_template: Deploy with approval
    wait: false
  register: deploy

- name: Approve its approval step
  automation.service.workflow_approval:
    workflow_job_id: "{{ deploy.id }}"
    name: sign-off
    action: approve
'''

RETURN = r'''
id:
  description: Id of the workflow job (not returned in check mode).
  returned: when a workflow job was launched
  type: int
  sample: 42
status:
  description: Status of the workflow job; the final one with O(wait).
  returned: when a workflow job was launched
  type: str
  sample: successful
job_info:
  description: The workflow job as the service returns it (at launch, or when it finished with O(wait)).
  returned: when a workflow job was launched
  type: dict
  sample: {"id": 42, "status": "successful", "workflow_job_template": 7}
workflow_job:
  description: The same as RV(job_info).
  returned: when a workflow job was launched
  type: dict
  sample: {"id": 42, "status": "successful", "workflow_job_template": 7}
ignored_fields:
  description: Launch values the service says it ignored (empty, since the module refuses them up front).
  returned: when a workflow job was launched
  type: dict
  sample: {}
workflow_job_template:
  description: Id of the workflow job template.
  returned: always
  type: int
  sample: 7
elapsed:
  description: Seconds the workflow job ran.
  returned: with O(wait), also on failure
  type: float
  sample: 13.2
started:
  description: When the workflow job started.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the workflow job finished.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:13.323456Z"
stdout:
  description: The nodes that failed, and the last lines of the output of the last failed job.
  returned: with O(wait) when the workflow job finished
  type: str
  sample: "node deploy: job 44 failed\nLast lines of job 44:\nPLAY RECAP ****"
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils import _jobs, _workflow_jobs
from ansible_collections.automation.service.plugins.module_utils._plan import Plan

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True, aliases=['workflow_template']),
    organization=dict(type='str'),
    inventory=dict(type='str'),
    limit=dict(type='str'),
    scm_branch=dict(type='str'),
    extra_vars=dict(type='dict'),
    job_tags=dict(type='list', elements='str', aliases=['tags']),
    skip_tags=dict(type='list', elements='str'),
    labels=dict(type='list', elements='str'),
    wait=dict(type='bool', default=True),
    timeout=dict(type='int'),
    interval=dict(type='float', default=2.0),
)
LAUNCH_FIELDS = [name for name, flag in _workflow_jobs.PROMPTS]


def template_id(api):
    params = api.params
    org_id = api.resolve_id('organizations', params['organization'], 'organization')
    found = api.lookup('workflow_job_templates', params['name'], organization=org_id)
    if found is None:
        # awx.awx's words first (playbooks compare them)
        where = '' if org_id is None else ' in organization %r' % params['organization']
        raise NotFound('Unable to find workflow job template %r%s.' % (params['name'], where), total_results=0)
    return found['id']


def launch_body(api):
    params = api.params
    body = dict((name, params[name]) for name in LAUNCH_FIELDS if params[name] is not None)
    for name in ('job_tags', 'skip_tags'):
        if name in body:
            body[name] = ','.join(body[name])
    if 'inventory' in body:
        body['inventory'] = api.resolve_id('inventories', body['inventory'], 'inventory')
    if 'labels' in body:
        body['labels'] = [api.resolve_id('labels', label, 'label') for label in body['labels']]
    return body


def run(api):
    params = api.params
    wfjt_id = template_id(api)
    api.returns(workflow_job_template=wfjt_id)
    info = api.client.get('workflow_job_templates/%d/launch' % wfjt_id)
    name = info.get('workflow_job_template_data', {}).get('name') or params['name']
    _workflow_jobs.check_prompts(name, info, [field for field in LAUNCH_FIELDS if params[field] is not None])
    body = launch_body(api)
    if params['wait'] and params['interval'] <= 0:
        raise ConfigError('interval must be more than 0 seconds.')
    launched = api.apply(Plan(None, [_jobs.launch(wfjt_id, body, _workflow_jobs.WORKFLOW_JOB)]))
    if api.check_mode:
        return
    job_id = launched['workflow_job']
    ignored = launched.get('ignored_fields') or {}
    api.returns(id=job_id, status=launched.get('status'), job_info=launched, workflow_job=launched,
                ignored_fields=ignored)
    if ignored:
        api.warn('The service ignored these launch values: %s' % ', '.join(sorted(ignored)))
    if params['wait']:
        api.returns(**_jobs.wait(api.client, job_id, params['timeout'], params['interval'],
                                 kind=_workflow_jobs.WORKFLOW_JOB, shape=workflow_result))


def workflow_result(result):
    """_jobs.wait's result, with the workflow job under the names this module returns it."""
    result = dict(result)
    job = result.pop('job')
    result.update(job_info=job, workflow_job=job)
    return result


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='workflow_jobs', result_key='workflow_job')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
