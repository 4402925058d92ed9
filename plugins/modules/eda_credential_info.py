#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_credential_info
short_description: Read the credentials of Event-Driven Ansible
version_added: 0.4.0
description:
  - Reads Event-Driven Ansible's credentials, every one or the one named, from C(/api/eda/v1/eda-credentials/)
    behind the platform gateway.
  - Takes the options of ansible.eda's C(credential_info) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only the credential of this name (compared exactly).
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
- name: Every credential
  automation.service.eda_credential_info:
  register: all_credentials

- name: One of them
  automation.service.eda_credential_info:
    name: Registry
  register: found
'''

RETURN = r'''
credentials:
  description: The credentials, as EDA lists them, secret inputs as C($encrypted$) (empty when none match).
  returned: always
  type: list
  elements: dict
  sample: [{"id": 24, "name": "Registry", "description": "", "managed": false,
            "inputs": {"host": "quay.io", "username": "robot", "password": "$encrypted$"},
            "credential_type": {"id": 5, "name": "Container Registry", "kind": "registry", "namespace": "registry"},
            "organization": {"id": 1, "name": "Default", "description": ""}, "references": null}]
'''

from ansible_collections.automation.service.plugins.module_utils._eda import info_spec, read_list

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
)
SPEC = info_spec('credentials', ARGUMENT_SPEC)


def run(api):
    api.returns(credentials=read_list(api, 'eda-credentials', 'eda_credential_info', api.params['name']))


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
