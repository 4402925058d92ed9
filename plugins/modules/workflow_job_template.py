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
  - The nodes of the workflow are given by O(workflow_nodes), or managed with M(automation.service.workflow_job_template_node).
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
      - The labels of the workflow job template, by name (in O(organization) when given, else in any
        organization, whether the template exists yet or not) or id. The list given replaces the template's
        labels; V([]) removes them all. The labels must exist.
    type: list
    elements: str
  notification_templates_started:
    description:
      - Notification templates, by name or id, that notify when a job of the workflow starts. The list given
        replaces the template's; V([]) removes them all.
    type: list
    elements: str
  notification_templates_success:
    description:
      - Notification templates, by name or id, that notify when a job of the workflow succeeds. The list given
        replaces the template's; V([]) removes them all.
    type: list
    elements: str
  notification_templates_error:
    description:
      - Notification templates, by name or id, that notify when a job of the workflow fails. The list given
        replaces the template's; V([]) removes them all.
    type: list
    elements: str
  notification_templates_approvals:
    description:
      - Notification templates, by name or id, that notify when an approval of the workflow waits, is approved,
        denied or times out. The list given replaces the template's; V([]) removes them all.
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
  workflow_nodes:
    description:
      - Nodes of the workflow, each brought to its O(workflow_nodes[].state) in the order given, then their edges
        set. Nodes of the workflow not in the list are left alone unless O(destroy_current_nodes) is true.
      - Each node takes the options of M(automation.service.workflow_job_template_node) in awx.awx's shape of
        this option; a node may also be managed with that module instead.
      - Keys that are not options of a node are left out with a warning naming them, as awx.awx ignores them.
    type: list
    elements: dict
    aliases: [schema]
    suboptions:
      identifier:
        description: The key of the node, unique within the workflow.
        type: str
        required: true
      state:
        description: V(present) creates or updates the node, V(absent) deletes it.
        type: str
        choices: [present, absent]
        default: present
      unified_job_template:
        description:
          - What the node runs, by name and O(workflow_nodes[].unified_job_template.type), or with
            O(workflow_nodes[].unified_job_template.type=workflow_approval) an approval step.
        type: dict
        suboptions:
          name:
            description: Name of what the node runs, or of the approval.
            type: str
          type:
            description:
              - The kind of O(workflow_nodes[].unified_job_template.name); without it every kind is searched.
            type: str
            choices: [job_template, project, inventory_source, workflow_job_template, system_job_template, workflow_approval]
          organization:
            description: Organization of the job template, project or workflow, to find it by name.
            type: dict
            suboptions:
              name:
                description: Name of the organization.
                type: str
          inventory:
            description: Where an inventory source is found by name.
            type: dict
            suboptions:
              organization:
                description: Organization of the inventory of the inventory source.
                type: dict
                suboptions:
                  name:
                    description: Name of the organization.
                    type: str
          description:
            description: Description of the approval.
            type: str
          timeout:
            description: Seconds before the approval expires; V(0) waits for ever.
            type: int
      extra_data:
        description: Variables given to the job of the node, compared as data.
        type: dict
      inventory:
        description:
          - Inventory given to the job of the node, by name or id, or as a dict of C(name) and
            C(organization.name).
        type: raw
      scm_branch:
        description: Branch given to the job of the node.
        type: str
      job_type:
        description: Job type given to the job of the node.
        type: str
        choices: [run, check]
      job_tags:
        description: Tags given to the job of the node.
        type: str
      skip_tags:
        description: Tags to skip, given to the job of the node.
        type: str
      limit:
        description: Host pattern given to the job of the node.
        type: str
      diff_mode:
        description: Diff mode of the job of the node.
        type: bool
      verbosity:
        description: Verbosity of the job of the node.
        type: str
        choices: ['0', '1', '2', '3', '4', '5']
      forks:
        description: Forks of the job of the node.
        type: int
      job_slice_count:
        description: Slices of the job of the node.
        type: int
      timeout:
        description: Timeout, in seconds, of the job of the node.
        type: int
      execution_environment:
        description: Execution environment of the job of the node.
        type: dict
        suboptions:
          name:
            description: Name of the execution environment.
            type: str
      all_parents_must_converge:
        description: Run the node only when every parent reached it.
        type: bool
      related:
        description:
          - The edges and credentials of the node. A list given replaces what the node has; an empty list, as
            with awx.awx, leaves it alone (O(destroy_current_nodes) rebuilds the graph).
        type: dict
        suboptions:
          success_nodes:
            description: Nodes run when this node succeeds.
            type: list
            elements: dict
            suboptions:
              identifier:
                description: Identifier of the node.
                type: str
          failure_nodes:
            description: Nodes run when this node fails.
            type: list
            elements: dict
            suboptions:
              identifier:
                description: Identifier of the node.
                type: str
          always_nodes:
            description: Nodes run whatever this node's outcome.
            type: list
            elements: dict
            suboptions:
              identifier:
                description: Identifier of the node.
                type: str
          credentials:
            description: Credentials given to the job of the node.
            type: list
            elements: dict
            suboptions:
              name:
                description: Name of the credential.
                type: str
              organization:
                description: Organization of the credential.
                type: dict
                suboptions:
                  name:
                    description: Name of the organization.
                    type: str
          labels:
            description: Labels given to the job of the node.
            type: list
            elements: dict
            suboptions:
              name:
                description: Name of the label.
                type: str
              organization:
                description: Organization of the label.
                type: dict
                suboptions:
                  name:
                    description: Name of the organization.
                    type: str
          instance_groups:
            description: Instance groups given to the job of the node.
            type: list
            elements: dict
            suboptions:
              name:
                description: Name of the instance group.
                type: str
  destroy_current_nodes:
    description:
      - Delete every node of the workflow before bringing those of O(workflow_nodes) to their state, so that the
        workflow holds exactly those nodes. The nodes are created anew, so a run with this option always reports
        a change when the workflow has nodes.
    type: bool
    default: false
    aliases: [destroy_current_schema]
  state:
    description:
      - V(present) creates or updates the workflow job template, V(absent) deletes it.
      - V(exists) creates the workflow job template when it is missing and leaves a workflow job template found as
        it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.copy_from
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

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource
from ansible_collections.automation.service.plugins.module_utils._survey import ensure_survey
from ansible_collections.automation.service.plugins.module_utils._workflow_node import (
    EDGES, ENDPOINT as NODE_ENDPOINT, PROMPT_LISTS, PROMPT_SPEC, ensure_node, node_task, org_filter, runnable_id,
)


