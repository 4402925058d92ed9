#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_credential_type_info
short_description: Read the credential types of Event-Driven Ansible
version_added: 0.4.0
description:
  - Reads Event-Driven Ansible's credential types, every one or the one named, from C(/api/eda/v1/credential-types/)
    behind the platform gateway.
  - Takes the options of ansible.eda's C(credential_type_info) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only the credential type of this name (compared exactly).
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
- name: The credential types EDA ships and those made
  automation.service.eda_credential_type_info:
  register: types
'''

RETURN = r'''
credential_types:
  description: The credential types, as EDA lists them (empty when none match).
  returned: always
  type: list
  elements: dict
  sample: [{"id": 37, "name": "Webhook token", "kind": "cloud", "managed": false, "namespace": null,
            "inputs": {"fields": [{"id": "token", "type": "string", "label": "Token", "secret": true}]},
            "injectors": {"extra_vars": {"webhook_token": "{{ token }}"}}}]
'''

from ansible_collections.automation.service.plugins.module_utils._eda import info_spec, read_list

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
)
SPEC = info_spec('credential_types', ARGUMENT_SPEC)


def run(api):
    api.returns(credential_types=read_list(api, 'credential-types', 'eda_credential_type_info', api.params['name']))


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
