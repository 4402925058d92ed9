#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: job_launch
short_description: Launch a job from a job template, and optionally wait for it
version_added: 0.1.0
description:
  - Launches a job from a job template, with the launch-time values the template prompts for.
  - Before launching, reads what the template prompts for and fails when a value is given that it
    does not prompt for (the service would silently ignore it).
  - The launch request is sent once and never retried once it may have reached the service. When the
    connection breaks after it was sent, the module fails and says how to find out whether the job started.
author:
  - automation.service maintainers (@automation-service)
options:
  job_template:
    description:
      - The job template to launch, by name or numeric id.
    type: str
    required: true
    aliases: [name]
  limit:
    description:
      - Host pattern limiting the hosts the job runs on. The template must prompt for it (C(ask_limit_on_launch)).
    type: str
  extra_vars:
    description:
      - Extra variables of the job, merged over the template's. The template must prompt for them
        (C(ask_variables_on_launch)) or have an enabled survey; through a survey alone the service takes only the
        survey's variables, ignores the others, and the task warns which (RV(ignored_fields)).
    type: dict
  inventory:
    description:
      - Inventory to run against, by name or numeric id. The template must prompt for it (C(ask_inventory_on_launch)).
    type: str
  credentials:
    description:
      - Credentials of the job, by name or numeric id; they replace the template's.
        The template must prompt for them (C(ask_credential_on_launch)).
    type: list
    elements: str
    aliases: [credential]
  organization:
    description:
      - The organization of the job template, by name or id, when its name is not unique.
    type: str
  job_type:
    description:
      - Run the playbook, or only check it. The template must prompt for it (C(ask_job_type_on_launch)).
    type: str
    choices: [run, check]
  tags:
    description:
      - Tags to run (a list, or comma-separated). The template must prompt for them (C(ask_tags_on_launch)).
    type: list
    elements: str
    aliases: [job_tags]
  skip_tags:
    description:
      - Tags to skip (a list, or comma-separated). The template must prompt for them (C(ask_skip_tags_on_launch)).
    type: list
    elements: str
  scm_branch:
    description:
      - Branch of the project to run from. The template must prompt for it (C(ask_scm_branch_on_launch)).
    type: str
  diff_mode:
    description:
      - Run with diff mode. The template must prompt for it (C(ask_diff_mode_on_launch)).
    type: bool
  verbosity:
    description:
      - Verbosity of the run, 0 to 5. The template must prompt for it (C(ask_verbosity_on_launch)).
    type: int
    choices: [0, 1, 2, 3, 4, 5]
  credential_passwords:
    description:
      - Passwords the template's credentials ask for at launch, by field name (for example C(ssh_password)).
    type: dict
  execution_environment:
    description:
      - Execution environment of the job, by name or id (C(ask_execution_environment_on_launch)).
    type: str
  forks:
    description:
      - Forks of the run (C(ask_forks_on_launch)).
    type: int
  instance_groups:
    description:
      - Instance groups of the job, by name or id (C(ask_instance_groups_on_launch)).
    type: list
    elements: str
  job_slice_count:
    description:
      - Slices of the job (C(ask_job_slice_count_on_launch)).
    type: int
  labels:
    description:
      - Labels of the job, by name or id (C(ask_labels_on_launch)).
    type: list
    elements: str
  job_timeout:
    description:
      - Seconds the job may run before the service cancels it (C(ask_timeout_on_launch)). O(timeout) is how long
        the module waits.
    type: int
  wait:
    description:
      - Wait for the job to finish; fail when it does not succeed.
    type: bool
    default: false
  timeout:
    description:
      - With O(wait), how many seconds to wait at most. The module then fails, saying the job is still
        running and its id; the job goes on. Without it, waits as long as the job runs.
    type: int
  interval:
    description:
      - With O(wait), seconds between two polls of the job's status.
    type: float
    default: 2
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Checks the template, the values given and what the template prompts for; launches nothing.
    support: full
  diff_mode:
    description: A launch has no before and after.
    support: none
notes:
  - A launch always reports C(changed).
  - As awx.awx's module does, the launch fails before it is sent when O(limit), O(extra_vars), O(inventory),
    O(credentials), O(tags), O(skip_tags), O(verbosity), O(job_type), O(scm_branch) or O(diff_mode) is given and the
    template does not prompt for it (O(extra_vars) also go through an enabled survey). The service ignores the other
    values when the template does not prompt for them; the task then warns which.
seealso:
  - module: automation.service.job_wait
  - module: automation.service.job_template
'''

EXAMPLES = r'''
- name: Run the deploy template on one host and wait for it
  automation.service.job_launch:
    job_template: Deploy
    limit: web01.example.com
    extra_vars:
      version: 1.2.3
    wait: true
    timeout: 600
  register: deploy

- name: Start a job and carry on
  automation.service.job_launch:
    job_template: 12
  register: started

- name: Wait for it later
  automation.service.job_wait:
    job_id: "{{ started.id }}"
