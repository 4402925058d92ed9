#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: bulk_job_launch
short_description: Launch many jobs in one request, and optionally wait for them
version_added: 0.1.0
description:
  - Launches jobs with the service's bulk action (C(/api/v2/bulk/job_launch/)). The service creates one
    workflow job whose nodes are the jobs, and starts them all.
  - The launch values at the top level (O(inventory), O(limit), O(extra_vars), ...) apply to every job and take
    precedence over a job's own; the service uses a value only where the job's template prompts for it and
    silently ignores it elsewhere.
  - The launch request is sent once and never retried once it may have reached the service. When the
    connection breaks after it was sent, the module fails and says how to find out whether the jobs started.
author:
  - automation.service maintainers (@automation-service)
options:
  jobs:
    description:
      - The jobs to launch, one node of the workflow job each.
    type: list
    elements: dict
    required: true
    suboptions:
      unified_job_template:
        description: The template to launch, by numeric id (any kind of template), or a job template by name.
        type: str
        required: true
      inventory:
        description: Inventory, by name or numeric id, if the template prompts for it.
        type: str
      execution_environment:
        description: Execution environment, by name or numeric id, if the template prompts for it.
        type: str
      instance_groups:
        description: Instance groups, by name or numeric id, if the template prompts for them.
        type: list
        elements: str
      credentials:
        description: Credentials, by name or numeric id, if the template prompts for them.
        type: list
        elements: str
      labels:
        description: Labels, by name or numeric id, if the template prompts for them.
        type: list
        elements: str
      extra_data:
        description: Extra variables of this job, if the template prompts for them. O(extra_vars) goes over them.
        type: dict
      diff_mode:
        description: Show the changes Ansible tasks make, if the template prompts for it.
        type: bool
      verbosity:
        description: Verbosity of the run, if the template prompts for it.
        type: int
        choices: [0, 1, 2, 3, 4, 5]
      scm_branch:
        description: Branch of the project, if the template prompts for it and the project allows it.
        type: str
      job_type:
        description: Job type, if the template prompts for it.
        type: str
        choices: [run, check]
      job_tags:
        description: Comma-separated tags to run, if the template prompts for them.
        type: str
      skip_tags:
        description: Comma-separated tags to skip, if the template prompts for them.
        type: str
      limit:
        description: Host pattern limiting the run, if the template prompts for it.
        type: str
      forks:
        description: Number of parallel processes, if the template prompts for it.
        type: int
      job_slice_count:
        description: Number of slices to run the job in, if the template prompts for it.
        type: int
      identifier:
        description: Identifier of the job's node in the workflow job, unique among the jobs.
        type: str
      timeout:
        description: Seconds the service lets the job run, if the template prompts for it.
        type: int
  name:
    description:
      - Name of the workflow job (the service names it C(Bulk Job Launch) otherwise).
    type: str
  description:
    description:
      - Description of the workflow job.
    type: str
  organization:
    description:
      - Organization of the workflow job, by name or numeric id; it decides who sees it. Needed when the user
        (not a superuser) belongs to more than one organization.
    type: str
  inventory:
    description:
      - Inventory of every job, by name or numeric id, where the template prompts for it.
    type: str
  limit:
    description:
      - Host pattern of every job, where the template prompts for it.
    type: str
  scm_branch:
    description:
      - Project branch of every job, where the template prompts for it.
    type: str
  extra_vars:
    description:
      - Extra variables of every job, merged over each job's O(jobs[].extra_data).
    type: dict
  job_tags:
    description:
      - Comma-separated tags to run in every job, where the template prompts for them.
    type: str
  skip_tags:
    description:
      - Comma-separated tags to skip in every job, where the template prompts for them.
    type: str
  wait:
    description:
      - Wait for the workflow job, that is for all the jobs, to finish; fail when one of them does not succeed.
    type: bool
    default: true
  timeout:
    description:
      - With O(wait), how many seconds to wait at most. The module then fails, saying the workflow job is still
        running and its id; the jobs go on. Without it, waits as long as they run.
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
    description: Resolves every name given; launches nothing.
    support: full
  diff_mode:
    description: A launch has no before and after.
    support: none
