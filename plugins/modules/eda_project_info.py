#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_project_info
short_description: Read the projects of Event-Driven Ansible
version_added: 0.4.0
description:
  - Reads projects of Event-Driven Ansible (EDA), at the platform gateway's C(/api/eda/v1/projects/).
  - Takes the options of ansible.eda's C(project_info) module. Unlike it, every page is read, and O(name) is the
    whole name (the service's own C(name) filter matches the start of a name).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only the project with this name.
    type: str
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes.info_module
'''

EXAMPLES = r'''
- name: One project
  automation.service.eda_project_info:
    name: Rulebooks
  register: found

- name: Every project
  automation.service.eda_project_info:
  register: all_projects
'''

RETURN = r'''
projects:
  description: The matching projects, as the service returns them.
  returned: always
  type: list
  elements: dict
  sample: [{"id": 17, "name": "Rulebooks", "url": "https://git.example.com/ops/rulebooks.git", "organization_id": 1,
            "eda_credential_id": null, "scm_branch": "", "import_state": "completed", "import_error": null}]
'''

from ansible_collections.automation.service.plugins.module_utils import _eda

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
)


def run(api):
    api.returns(projects=_eda.read_list(api, 'projects', 'eda_project_info', name=api.params['name']))


SPEC = _eda.info_spec('projects', ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
