#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_credential_type
short_description: Create, update, delete or test a credential type of Event-Driven Ansible
version_added: 0.4.0
description:
  - Makes one of Event-Driven Ansible's credential types match the options given, at
    C(/api/eda/v1/credential-types/) behind the platform gateway; or tests one with sample inputs.
  - Takes the options of ansible.eda's C(credential_type) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The name of the credential type.
    type: str
    required: true
  new_name:
    description:
      - A new name for the credential type (found by O(name), or by O(new_name) when it was renamed already).
    type: str
  description:
    description:
      - The description of the credential type.
    type: str
  inputs:
    description:
      - The input fields of the credential type (its C(fields) and C(required) lists), compared as data (a field
        without a C(type) is a C(string), as EDA makes it). Needed to create one.
    type: dict
  injectors:
    description:
      - How the inputs reach a rulebook activation (C(extra_vars), C(env), C(file)), compared as data. Needed to
        create one.
    type: dict
  test_inputs:
    description:
      - With O(state=test), the inputs to test the credential type with.
    type: dict
  test_metadata:
    description:
      - With O(state=test), more of what the test needs, for an external secret system (a C(secret_path) and a
        C(secret_key) for HashiCorp Vault).
    type: dict
  state:
    description:
      - V(present) creates or updates the credential type, V(absent) deletes it.
      - V(test) asks EDA to test the credential type with O(test_inputs) and O(test_metadata) and returns
        RV(test_result); nothing changes (C(changed) is false).
    type: str
    choices: [present, absent, test]
    default: present
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
notes:
  - Unlike ansible.eda, a task that updates a credential type needs neither O(inputs) nor O(injectors).
'''

EXAMPLES = r'''
- name: A credential type
  automation.service.eda_credential_type:
    name: Webhook token
    inputs:
      fields:
        - id: token
          type: string
          label: Token
          secret: true
    injectors:
      extra_vars:
        webhook_token: "{% raw %}{{ token }}{% endraw %}"

- name: Test a lookup type with sample inputs
  automation.service.eda_credential_type:
    name: HashiCorp Vault Secret Lookup
    state: test
    test_inputs:
      url: https://vault.example.com:8200/
      token: sample-token
    test_metadata:
      secret_path: secret/myapp
      secret_key: password
  register: tested
'''

RETURN = r'''
id:
  description: Id of the credential type (of the deleted one with O(state=absent)).
  returned: when the credential type exists or existed
  type: int
  sample: 37
credential_type:
  description: The credential type as EDA returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 37, "name": "Webhook token", "kind": "cloud", "managed": false, "inputs": {}, "injectors": {}}
test_result:
  description: What EDA said of the test.
  returned: with O(state=test)
  type: dict
  contains:
    success:
      description: Whether the test passed.
      type: bool
    message:
      description: What EDA said of it.
      type: str
    details:
      description: More of what EDA said (its answer, or the HTTP status), when there is more.
      type: dict
  sample: {"success": true, "message": "Credential type test successful"}
existing:
  description: The credential type before the task (empty when there was none).
  returned: with O(state=present) or O(state=absent)
  type: dict
end_state:
  description: The credential type after the task (empty once deleted).
  returned: with O(state=present) or O(state=absent)
  type: dict
'''

from ansible_collections.automation.service.plugins.module_utils._eda import EdaResource, run_test
from ansible_collections.automation.service.plugins.module_utils._resource import as_data

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    inputs=dict(type='dict'),
    injectors=dict(type='dict'),
    test_inputs=dict(type='dict'),
    test_metadata=dict(type='dict'),
    state=dict(type='str', choices=['present', 'absent', 'test'], default='present'),
)


def typed(inputs):
    """``inputs`` as EDA keeps them: a field without a type is a string (its server sets it on create)."""
    data = as_data(inputs)
    if not isinstance(data, dict) or not isinstance(data.get('fields'), list):
        return data
    fields = [dict(field, type=field.get('type', 'string')) if isinstance(field, dict) else field
              for field in data['fields']]
    return dict(data, fields=fields)


RESOURCE = EdaResource(
    'credential-types', 'credential_type', 'credential type', 'eda_credential_type',
    fields=('description',), json_data=('inputs', 'injectors'), required_on_create=('inputs', 'injectors'),
    compared_as={'inputs': typed},
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def run(api):
    if api.params['state'] != 'test':
        return RESOURCE.run(api)
    body = {}
    if api.params['test_inputs']:
        body['inputs'] = api.params['test_inputs']
    if api.params['test_metadata']:
        body['metadata'] = api.params['test_metadata']
    return run_test(api, RESOURCE.placed(api), 'credential type', body)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
