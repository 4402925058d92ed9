#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: user_info
short_description: Read users of the service
version_added: 0.1.0
description:
  - Reads the users of the service that match all the filters given, and returns them as a list (empty when none match).
author:
  - automation.service maintainers (@automation-service)
options:
  username:
    description:
      - Only the user with this username.
    type: str
extends_documentation_fragment:
  - automation.service.info
  - automation.service.auth
  - automation.service.attributes.info_module
'''

EXAMPLES = r'''
- name: Find a user
  automation.service.user_info:
    username: alice
  register: found

- name: Every administrator
  automation.service.user_info:
    query:
      is_superuser: true
  register: admins
'''

RETURN = r'''
users:
  description: The matching users, as the service returns them.
  returned: always
  type: list
  elements: dict
  sample: [{"id": 7, "username": "alice", "is_superuser": false}]
'''

from ansible_collections.automation.service.plugins.module_utils._info import info_spec, read_all

ARGUMENT_SPEC = dict(
    username=dict(type='str'),
)


def filters(params):
    return {'username': params['username']} if params['username'] else {}


def run(api):
    read_all(api, filters(api.params))


SPEC = info_spec('users', 'users', ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
