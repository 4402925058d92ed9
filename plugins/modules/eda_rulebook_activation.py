#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_rulebook_activation
short_description: Create, change, enable, disable, restart or delete a rulebook activation of Event-Driven Ansible
version_added: 0.4.0
description:
  - Makes a rulebook activation of Event-Driven Ansible (EDA), at the platform gateway's C(/api/eda/v1/activations/),
    match the options given. An activation runs one rulebook of a project in a decision environment.
  - Takes the options of ansible.eda's C(rulebook_activation) module, and does what it does with them (see
    O(state) and O(restart)). Unlike it, a missing credential or event stream named fails the task before anything
    is written, the result has the activation as the service returns it, and a diff says what changed.
  - The items of a loop find the objects their activations refer to (projects, rulebooks, decision environments,
    organizations, credentials, event streams) once, see O(loop_reads).
  - The service changes an activation's settings only while it is disabled. With O(state=present), a change to an
    enabled activation fails before anything is written, saying so; disable it first (O(state=disabled)), then
    O(state=present) changes it and enables it again, as with ansible.eda.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the activation, or its numeric id.
    type: str
    required: true
  new_name:
    description:
      - Rename the activation to this name. Running the task again after the rename finds it by this name.
    type: str
  description:
    description:
      - Description of the activation.
    type: str
  project_name:
    description:
      - The EDA project of the rulebook, by name or id. Needed to create or change an activation.
    type: str
    aliases: [project]
  rulebook_name:
    description:
      - The rulebook, by its file name in the project (V(hello.yml)) or id. Needed to create or change an
        activation.
    type: str
    aliases: [rulebook]
  decision_environment_name:
    description:
      - The decision environment the rulebook runs in, by name or id. Needed to create or change an activation.
    type: str
    aliases: [decision_environment]
  organization_name:
    description:
      - The organization of the activation, by name or id. Needed with O(state=present).
    type: str
    aliases: [organization]
  extra_vars:
    description:
      - Variables for the rulebook, as YAML or JSON text. Compared as data with what the service holds.
    type: str
  restart:
    description:
      - Restart the activation (C(POST .../restart/)), every time the task runs; every other option is then
        ignored, as by ansible.eda. The activation must exist and be enabled.
    type: bool
    default: false
  restart_policy:
    description:
      - When the service restarts the activation's rulebook by itself.
    type: str
    choices: [on-failure, always, never]
    default: on-failure
  enabled:
    description:
      - Accepted and ignored, as by ansible.eda, which deprecated it; O(state) enables and disables.
    type: bool
    default: true
  awx_token_name:
    description:
      - The controller token (of the user running the task, see M(automation.service.eda_controller_token)) the
        activation launches the controller's jobs with, by name or id.
    type: str
    aliases: [awx_token, token]
  eda_credentials:
    description:
      - The EDA credentials the rulebook gets (a vault password, the controller's, a registry's), by name or id.
        Compared as a set.
    type: list
    elements: str
    aliases: [credentials]
  k8s_service_name:
    description:
      - The name of the Kubernetes service of the activation, on a platform that runs activations on Kubernetes.
    type: str
  event_streams:
    description:
      - The event streams the rulebook's sources listen to, each in place of one source of the rulebook, as the
        service maps them (C(source_mappings)). Compared as data with what the service holds.
    type: list
    elements: dict
    suboptions:
      event_stream:
        description:
          - The event stream, by name or id.
        type: str
      source_name:
        description:
          - The source of the rulebook it replaces, by its name (the rulebook's, or the one the service gave an
            unnamed source; M(automation.service.eda_rulebook_info) lists them).
          - One of O(event_streams[].source_name) and O(event_streams[].source_index) is needed.
        type: str
      source_index:
        description:
          - The source of the rulebook it replaces, by its place among the rulebook's sources (from 0).
        type: int
  swap_single_source:
    description:
      - Accepted and ignored, as by ansible.eda, which no longer uses it.
    type: bool
    default: true
  restart_on_project_update:
    description:
      - Whether the service restarts the activation when its project is synced.
    type: bool
    default: false
  log_level:
    description:
      - How much the rulebook logs.
    type: str
    choices: [debug, info, error]
    default: error
  enable_persistence:
    description:
      - Whether the activation keeps its events and facts across restarts.
    type: bool
    default: false
  rule_engine_credential_id:
    description:
      - The id of the Event-Driven Ansible rule engine credential of the activation. Not sent when not given.
    type: int
  state:
    description:
      - V(present) creates the activation enabled, or changes it (see above) and enables it.
      - V(enabled) and V(disabled) create it enabled or disabled when it is missing; an existing activation is only
        enabled or disabled (C(POST .../enable/) or C(.../disable/)), its other options not compared, as by
        ansible.eda.
      - V(absent) deletes it.
    type: str
    choices: [present, absent, enabled, disabled]
    default: present
