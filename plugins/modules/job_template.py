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
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the job template.
    type: str
    required: true
  description:
    description:
      - Description of the job template.
    type: str
  inventory:
    description:
      - Inventory the jobs run against, by name or numeric id. Required to create a template that does not
        prompt for an inventory.
    type: str
  project:
    description:
      - Project holding the playbook, by name or numeric id. Required to create a template.
    type: str
  playbook:
    description:
      - Playbook of the project to run, as the project lists it (for example V(site.yml)). Required to create a template.
    type: str
  job_type:
    description:
      - V(run) runs the playbook, V(check) runs it in check mode.
    type: str
    choices: [run, check]
  extra_vars:
    description:
      - Extra variables of every job, compared as data with what the service holds.
    type: dict
  ask_limit_on_launch:
    description: Prompt for O(automation.service.job_launch#module:limit) at launch.
    type: bool
  ask_variables_on_launch:
    description: Prompt for O(automation.service.job_launch#module:extra_vars) at launch.
    type: bool
  ask_inventory_on_launch:
    description: Prompt for O(automation.service.job_launch#module:inventory) at launch.
    type: bool
  ask_credential_on_launch:
    description: Prompt for O(automation.service.job_launch#module:credentials) at launch.
    type: bool
  ask_tags_on_launch:
    description: Prompt for O(automation.service.job_launch#module:job_tags) at launch.
    type: bool
  ask_skip_tags_on_launch:
    description: Prompt for O(automation.service.job_launch#module:skip_tags) at launch.
    type: bool
  ask_verbosity_on_launch:
    description: Prompt for O(automation.service.job_launch#module:verbosity) at launch.
    type: bool
  ask_job_type_on_launch:
    description: Prompt for the job type at launch.
    type: bool
  state:
    description:
      - V(present) creates or updates the job template, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
seealso:
  - module: automation.service.job_launch
  - module: automation.service.project
'''

EXAMPLES = r'''
- name: A template that may be limited to some hosts at launch
  automation.service.job_template:
    name: Deploy
    inventory: Production
    project: Deploy playbooks
    playbook: deploy.yml
    extra_vars:
      version: latest
    ask_limit_on_launch: true
    ask_variables_on_launch: true

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
  returned: with O(state=present)
  type: dict
  sample: {"id": 7, "name": "Deploy", "inventory": 3, "project": 2, "playbook": "deploy.yml", "ask_limit_on_launch": true}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import (
    ModuleSpec, dump_variables, is_id, parse_variables,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError

ASK_FLAGS = [
    'ask_limit_on_launch', 'ask_variables_on_launch', 'ask_inventory_on_launch', 'ask_credential_on_launch',
    'ask_tags_on_launch', 'ask_skip_tags_on_launch', 'ask_verbosity_on_launch', 'ask_job_type_on_launch',
]
ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    description=dict(type='str'),
    inventory=dict(type='str'),
    project=dict(type='str'),
    playbook=dict(type='str'),
    job_type=dict(type='str', choices=['run', 'check']),
    extra_vars=dict(type='dict'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)
ARGUMENT_SPEC.update((flag, dict(type='bool')) for flag in ASK_FLAGS)
PLAIN_FIELDS = ['description', 'playbook', 'job_type', 'extra_vars'] + ASK_FLAGS


def related_id(api, existing, key, endpoint, value):
    """The id of ``value`` (name or id); no request when it is the template's current one."""
    if is_id(value):
        return int(value)
    current = ((existing or {}).get('summary_fields') or {}).get(key) or {}
    if current.get('name') == value:
        return current.get('id')
    return api.resolve_id(endpoint, value, key)


def run(api):
    params = api.params
    existing = api.get_one('job_templates', name=params['name'])
    if params['state'] == 'absent':
        api.ensure_absent(existing)
    else:
        missing = [key for key in ('project', 'playbook') if not params[key]]
        if existing is None and missing:
            raise ConfigError('%s required to create job template %s.'
                              % (' and '.join(missing) + (' are' if len(missing) > 1 else ' is'), params['name']))
        desired = dict((key, params[key]) for key in PLAIN_FIELDS if params[key] is not None)
        desired['name'] = params['name']
        for key, endpoint in (('inventory', 'inventories'), ('project', 'projects')):
            if params[key] is not None:
                desired[key] = related_id(api, existing, key, endpoint, params[key])
        api.ensure_present(existing, desired, normalize={'extra_vars': parse_variables},
                           encode={'extra_vars': dump_variables})


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='job_templates', result_key='job_template')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
