#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_ee_registry_sync
short_description: Sync every remote repository of a registry of Automation Hub
version_added: 0.5.0
description:
  - Starts the Hub's task that syncs every remote repository that pulls from a remote registry
    (C(POST .../registries/<id>/sync/)), a task of its own for each; with O(wait), waits for it and those tasks
    to end.
  - Every run starts the task, and reports a change; in check mode none is started.
  - Takes the options of ansible.hub's C(ah_ee_registry_sync) module and returns what it returns.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the registry (see M(automation.service.ah_ee_registry)).
    type: str
    required: true
  wait:
    description:
      - Wait for the sync, and the syncs of the repositories it starts, to end before returning; fail when one failed.
    type: bool
    default: true
  interval:
    description:
      - Seconds between two reads of the tasks' states, with O(wait).
    type: float
    default: 1
  timeout:
    description:
      - With O(wait), seconds after which the task fails if the syncs have not ended. None waits until it ends.
    type: int
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Sync the repositories of the quay registry, waiting up to five minutes
  automation.service.ah_ee_registry_sync:
    name: quay
    timeout: 300

- name: Start the syncs only
  automation.service.ah_ee_registry_sync:
    name: quay
    wait: false
'''

RETURN = r'''
name:
  description: Name of the registry.
  returned: always
  type: str
  sample: quay
id:
  description: Id of the registry (a UUID).
  returned: when the registry exists
  type: str
  sample: 01a22aaa-f3fe-7944-ba4a-3779a9372287
task:
  description: The Hub's task that syncs the registry's repositories (its Pulp path).
  returned: when a task was started (not in check mode)
  type: str
  sample: /api/galaxy/pulp/api/v3/tasks/01a22aab-42d5-7fb0-8b88-3936fcbd8884/
task_status:
  description: V(Complete) once the task and those it started ended, with O(wait); V(Started) without.
  returned: always, but when the task failed
  type: str
  sample: Complete
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_ee
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._hub_ee import WAIT_ARGUMENT_SPEC

ARGUMENT_SPEC = dict(WAIT_ARGUMENT_SPEC)
SPEC = hub_spec(ARGUMENT_SPEC)


def run(api):
    _hub_ee.run_registry_task(api, 'sync', 'ah_ee_registry_sync')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