notes:
  - A launch always reports C(changed).
  - The service limits how many jobs one request may launch (its setting C(BULK_JOB_MAX_LAUNCH), 100 unless
    changed, in the C(bulk) settings category).
  - Unlike awx.awx's module, names are accepted for the templates and the objects of each job, and the wait
    can be bounded with O(timeout).
seealso:
  - module: automation.service.job_launch
  - module: automation.service.job_wait
'''

EXAMPLES = r'''
- name: Run two templates at once and wait for both
  automation.service.bulk_job_launch:
    name: Nightly checks
    jobs:
      - unified_job_template: Check disks
        limit: web*
      - unified_job_template: 10
        extra_data:
          depth: full
    extra_vars:
      run_by: ansible
    timeout: 1800

- name: Start them and carry on
  automation.service.bulk_job_launch:
    jobs:
      - unified_job_template: Check disks
    wait: false
  register: started
'''

RETURN = r'''
id:
  description: Id of the workflow job (not returned in check mode).
  returned: when launched
  type: int
  sample: 42
status:
  description: Status of the workflow job; the final one with O(wait).
  returned: when launched
  type: str
  sample: successful
job_info:
  description: The workflow job as the service answered the launch.
  returned: when launched
  type: dict
  sample: {"id": 42, "type": "workflow_job", "name": "Bulk Job Launch", "status": "pending"}
job:
  description: The workflow job when it finished.
  returned: with O(wait)
  type: dict
  sample: {"id": 42, "type": "workflow_job", "status": "successful", "failed": false}
jobs:
  description: The jobs of the workflow job's nodes, with their id, name and status.
  returned: with O(wait), also on failure
  type: list
  elements: dict
  sample: [{"id": 51, "name": "Check disks", "status": "successful", "identifier": "0b5c..."}]
elapsed:
  description: Seconds the workflow job ran.
  returned: with O(wait), also on failure
  type: float
  sample: 12.5
started:
  description: When the workflow job started.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the workflow job finished.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:12.623456Z"
stdout:
  description: The last lines of the output of each job that did not succeed.
  returned: with O(wait) when the workflow job finished, also on failure
  type: str
  sample: "job 51 (Check disks) failed:\nfatal: [web01]: FAILED! => ..."
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec, is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan
from ansible_collections.automation.service.plugins.module_utils import _bulk, _jobs

JOB_OPTIONS = dict(
    unified_job_template=dict(type='str', required=True),
    inventory=dict(type='str'),
    execution_environment=dict(type='str'),
    instance_groups=dict(type='list', elements='str'),
    credentials=dict(type='list', elements='str'),
    labels=dict(type='list', elements='str'),
    extra_data=dict(type='dict'),
    diff_mode=dict(type='bool'),
    verbosity=dict(type='int', choices=[0, 1, 2, 3, 4, 5]),
    scm_branch=dict(type='str'),
    job_type=dict(type='str', choices=['run', 'check']),
    job_tags=dict(type='str'),
    skip_tags=dict(type='str'),
    limit=dict(type='str'),
    forks=dict(type='int'),
    job_slice_count=dict(type='int'),
    identifier=dict(type='str'),
    timeout=dict(type='int'),
)
ARGUMENT_SPEC = dict(
    jobs=dict(type='list', elements='dict', required=True, options=JOB_OPTIONS),
    name=dict(type='str'),
    description=dict(type='str'),
    organization=dict(type='str'),
    inventory=dict(type='str'),
    limit=dict(type='str'),
    scm_branch=dict(type='str'),
    extra_vars=dict(type='dict'),
    job_tags=dict(type='str'),
    skip_tags=dict(type='str'),
    wait=dict(type='bool', default=True),
    timeout=dict(type='int'),
    interval=dict(type='float', default=2.0),
)
# option -> (endpoint, label) of the objects named by name or id
REFERENCES = dict(
    unified_job_template=('job_templates', 'job template'),
    inventory=('inventories', 'inventory'),
    execution_environment=('execution_environments', 'execution environment'),
    instance_groups=('instance_groups', 'instance group'),
    credentials=('credentials', 'credential'),
    labels=('labels', 'label'),
)
TOP_LEVEL = ('name', 'description', 'limit', 'scm_branch', 'extra_vars', 'job_tags', 'skip_tags')
FAILED_TAIL_LINES = 15


