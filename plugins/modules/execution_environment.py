#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: execution_environment
short_description: Create, update or delete an execution environment
version_added: 0.2.0
description:
  - Makes an execution environment of the service match the fields given; fields not given are left alone.
  - The execution environment is found by its name alone, as awx.awx does; O(organization) is a field of it.
  - Takes the options of awx.awx's C(execution_environment) module.
author:
  - automation.service maintainers (@automation-service)
notes:
  - O(pull) has no default. When it is not given, an execution environment is created with the service's default (no
    pull option, which pulls a missing image) and an existing one keeps its value. awx.awx sends V(missing) when it
    is not given.
  - The service refuses to change the organization of an execution environment once it has one, and to change the
    execution environments it manages itself.
options:
  name:
    description:
      - Name of the execution environment.
    type: str
    required: true
  new_name:
    description:
      - A new name for the execution environment (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  image:
    description:
      - The full reference of the container image, for example C(quay.io/ansible/awx-ee:latest).
      - Required to create an execution environment.
    type: str
  description:
    description:
      - Description of the execution environment.
    type: str
  organization:
    description:
      - The organization that may use the execution environment, by name or id; none makes it global.
    type: str
  credential:
    description:
      - The container registry credential to pull the image with, by name or id; V('') clears it.
    type: str
  pull:
    description:
      - When to pull the image before a job runs.
    type: str
    choices: [always, missing, never]
  state:
    description:
      - V(present) creates or updates the execution environment, V(absent) deletes it.
      - V(exists) creates the execution environment when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure an execution environment exists
  automation.service.execution_environment:
    name: Network EE
    image: registry.example.com/ee/network:2.4
    organization: Default
    credential: Example registry
    pull: always

- name: Remove it
  automation.service.execution_environment:
    name: Network EE
    state: absent
'''

RETURN = r'''
id:
  description: Id of the execution environment (of the deleted one with O(state=absent)).
  returned: when the execution environment exists or existed
  type: int
  sample: 5
execution_environment:
  description: The execution environment as the service returns it (the would-be one in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 5, "name": "Network EE", "image": "registry.example.com/ee/network:2.4", "pull": "always",
           "organization": 1, "credential": 3}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    image=dict(type='str'),
    description=dict(type='str'),
    organization=dict(type='str'),
    credential=dict(type='str'),
    pull=dict(type='str', choices=['always', 'missing', 'never']),
    state=STATE_EXISTS,
)

RESOURCE = Resource(
    'execution_environments', 'execution_environment', 'execution environment',
    fields=('image', 'description', 'pull'),
    references={'organization': 'organizations', 'credential': 'credentials'},
    required_on_create=('image',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
