#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_ee_repository_sync
short_description: Sync a remote execution environment repository of Automation Hub
version_added: 0.5.0
description:
  - Starts the Hub's task that pulls the images of a remote repository from its registry
    (C(POST .../repositories/<name>/_content/sync/)); with O(wait), waits for it to end.
  - Every run starts the task, and reports a change; in check mode none is started.
  - Takes the options of ansible.hub's C(ah_ee_repository_sync) module and returns what it returns.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the repository (see M(automation.service.ah_ee_repository)).
    type: str
    required: true
  wait:
    description:
      - Wait for the sync to end before returning; fail when it failed.
    type: bool
    default: true
  interval:
    description:
      - Seconds between two reads of the sync's state, with O(wait).
    type: float
    default: 1
  timeout:
    description:
      - With O(wait), seconds after which the task fails if the sync has not ended. None waits until it ends.
    type: int
notes:
  - Only a remote repository (one with a registry) can be synced; the Hub refuses to sync a pushed one.
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Pull the images of a remote repository, waiting up to five minutes
  automation.service.ah_ee_repository_sync:
    name: mirror/ee-minimal
    timeout: 300
'''

RETURN = r'''
name:
  description: Name of the repository.
  returned: always
  type: str
  sample: mirror/ee-minimal
task:
  description: The Hub's task that syncs the repository (its Pulp path).
  returned: when a task was started (not in check mode)
  type: str
  sample: /api/galaxy/pulp/api/v3/tasks/01a22aab-0e2a-75b6-be14-1b0ee96834a9/
sync_status:
  description: V(Complete) once the sync ended, with O(wait); V(Started) without.
  returned: always, but when the sync failed
  type: str
  sample: Complete
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_ee
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._hub_ee import WAIT_ARGUMENT_SPEC

ARGUMENT_SPEC = dict(WAIT_ARGUMENT_SPEC)
SPEC = hub_spec(ARGUMENT_SPEC)
run = _hub_ee.run_repository_sync


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