class Resolver:
    """Names to ids, each name looked up once however many jobs use it."""

    def __init__(self, api):
        self.api = api
        self.known = {}

    def __call__(self, option, value):
        endpoint, label = REFERENCES[option]
        if is_id(value):
            return int(value)
        if (endpoint, value) not in self.known:
            self.known[(endpoint, value)] = self.api.resolve_id(endpoint, value, label)
        return self.known[(endpoint, value)]


def job_body(job, resolve):
    body = {}
    for key, value in job.items():
        if value is None:
            continue
        if key in REFERENCES:
            value = [resolve(key, v) for v in value] if isinstance(value, list) else resolve(key, value)
        body[key] = value
    return body


def launch_body(api):
    params = api.params
    identifiers = [job['identifier'] for job in params['jobs'] if job.get('identifier') is not None]
    twice = sorted(set(i for i in identifiers if identifiers.count(i) > 1))
    if twice:
        raise ConfigError('These job identifiers are given more than once: %s.' % ', '.join(twice))
    if not params['jobs']:
        raise ConfigError('jobs is empty: give at least one job to launch.')
    resolve = Resolver(api)
    body = dict((key, params[key]) for key in TOP_LEVEL if params[key] is not None)
    body['jobs'] = [job_body(job, resolve) for job in params['jobs']]
    if params['organization'] is not None:
        body['organization'] = api.resolve_id('organizations', params['organization'], 'organization')
    if params['inventory'] is not None:
        body['inventory'] = resolve('inventory', params['inventory'])
    return body


def node_jobs(client, workflow_job_id):
    """id, name, status and identifier of the job of each node of the workflow job."""
    jobs = []
    for node in client.iterate('workflow_jobs/%d/workflow_nodes' % workflow_job_id, params={'page_size': 200}):
        summary = node.get('summary_fields', {}).get('job') or {}
        jobs.append(dict(id=node.get('job'), name=summary.get('name'), status=summary.get('status'),
                         identifier=node.get('identifier')))
    return jobs


def failed_output(client, workflow_job_id):
    """The last lines of each job of the workflow job that did not succeed."""
    parts = []
    for job in node_jobs(client, workflow_job_id):
        if job['id'] is None:
            parts.append('node %s: no job was started' % job['identifier'])
        elif job['status'] in _jobs.FAILED:
            parts.append('job %d (%s) %s:\n%s' % (job['id'], job['name'], job['status'],
                                                  _jobs.stdout_tail(client, job['id'], FAILED_TAIL_LINES)))
    return '\n'.join(parts)


def run(api):
    params = api.params
    body = launch_body(api)
    launched = api.apply(Plan(None, [_bulk.write('job_launch', body, 'job launch',
                                                 'look for the workflow job first: GET /api/v2/workflow_jobs/'
                                                 '?order_by=-created (or the service UI).')]))
    if api.check_mode:
        return
    wfj_id = launched['id']
    api.returns(id=wfj_id, status=launched.get('status'), job_info=launched)
    if not params['wait']:
        return
    api.returns(**_jobs.wait(api.client, wfj_id, params['timeout'], params['interval'],
                             kind=_jobs.WORKFLOW_JOB, output=failed_output,
                             again='Follow it at /api/v2/workflow_jobs/%d/.' % wfj_id,
                             shape=lambda result: dict(result, jobs=node_jobs(api.client, wfj_id))))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='workflow_jobs', result_key='job')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
