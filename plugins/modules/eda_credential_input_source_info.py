#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_credential_input_source_info
short_description: Read where the inputs of Event-Driven Ansible's credentials come from
version_added: 0.4.0
description:
  - Reads Event-Driven Ansible's credential input sources that match every filter given, from
    C(/api/eda/v1/credential-input-sources/) behind the platform gateway.
  - Takes the options of ansible.eda's C(credential_input_source_info) module.
author:
  - automation.service maintainers (@automation-service)
options:
  target_credential:
    description:
      - Only the input sources of this credential, by name or id.
    type: str
  source_credential:
    description:
      - Only the input sources that look up with this credential, by name or id.
    type: str
  input_field_name:
    description:
      - Only the input sources of this input field.
    type: str
  organization_name:
    description:
      - Only the input sources of this organization, by name or id.
    type: str
    aliases: [organization]
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes.info_module
notes:
  - Every page is read. A credential or an organization named that does not exist fails the task, in ansible.eda's
    words.
'''

EXAMPLES = r'''
- name: Where the inputs of "App" come from
  automation.service.eda_credential_input_source_info:
    target_credential: App
  register: sources
'''

RETURN = r'''
credential_input_sources:
  description: The input sources, as EDA lists them (empty when none match).
  returned: always
  type: list
  elements: dict
  sample: [{"id": 37, "input_field_name": "password", "target_credential": 15, "source_credential": 23,
            "metadata": {"secret_path": "secret/myapp", "secret_key": "password"}}]
'''

from ansible_collections.automation.service.plugins.module_utils._eda import (
    find, info_spec, place, read_list, referred_id,
)

ARGUMENT_SPEC = dict(
    target_credential=dict(type='str'),
    source_credential=dict(type='str'),
    input_field_name=dict(type='str'),
    organization_name=dict(type='str', aliases=['organization']),
)
MODULE = 'eda_credential_input_source_info'
SPEC = info_spec('credential_input_sources', ARGUMENT_SPEC)


def run(api):
    params = api.params
    filters = {}
    for option in ('target_credential', 'source_credential'):
        if params[option]:
            filters[option] = find(api, place(api, 'eda-credentials', MODULE), params[option], 'name',
                                   option.replace('_', ' '), required=True)['id']
    organization = None
    if params['organization_name']:
        organization = find(api, place(api, 'organizations', MODULE), params['organization_name'], 'name',
                            'organization', required=True)['id']

    def kept(item):
        if params['input_field_name'] and item.get('input_field_name') != params['input_field_name']:
            return False
        return organization is None or referred_id(item, 'organization_id') == organization

    found = [item for item in read_list(api, 'credential-input-sources', MODULE, **filters) if kept(item)]
    api.returns(credential_input_sources=found)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
