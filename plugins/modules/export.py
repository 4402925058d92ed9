#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: export
short_description: Export the service's objects as data
version_added: 0.2.0
description:
  - Reads the objects named, of each kind asked for, and returns them as data that M(automation.service.import)
    applies to this service or another one.
  - The data has the shape C(awx export) writes. Each object holds its writable fields, the objects it refers to by
    natural key (a dict of its C(type) and the fields that name it), its related sets under C(related) (a template's
    credentials, labels, survey, schedules and notification templates, a workflow's nodes and their edges, the roles of
    users and teams) and its own C(natural_key).
  - Secrets are never exported. The service shows them as C($encrypted$); they are written as empty strings.
  - Needs no awxkit (awx.awx's module does).
author:
  - automation.service maintainers (@automation-service)
options:
  all:
    description:
      - Export every object of every kind.
    type: bool
    default: false
  organizations:
    description: The organizations to export, by name or id; C(all) for every one.
    type: list
    elements: str
  users:
    description: The users to export, by username or id; C(all) for every one.
    type: list
    elements: str
  teams:
    description: The teams to export, by name or id; C(all) for every one.
    type: list
    elements: str
  credential_types:
    description: The credential types to export, by name or id; C(all) for every one. The service's own types are never exported.
    type: list
    elements: str
  credentials:
    description: The credentials to export, by name or id; C(all) for every one.
    type: list
    elements: str
  execution_environments:
    description: The execution environments to export, by name or id; C(all) for every one. The service's own are never exported.
    type: list
    elements: str
  notification_templates:
    description: The notification templates to export, by name or id; C(all) for every one.
    type: list
    elements: str
  inventory_sources:
    description: The inventory sources to export, by name or id; C(all) for every one.
    type: list
    elements: str
  inventory:
    description: The inventories to export, by name or id; C(all) for every one.
    type: list
    elements: str
  projects:
    description: The projects to export, by name or id; C(all) for every one.
    type: list
    elements: str
  job_templates:
    description: The job templates to export, by name or id; C(all) for every one.
    type: list
    elements: str
  workflow_job_templates:
    description: The workflow job templates to export, by name or id; C(all) for every one.
    type: list
    elements: str
  applications:
    description: The OAuth2 applications to export, by name or id; C(all) for every one.
    type: list
    elements: str
  schedules:
    description: The schedules to export, by name or id; C(all) for every one.
    type: list
    elements: str
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes.info_module
notes:
  - With no kind given and O(all=false), every object of every kind is exported, as awx.awx does.
  - A name matching objects in several organizations exports each of them.
  - Named URLs (C(name++organization)) are not taken; name the object by id instead.
  - An inventory is exported with its fields, labels and sources (O(inventory_sources)), not its hosts and groups.
'''

EXAMPLES = r'''
- name: Export one job template and every credential
  automation.service.export:
    job_templates: [Deploy]
    credentials: all
  register: exported

- name: Keep the export in a file
  ansible.builtin.copy:
    content: "{{ exported.assets | to_nice_json }}"
    dest: backup.json
    mode: "0600"
'''

RETURN = r'''
assets:
  description:
    - The objects, one list per kind asked for. Each object has its fields, its references and C(natural_key).
  returned: success
  type: dict
  sample: {"organizations": [{"name": "Ops", "description": "", "max_hosts": 0, "default_environment": null,
           "natural_key": {"type": "organization", "name": "Ops"}}]}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._assets import BY_KEY
from ansible_collections.automation.service.plugins.module_utils._export import export_assets

ARGUMENT_SPEC = dict(all=dict(type='bool', default=False))
ARGUMENT_SPEC.update((key, dict(type='list', elements='str')) for key in BY_KEY)


def run(api):
    params = api.params
    asked = dict((key, params[key]) for key in BY_KEY if params.get(key) is not None)
    if params['all'] or not asked:
        asked = dict((key, []) for key in BY_KEY)
    selection = dict((key, [] if 'all' in names else names) for key, names in asked.items())
    api.returns(assets=export_assets(api, selection))


SPEC = ModuleSpec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
