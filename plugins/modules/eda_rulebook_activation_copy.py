#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_rulebook_activation_copy
short_description: Copy a rulebook activation of Event-Driven Ansible
version_added: 0.4.0
description:
  - Makes a copy of a rulebook activation of Event-Driven Ansible (EDA), named O(name), through the service's
    C(/api/eda/v1/activations/<id>/copy/). The service makes the copy disabled.
  - Takes the options of ansible.eda's C(rulebook_activation_copy) module. Unlike it, the task is idempotent. When
    an activation named O(name) exists, nothing is copied and the task reports no change, whether or not that
    activation is a copy of O(copy_from). O(copy_from) must exist either way; a missing one fails the task, in
    ansible.eda's words.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the copy.
    type: str
    required: true
  copy_from:
    description:
      - The activation to copy, by name or id.
    type: str
    required: true
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A copy of the Hello activation
  automation.service.eda_rulebook_activation_copy:
    name: Hello (copy)
    copy_from: Hello
'''

RETURN = r'''
id:
  description: Id of the copy (of the activation named O(name) when it existed).
  returned: always
  type: int
  sample: 38
rulebook_activation:
  description: The copy as the service returns it (the would-be copy in check mode).
  returned: always
  type: dict
  sample: {"id": 38, "name": "Hello (copy)", "is_enabled": false, "status": "stopped", "rulebook_id": 5}
'''

from ansible_collections.automation.service.plugins.module_utils import _eda
from ansible_collections.automation.service.plugins.module_utils import _eda_activations as eda
from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    copy_from=dict(type='str', required=True),
)
LABEL = 'rulebook activation'


def run(api):
    params = api.params
    path = eda.paths_of(api, 'eda_rulebook_activation_copy')('activations')
    # the activation to copy must exist, even when the copy does (ansible.eda looks it up first, in these words)
    source = _eda.find(api, path, params['copy_from'], label=LABEL)
    if source is None:
        raise NotFound("Unable to access 'id' of the activation to copy from. No %s is named '%s'."
                       % (LABEL, params['copy_from']), total_results=0)
    existing = _eda.find(api, path, params['name'], label=LABEL)
    if existing is not None:
        api.returns(id=existing['id'], rulebook_activation=existing)
        return
    name = params['name']
    made = api.apply(Plan(None, [Write(
        'POST', '%s%d/copy/' % (path, source['id']), {'name': name}, expect=(201,), before={},
        after={'name': name, 'copied_from': source.get('name')}, makes=True,
        answer=dict(source, id=None, name=name, is_enabled=False), refused=eda.refused_create(LABEL, name))]))
    api.returns(id=made.get('id'), rulebook_activation=made)


SPEC = ModuleSpec(ARGUMENT_SPEC, result_key='rulebook_activation')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
