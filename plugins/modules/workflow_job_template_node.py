#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: workflow_job_template_node
short_description: Create, update or delete a node of a workflow job template
version_added: 0.3.0
description:
  - Makes a node of a workflow job template match the fields given; fields not given are left alone.
  - A node is known by its O(identifier) within its workflow. What it runs is a job template, project, inventory
    source or workflow (O(unified_job_template)) or an approval step (O(approval_node)).
  - The edges to other nodes of the same workflow (O(success_nodes), O(failure_nodes), O(always_nodes)) name those
    nodes by identifier, so the nodes can be created first and linked afterwards, in any order.
  - O(extra_data) is compared as data, so an unchanged run reports no change.
  - Takes the options of awx.awx's C(workflow_job_template_node) module, except those the notes name.
author:
  - automation.service maintainers (@automation-service)
options:
  identifier:
    description:
      - The key of the node, unique within its workflow.
    type: str
    required: true
  workflow_job_template:
    description:
      - The workflow job template of the node, by name or id. A node does not move to another workflow.
    type: str
    required: true
    aliases: [workflow]
  organization:
    description:
      - Organization of the workflow job template, by name or id, to find O(workflow_job_template) by name.
    type: str
  unified_job_template:
    description:
      - What the node runs, by name or id; a job template, project, inventory source, workflow job template or system
        job template of that name (in O(lookup_organization) when given; a system job template is in none). Name one of
        another kind by id when names clash.
    type: str
  lookup_organization:
    description:
      - Organization, by name or id, in which O(unified_job_template) is looked up by name.
    type: str
  approval_node:
    description:
      - Makes the node an approval step that waits for someone to approve or deny it. The approval template is
        created with the node and updated with it afterwards.
    type: dict
    suboptions:
      name:
        description: Name of the approval; required (without it the task fails before anything is written).
        type: str
      description:
        description: Description of the approval.
        type: str
      timeout:
        description: Seconds before the approval expires and fails; V(0) waits for ever.
        type: int
  extra_data:
    description:
      - Variables given to the job of the node (taken when its template prompts for variables or has a survey).
    type: dict
  inventory:
    description:
      - Inventory given to the job of the node when its template prompts for one, by name or id. V('') clears it.
    type: str
  scm_branch:
    description: Branch given to the job of the node when its template prompts for one.
    type: str
  job_type:
    description: Job type given to the job of the node when its template prompts for one.
    type: str
    choices: [run, check]
  job_tags:
    description: Comma separated tags given to the job of the node when its template prompts for them.
    type: str
  skip_tags:
    description: Comma separated tags to skip, given to the job of the node when its template prompts for them.
    type: str
  limit:
    description: Host pattern given to the job of the node when its template prompts for a limit.
    type: str
  diff_mode:
    description: Diff mode of the job of the node when its template prompts for it.
    type: bool
  verbosity:
    description: Verbosity of the job of the node when its template prompts for it.
    type: str
    choices: ['0', '1', '2', '3', '4', '5']
  forks:
    description: Forks of the job of the node when its template prompts for them.
    type: int
  job_slice_count:
    description: Slices of the job of the node when its template prompts for them.
    type: int
  timeout:
    description: Timeout, in seconds, of the job of the node when its template prompts for it.
    type: int
  execution_environment:
    description:
      - Execution environment of the job of the node when its template prompts for one, by name or id.
        V('') clears it.
    type: str
  all_parents_must_converge:
    description:
      - With V(true) the node runs only when every parent reached it; with V(false) one parent is enough.
    type: bool
  success_nodes:
    description:
      - Identifiers of the nodes of the same workflow that run when this node succeeds. The list given replaces the
        node's success edges; V([]) removes them.
    type: list
    elements: str
  failure_nodes:
    description:
      - Identifiers of the nodes of the same workflow that run when this node fails. The list given replaces the
        node's failure edges; V([]) removes them.
    type: list
    elements: str
  always_nodes:
    description:
      - Identifiers of the nodes of the same workflow that run whatever this node's outcome. The list given replaces
        the node's always edges; V([]) removes them.
    type: list
    elements: str
  credentials:
    description:
      - Credentials given to the job of the node when its template prompts for them, by name or id. The list given
        replaces the node's credentials; V([]) removes them.
    type: list
    elements: str
  labels:
    description:
      - Labels given to the job of the node when its template prompts for them, by name or id. The list given
        replaces the node's labels; V([]) removes them.
    type: list
    elements: str
  instance_groups:
    description:
      - Instance groups given to the job of the node when its template prompts for them, by name or id. The list
        given replaces the node's instance groups; V([]) removes them. Their order is not compared.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the node, V(absent) deletes it (and its edges).
      - V(exists) creates the node when it is missing and leaves a node found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - With O(state=present), one of O(unified_job_template), O(approval_node), O(success_nodes), O(failure_nodes) and
    O(always_nodes) is required, as with awx.awx.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
