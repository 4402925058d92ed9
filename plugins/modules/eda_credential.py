#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_credential
short_description: Create, update, copy, delete or test a credential of Event-Driven Ansible
version_added: 0.4.0
description:
  - Makes one of Event-Driven Ansible's credentials match the options given, at C(/api/eda/v1/eda-credentials/)
    behind the platform gateway; or makes it as a copy of another; or tests it.
  - Takes the options of ansible.eda's C(credential) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The name of the credential.
    type: str
    required: true
  new_name:
    description:
      - A new name for the credential (found by O(name), or by O(new_name) when it was renamed already).
    type: str
  copy_from:
    description:
      - The credential to copy, by name, when the one named O(name) does not exist; EDA makes the copy, named
        O(name), and the other options given are then written to it. When O(name) exists, nothing is copied and the
        task warns.
    type: str
  description:
    description:
      - The description of the credential.
    type: str
  inputs:
    description:
      - The values of the credential type's input fields. The dict given replaces the credential's inputs; an
        input left out is removed. Needed to create one (unless copied).
      - The values of the type's secret fields are kept out of logs, results and the diff (the others show); EDA
        reads them back as C($encrypted$), see the notes.
    type: dict
  credential_type_name:
    description:
      - The credential type (M(automation.service.eda_credential_type)), by name or id. Needed to create one
        (unless copied).
    type: str
  metadata:
    description:
      - With O(state=test), more of what the test needs, for an external secret system (a C(secret_path) and a
        C(secret_key) for HashiCorp Vault).
    type: dict
  state:
    description:
      - V(present) creates or updates the credential, V(absent) deletes it.
      - V(test) asks EDA to test the credential with O(metadata) and returns RV(test_result); nothing changes
        (C(changed) is false).
    type: str
    choices: [present, absent, test]
    default: present
extends_documentation_fragment:
  - automation.service.eda.organization
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
notes:
  - EDA reads secret inputs back as C($encrypted$), so a secret input cannot be compared with the one given. A secret
    input counts as unchanged when it is set on both sides; the inputs are written (every one given) when another
    input, or another option, changed. So a second run changes nothing, where ansible.eda writes the inputs again
    on every run and says C(changed). To change only a secret, change it with another input, or delete the
    credential first.
  - An input left out whose field has a default is compared as that default, which EDA fills in.
  - Unlike ansible.eda, a task that updates a credential needs neither O(credential_type_name), O(inputs) nor
    O(organization_name).
'''

EXAMPLES = r'''
- name: A registry credential for decision environments
  automation.service.eda_credential:
    name: Registry
    credential_type_name: Container Registry
    organization_name: Default
    inputs:
      host: quay.io
      username: robot
      password: "{{ registry_password }}"

- name: A copy of it
  automation.service.eda_credential:
    name: Registry (copy)
    copy_from: Registry

- name: Test a lookup credential
  automation.service.eda_credential:
    name: Vault
    state: test
    metadata:
      secret_path: secret/myapp
      secret_key: password
  register: tested
'''

RETURN = r'''
id:
  description: Id of the credential (of the deleted one with O(state=absent)).
  returned: when the credential exists or existed
  type: int
  sample: 24
credential:
  description: The credential as EDA returns it, secret inputs as C($encrypted$) (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 24, "name": "Registry", "inputs": {"host": "quay.io", "username": "robot",
           "password": "$encrypted$"}, "credential_type": {"id": 5, "name": "Container Registry"}}
copied_from:
  description: Id of the credential O(copy_from) named, when the task made the copy.
  returned: when the credential was copied
  type: int
copied:
  description: Whether the task made the credential as a copy of O(copy_from).
  returned: when O(copy_from) is given
  type: bool
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
  sample: {"success": true, "message": "Credential test successful"}
existing:
  description: The credential before the task (empty when there was none).
  returned: with O(state=present) or O(state=absent)
  type: dict
end_state:
  description: The credential after the task (empty once deleted).
  returned: with O(state=present) or O(state=absent)
  type: dict
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import narrow_no_log
from ansible_collections.automation.service.plugins.module_utils._eda import (
    ORGANIZATION, ORGANIZATION_OPTION, EdaResource, Reference, place, referred_id, run_test,
)
from ansible_collections.automation.service.plugins.module_utils._resource import Encrypted

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    copy_from=dict(type='str'),
    description=dict(type='str'),
    inputs=dict(type='dict', no_log=True),
    credential_type_name=dict(type='str'),
    organization_name=dict(ORGANIZATION_OPTION),
    metadata=dict(type='dict'),
    state=dict(type='str', choices=['present', 'absent', 'test'], default='present'),
)


def type_fields(api, existing, desired):
    """The input fields of the credential's type (read once a task, only when inputs are given)."""
    if not api.params.get('inputs'):
        return []
    type_id = desired.get('credential_type_id') or referred_id(existing, 'credential_type_id')
    if type_id is None:
        return []
    path = '%s%d/' % (place(api, 'credential-types', 'eda_credential'), type_id)
    if path not in api.described:
        definition = api.client.get(path)
        api.described[path] = (definition.get('inputs') or {}).get('fields') or []
    return api.described[path]


def secret_fields(api, existing, desired):
    """The ids of the credential type's secret input fields."""
    return set(field['id'] for field in type_fields(api, existing, desired) if field.get('secret'))


def filled_in(api, existing, desired):
    """The inputs EDA fills in when they are not given: those whose field has a default (one that is set: EDA's
    server leaves an empty or false default out)."""
    return dict((field['id'], field['default']) for field in type_fields(api, existing, desired)
                if field.get('default'))


class EdaCredential(EdaResource):

    def desired(self, api, existing):
        wanted = super(EdaCredential, self).desired(api, existing)
        given = api.params.get('inputs')
        if given:
            # only the secret inputs (of the credential's type) are masked in logs and results; the others show
            secrets = secret_fields(api, existing, wanted)
            narrow_no_log(api.params, api.no_log_values, given, [v for k, v in given.items() if k in secrets])
        return wanted

    def require_on_create(self, api):
        # a copy has what it was copied from
        if not api.params.get('copy_from'):
            super(EdaCredential, self).require_on_create(api)


RESOURCE = EdaCredential(
    'eda-credentials', 'credential', 'credential', 'eda_credential',
    fields=('description',), json_data=('inputs',),
    references={'organization_name': ORGANIZATION,
                'credential_type_name': Reference('credential-types', 'credential_type_id', 'credential type')},
    organization_required=True, required_on_create=('credential_type_name', 'inputs'),
    # Secret inputs read back as $encrypted$; every input given goes with a write.
    encrypted=Encrypted('inputs', secret_fields, defaults=filled_in, sent_with_every_write=True),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def run(api):
    if api.params['state'] != 'test':
        return RESOURCE.run(api)
    metadata = api.params['metadata']
    return run_test(api, RESOURCE.placed(api), 'credential', {'metadata': metadata} if metadata else {})


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
