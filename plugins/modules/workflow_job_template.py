#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: workflow_job_template
short_description: Create, update or delete a workflow job template
version_added: 0.3.0
description:
  - Makes a workflow job template of the service match the fields given; fields not given are left alone.
  - O(extra_vars) and O(survey_spec) are compared as data, so an unchanged run reports no change.
  - The nodes of the workflow are managed with M(automation.service.workflow_job_template_node).
  - Takes the options of awx.awx's C(workflow_job_template) module, except those the notes name.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the workflow job template.
    type: str
    required: true
  new_name:
    description:
      - A new name for the workflow job template (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the workflow job template.
    type: str
  organization:
    description:
      - Organization of the workflow job template, by name or id. It narrows the search by O(name) and is set
        when the template is created; an existing template does not move to another organization.
    type: str
  extra_vars:
    description:
      - Variables given to every job the workflow runs, compared as data with what the service holds.
    type: dict
  inventory:
    description:
      - Inventory given to the jobs of the workflow whose templates prompt for one, by name or id. V('') clears it.
    type: str
  limit:
    description:
      - Host pattern given to the jobs of the workflow whose templates prompt for a limit.
    type: str
  scm_branch:
    description:
      - Branch given to the jobs of the workflow whose templates prompt for one.
    type: str
  job_tags:
    description:
      - Comma separated tags given to the jobs of the workflow whose templates prompt for tags.
    type: str
  skip_tags:
    description:
      - Comma separated tags to skip, given to the jobs of the workflow whose templates prompt for them.
    type: str
  allow_simultaneous:
    description:
      - Let several jobs of the workflow run at the same time.
    type: bool
  ask_variables_on_launch:
    description: Prompt for extra variables at launch.
    type: bool
  ask_inventory_on_launch:
    description: Prompt for an inventory at launch.
    type: bool
  ask_scm_branch_on_launch:
    description: Prompt for a branch at launch.
    type: bool
  ask_limit_on_launch:
    description: Prompt for a limit at launch.
    type: bool
  ask_labels_on_launch:
    description: Prompt for labels at launch.
    type: bool
    aliases: [ask_labels]
  ask_tags_on_launch:
    description: Prompt for job tags at launch.
    type: bool
    aliases: [ask_tags]
  ask_skip_tags_on_launch:
    description: Prompt for tags to skip at launch.
    type: bool
    aliases: [ask_skip_tags]
  survey_enabled:
    description:
      - Ask the questions of O(survey_spec) at launch.
    type: bool
  survey_spec:
    description:
      - The survey of the workflow (C(name), C(description) and a C(spec) list of questions), compared as data with
        the one the service holds. V({}) removes the survey. The default of a password question, which the service
        reads back as C($encrypted$), counts as unchanged.
    type: dict
    aliases: [survey]
  labels:
    description:
      - The labels of the workflow job template, by name (in O(organization) when given) or id. The list given
        replaces the template's labels; V([]) removes them all. The labels must exist.
    type: list
    elements: str
  webhook_service:
    description:
      - The service whose webhooks may launch the workflow.
    type: str
    choices: [github, gitlab, bitbucket_dc]
  webhook_credential:
    description:
      - Credential (a personal access token) used to post the status back to the webhook service, by name or id.
        V('') clears it.
    type: str
  state:
    description:
      - V(present) creates or updates the workflow job template, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - awx.awx's O(copy_from) is not offered; the service this collection is tested against has no copy endpoint for
    workflow job templates.
  - awx.awx's C(workflow_nodes) (alias C(schema)) and C(destroy_current_nodes) options are not offered yet; build the
    graph with M(automation.service.workflow_job_template_node), one task per node.
  - awx.awx's C(notification_templates_started), C(notification_templates_success), C(notification_templates_error)
    and C(notification_templates_approvals) are not offered yet.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
seealso:
  - module: automation.service.workflow_job_template_node
  - module: automation.service.label
'''

EXAMPLES = r'''
- name: A workflow that asks for a limit and a survey answer
  automation.service.workflow_job_template:
    name: Nightly deploy
    organization: Default
    inventory: Production
    extra_vars:
      release: stable
    ask_limit_on_launch: true
    labels:
      - nightly
    survey_enabled: true
    survey_spec:
      name: Deploy
      description: What to deploy
      spec:
        - question_name: Version
          variable: version
          type: text
          required: true

- name: Rename it
  automation.service.workflow_job_template:
    name: Nightly deploy
    new_name: Deploy every night
    organization: Default

- name: Remove a workflow job template and its nodes
  automation.service.workflow_job_template:
    name: Old deploy
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the workflow job template (of the deleted one with O(state=absent)).
  returned: when the workflow job template exists or existed
  type: int
  sample: 12
workflow_job_template:
  description: The workflow job template as the service returns it (the would-be template in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 12, "name": "Nightly deploy", "organization": 1, "inventory": 3, "ask_limit_on_launch": true}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE, Resource
from ansible_collections.automation.service.plugins.module_utils._survey import ensure_survey

ASK_FLAGS = (
    'ask_variables_on_launch', 'ask_inventory_on_launch', 'ask_scm_branch_on_launch', 'ask_limit_on_launch',
    'ask_labels_on_launch', 'ask_tags_on_launch', 'ask_skip_tags_on_launch',
)
ALIASES = {'ask_labels_on_launch': ['ask_labels'], 'ask_tags_on_launch': ['ask_tags'],
           'ask_skip_tags_on_launch': ['ask_skip_tags']}

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    organization=dict(type='str'),
    extra_vars=dict(type='dict'),
    inventory=dict(type='str'),
    limit=dict(type='str'),
    scm_branch=dict(type='str'),
    job_tags=dict(type='str'),
    skip_tags=dict(type='str'),
    allow_simultaneous=dict(type='bool'),
    survey_enabled=dict(type='bool'),
    survey_spec=dict(type='dict', aliases=['survey']),
    labels=dict(type='list', elements='str'),
    webhook_service=dict(type='str', choices=['github', 'gitlab', 'bitbucket_dc']),
    webhook_credential=dict(type='str', no_log=False),
    state=STATE,
)
ARGUMENT_SPEC.update((flag, dict(type='bool', aliases=ALIASES[flag]) if flag in ALIASES else dict(type='bool'))
                     for flag in ASK_FLAGS)

RESOURCE = Resource(
    'workflow_job_templates', 'workflow_job_template', 'workflow job template',
    scope={'organization': 'organizations'},
    fields=('description', 'limit', 'scm_branch', 'job_tags', 'skip_tags', 'allow_simultaneous', 'survey_enabled',
            'webhook_service') + ASK_FLAGS,
    references={'inventory': 'inventories', 'webhook_credential': 'credentials'},
    text_data=('extra_vars',),
    associations={'labels': ('labels', 'labels')},
    scoped_associations=('labels',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def run(api):
    outcome = RESOURCE.run(api)
    if outcome is not None:
        ensure_survey(api, RESOURCE.endpoint, outcome[0], outcome[1], api.params.get('survey_spec'))


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