'''

RETURN = r'''
id:
  description: Id of the job (not returned in check mode).
  returned: when a job was launched
  type: int
  sample: 42
status:
  description: Status of the job; the final one with O(wait).
  returned: when a job was launched
  type: str
  sample: successful
job:
  description: The job as the service returns it (at launch, or when it finished with O(wait)).
  returned: when a job was launched
  type: dict
  sample: {"id": 42, "status": "pending", "limit": "web01.example.com", "job_template": 7}
ignored_fields:
  description: Launch values the service says it ignored (empty, since the module refuses them up front).
  returned: when a job was launched
  type: dict
  sample: {}
job_template:
  description: Id of the job template.
  returned: always
  type: int
  sample: 7
elapsed:
  description: Seconds the job ran.
  returned: with O(wait), also on failure
  type: float
  sample: 3.2
started:
  description: When the job started.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the job finished.
  returned: with O(wait), also on failure
  type: str
  sample: "2024-05-01T10:00:03.323456Z"
stdout:
  description: The last lines of the job's output.
  returned: with O(wait) when the job finished, also on failure
  type: str
  sample: "PLAY RECAP ****\nweb01 : ok=2 changed=0 unreachable=0 failed=0"
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils import _jobs
from ansible_collections.automation.service.plugins.module_utils._plan import Plan

ARGUMENT_SPEC = dict(
    job_template=dict(type='str', required=True, aliases=['name']),
    organization=dict(type='str'),
    limit=dict(type='str'),
    extra_vars=dict(type='dict'),
    inventory=dict(type='str'),
    credentials=dict(type='list', elements='str', aliases=['credential']),
    job_type=dict(type='str', choices=['run', 'check']),
    tags=dict(type='list', elements='str', aliases=['job_tags']),
    skip_tags=dict(type='list', elements='str'),
    scm_branch=dict(type='str'),
    diff_mode=dict(type='bool'),
    verbosity=dict(type='int', choices=[0, 1, 2, 3, 4, 5]),
    credential_passwords=dict(type='dict', no_log=True),
    execution_environment=dict(type='str'),
    forks=dict(type='int'),
    instance_groups=dict(type='list', elements='str'),
    job_slice_count=dict(type='int'),
    labels=dict(type='list', elements='str'),
    job_timeout=dict(type='int'),
    wait=dict(type='bool', default=False),
    timeout=dict(type='int'),
    interval=dict(type='float', default=2.0),
)
# launch field -> the option that gives it
OPTION = {'job_tags': 'tags', 'timeout': 'job_timeout'}
CHECKED = [name for name, flag in _jobs.PROMPTS]          # refused up front when not prompted for
PASSED = ['credential_passwords', 'execution_environment', 'forks', 'instance_groups', 'job_slice_count', 'labels',
          'timeout']                                      # the service says when it ignores them
# launch field -> (endpoint, label) of the objects named
NAMED = {'inventory': ('inventories', 'inventory'), 'credentials': ('credentials', 'credential'),
         'execution_environment': ('execution_environments', 'execution environment'),
         'instance_groups': ('instance_groups', 'instance group'), 'labels': ('labels', 'label')}


def given(params):
    """The launch fields given, by their name in the launch request."""
    return dict((name, params[OPTION.get(name, name)]) for name in CHECKED + PASSED
                if params[OPTION.get(name, name)] is not None)


def launch_body(api, fields):
    body = dict(fields)
    for name in ('job_tags', 'skip_tags'):
        if name in body:
            body[name] = ','.join(body[name])
    for name, (endpoint, label) in NAMED.items():
        if name in body:
            values = body[name] if isinstance(body[name], list) else [body[name]]
            ids = [api.resolve_id(endpoint, value, label) for value in values]
            body[name] = ids if isinstance(body[name], list) else ids[0]
    return body


def run(api):
    params = api.params
    org_id = api.resolve_id('organizations', params['organization'], 'organization')
    jt_id = api.resolve_id('job_templates', params['job_template'], 'job template', organization=org_id)
    api.returns(job_template=jt_id)
    info = api.client.get('job_templates/%d/launch' % jt_id)
    name = info.get('job_template_data', {}).get('name') or params['job_template']
    fields = given(params)
    _jobs.check_prompts(name, info, [field for field in CHECKED if field in fields])
    body = launch_body(api, fields)
    launched = api.apply(Plan(None, [_jobs.launch(jt_id, body)]))
    if api.check_mode:
        return
    job_id = launched['job']
    ignored = launched.get('ignored_fields') or {}
    api.returns(id=job_id, status=launched.get('status'), job=launched, ignored_fields=ignored)
    if ignored:
        api.warn('The service ignored these launch values: %s' % ', '.join(sorted(ignored)))
    if params['wait']:
        api.returns(**_jobs.wait(api.client, job_id, params['timeout'], params['interval']))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='jobs', result_key='job')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
