#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: organization
short_description: Create, update or delete an organization
version_added: 0.2.0
description:
  - Makes an organization of the service match the fields given; fields not given are left alone.
  - Takes the options of awx.awx's C(organization) module.
  - Behind an Automation Platform platform gateway (see O(service_layout)), the gateway keeps the organizations; the
    name and O(description) are written at the gateway (C(/api/gateway/v1/organizations/)), and the organization is
    created and deleted there. The other options are the controller's own and are written at the controller's copy
    of the organization, once the gateway created or found it. RV(written_at) says where the task wrote.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the organization.
    type: str
    required: true
  new_name:
    description:
      - A new name for the organization (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the organization.
    type: str
  default_environment:
    description:
      - The default execution environment of the organization's jobs, by name or id; V('') clears it.
    type: str
  max_hosts:
    description:
      - The most hosts the organization's inventories may hold; V(0) means no limit.
    type: int
  galaxy_credentials:
    description:
      - The Galaxy credentials of the organization, by name or id, in the order they are searched. The list given
        replaces the organization's list, order included; V([]) empties it.
    type: list
    elements: str
  instance_groups:
    description:
      - The instance groups of the organization, by name or id, in the order they are tried. The list given replaces
        the organization's list, order included; V([]) empties it.
    type: list
    elements: str
  notification_templates_started:
    description:
      - Notification templates sent when a job of the organization starts, by name or id. The list given replaces the
        organization's list; V([]) empties it.
    type: list
    elements: str
  notification_templates_success:
    description:
      - Notification templates sent when a job of the organization succeeds, by name or id, as a list that replaces
        the organization's.
    type: list
    elements: str
  notification_templates_error:
    description:
      - Notification templates sent when a job of the organization fails, by name or id, as a list that replaces the
        organization's.
    type: list
    elements: str
  notification_templates_approvals:
    description:
      - Notification templates sent when a workflow of the organization waits for an approval, by name or id, as a
        list that replaces the organization's.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the organization, V(absent) deletes it.
      - V(exists) creates the organization when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.custom_virtualenv
'''

EXAMPLES = r'''
- name: Make sure the Engineering organization exists
  automation.service.organization:
    name: Engineering
    description: Everything the engineers run
    max_hosts: 500

- name: Its instance groups in order, and who hears of failed jobs
  automation.service.organization:
    name: Engineering
    instance_groups: [fast, default]
    notification_templates_error: [Engineering on-call]

- name: Rename it
  automation.service.organization:
    name: Engineering
    new_name: R&D

- name: Remove an organization
  automation.service.organization:
    name: R&D
    state: absent
'''

RETURN = r'''
id:
  description: Id of the organization (of the deleted organization with O(state=absent)).
  returned: when the organization exists or existed
  type: int
  sample: 2
organization:
  description: The organization as the service returns it (the would-be organization in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 2, "name": "Engineering", "description": "Everything the engineers run", "max_hosts": 500}
written_at:
  description:
    - Where the task wrote (in check mode, would write) behind a platform gateway, in that order - V(gateway) for the
      name and description, the creation and the deletion, V(controller) for the controller's own fields and lists.
    - An empty list when nothing changed.
  returned: when the service is a platform gateway
  type: list
  elements: str
  sample: [gateway, controller]
'''

from ansible_collections.automation.service.plugins.module_utils._organization import RESOURCE, SPEC

run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
