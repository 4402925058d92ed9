#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_rulebook_activation_info
short_description: Read the rulebook activations of Event-Driven Ansible
version_added: 0.4.0
description:
  - Reads rulebook activations of Event-Driven Ansible (EDA), at the platform gateway's C(/api/eda/v1/activations/).
  - Takes the options of ansible.eda's C(rulebook_activation_info) module. Unlike it, every page is read, and
    O(name) is the whole name (the service's own C(name) filter matches any part of a name).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only the activation with this name.
    type: str
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes.info_module
'''

EXAMPLES = r'''
- name: One activation, and whether it runs
  automation.service.eda_rulebook_activation_info:
    name: Hello
  register: found

- name: The activations that failed
  automation.service.eda_rulebook_activation_info:
    query:
      status: failed
  register: failed_ones
'''

RETURN = r'''
activations:
  description: The matching activations, as the service lists them.
  returned: always
  type: list
  elements: dict
  sample: [{"id": 37, "name": "Hello", "is_enabled": true, "status": "running", "rulebook_id": 5, "project_id": 2,
            "decision_environment_id": 1, "organization_id": 1, "restart_policy": "on-failure", "restart_count": 0,
            "log_level": "error", "eda_credentials": [], "event_streams": []}]
'''

from ansible_collections.automation.service.plugins.module_utils import _eda

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
)


def run(api):
    api.returns(activations=_eda.read_list(api, 'activations', 'eda_rulebook_activation_info', name=api.params['name']))


SPEC = _eda.info_spec('activations', ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
