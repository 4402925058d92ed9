#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: project
short_description: Create, update or delete a manual project
version_added: 0.1.0
description:
  - Makes a project of the service match the fields given; fields not given are left alone.
  - Only manual projects are handled, whose playbooks are a directory (O(local_path)) under the
    service's projects directory.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the project, unique within its organization.
    type: str
    required: true
  organization:
    description:
      - The organization of the project, by name or numeric id. Required to create a project.
    type: str
  description:
    description:
      - Description of the project.
    type: str
  local_path:
    description:
      - Directory of the playbooks, relative to the service's projects directory. Required to create a project.
    type: str
  state:
    description:
      - V(present) creates or updates the project, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
seealso:
  - module: automation.service.job_template
'''

EXAMPLES = r'''
- name: The playbooks in the projects directory's deploy folder
  automation.service.project:
    name: Deploy playbooks
    organization: Default
    local_path: deploy

- name: Remove a project
  automation.service.project:
    name: Deploy playbooks
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the project (of the deleted project with O(state=absent)).
  returned: when the project exists or existed
  type: int
  sample: 2
project:
  description: The project as the service returns it (the would-be project in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 2, "name": "Deploy playbooks", "organization": 1, "scm_type": "", "local_path": "deploy", "status": "ok"}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import (
    ModuleSpec, is_id,
)

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    organization=dict(type='str'),
    description=dict(type='str'),
    local_path=dict(type='str'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)


def run(api):
    params = api.params
    org = params['organization']
    where = {} if org is None else ({'organization': int(org)} if is_id(org) else {'organization__name': org})
    existing = api.get_one('projects', name=params['name'], **where)
    if params['state'] == 'absent':
        api.ensure_absent(existing)
    else:
        if existing is None:
            api.require_present_fields(('organization', 'local_path'))
        desired = dict((key, params[key]) for key in ('description', 'local_path') if params[key] is not None)
        desired['name'] = params['name']
        api.ensure_present(
            existing, desired,
            create=lambda: {'organization': api.resolve_id('organizations', org, 'organization'), 'scm_type': ''},
        )


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='projects', result_key='project')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
