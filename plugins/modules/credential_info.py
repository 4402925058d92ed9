#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: credential_info
short_description: Read credentials of the service
version_added: 0.1.0
description:
  - Reads the credentials of the service that match all the filters given, and returns them as a list (empty when none match).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only credentials with this name.
    type: str
  credential_type:
    description:
      - Only credentials of this credential type, by name or id.
    type: str
  organization:
    description:
      - Only credentials of this organization, by name or id.
    type: str
extends_documentation_fragment:
  - automation.service.info
  - automation.service.auth
  - automation.service.attributes.info_module
'''

EXAMPLES = r'''
- name: The machine credentials of the Default organization
  automation.service.credential_info:
    credential_type: Machine
    organization: Default
  register: machine
'''

RETURN = r'''
credentials:
  description: The matching credentials, as the service returns them.
  returned: always
  type: list
  elements: dict
  sample: [{"id": 5, "name": "deploy key", "credential_type": 1, "inputs": {"username": "deploy", "ssh_key_data": "$encrypted$"}}]
'''

from ansible_collections.automation.service.plugins.module_utils._info import info_spec, read_all, related_filter

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
    credential_type=dict(type='str'),
    organization=dict(type='str'),
)


def filters(params):
    query = related_filter('credential_type', params['credential_type'])
    query.update(related_filter('organization', params['organization']))
    if params['name']:
        query['name'] = params['name']
    return query


def run(api):
    read_all(api, filters(api.params))


SPEC = info_spec('credentials', 'credentials', ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
