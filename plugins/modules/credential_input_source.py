#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: credential_input_source
short_description: Create, update or delete a credential input source
version_added: 0.2.0
description:
  - Makes one input field of a credential take its value from an external credential (a secret lookup such as
    HashiCorp Vault), and makes that link match the fields given; fields not given are left alone.
  - An input source is found by O(target_credential) and O(input_field_name); a credential has at most one source
    per input field.
  - Takes the options of awx.awx's C(credential_input_source) module.
author:
  - automation.service maintainers (@automation-service)
options:
  input_field_name:
    description:
      - The input field of O(target_credential) whose value comes from O(source_credential), for example C(password).
      - It must be a field of the target credential's type.
    type: str
    required: true
  target_credential:
    description:
      - The credential whose input field is filled, by name or id. It must not be an external credential.
    type: str
    required: true
  source_credential:
    description:
      - The external credential that supplies the value, by name or id.
      - Needed to create the input source.
    type: str
  metadata:
    description:
      - What the source credential looks up (for HashiCorp Vault, C(secret_path) and C(secret_key)).
      - Compared with the stored metadata as data; the dict given replaces the stored one.
    type: dict
  description:
    description:
      - Description of the input source.
    type: str
  state:
    description:
      - V(present) creates or updates the input source, V(absent) deletes it.
      - V(exists) creates the input source when it is missing and leaves one found as it is.
      - With V(absent), a target credential that does not exist means there is nothing to delete.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - A credential name that several credentials share (of different types or organizations) cannot tell them
    apart; give the credential's id then.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: The Deploy credential reads its password from Vault
  automation.service.credential_input_source:
    target_credential: Deploy
    input_field_name: password
    source_credential: Vault lookup
    metadata:
      secret_path: /kv/deploy
      secret_key: password

- name: The password is stored in the credential again
  automation.service.credential_input_source:
    target_credential: Deploy
    input_field_name: password
    state: absent
'''

RETURN = r'''
id:
  description: Id of the input source (of the deleted one with O(state=absent)).
  returned: when the input source exists or existed
  type: int
  sample: 3
credential_input_source:
  description: The input source as the service returns it (the would-be input source in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 3, "input_field_name": "password", "target_credential": 7, "source_credential": 8,
           "metadata": {"secret_path": "/kv/deploy", "secret_key": "password"}, "description": ""}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    input_field_name=dict(type='str', required=True),
    target_credential=dict(type='str', required=True),
    source_credential=dict(type='str'),
    metadata=dict(type='dict'),
    description=dict(type='str'),
    state=STATE_EXISTS,
)

RESOURCE = Resource(
    'credential_input_sources', 'credential_input_source', 'credential input source',
    name='input_field_name',
    scope={'target_credential': 'credentials'},
    fields=('description',),
    references={'source_credential': 'credentials'},
    json_data=('metadata',),
    required_on_create=('source_credential',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
