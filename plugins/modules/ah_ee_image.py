#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_ee_image
short_description: Tag, untag or delete an execution environment image of Automation Hub
version_added: 0.5.0
description:
  - Adds tags to an image of a container repository of Automation Hub, sets its tags, or deletes the image with all
    its tags.
  - The image is named by its repository and one of its tags, V(repository:tag).
  - Takes the options of ansible.hub's C(ah_ee_image) module and returns what it returns.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The repository and a tag of the image, V(namespace/name:tag); without a tag, V(latest).
    type: str
    required: true
  tags:
    description:
      - The tags the image gets (O(append=true)) or ends with (O(append=false)). A tag another image of the
        repository has moves to this one.
      - With O(append=false), none given (or V([])) deletes the image, as ansible.hub does.
      - Only used when O(state=present).
    type: list
    elements: str
  append:
    description:
      - V(true) adds O(tags) to the image's tags; V(false) makes them the image's only tags.
    type: bool
    default: true
  state:
    description:
      - V(present) tags the image, V(absent) deletes it with all its tags (an image that is not there is not an
        error).
    type: str
    choices: [present, absent]
    default: present
notes:
  - The Hub deletes images only from a repository of pushed images (pulp_container's push repository has
    C(remove_image/), its remote repository has not); the tags of a remote repository's images can be changed.
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Tag the image 2.0.0-15 as stable and 2.0
  automation.service.ah_ee_image:
    name: platform/ee-custom:2.0.0-15
    tags:
      - stable
      - "2.0"
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Make prod its only tag
  automation.service.ah_ee_image:
    name: platform/ee-custom:2.0.0-15
    append: false
    tags:
      - prod

- name: Delete the image tagged old
  automation.service.ah_ee_image:
    name: platform/ee-custom:old
    state: absent
'''

RETURN = r'''
name:
  description: Name of the repository.
  returned: always
  type: str
  sample: platform/ee-custom
tag:
  description: The tag that named the image.
  returned: always
  type: str
  sample: 2.0.0-15
type:
  description: What the task managed, V(image), as ansible.hub says it.
  returned: always
  type: str
  sample: image
digest:
  description: The digest of the image.
  returned: when the image exists or existed
  type: str
  sample: sha256:1a867fb2863512a5b7659524d376794f65608a2b3fbb9f602a75c16e2451a127
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_ee
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._hub_ee import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    tags=dict(type='list', elements='str'),
    append=dict(type='bool', default=True),
    state=STATE,
)
SPEC = hub_spec(ARGUMENT_SPEC)
run = _hub_ee.run_image


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