NOTIFICATIONS = ('notification_templates_started', 'notification_templates_success', 'notification_templates_error',
                 'notification_templates_approvals')
ASK_FLAGS = (
    'ask_variables_on_launch', 'ask_inventory_on_launch', 'ask_scm_branch_on_launch', 'ask_limit_on_launch',
    'ask_labels_on_launch', 'ask_tags_on_launch', 'ask_skip_tags_on_launch',
)
ALIASES = {'ask_labels_on_launch': ['ask_labels'], 'ask_tags_on_launch': ['ask_tags'],
           'ask_skip_tags_on_launch': ['ask_skip_tags']}

ARGUMENT_SPEC = dict(
    copy_from=dict(type='str'),
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
    notification_templates_started=dict(type='list', elements='str'),
    notification_templates_success=dict(type='list', elements='str'),
    notification_templates_error=dict(type='list', elements='str'),
    notification_templates_approvals=dict(type='list', elements='str'),
    webhook_service=dict(type='str', choices=['github', 'gitlab', 'bitbucket_dc']),
    webhook_credential=dict(type='str', no_log=False),
    workflow_nodes=dict(type='list', elements='dict', aliases=['schema'], options=dict(
        PROMPT_SPEC,
        identifier=dict(type='str', required=True),
        state=dict(type='str', choices=['present', 'absent'], default='present'),
        unified_job_template=dict(type='dict', options=dict(
            name=dict(type='str'),
            type=dict(type='str', choices=[
                'job_template', 'project', 'inventory_source', 'workflow_job_template', 'system_job_template',
                'workflow_approval']),
            organization=dict(type='dict', options=dict(name=dict(type='str'))),
            inventory=dict(type='dict', options=dict(
                organization=dict(type='dict', options=dict(name=dict(type='str'))))),
            description=dict(type='str'),
            timeout=dict(type='int'),
        )),
        inventory=dict(type='raw'),
        execution_environment=dict(type='dict', options=dict(name=dict(type='str'))),
        related=dict(type='dict', options=dict(
            success_nodes=dict(type='list', elements='dict', options=dict(identifier=dict(type='str'))),
            failure_nodes=dict(type='list', elements='dict', options=dict(identifier=dict(type='str'))),
            always_nodes=dict(type='list', elements='dict', options=dict(identifier=dict(type='str'))),
            credentials=dict(type='list', elements='dict', options=dict(
                name=dict(type='str'), organization=dict(type='dict', options=dict(name=dict(type='str'))))),
            labels=dict(type='list', elements='dict', options=dict(
                name=dict(type='str'), organization=dict(type='dict', options=dict(name=dict(type='str'))))),
            instance_groups=dict(type='list', elements='dict', options=dict(name=dict(type='str'))),
        )),
    )),
    destroy_current_nodes=dict(type='bool', default=False, aliases=['destroy_current_schema']),
    state=STATE_EXISTS,
)
ARGUMENT_SPEC.update((flag, dict(type='bool', aliases=ALIASES[flag]) if flag in ALIASES else dict(type='bool'))
                     for flag in ASK_FLAGS)

