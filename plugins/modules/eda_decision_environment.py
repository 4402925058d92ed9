#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_decision_environment
short_description: Create, update or delete a decision environment of Event-Driven Ansible
version_added: 0.4.0
description:
  - Makes one of Event-Driven Ansible's decision environments (the container images rulebook activations run in)
    match the options given, at C(/api/eda/v1/decision-environments/) behind the platform gateway.
  - Takes the options of ansible.eda's C(decision_environment) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The name of the decision environment.
    type: str
    required: true
  new_name:
    description:
      - A new name for the decision environment (found by O(name), or by O(new_name) when it was renamed already).
    type: str
  description:
    description:
      - The description of the decision environment.
    type: str
  image_url:
    description:
      - The container image of the decision environment, for example V(quay.io/ansible/ansible-rulebook:main).
        Needed to create one.
    type: str
  credential:
    description:
      - The EDA credential (M(automation.service.eda_credential)) that pulls the image, by name or id; V('') for
        none.
    type: str
  pull_policy:
    description:
      - When the image is pulled before a container starts. V(always) pulls it every time, V(missing) only when
        it is not there, V(never) never (on Kubernetes, C(Always), C(IfNotPresent) and C(Never)).
    type: str
    choices: [always, never, missing]
    default: always
  state:
    description:
      - V(present) creates or updates the decision environment, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.eda.organization
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
notes:
  - As with ansible.eda, O(pull_policy) not given is V(always), and sets a decision environment that has another
    policy back to it.
  - Unlike ansible.eda, a task that updates a decision environment needs neither O(image_url) nor
    O(organization_name); a credential that does not exist fails the task instead of being left out.
'''

EXAMPLES = r'''
- name: A decision environment
  automation.service.eda_decision_environment:
    name: Default DE
    image_url: quay.io/ansible/ansible-rulebook:main
    organization_name: Default
    pull_policy: missing

- name: Rename it
  automation.service.eda_decision_environment:
    name: Default DE
    new_name: Main DE

- name: Remove it
  automation.service.eda_decision_environment:
    name: Main DE
    state: absent
'''

RETURN = r'''
id:
  description: Id of the decision environment (of the deleted one with O(state=absent)).
  returned: when the decision environment exists or existed
  type: int
  sample: 37
decision_environment:
  description: The decision environment as EDA returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 37, "name": "Default DE", "image_url": "quay.io/ansible/ansible-rulebook:main",
           "organization_id": 1, "eda_credential_id": null, "pull_policy": "missing", "description": ""}
existing:
  description: The decision environment before the task (empty when there was none).
  returned: always
  type: dict
end_state:
  description: The decision environment after the task (empty once deleted).
  returned: always
  type: dict
'''

from ansible_collections.automation.service.plugins.module_utils._eda import (
    ORGANIZATION, ORGANIZATION_OPTION, EdaResource, Reference,
)
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    image_url=dict(type='str'),
    credential=dict(type='str'),
    pull_policy=dict(type='str', choices=['always', 'never', 'missing'], default='always'),
    organization_name=dict(ORGANIZATION_OPTION),
    state=STATE,
)

RESOURCE = EdaResource(
    'decision-environments', 'decision_environment', 'decision environment', 'eda_decision_environment',
    fields=('description', 'image_url', 'pull_policy'),
    references={'organization_name': ORGANIZATION,
                'credential': Reference('eda-credentials', 'eda_credential_id', 'credential')},
    organization_required=True, required_on_create=('image_url',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
