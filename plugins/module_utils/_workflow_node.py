# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The nodes of a workflow job template, shared by the node module and the
``workflow_nodes`` option of the workflow module.

A node is known by its identifier within its workflow. It runs a job template,
project, inventory source or workflow (``unified_job_template``), or is an
approval step (``approval_node``: its approval template is created through the
node's ``create_approval_template/`` and updated in place afterwards). Its
edges to other nodes of the same workflow name them by identifier.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec, is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, MultipleFound, NotFound
from ansible_collections.automation.service.plugins.module_utils._plan import Write
from ansible_collections.automation.service.plugins.module_utils._resource import Resource, as_data, names_of

ENDPOINT = 'workflow_job_template_nodes'
RESULT_KEY = 'workflow_job_template_node'
EDGES = ('success_nodes', 'failure_nodes', 'always_nodes')
# What a node may run: the kind (awx.awx's ``type``), its endpoint, and the
# filter that scopes it to an organization.
RUNNABLE = (('job_template', 'job_templates', 'organization'), ('project', 'projects', 'organization'),
            ('inventory_source', 'inventory_sources', 'inventory__organization'),
            ('workflow_job_template', 'workflow_job_templates', 'organization'),
            # the service's own maintenance jobs, which no organization holds (a superuser sees them)
            ('system_job_template', 'system_job_templates', None))

# The lists a node prompts with (sub-lists of the node, of objects of the endpoint of that name).
PROMPT_LISTS = ('credentials', 'labels', 'instance_groups')
# The launch prompts a node keeps, as options of both workflow modules.
PROMPT_SPEC = dict(
    extra_data=dict(type='dict'),
    scm_branch=dict(type='str'),
    job_type=dict(type='str', choices=['run', 'check']),
    job_tags=dict(type='str'),
    skip_tags=dict(type='str'),
    limit=dict(type='str'),
    diff_mode=dict(type='bool'),
    verbosity=dict(type='str', choices=['0', '1', '2', '3', '4', '5']),
    forks=dict(type='int'),
    job_slice_count=dict(type='int'),
    timeout=dict(type='int'),
    all_parents_must_converge=dict(type='bool'),
)

RESOURCE = Resource(
    ENDPOINT, RESULT_KEY, 'workflow job template node', name='identifier',
    fields=tuple(key for key in PROMPT_SPEC if key not in ('extra_data', 'verbosity')),  # verbosity: sent as a number
    references={'inventory': 'inventories', 'execution_environment': 'execution_environments'},
    json_data=('extra_data',),
    associations=dict((option, (option, option)) for option in PROMPT_LISTS),
)
# What a task on one node of a workflow is, when another module runs it.
NODE_SPEC = ModuleSpec({}, resource=ENDPOINT, result_key=RESULT_KEY)


def org_filter(field, organization):
    """The filter naming ``organization`` (a name or id) through ``field``."""
    if organization is None:
        return {}
    return {field: int(organization)} if is_id(organization) else {field + '__name': organization}


def workflow_id(api, value, organization=None):
    """The id of the workflow job template ``value`` (a name or id, in ``organization``)."""
    if is_id(value):
        return int(value)
    found = api.get_one('workflow_job_templates', name=value, **org_filter('organization', organization))
    if found is None:
        raise NotFound('workflow job template %r%s was not found.'
                       % (value, '' if organization is None else ' in organization %r' % organization))
    return found['id']


def runnable_id(api, value, organization=None, kind=None, existing=None):
    """The id of the job template, project, inventory source, workflow or system job template
    named ``value`` (of ``kind`` only, when given); no request when it is the node's current one."""
    if is_id(value):
        return int(value)
    current = ((existing or {}).get('summary_fields') or {}).get('unified_job_template') or {}
    if current.get('name') == value and current.get('unified_job_type') != 'workflow_approval' and kind is None:
        return current['id']
    found = []
    for name, endpoint, org_field in RUNNABLE:
        if (kind is not None and kind != name) or (org_field is None and organization is not None):
            continue
        match = api.get_one(endpoint, name=value, **org_filter(org_field, organization))
        if match is not None:
            found.append((name.replace('_', ' '), match['id']))
    if not found:
        raise NotFound('unified job template %r (%s) was not found.'
                       % (value, (kind or 'a job template, project, inventory source or workflow').replace('_', ' ')))
    if len(found) > 1:
        raise MultipleFound('More than one object is named %r (%s): name it by id instead.'
                            % (value, ', '.join('%s %d' % item for item in found)))
    return found[0][1]


def desired(api, existing):
    params = api.params
    wanted = RESOURCE.desired(api, existing)
    if params.get('verbosity') is not None:
        wanted['verbosity'] = int(params['verbosity'])
    if params.get('unified_job_template') is not None:
        wanted['unified_job_template'] = runnable_id(api, params['unified_job_template'],
                                                     params.get('lookup_organization'), existing=existing)
    return wanted


def approval_write(api, existing):
    """The write that makes the node's approval template hold the fields of ``approval_node`` (None when it does):
    of the template read now, or, for a node without one, made once the node is there."""
    wanted = dict((key, value) for key, value in api.params['approval_node'].items() if value is not None)
    current = ((existing or {}).get('summary_fields') or {}).get('unified_job_template') or {}
    have = None
    if existing is not None and current.get('unified_job_type') == 'workflow_approval':
        have = api.client.get('workflow_approval_templates/%s' % current['id'])
        api.returns(approval_template=have)
    delta = dict((key, value) for key, value in wanted.items() if have is None or have.get(key) != value)
    if not delta:
        return None
    if have is None:
        # (a node not made yet, in check mode: the path is never asked for)
        return Write('POST', lambda node: '%s/%s/create_approval_template' % (ENDPOINT, node['id']), wanted,
                     expect=(200, 201), before=None, after={'approval_node': wanted})
    return Write('PATCH', 'workflow_approval_templates/%s' % have['id'], delta, answer=dict(have, **delta),
                 before={'approval_node': dict((key, have.get(key)) for key in delta)}, after={'approval_node': delta})


def node_ids(api, workflow, option, pending=()):
    """The ids of the nodes ``option`` names; None for one in ``pending`` (to be created, check mode)."""
    ids = []
    for identifier in api.params[option]:
        found = None if workflow is None else api.get_one(ENDPOINT, identifier=identifier, workflow_job_template=workflow)
        if found is None and identifier not in pending:
            raise NotFound('%s: node %r was not found in the workflow.' % (option.replace('_', ' '), identifier))
        if found is not None:
            names_of(api)[(ENDPOINT, found['id'])] = identifier
        ids.append(None if found is None else found['id'])
    return ids


def ensure_node(api, workflow, pending=()):
    """Bring the node ``api.params`` describes, in the workflow of id ``workflow``, to its state: plan_node(),
    applied."""
    existing = None if workflow is None else api.get_one(ENDPOINT, identifier=api.params['identifier'],
                                                         workflow_job_template=workflow)
    state = api.params.get('state', 'present')
    if state == 'absent':
        api.ensure_absent(existing)
        return
    if state == 'exists' and existing is not None:
        api.returns_object(existing, existing)
        return
    plan, approval = plan_node(api, workflow, existing, pending)
    node = api.apply(plan)
    api.returns_object(existing, node)
    if approval is not None and not api.check_mode:
        api.returns(approval_template=plan.answers.get(approval))


def plan_node(api, workflow, existing, pending=()):
    """The writes that make the node hold what the options say, every name resolved and every object read first
    (the node's references, its approval template, the nodes its edges name): the node's create or update, its
    approval template's, its prompts' and edges' sub-lists; and the approval template's write (None: none)."""
    params = api.params
    if params.get('approval_node') is not None and params['approval_node'].get('name') is None:
        raise ConfigError('Approval node name is required to create approval node.')    # awx.awx's words
    new = existing is None
    plan = api.plan_present(existing, desired(api, existing), create=lambda: {'workflow_job_template': workflow},
                            normalize={'extra_data': as_data})
    approval = approval_write(api, existing) if params.get('approval_node') is not None else None
    if approval is not None:
        plan.add(approval)
    for option in PROMPT_LISTS:
        if params.get(option) is not None:
            association = RESOURCE.associations[option]
            plan.extend(RESOURCE.plan_sublist(api, existing, new, option, *association,
                                              wanted=RESOURCE.association_ids(api, existing, option, *association)))
    for option in EDGES:
        if params.get(option) is not None:
            plan.extend(RESOURCE.plan_sublist(api, existing, new, option, option, ENDPOINT, 'identifier',
                                              wanted=node_ids(api, workflow, option, pending)))
    return plan, approval


def node_task(api, params):
    """A task on one node, within the task ``api`` (same client and modes)."""
    return api.subtask(NODE_SPEC, params)