notes:
  - Automation Platform 2.6's EDA has no O(restart_on_project_update), O(enable_persistence) nor
    O(rule_engine_credential_id). There an existing activation is not compared on them, and a value other than
    the default is ignored with a warning.
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: An activation of hello.yml listening to an event stream, made disabled
  automation.service.eda_rulebook_activation:
    name: Hello
    project_name: Rulebooks
    rulebook_name: hello.yml
    decision_environment_name: Default DE
    organization_name: Default
    event_streams:
      - event_stream: Git pushes
        source_index: 0
    state: disabled

- name: Enable it
  automation.service.eda_rulebook_activation:
    name: Hello
    state: enabled

- name: Restart it
  automation.service.eda_rulebook_activation:
    name: Hello
    restart: true

- name: Remove it
  automation.service.eda_rulebook_activation:
    name: Hello
    state: absent
'''

RETURN = r'''
id:
  description: Id of the activation (of the deleted one with O(state=absent)).
  returned: when the activation exists or existed
  type: int
  sample: 37
rulebook_activation:
  description: The activation as the service returns it (the would-be one in check mode).
  returned: when the activation exists and O(state) is not V(absent)
  type: dict
  sample: {"id": 37, "name": "Hello", "is_enabled": true, "status": "running", "rulebook_id": 5, "project_id": 2,
           "decision_environment_id": 1, "organization_id": 1, "restart_policy": "on-failure", "log_level": "error"}
