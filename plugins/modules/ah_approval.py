#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_approval
short_description: Approve or reject a collection version on the Automation Hub
version_added: 0.5.0
description:
  - Approves a collection version on the Automation Hub, moving it from the C(staging) repository (or from
    C(rejected)) to C(published); or with O(state=rejected), rejects it, moving it from C(staging) (or from
    C(published)) to C(rejected). A version that is there already is left alone, and the task changes nothing.
  - An import of the version still under way (an upload that did not wait) is waited for first.
  - Takes the options of ansible.hub's module of the same name.
author:
  - automation.service maintainers (@automation-service)
options:
  namespace:
    description:
      - Namespace of the collection.
    type: str
    required: true
  name:
    description:
      - Name of the collection.
    type: str
    required: true
  version:
    description:
      - The version to approve or reject.
    type: str
    required: true
  state:
    description:
      - V(approved) moves the version to C(published), V(rejected) to C(rejected).
    type: str
    choices: [approved, rejected]
    default: approved
  timeout:
    description:
      - Seconds to wait for an import of the version under way, and for the move, before failing. No limit when
        not set.
    type: int
  interval:
    description:
      - Seconds between two reads of the state of what the task waits for.
    type: float
    default: 1.0
notes:
  - Unlike ansible.hub's, it also rejects (O(state=rejected)), takes O(timeout) and O(interval), returns
    RV(collection_version), and waits for an import of the version under way instead of retrying the approval without
    end. It moves the version with galaxy's C(v3/collections/.../move/) behind a gateway too, where ansible.hub uses
    Pulp's C(move_collection_version).
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Approve acme.tools 1.2.0
  automation.service.ah_approval:
    namespace: acme
    name: tools
    version: 1.2.0
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Reject acme.tools 1.2.1
  automation.service.ah_approval:
    namespace: acme
    name: tools
    version: 1.2.1
    state: rejected
'''

RETURN = r'''
collection_version:
  description: The namespace, name and version, and the repositories that hold it once the task is done (in check
    mode, would hold it).
  returned: success
  type: dict
  sample: {"namespace": "acme", "name": "tools", "version": "1.2.0", "repositories": ["published"]}
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_collections as hc
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec

ARGUMENT_SPEC = dict(
    namespace=dict(type='str', required=True),
    name=dict(type='str', required=True),
    version=dict(type='str', required=True),
    state=dict(type='str', choices=['approved', 'rejected'], default='approved'),
    timeout=dict(type='int'),
    interval=dict(type='float', default=1.0),
)

SPEC = hub_spec(ARGUMENT_SPEC)
# state -> the repository it moves to, and the ones it moves from, in the order they are tried
MOVES = {
    'approved': (hc.PUBLISHED, (hc.STAGING, hc.REJECTED)),
    'rejected': (hc.REJECTED, (hc.STAGING, hc.PUBLISHED)),
}


def run(api):
    params = api.params
    hc.check_interval(params)
    namespace, name, version = params['namespace'], params['name'], params['version']
    hub = hc.Hub(api, 'ah_approval')
    destination, sources = MOVES[params['state']]
    found = hub.where(namespace, name, version).get(version) or []
    if not found:
        for entry in hc.imports_under_way(api, hub.place, namespace, name, version):
            hub.wait(hub.place(hc.task_path(entry['id'])), 'import', params['interval'])
            hub.children_done(entry['id'], 'import')
        found = hub.where(namespace, name, version).get(version) or []
    if destination not in found:
        source = next((repository for repository in sources if repository in found), None)
        if source is None:
            if params['state'] == 'approved' or not found:
                raise ConfigError(hc.approval_missing(namespace, name, version))
            raise ConfigError('Unable to reject %s.%s %s: it is in %s, not in %s.'
                              % (namespace, name, version, ', '.join(found), ' nor '.join(sources)))
        hub.move(namespace, name, version, source, destination, params['interval'])
        found = [destination] + [repository for repository in found if repository != source]
    api.returns(collection_version=dict(namespace=namespace, name=name, version=version, repositories=found))


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