seealso:
  - module: automation.service.workflow_job_template
'''

EXAMPLES = r'''
- name: The first node runs a job template
  automation.service.workflow_job_template_node:
    identifier: build
    workflow_job_template: Nightly deploy
    organization: Default
    unified_job_template: Build
    lookup_organization: Default
    extra_data:
      flavour: release

- name: An approval step
  automation.service.workflow_job_template_node:
    identifier: approve
    workflow_job_template: Nightly deploy
    organization: Default
    approval_node:
      name: Approve the deploy
      timeout: 3600

- name: The deploy node, run after the approval
  automation.service.workflow_job_template_node:
    identifier: deploy
    workflow_job_template: Nightly deploy
    organization: Default
    unified_job_template: Deploy
    limit: web

- name: Link them - build, then approve, then deploy
  automation.service.workflow_job_template_node:
    identifier: "{{ item.node }}"
    workflow_job_template: Nightly deploy
    organization: Default
    success_nodes: "{{ item.next }}"
  loop:
    - {node: build, next: [approve]}
    - {node: approve, next: [deploy]}
'''

RETURN = r'''
id:
  description: Id of the node (of the deleted one with O(state=absent)).
  returned: when the node exists or existed
  type: int
  sample: 31
workflow_job_template_node:
  description: The node as the service returns it (the would-be node in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 31, "identifier": "build", "workflow_job_template": 12, "unified_job_template": 7,
           "success_nodes": [32], "failure_nodes": [], "always_nodes": []}
approval_template:
  description: The approval template of the node as the service returns it.
  returned: with O(approval_node), when the node exists
  type: dict
  sample: {"id": 40, "name": "Approve the deploy", "description": "", "timeout": 3600}
'''

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS
from ansible_collections.automation.service.plugins.module_utils._workflow_node import (
    PROMPT_SPEC, RESOURCE, ensure_node, workflow_id,
)

ARGUMENT_SPEC = dict(
    identifier=dict(type='str', required=True),
    workflow_job_template=dict(type='str', required=True, aliases=['workflow']),
    organization=dict(type='str'),
    unified_job_template=dict(type='str'),
    lookup_organization=dict(type='str'),
    approval_node=dict(type='dict', options=dict(
        name=dict(type='str'),
        description=dict(type='str'),
        timeout=dict(type='int'),
    )),
    inventory=dict(type='str'),
    execution_environment=dict(type='str'),
    success_nodes=dict(type='list', elements='str'),
    failure_nodes=dict(type='list', elements='str'),
    always_nodes=dict(type='list', elements='str'),
    credentials=dict(type='list', elements='str'),
    labels=dict(type='list', elements='str'),
    instance_groups=dict(type='list', elements='str'),
    state=STATE_EXISTS,
)
ARGUMENT_SPEC.update(PROMPT_SPEC)

SPEC = RESOURCE.spec(
    ARGUMENT_SPEC,
    mutually_exclusive=[('unified_job_template', 'approval_node')],
)
# With state present one of these is needed (checked in run, after the types of every option).
# (awx.awx's order: its message names them so, and playbooks compare it)
ONE_OF = ['unified_job_template', 'approval_node', 'success_nodes', 'always_nodes', 'failure_nodes']


def run(api):
    if api.params['state'] == 'present' and all(api.params.get(key) is None for key in ONE_OF):
        raise ConfigError('state is present but any of the following are missing: %s' % ', '.join(ONE_OF))
    workflow = workflow_id(api, api.params['workflow_job_template'], api.params.get('organization'))
    ensure_node(api, workflow)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
