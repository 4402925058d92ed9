#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_decision_environment_info
short_description: Read the decision environments of Event-Driven Ansible
version_added: 0.4.0
description:
  - Reads Event-Driven Ansible's decision environments, every one or the one named, from
    C(/api/eda/v1/decision-environments/) behind the platform gateway.
  - Takes the options of ansible.eda's C(decision_environment_info) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only the decision environment of this name (compared exactly).
    type: str
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes.info_module
notes:
  - Every page is read. Unlike ansible.eda, which returns what EDA's filter keeps (every name that starts with the one
    given) from the first page, O(name) matches exactly.
'''

EXAMPLES = r'''
- name: Every decision environment
  automation.service.eda_decision_environment_info:
  register: all_des

- name: One of them
  automation.service.eda_decision_environment_info:
    name: Default DE
  register: found
'''

RETURN = r'''
decision_environments:
  description: The decision environments, as EDA lists them (empty when none match).
  returned: always
  type: list
  elements: dict
  sample: [{"id": 37, "name": "Default DE", "image_url": "quay.io/ansible/ansible-rulebook:main",
            "organization_id": 1, "eda_credential_id": null, "pull_policy": "always", "description": ""}]
'''

from ansible_collections.automation.service.plugins.module_utils._eda import info_spec, read_list

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
)
SPEC = info_spec('decision_environments', ARGUMENT_SPEC)


def run(api):
    api.returns(decision_environments=read_list(api, 'decision-environments', 'eda_decision_environment_info',
                                                api.params['name']))


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
