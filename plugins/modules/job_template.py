#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: job_template
short_description: Create, update or delete a job template
version_added: 0.1.0
description:
  - Makes a job template of the service match the fields given; fields not given are left alone.
  - The C(ask_*_on_launch) flags say which values M(automation.service.job_launch) may give at launch.
  - O(extra_vars) and O(survey_spec) are compared as data, so an unchanged run reports no change.
  - Lists (O(credentials), O(labels), O(instance_groups), the C(notification_templates_*) lists) replace what the
    template holds; V([]) empties one, a list not given is left alone.
  - Takes the options of awx.awx's C(job_template) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the job template.
    type: str
    required: true
  new_name:
    description:
      - A new name for the job template (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the job template.
    type: str
  organization:
    description:
      - Organization of the job template, by name or id, to find it in (a template takes the organization of its
        project) and to name its O(labels) in. Without it the template is found by name alone and its labels are
        named in any organization, whether the template exists yet or not (as awx.awx looks them up). V('') is
        the same as leaving it out.
    type: str
  inventory:
    description:
      - Inventory the jobs run against, by name or numeric id. Required to create a template that does not
        prompt for an inventory.
    type: str
  project:
    description:
      - Project holding the playbook, by name (in O(organization) when given), numeric id or named URL. Required to
        create a template.
    type: str
  playbook:
    description:
      - Playbook of the project to run, as the project lists it (for example V(site.yml)). Required to create a template.
    type: str
  scm_branch:
    description:
      - Branch, tag or commit of the project to run; the project must allow overriding it.
    type: str
  job_type:
    description:
      - V(run) runs the playbook, V(check) runs it in check mode.
    type: str
    choices: [run, check]
  credentials:
    description:
      - The credentials of the jobs, by name or id.
    type: list
    elements: str
  credential:
    description:
      - One credential, by name or id, added to O(credentials) (or making the list on its own). Kept for older
        playbooks; use O(credentials).
    type: str
  vault_credential:
    description:
      - A vault credential, by name or id, added to O(credentials) like O(credential). Kept for older playbooks.
    type: str
  execution_environment:
    description:
      - The execution environment of the jobs, by name or id; V('') clears it.
    type: str
  instance_groups:
    description:
      - The instance groups the jobs prefer, by name or id, in the order they are tried. The list given replaces the
        template's list, order included.
    type: list
    elements: str
  prevent_instance_group_fallback:
    description:
      - With V(true), the jobs run only on the template's O(instance_groups), never on those of the inventory or
        organization.
    type: bool
  labels:
    description:
      - The labels of the template, by name (in O(organization) when given, else in any organization) or id.
        The labels must exist (see M(automation.service.label)).
    type: list
    elements: str
  forks:
    description:
      - The number of hosts the playbook works on at once; V(0) uses Ansible's default.
    type: int
  limit:
    description:
      - A host pattern that limits the hosts of the inventory the playbook runs on.
    type: str
  verbosity:
    description:
      - The verbosity of the jobs' output, from V(0) (normal) to V(5) (WinRM debug).
    type: int
    choices: [0, 1, 2, 3, 4, 5]
  extra_vars:
    description:
      - Extra variables of every job, compared as data with what the service holds.
    type: dict
  job_tags:
    description:
      - Comma-separated tags of the tasks to run.
    type: str
  skip_tags:
    description:
      - Comma-separated tags of the tasks to skip.
    type: str
  start_at_task:
    description:
      - Name of the task the playbook starts at.
    type: str
  timeout:
    description:
      - Seconds a job may run before the service cancels it; V(0) means no limit.
    type: int
  force_handlers:
    description:
      - Run the notified handlers even on hosts where a task failed.
    type: bool
    aliases: [force_handlers_enabled]
  diff_mode:
    description:
      - Show the changes tasks make to files in the jobs' output.
    type: bool
    aliases: [diff_mode_enabled]
  use_fact_cache:
    description:
      - Keep the facts of the hosts between jobs.
    type: bool
    aliases: [fact_caching_enabled]
  become_enabled:
    description:
      - Run the playbook with privilege escalation.
    type: bool
  allow_simultaneous:
    description:
      - Let several jobs of the template run at once.
    type: bool
    aliases: [concurrent_jobs_enabled]
  job_slice_count:
    description:
      - The number of slices a job is split into; above V(1) a launch runs a workflow of that many jobs.
    type: int
  host_config_key:
    description:
      - The key hosts give to ask for a provisioning callback; V('') turns callbacks off.
    type: str
  survey_enabled:
    description:
      - Whether the survey of the template is asked at launch.
    type: bool
  survey_spec:
    description:
      - The survey of the template (C(name), C(description) and the questions in C(spec)), as the service's
        C(survey_spec) endpoint takes it. Compared as data with the template's survey; V({}) deletes the survey.
      - The service never shows the default of a password question, so such defaults are left out of the
        comparison; a changed password default alone is not a change.
    type: dict
  webhook_service:
    description:
      - The service webhooks are taken from; V('') turns webhooks off.
    type: str
    choices: ['', github, gitlab, bitbucket_dc]
  webhook_credential:
    description:
      - The personal access token credential to post the job's status back with, by name or id; V('') clears it.
    type: str
  notification_templates_started:
    description:
      - Notification templates sent when a job starts, by name or id.
    type: list
    elements: str
  notification_templates_success:
    description:
      - Notification templates sent when a job succeeds, by name or id.
    type: list
    elements: str
  notification_templates_error:
    description:
      - Notification templates sent when a job fails, by name or id.
    type: list
    elements: str
  ask_limit_on_launch:
    description: Prompt for O(automation.service.job_launch#module:limit) at launch.
    type: bool
    aliases: [ask_limit]
  ask_variables_on_launch:
    description: Prompt for O(automation.service.job_launch#module:extra_vars) at launch.
    type: bool
    aliases: [ask_extra_vars]
  ask_inventory_on_launch:
    description: Prompt for O(automation.service.job_launch#module:inventory) at launch.
    type: bool
    aliases: [ask_inventory]
  ask_credential_on_launch:
    description: Prompt for O(automation.service.job_launch#module:credentials) at launch.
    type: bool
    aliases: [ask_credential]
  ask_tags_on_launch:
    description: Prompt for O(automation.service.job_launch#module:job_tags) at launch.
    type: bool
    aliases: [ask_tags]
  ask_skip_tags_on_launch:
    description: Prompt for O(automation.service.job_launch#module:skip_tags) at launch.
    type: bool
    aliases: [ask_skip_tags]
  ask_verbosity_on_launch:
    description: Prompt for O(automation.service.job_launch#module:verbosity) at launch.
    type: bool
    aliases: [ask_verbosity]
  ask_job_type_on_launch:
    description: Prompt for the job type at launch.
    type: bool
    aliases: [ask_job_type]
  ask_scm_branch_on_launch:
    description: Prompt for the project branch at launch.
    type: bool
  ask_diff_mode_on_launch:
    description: Prompt for diff mode at launch.
    type: bool
    aliases: [ask_diff_mode]
  ask_execution_environment_on_launch:
    description: Prompt for the execution environment at launch.
    type: bool
    aliases: [ask_execution_environment]
  ask_forks_on_launch:
    description: Prompt for the forks at launch.
    type: bool
    aliases: [ask_forks]
  ask_instance_groups_on_launch:
    description: Prompt for the instance groups at launch.
    type: bool
    aliases: [ask_instance_groups]
  ask_job_slice_count_on_launch:
    description: Prompt for the job slice count at launch.
    type: bool
    aliases: [ask_job_slice_count]
  ask_labels_on_launch:
    description: Prompt for labels at launch.
    type: bool
    aliases: [ask_labels]
  ask_timeout_on_launch:
    description: Prompt for the timeout at launch.
    type: bool
    aliases: [ask_timeout]
  state:
    description:
      - V(present) creates or updates the job template, V(absent) deletes it.
      - V(exists) creates the job template when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.copy_from
  - automation.service.custom_virtualenv
seealso:
  - module: automation.service.job_launch
  - module: automation.service.project
  - module: automation.service.label
'''

EXAMPLES = r'''
- name: A template that may be limited to some hosts at launch
  automation.service.job_template:
    name: Deploy
    organization: Default
    inventory: Production
    project: Deploy playbooks
    playbook: deploy.yml
    credentials: [Production SSH, Vault]
    labels: [deploy]
    instance_groups: [fast, default]
    extra_vars:
      version: latest
    ask_limit_on_launch: true
    ask_variables_on_launch: true

- name: A survey asked at launch
  automation.service.job_template:
    name: Deploy
    survey_enabled: true
    survey_spec:
      name: Deploy
      description: What to deploy
      spec:
        - question_name: Version
          variable: version
          type: text
          required: true
          default: latest

- name: No survey any more
  automation.service.job_template:
    name: Deploy
    survey_enabled: false
    survey_spec: {}

- name: Remove a template
  automation.service.job_template:
    name: Old deploy
    state: absent
'''

RETURN = r'''
id:
  description: Id of the job template (of the deleted one with O(state=absent)).
  returned: when the job template exists or existed
  type: int
  sample: 7
job_template:
  description: The job template as the service returns it (the would-be template in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 7, "name": "Deploy", "inventory": 3, "project": 2, "playbook": "deploy.yml", "ask_limit_on_launch": true}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import CUSTOM_VIRTUALENV, STATE_EXISTS, Resource
from ansible_collections.automation.service.plugins.module_utils._survey import ensure_survey

ASK_FLAGS = {
    'ask_limit_on_launch': ['ask_limit'], 'ask_variables_on_launch': ['ask_extra_vars'],
    'ask_inventory_on_launch': ['ask_inventory'], 'ask_credential_on_launch': ['ask_credential'],
    'ask_tags_on_launch': ['ask_tags'], 'ask_skip_tags_on_launch': ['ask_skip_tags'],
    'ask_verbosity_on_launch': ['ask_verbosity'], 'ask_job_type_on_launch': ['ask_job_type'],
    'ask_scm_branch_on_launch': [], 'ask_diff_mode_on_launch': ['ask_diff_mode'],
    'ask_execution_environment_on_launch': ['ask_execution_environment'], 'ask_forks_on_launch': ['ask_forks'],
    'ask_instance_groups_on_launch': ['ask_instance_groups'],
    'ask_job_slice_count_on_launch': ['ask_job_slice_count'], 'ask_labels_on_launch': ['ask_labels'],
    'ask_timeout_on_launch': ['ask_timeout'],
}
NOTIFICATIONS = ('notification_templates_started', 'notification_templates_success', 'notification_templates_error')
ARGUMENT_SPEC = dict(
    copy_from=dict(type='str'),
    custom_virtualenv=CUSTOM_VIRTUALENV,
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    organization=dict(type='str'),
    inventory=dict(type='str'),
    project=dict(type='str'),
    playbook=dict(type='str'),
    scm_branch=dict(type='str'),
    job_type=dict(type='str', choices=['run', 'check']),
    credentials=dict(type='list', elements='str'),
    credential=dict(type='str'),
    vault_credential=dict(type='str'),
    execution_environment=dict(type='str'),
    instance_groups=dict(type='list', elements='str'),
    prevent_instance_group_fallback=dict(type='bool'),
    labels=dict(type='list', elements='str'),
    forks=dict(type='int'),
    limit=dict(type='str'),
    verbosity=dict(type='int', choices=[0, 1, 2, 3, 4, 5]),
    extra_vars=dict(type='dict'),
    job_tags=dict(type='str'),
    skip_tags=dict(type='str'),
    start_at_task=dict(type='str'),
    timeout=dict(type='int'),
    force_handlers=dict(type='bool', aliases=['force_handlers_enabled']),
    diff_mode=dict(type='bool', aliases=['diff_mode_enabled']),
    use_fact_cache=dict(type='bool', aliases=['fact_caching_enabled']),
    become_enabled=dict(type='bool'),
    allow_simultaneous=dict(type='bool', aliases=['concurrent_jobs_enabled']),
    job_slice_count=dict(type='int'),
    host_config_key=dict(type='str', no_log=False),
    survey_enabled=dict(type='bool'),
    survey_spec=dict(type='dict'),
    webhook_service=dict(type='str', choices=['', 'github', 'gitlab', 'bitbucket_dc']),
    webhook_credential=dict(type='str'),
    state=STATE_EXISTS,
)
ARGUMENT_SPEC.update((flag, dict(type='bool', aliases=aliases) if aliases else dict(type='bool'))
                     for flag, aliases in ASK_FLAGS.items())
ARGUMENT_SPEC.update((option, dict(type='list', elements='str')) for option in NOTIFICATIONS)

ASSOCIATIONS = {
    'credentials': ('credentials', 'credentials'),
    'labels': ('labels', 'labels'),
    'instance_groups': ('instance_groups', 'instance_groups'),
}
ASSOCIATIONS.update((option, (option, 'notification_templates')) for option in NOTIFICATIONS)

RESOURCE = Resource(
    'job_templates', 'job_template', 'job template',
    scope={'organization': 'organizations'},
    fields=('description', 'playbook', 'scm_branch', 'job_type', 'prevent_instance_group_fallback', 'forks', 'limit',
            'verbosity', 'job_tags', 'skip_tags', 'start_at_task', 'timeout', 'force_handlers', 'diff_mode',
            'use_fact_cache', 'become_enabled', 'allow_simultaneous', 'job_slice_count', 'host_config_key',
            'survey_enabled', 'webhook_service') + tuple(ASK_FLAGS),
    references={'inventory': 'inventories', 'project': 'projects', 'execution_environment': 'execution_environments',
                'webhook_credential': 'credentials'},
    text_data=('extra_vars',),
    associations=ASSOCIATIONS,
    scoped_associations=('labels',),
    ordered=('instance_groups',),
    required_on_create=('project', 'playbook'),
    scope_within={'project': 'organization'},
    missing={'labels': 'Could not find label entry with name %s'},
)


def adjust(params):
    """awx.awx's credential and vault_credential join credentials."""
    legacy = [params[key] for key in ('credential', 'vault_credential') if params.get(key)]
    return {'credentials': list(params.get('credentials') or []) + legacy} if legacy else {}


def run(api):
    params = api.params
    template, new = RESOURCE.run(api)
    if template is not None and params['survey_spec'] is not None and (params['state'] == 'present' or new):
        ensure_survey(api, RESOURCE.endpoint, template, new, params['survey_spec'])


SPEC = RESOURCE.spec(ARGUMENT_SPEC, adjust=adjust)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