NOTIFICATION_LISTS = [(event, (event, 'notification_templates')) for event in NOTIFICATIONS]
RESOURCE = Resource(
    'workflow_job_templates', 'workflow_job_template', 'workflow job template',
    scope={'organization': 'organizations'},
    fields=('description', 'limit', 'scm_branch', 'job_tags', 'skip_tags', 'allow_simultaneous', 'survey_enabled',
            'webhook_service') + ASK_FLAGS,
    references={'inventory': 'inventories', 'webhook_credential': 'credentials'},
    text_data=('extra_vars',),
    associations=dict([('labels', ('labels', 'labels'))] + NOTIFICATION_LISTS),
    scoped_associations=('labels',),
    missing={'labels': 'Could not find label entry with name %s'},
)
# awx.awx takes the nodes as free-form dicts and ignores the keys it does not use (its own
# tests pass forks, job_slice_count or related inside unified_job_template).
SPEC = RESOURCE.spec(ARGUMENT_SPEC, free_form=('workflow_nodes',))


def name_of(value):
    """The name in awx.awx's ``{name: ..., organization: {name: ...}}`` shape."""
    return (value or {}).get('name')


def named_id(api, endpoint, item, label, identifier):
    """The id of the object ``item`` names (``{name: ..., organization: {name: ...}}``), as a string."""
    if not item.get('name'):
        raise ConfigError('a %s of node %r has no name.' % (label, identifier))
    return str(api.resolve_id(endpoint, item['name'], label,
                              **org_filter('organization', name_of(item.get('organization')))))


def node_params(api, node):
    """The options of the node module for one entry of ``workflow_nodes`` (its edges aside)."""
    if node['state'] == 'absent':
        return {'identifier': node['identifier'], 'state': 'absent'}
    params = dict((key, node.get(key)) for key in PROMPT_SPEC)
    params.update(identifier=node['identifier'], state=node['state'])
    runs = node.get('unified_job_template') or {}
    if runs.get('type') == 'workflow_approval':
        params['approval_node'] = dict((key, runs.get(key)) for key in ('name', 'description', 'timeout'))
    elif runs.get('name') is not None:
        organization = name_of(runs.get('organization')) or name_of((runs.get('inventory') or {}).get('organization'))
        params['unified_job_template'] = str(runnable_id(api, runs['name'], organization, runs.get('type')))
    inventory = node.get('inventory')
    if isinstance(inventory, dict):
        inventory = named_id(api, 'inventories', inventory, 'inventory', node['identifier'])
    params['inventory'] = None if inventory is None else str(inventory)
    params['execution_environment'] = name_of(node.get('execution_environment'))
    for option in PROMPT_LISTS:
        items = (node.get('related') or {}).get(option)
        if items:  # as with awx.awx, an empty list leaves the node's list alone
            label = option.replace('_', ' ').rstrip('s')
            params[option] = [named_id(api, option, item, label, node['identifier']) for item in items]
    return params


def resolved_nodes(api):
    """The entries of ``workflow_nodes`` and the options of the node module for each, every name they give
    resolved (nothing is written here)."""
    return [(node, node_params(api, node)) for node in api.params.get('workflow_nodes') or ()]


def ensure_nodes(api, workflow, resolved):
    """The nodes of ``workflow_nodes`` (``resolved``: resolved_nodes()): each created, updated or deleted, then
    their edges."""
    nodes = [node for node, _params in resolved]
    if api.params.get('destroy_current_nodes') and workflow is not None:
        for node in list(api.client.iterate(NODE_ENDPOINT, {'workflow_job_template': workflow, 'page_size': 200})):
            task = node_task(api, {'identifier': node['identifier'], 'state': 'absent'})
            task.ensure_absent(node)
            api.merge(task, under=('workflow_nodes', node['identifier']))
    if not nodes:
        return
    pending = set()
    for node, params in resolved:
        task = node_task(api, params)
        ensure_node(task, workflow)
        api.merge(task, under=('workflow_nodes', node['identifier']))
        if node['state'] == 'present' and task.result.get('id') is None:
            pending.add(node['identifier'])  # created in check mode only
    for node in nodes:
        related = node.get('related') or {}
        edges = dict((option, [item.get('identifier') for item in related[option]])
                     for option in EDGES if related.get(option))  # an empty list leaves the edges alone
        if node['state'] == 'absent' or not edges:
            continue
        task = node_task(api, dict(edges, identifier=node['identifier']))
        ensure_node(task, workflow, pending)
        api.merge(task, under=('workflow_nodes', node['identifier']))


def run(api):
    state = api.params['state']
    resolved = []

    def planned(plan):
        # The names the nodes give are looked up once the template is planned and before it is written, so that a
        # bad one writes nothing (a template found with ``exists`` is kept as it is, its nodes left alone).
        if state == 'present' or (state == 'exists' and plan.existing is None):
            resolved.extend(resolved_nodes(api))

    obj, new = RESOURCE.run(api, planned)
    if obj is not None and (new or state != 'exists'):
        ensure_survey(api, RESOURCE.endpoint, obj, new, api.params.get('survey_spec'))
        ensure_nodes(api, obj.get('id'), resolved)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
