#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_collection_upload
short_description: Upload a collection artifact to the Automation Hub
version_added: 0.5.0
description:
  - Uploads a collection artifact (C(<namespace>-<name>-<version>.tar.gz)) to the Automation Hub, which imports it;
    with O(wait), the task waits for the import and fails when it failed.
  - The artifact's namespace, name and version are read from its C(MANIFEST.json). A version the Hub already holds
    with the same artifact (its sha256) is not uploaded again, and the task changes nothing; a version it holds with
    another artifact fails the task before anything is sent, as the Hub's import would.
  - Where the Hub requires approval (its default), the version lands in the C(staging) repository, whatever
    O(repository) says; M(automation.service.ah_approval) approves it.
  - Takes the options of ansible.hub's module of the same name.
author:
  - automation.service maintainers (@automation-service)
options:
  path:
    description:
      - The collection artifact, a file on the host the task runs on, or an C(http://) or C(https://) URL to
        download it from (read with the task's TLS settings).
    type: str
    required: true
  repository:
    description:
      - The distribution (base path) of the repository to upload to.
    type: str
    default: staging
  wait:
    description:
      - Wait for the Hub's import of the artifact to end, and fail when it failed.
    type: bool
    default: true
  timeout:
    description:
      - With O(wait), seconds to wait for the import before failing. No limit when not set.
    type: int
  interval:
    description:
      - With O(wait), seconds between two reads of the import's state.
    type: float
    default: 1.0
notes:
  - Unlike ansible.hub's, it uploads nothing when the Hub holds the version with the same artifact (ansible.hub
    uploads again and says changed), sends the file under the name the Hub expects whatever it is called, and
    returns RV(collection_version).
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Upload a collection artifact to the Hub
  automation.service.ah_collection_upload:
    path: /var/tmp/collections/acme-tools-1.2.0.tar.gz
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Upload one published elsewhere
  automation.service.ah_collection_upload:
    path: https://galaxy.ansible.com/download/community-general-9.0.0.tar.gz
'''

RETURN = r'''
path:
  description: The artifact uploaded, or found on the Hub already, as O(path) gives it (for a URL, ansible.hub returns
    the name of the file it downloaded instead).
  returned: always
  type: str
  sample: /var/tmp/collections/acme-tools-1.2.0.tar.gz
state:
  description: The state the import ended in (C(completed)); with O(wait) only.
  returned: when the task uploaded the artifact and waited for its import
  type: str
  sample: completed
task:
  description: The import the upload started, as the Hub names it (the path of its state).
  returned: when the task uploaded the artifact
  type: str
  sample: /api/galaxy/content/staging/v3/plugin/ansible/imports/collections/01a22aaa-cbec-7de0-b884-2e9520132af5/
collection_version:
  description: The namespace, name and version of the artifact, and the repositories that hold it on the Hub.
  returned: always
  type: dict
  sample: {"namespace": "acme", "name": "tools", "version": "1.2.0", "repositories": ["staging"]}
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_collections as hc
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec

ARGUMENT_SPEC = dict(
    path=dict(type='str', required=True),
    repository=dict(type='str', default='staging'),
    wait=dict(type='bool', default=True),
    timeout=dict(type='int'),
    interval=dict(type='float', default=1.0),
)

SPEC = hub_spec(ARGUMENT_SPEC)


def run(api):
    params = api.params
    hc.check_interval(params)
    hub = hc.Hub(api, 'ah_collection_upload')
    with hc.fetched(api, params['path']) as local:
        artifact = hc.read_artifact(local)
        hub.upload_once(artifact, params['repository'], params['wait'], shown_path=params['path'])


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
