#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: label
short_description: Create or rename a label
version_added: 0.2.0
description:
  - Makes sure a label of an organization exists, and renames it with O(new_name).
  - Takes the options of awx.awx's C(label) module.
author:
  - automation.service maintainers (@automation-service)
notes:
  - The service has no way to delete a label (its API refuses C(DELETE) on a label), so there is no O(state=absent),
    as in awx.awx. The service removes a label by itself once it is taken off the last job template, inventory or
    schedule that used it.
options:
  name:
    description:
      - Name of the label, unique within its organization.
    type: str
    required: true
  new_name:
    description:
      - A new name for the label (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  organization:
    description:
      - The organization of the label, by name or id.
    type: str
    required: true
  state:
    description:
      - V(present) creates the label or renames it.
      - V(exists) creates the label when it is missing and leaves a label found as it is.
    type: str
    choices: [present, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make sure the label exists
  automation.service.label:
    name: nightly
    organization: Default

- name: Rename it
  automation.service.label:
    name: nightly
    new_name: every-night
    organization: Default
'''

RETURN = r'''
id:
  description: Id of the label.
  returned: always
  type: int
  sample: 7
label:
  description: The label as the service returns it (the would-be label in check mode).
  returned: always
  type: dict
  sample: {"id": 7, "name": "nightly", "organization": 1}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    organization=dict(type='str', required=True),
    state=dict(type='str', choices=['present', 'exists'], default='present'),
)

RESOURCE = Resource(
    'labels', 'label', 'label',
    scope={'organization': 'organizations'},
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
