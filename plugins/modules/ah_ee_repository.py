#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_ee_repository
short_description: Manage an execution environment repository of Automation Hub
version_added: 0.5.0
description:
  - Sets the description and README of a container repository of Automation Hub (an execution environment's
    images), or deletes the repository; options not given are left alone.
  - With O(registry), the repository is a remote one, which pulls O(upstream_name) from a remote registry of the
    Hub (see M(automation.service.ah_ee_registry)); the task creates it when it is missing, and makes its remote
    match O(upstream_name), O(registry), O(include_tags) and O(exclude_tags). M(automation.service.ah_ee_repository_sync)
    pulls its images.
  - Without O(registry), the repository must exist already; the Hub makes one when an image is first pushed to it
    (C(podman push hub.example.com/namespace/name:tag)).
  - Takes the options of ansible.hub's C(ah_ee_repository) module and returns what it returns.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the repository, V(namespace/name) or V(name).
    type: str
    required: true
  description:
    description:
      - Description of the repository.
    type: str
  registry:
    description:
      - The remote registry the repository pulls from, by name. Makes the repository a remote one; needs
        O(upstream_name).
    type: str
  upstream_name:
    description:
      - The name of the image in the registry (V(ansible-automation-platform-25/ee-minimal-rhel8)).
    type: str
  include_tags:
    description:
      - The tags of the image to pull (wildcards allowed); none given pulls every tag. Compared as a set.
      - Unlike ansible.hub, not given leaves the remote's tags as they are.
    type: list
    elements: str
  exclude_tags:
    description:
      - The tags of the image not to pull (wildcards allowed). Compared as a set.
      - The Hub adds V(*-source) to them when it creates a remote repository.
      - Unlike ansible.hub, not given leaves the remote's tags as they are.
    type: list
    elements: str
  readme:
    description:
      - The README of the repository, in Markdown. Compared without leading and trailing white space.
      - Mutually exclusive with O(readme_file).
    type: str
  readme_file:
    description:
      - Path of a Markdown file (where the module runs) holding the README of the repository.
      - Mutually exclusive with O(readme).
    type: path
  state:
    description:
      - V(present) sets what is given, V(absent) deletes the repository, its images and its tags (a repository that
        does not exist is not an error).
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Describe a pushed execution environment
  automation.service.ah_ee_repository:
    name: platform/ee-custom
    description: Our execution environment
    readme: |
      # ee-custom

      Built by the platform team's pipeline.
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: A remote repository of two tags of an image of quay.io
  automation.service.ah_ee_repository:
    name: mirror/ee-minimal
    registry: quay
    upstream_name: ansible/ee-minimal
    include_tags:
      - latest
      - "2.0"

- name: Remove it
  automation.service.ah_ee_repository:
    name: mirror/ee-minimal
    state: absent
'''

RETURN = r'''
name:
  description: Name of the repository.
  returned: always
  type: str
  sample: platform/ee-custom
type:
  description: What the task managed, V(repository), as ansible.hub says it.
  returned: always
  type: str
  sample: repository
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_ee
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._hub_ee import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    description=dict(type='str'),
    registry=dict(type='str'),
    upstream_name=dict(type='str'),
    include_tags=dict(type='list', elements='str'),
    exclude_tags=dict(type='list', elements='str'),
    readme=dict(type='str'),
    readme_file=dict(type='path'),
    state=STATE,
)
SPEC = hub_spec(ARGUMENT_SPEC, mutually_exclusive=[('readme', 'readme_file')],
                required_by={'registry': 'upstream_name'})
run = _hub_ee.run_repository


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