'''

from ansible_collections.automation.service.plugins.module_utils import _eda
from ansible_collections.automation.service.plugins.module_utils import _eda_activations as eda
from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec, parse_variables
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    project_name=dict(type='str', aliases=['project']),
    rulebook_name=dict(type='str', aliases=['rulebook']),
    decision_environment_name=dict(type='str', aliases=['decision_environment']),
    organization_name=dict(_eda.ORGANIZATION_OPTION),
    extra_vars=dict(type='str'),
    restart=dict(type='bool', default=False),
    restart_policy=dict(type='str', choices=['on-failure', 'always', 'never'], default='on-failure'),
    enabled=dict(type='bool', default=True),
    awx_token_name=dict(type='str', aliases=['awx_token', 'token'], no_log=False),
    eda_credentials=dict(type='list', elements='str', aliases=['credentials']),
    k8s_service_name=dict(type='str'),
    event_streams=dict(type='list', elements='dict', options=dict(
        event_stream=dict(type='str'),
        source_name=dict(type='str'),
        source_index=dict(type='int'),
    )),
    swap_single_source=dict(type='bool', default=True),
    restart_on_project_update=dict(type='bool', default=False),
    log_level=dict(type='str', choices=['debug', 'info', 'error'], default='error'),
    enable_persistence=dict(type='bool', default=False),
    rule_engine_credential_id=dict(type='int'),
    state=dict(type='str', choices=['present', 'absent', 'enabled', 'disabled'], default='present'),
)

LABEL = 'rulebook activation'
# The fields EDA 2.6 has not (field -> the default this module sends)
LATER = {'restart_on_project_update': False, 'enable_persistence': False, 'rule_engine_credential_id': None}
# The options sent as given, as the activation's fields of the same names
AS_GIVEN = ('description', 'restart_policy', 'log_level', 'restart_on_project_update', 'k8s_service_name',
            'enable_persistence', 'rule_engine_credential_id')
# How the fields compare (the rest as they are): the service's form of each against the one sent
COMPARED = {
    'extra_var': parse_variables,
    'eda_credentials': eda.ids_of,
    'source_mappings': eda.mappings_as_data,
}


def desired(api, paths):
    """The fields the activation is to have, every name resolved (nothing is written)."""
    params = api.params
    missing = [option for option in ('project_name', 'rulebook_name', 'decision_environment_name', 'organization_name')
               if not params.get(option)]
    if missing:
        raise ConfigError('%s %s needed to create or change rulebook activation %s.'
                          % (' and '.join(missing), 'are' if len(missing) > 1 else 'is', params['name']))
    project = _eda.find(api, paths('projects'), params['project_name'], label='project', required=True)
    rulebook = _eda.find(api, paths('rulebooks'), params['rulebook_name'], label='rulebook', required=True,
                         project_id=project['id'])
    wanted = {
        'rulebook_id': rulebook['id'],
        'decision_environment_id': _eda.resolve_id(api, paths('decision-environments'),
                                                   params['decision_environment_name'], 'decision environment'),
        'organization_id': _eda.resolve_id(api, paths('organizations'), params['organization_name'], 'organization'),
    }
    for option in AS_GIVEN:
        if params.get(option) is not None:
            wanted[option] = params[option]
    if params.get('extra_vars') is not None:
        wanted['extra_var'] = params['extra_vars']
    if params.get('awx_token_name'):
        wanted['awx_token_id'] = _eda.resolve_id(api, paths('users/me/awx-tokens'), params['awx_token_name'],
                                                 'controller token')
    if params.get('eda_credentials') is not None:
        wanted['eda_credentials'] = sorted(set(
            _eda.resolve_id(api, paths('eda-credentials'), value, 'EDA credential')
            for value in params['eda_credentials']))
    if params.get('event_streams') is not None:
        wanted['source_mappings'] = source_mappings(api, paths, rulebook)
    return wanted


def source_mappings(api, paths, rulebook):
    """The activation's event streams as the service maps them (YAML text), from the rulebook's sources."""
    import yaml

    items = api.params['event_streams']
    sources = eda.sources_of(api, paths('rulebooks'), rulebook['id']) if items else []
    mappings = []
    for item in items:
        mapping = eda.source_mapping(sources, item)
        try:
            stream = _eda.find(api, paths('event-streams'), item['event_stream'], label='event stream',
                               required=True)
        except NotFound:
            raise ConfigError('The event stream %s does not exist.' % item['event_stream'])
        mapping.update(event_stream_name=stream['name'], event_stream_id=stream['id'])
        mappings.append(mapping)
    return yaml.safe_dump(mappings, default_flow_style=False).rstrip('\n') if mappings else ''


def compared(field, value):
    return COMPARED[field](value) if field in COMPARED else value


def run(api):
    params = api.params
    paths = eda.paths_of(api, 'eda_rulebook_activation')
    path = paths('activations')
    state = params['state']
    existing = _eda.find(api, path, params['name'], label=LABEL)
    if existing is None and params.get('new_name'):
        existing = _eda.find(api, path, params['new_name'], label=LABEL)
    if state == 'absent':
        api.apply_absent(eda.plan_deletion(existing, path))
        return
    if params['restart']:
        if existing is None:
            raise ConfigError('Cannot restart activation that does not exist.')
        api.apply(Plan(existing, [Write('POST', '%s%d/restart/' % (path, existing['id']), {}, expect=(200, 201, 204),
                                        before={'restarted': False}, after={'restarted': True})]))
        api.returns(id=existing['id'], rulebook_activation=existing)
        return
    if existing is not None and state in ('enabled', 'disabled'):
        api.returns(id=existing['id'], rulebook_activation=toggle(api, existing, path, state == 'enabled'))
        return
    if state == 'present' and not params.get('organization_name'):
        raise ConfigError('Parameter organization_name is required when state is present for this version of EDA.')
    wanted = desired(api, paths)
    wanted['name'] = params.get('new_name') or (existing or {}).get('name') or params['name']
    enable = state != 'disabled'
    if existing is None:
        body = dict(wanted, is_enabled=enable)
        made = api.apply(Plan(None, [Write('POST', path, body, expect=(201,), before={}, after=dict(
            (key, compared(key, value)) for key, value in body.items()), makes=True, answer=body,
            refused=eda.refused_create(LABEL, wanted['name']))]))
        api.returns(id=made.get('id'), rulebook_activation=made)
        return
    wanted = eda.known_only(api, existing, wanted, LATER, LABEL)
    delta = dict((key, value) for key, value in wanted.items()
                 if compared(key, value) != compared(key, existing.get(key)))
    if not delta:
        api.returns(id=existing['id'], rulebook_activation=toggle(api, existing, path, True) if enable else existing)
        return
    if existing.get('is_enabled'):
        raise ConfigError('Rulebook activation %s is enabled, and the service changes an activation only while it is '
                          'disabled (%s would change): run the task with state=disabled first, then again.'
                          % (existing['name'], ', '.join(sorted(delta))))
    before = dict((key, compared(key, existing.get(key))) for key in delta)
    after = dict((key, compared(key, value)) for key, value in delta.items())
    before['is_enabled'], after['is_enabled'] = False, True
    made = api.apply(Plan(existing, [Write('PATCH', '%s%d/' % (path, existing['id']), dict(delta, is_enabled=True),
                                           before=before, after=after, makes=True,
                                           answer=dict(existing, is_enabled=True, **delta))]))
    api.returns(id=existing['id'], rulebook_activation=made)


def switched(existing, path, enable):
    """The plan that enables or disables ``existing`` (nothing when it is so already); the service answers the
    POST with no content."""
    if bool(existing.get('is_enabled')) == enable:
        return Plan(existing)
    return Plan(existing, [Write('POST', '%s%d/%s/' % (path, existing['id'], 'enable' if enable else 'disable'), {},
                                 expect=(200, 204), before={'is_enabled': not enable}, after={'is_enabled': enable})])


def toggle(api, existing, path, enable):
    """Enable or disable ``existing``; the activation as it then is."""
    api.apply(switched(existing, path, enable))
    return dict(existing, is_enabled=enable)


SPEC = ModuleSpec(ARGUMENT_SPEC, result_key='rulebook_activation')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
