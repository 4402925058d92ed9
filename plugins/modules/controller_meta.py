#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: controller_meta
short_description: Tell which collection and version this is
version_added: 0.2.0
description:
  - Returns the name and version of the collection it belongs to, so that a role written for several collections
    can build module and plugin names from RV(prefix).
  - Takes the connection options, as awx.awx's C(controller_meta) does, and sends no request.
author:
  - automation.service maintainers (@automation-service)
options: {}
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Sends nothing; the same in check mode.
    support: full
  diff_mode:
    description: Changes nothing; returns no diff.
    support: none
'''

EXAMPLES = r'''
- name: Which collection runs these tasks
  automation.service.controller_meta:
  register: meta

- name: Read a settings category through that collection's lookup
  ansible.builtin.debug:
    msg: "{{ lookup(meta.prefix + '.controller_api', 'settings/ui') }}"
'''

RETURN = r'''
prefix:
  description: The collection's namespace and name, C(namespace.name).
  returned: success
  type: str
  sample: automation.service
name:
  description: The collection's name.
  returned: success
  type: str
  sample: service
namespace:
  description: The collection's namespace.
  returned: success
  type: str
  sample: automation
version:
  description: The collection's version.
  returned: success
  type: str
  sample: 0.1.0
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec

NAMESPACE = 'automation'
NAME = 'service'
# The version of galaxy.yml (a test keeps the two equal): a module run on a
# remote host has no collection metadata to read it from.
VERSION = '0.1.0'


def run(api):
    api.returns(prefix='%s.%s' % (NAMESPACE, NAME), name=NAME, namespace=NAMESPACE, version=VERSION)


SPEC = ModuleSpec({})


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
