#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_build
short_description: Build a collection artifact, ready to upload to the Automation Hub
version_added: 0.5.0
description:
  - Builds the collection of a directory with C(ansible-galaxy collection build) into a
    C(<namespace>-<name>-<version>.tar.gz) artifact in O(output_path). Sends nothing to any service; the connection
    options are accepted (from C(module_defaults)) and not used.
  - The collection is built aside first and compared with the artifact O(output_path) holds already, by the files
    it holds (their names, kinds and checksums, as its C(MANIFEST.json) and C(FILES.json) say them). An artifact of
    the same content is left as it is, and the task changes nothing; artifacts that differ only in their build time
    count as the same.
  - An artifact of other content is replaced with O(force); without it the task fails, in C(ansible-galaxy)'s words.
  - Takes the options of ansible.hub's module of the same name.
  - Runs the C(ansible-galaxy) found on E(PATH) (else the one beside the Python interpreter running the task), on
    the host the task runs on.
author:
  - automation.service maintainers (@automation-service)
options:
  path:
    description:
      - The directory of the collection to build, the one holding its C(galaxy.yml).
    type: str
    default: "."
  force:
    description:
      - Replace an artifact of other content in O(output_path).
    type: bool
    default: false
  output_path:
    description:
      - The directory to put the artifact in; made when missing.
    type: str
    default: "."
notes:
  - Unlike ansible.hub's, building again what is built already (the same content) does not fail without O(force); it
    changes nothing.
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Build the collection of a checkout
  automation.service.ah_build:
    path: /home/ansible/src/acme/tools
    output_path: /var/tmp/collections
  register: built

- name: Upload it
  automation.service.ah_collection:
    namespace: acme
    name: tools
    path: "{{ built.path }}"
'''

RETURN = r'''
path:
  description: The artifact built, or found of the same content.
  returned: success
  type: str
  sample: /var/tmp/collections/acme-tools-1.2.0.tar.gz
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_collections as hc
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec

ARGUMENT_SPEC = dict(
    path=dict(type='str', default='.'),
    force=dict(type='bool', default=False),
    output_path=dict(type='str', default='.'),
)

SPEC = hub_spec(ARGUMENT_SPEC)


def run(api):
    params = api.params
    hc.build(api, hc.local_file(params['path']), hc.local_file(params['output_path']), params['force'])


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
