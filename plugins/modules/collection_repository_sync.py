#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: collection_repository_sync
short_description: Sync a collection repository of Automation Hub from its remote
version_added: 0.5.0
description:
  - Starts a sync of a collection repository of Automation Hub from the remote it has
    (M(automation.service.collection_remote)), and with O(wait) waits for the sync's task to end.
  - With O(wait), the task reports a change only when the sync brought something new (its task made a new version
    of the repository); a sync not waited for is a change. In check mode the repository is looked up, nothing is
    started, and the task reports a change.
  - Takes the options of ansible.hub's C(collection_repository_sync) module. Unlike it, a sync that brought nothing
    new is no change, a repository without a remote fails before anything is started, and a failed sync fails with
    the Hub's whole error.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the repository (for example V(community) or V(rh-certified), the repositories every Hub has).
    type: str
    required: true
  wait:
    description:
      - Wait for the sync to end, and fail when it failed. Without it, the task returns once the sync is started.
    type: bool
    default: true
  interval:
    description:
      - With O(wait), seconds between two reads of the sync's task.
    type: float
    default: 1
  timeout:
    description:
      - With O(wait), seconds to wait for the sync before failing; no limit when not given.
    type: int
notes:
  - The Hub's worker connects to the remote's URL itself, and checks the server's certificate against the CAs it
    trusts. A server whose certificate a private CA signed (another Hub of the same site) needs that CA as the
    remote's C(ca_cert), unless the worker's own system trusts it.
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Sync rh-certified without waiting
  automation.service.collection_repository_sync:
    name: rh-certified
    wait: false
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Sync community and wait up to ten minutes
  automation.service.collection_repository_sync:
    name: community
    timeout: 600
'''

RETURN = r'''
name:
  description: Name of the repository.
  returned: always
  type: str
  sample: community
sync_status:
  description: V(Complete) once the sync ended (with O(wait)), else V(Started).
  returned: when not in check mode
  type: str
  sample: Complete
task:
  description: The C(pulp_href) of the sync's task.
  returned: when not in check mode
  type: str
  sample: /api/galaxy/pulp/api/v3/tasks/01a22aab-56bf-78a3-8271-937a2bff8dc9/
msg:
  description: In check mode, what the task would have done.
  returned: in check mode
  type: str
  sample: "Would have synced collection repository: community"
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_repositories as repos
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec

MODULE = 'collection_repository_sync'

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    wait=dict(type='bool', default=True),
    interval=dict(type='float', default=1.0),
    timeout=dict(type='int'),
)


def run(api):
    params = api.params
    name = params['name']
    repository = repos.find_named(api, MODULE, repos.REPOSITORIES, name, 'collection repository')
    if repository is None:
        # ansible.hub's words (a playbook may read them)
        raise NotFound('The container registry with name: %s, was not found.' % name, total_results=0)
    api.returns(**repos.sync(api, MODULE, repository, name, params['wait'], params['interval'], params['timeout']))


SPEC = hub_spec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
