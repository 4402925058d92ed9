#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: credential_type
short_description: Create, update or delete a custom credential type
version_added: 0.2.0
description:
  - Makes a custom credential type of the service match the fields given; fields not given are left alone.
  - O(inputs) and O(injectors) are compared as data, so an unchanged definition reports no change.
  - Takes the options of awx.awx's C(credential_type) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the credential type.
    type: str
    required: true
  new_name:
    description:
      - A new name for the credential type.
    type: str
  description:
    description:
      - Description of the credential type.
    type: str
  kind:
    description:
      - The kind of credential type; custom types are V(cloud) or V(net).
    type: str
    choices: [ssh, vault, net, scm, cloud, insights]
  inputs:
    description:
      - The input fields the credentials of this type take (C(fields), C(required)), as the service defines them.
    type: dict
  injectors:
    description:
      - How the inputs reach a job (C(env), C(extra_vars), C(file)).
    type: dict
  state:
    description:
      - V(present) creates or updates the credential type, V(absent) deletes it.
      - V(exists) creates the credential type when it is missing and leaves a credential type found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A credential type for an internal API token
  automation.service.credential_type:
    name: Inventory API
    kind: cloud
    inputs:
      fields:
        - {id: api_token, label: API token, type: string, secret: true}
      required: [api_token]
    injectors:
      env:
        INVENTORY_API_TOKEN: "{% raw %}{{ api_token }}{% endraw %}"
'''

RETURN = r'''
id:
  description: Id of the credential type (of the deleted one with O(state=absent)).
  returned: when the credential type exists or existed
  type: int
  sample: 30
credential_type:
  description: The credential type as the service returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 30, "name": "Inventory API", "kind": "cloud", "inputs": {}, "injectors": {}}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    kind=dict(type='str', choices=['ssh', 'vault', 'net', 'scm', 'cloud', 'insights']),
    inputs=dict(type='dict'),
    injectors=dict(type='dict'),
    state=STATE_EXISTS,
)

RESOURCE = Resource(
    'credential_types', 'credential_type', 'credential type',
    fields=('description', 'kind'),
    json_data=('inputs', 'injectors'),
    required_on_create=('kind',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
