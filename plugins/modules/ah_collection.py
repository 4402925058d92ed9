#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_collection
short_description: Upload, approve, read or delete a collection on the Automation Hub
version_added: 0.5.0
description:
  - With O(path), uploads the collection artifact to the Automation Hub unless the Hub holds its version with the
    same artifact already, waits for the Hub's import, and with O(auto_approve) approves the version (moves it from
    C(staging) to C(published)). A second run changes nothing.
  - Without O(path), returns the collection (or with O(version), the version) as the Hub serves it, and fails when
    the Hub has none.
  - With O(state=absent), deletes the version O(version), or without it the collection with all its versions, from
    every repository of the Hub; with O(wait), once the task returns the Hub no longer holds it.
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
      - Version of the collection.
      - With O(path), the artifact's version; it need not be given, and when it is, it must be the artifact's.
    type: str
  path:
    description:
      - The collection artifact to upload, a file on the host the task runs on, or an C(http://) or C(https://)
        URL to download it from. Its namespace and name must be O(namespace) and O(name).
    type: str
  repository:
    description:
      - The distribution (base path) of the repository to upload to.
    type: str
    default: staging
  wait:
    description:
      - Wait for the import of the upload, and for a deletion, to end; fail when it failed.
      - O(auto_approve) waits for the import whatever this says.
    type: bool
    default: true
  auto_approve:
    description:
      - Approve the version uploaded (or found in C(staging)), that is move it to the C(published) repository.
    type: bool
    default: true
  interval:
    description:
      - Seconds between two reads of the state of the approval. The import and a deletion are read every second.
    type: float
    default: 10.0
  timeout:
    description:
      - Seconds to wait for the import, the approval or a deletion before failing. No limit when not set.
    type: int
  overwrite_existing:
    description:
      - When the Hub holds the version with another artifact than O(path), delete it and upload O(path) instead.
        Without it, such a version is left as it is, with a warning.
    type: bool
    default: false
  state:
    description:
      - V(present) uploads O(path) or, without it, reads the collection or version.
      - V(absent) deletes the version O(version), or without it the whole collection.
    type: str
    choices: [present, absent]
    default: present
notes:
  - Unlike ansible.hub's, it reads the artifact's namespace, name and version from its C(MANIFEST.json) (not from its
    file's name), finds a version in any repository (C(staging) too, not only C(published)), uploads nothing when
    the Hub holds the version with the same artifact, replaces a version with O(overwrite_existing) only when its
    artifact differs, takes a URL as O(path), and returns RV(collection_version).
  - Deleting a collection or version that another collection depends on is refused by the Hub; the task fails with
    its answer.
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Upload a collection and approve it
  automation.service.ah_collection:
    namespace: acme
    name: tools
    path: /var/tmp/collections/acme-tools-1.2.0.tar.gz
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Read a version
  automation.service.ah_collection:
    namespace: acme
    name: tools
    version: 1.2.0
  register: tools

- name: Remove a version
  automation.service.ah_collection:
    namespace: acme
    name: tools
    version: 1.2.0
    state: absent
'''

RETURN = r'''
collection:
  description: The collection, or with O(version) the version, as the Hub serves it (from C(published) when it is
    there).
  returned: with O(state=present) and no O(path)
  type: dict
  sample: {"namespace": {"name": "acme"}, "name": "tools", "version": "1.2.0", "requires_ansible": ">=2.15"}
collection_version:
  description: The namespace, name and version of the artifact, and the repositories that hold it on the Hub once
    the task is done (in check mode, would hold it).
  returned: with O(path)
  type: dict
  sample: {"namespace": "acme", "name": "tools", "version": "1.2.0", "repositories": ["published"]}
path:
  description: The artifact uploaded, or found on the Hub already.
  returned: with O(path)
  type: str
  sample: /var/tmp/collections/acme-tools-1.2.0.tar.gz
state:
  description: The state the import ended in (C(completed)).
  returned: when the task uploaded the artifact and waited for its import
  type: str
  sample: completed
task:
  description: The import an upload started, or the Pulp task of a deletion, as the Hub names it.
  returned: when the task uploaded or deleted something
  type: str
  sample: /api/galaxy/pulp/api/v3/tasks/01a22aac-2293-73d4-b55b-19af8cecafbb/
deleted:
  description: Whether the task deleted a collection or version (with O(overwrite_existing), the version it
    replaced).
  returned: with O(state=absent), or when O(overwrite_existing) replaced a version
  type: bool
  sample: true
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_collections as hc
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

ARGUMENT_SPEC = dict(
    namespace=dict(type='str', required=True),
    name=dict(type='str', required=True),
    version=dict(type='str'),
    path=dict(type='str'),
    repository=dict(type='str', default='staging'),
    wait=dict(type='bool', default=True),
    auto_approve=dict(type='bool', default=True),
    interval=dict(type='float', default=10.0),
    timeout=dict(type='int'),
    overwrite_existing=dict(type='bool', default=False),
    state=STATE,
)

SPEC = hub_spec(ARGUMENT_SPEC)
MODULE = 'ah_collection'


def missing(params):
    """ansible.hub's words for a collection (or version) the Hub does not have."""
    text = 'Could not find Collection %s.%s' % (params['namespace'], params['name'])
    return text + (' with version %s' % params['version'] if params['version'] else '')


def absent(api, hub):
    params = api.params
    namespace, name, version = params['namespace'], params['name'], params['version']
    found = hub.where(namespace, name, version)
    if not found:
        api.returns(deleted=False)
        return
    if version:
        repositories = found[version]
        key = '%s.%s:%s' % (namespace, name, version)
    else:
        repositories = sorted(set(repository for held in found.values() for repository in held))
        key = '%s.%s' % (namespace, name)
    path = hc.version_path(hc.preferred(repositories), namespace, name, version)
    answer = hub.delete(path, key, repositories, params['wait'])
    api.returns(deleted=True)
    if answer.get('task'):
        api.returns(task=answer['task'])


def read(api, hub):
    params = api.params
    namespace, name, version = params['namespace'], params['name'], params['version']
    found = hub.where(namespace, name, version)
    if not found:
        raise ConfigError(missing(params))
    if version:
        collection = hub.read_version(hc.preferred(found[version]), namespace, name, version)
    else:
        repositories = [repository for held in found.values() for repository in held]
        collection = api.client.get(hub.place(hc.version_path(hc.preferred(repositories), namespace, name)))
    api.returns(collection=collection)


def upload(api, hub, local):
    params = api.params
    artifact = hc.read_artifact(local)
    if (artifact.namespace, artifact.name) != (params['namespace'], params['name']):
        raise ConfigError('%s is an artifact of %s, not of %s.%s.'
                          % (params['path'], artifact.fqcn, params['namespace'], params['name']))
    if params['version'] and params['version'] != artifact.version:
        raise ConfigError('%s is version %s of %s, not version %s.'
                          % (params['path'], artifact.version, artifact.fqcn, params['version']))
    version = artifact.version
    key = '%s:%s' % (artifact.fqcn, version)
    found = hub.where(artifact.namespace, artifact.name, version).get(version) or []
    if found:
        held = hub.read_version(hc.preferred(found), artifact.namespace, artifact.name, version)
        sha256 = ((held or {}).get('artifact') or {}).get('sha256')
        if sha256 and sha256 != artifact.sha256:
            if params['overwrite_existing']:
                path = hc.version_path(hc.preferred(found), artifact.namespace, artifact.name, version)
                answer = hub.delete(path, key, found, True)
                api.returns(deleted=True, task=answer.get('task'))
                found = []
            else:
                api.warn('The Hub holds %s with another artifact than %s; it is left as it is '
                         '(overwrite_existing replaces it).' % (key, params['path']))
    api.returns(path=params['path'])
    if not found:
        answer = hub.upload(artifact, params['repository'], params['wait'] or params['auto_approve'])
        api.returns(**dict((k, answer[k]) for k in ('task', 'state') if k in answer))
        if api.check_mode or not (params['wait'] or params['auto_approve']):
            found = [hc.STAGING if params['repository'] == hc.PUBLISHED else params['repository']]
        else:
            found = hub.where(artifact.namespace, artifact.name, version).get(version) or []
    if params['auto_approve'] and hc.PUBLISHED not in found:
        source = hc.STAGING if hc.STAGING in found or not found else found[0]
        hub.move(artifact.namespace, artifact.name, version, source, hc.PUBLISHED, params['interval'])
        found = [hc.PUBLISHED] + [repository for repository in found if repository != source]
    api.returns(path=params['path'], collection_version=hub.described(artifact, found))


def run(api):
    params = api.params
    hc.check_interval(params)
    hub = hc.Hub(api, MODULE)
    if params['state'] == 'absent':
        absent(api, hub)
    elif not params['path']:
        read(api, hub)
    else:
        with hc.fetched(api, params['path'], missing='Could not find Collection %s.%s in path %s'
                        % (params['namespace'], params['name'], params['path'])) as local:
            upload(api, hub, local)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
