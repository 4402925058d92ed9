#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: instance_group
short_description: Create, update or delete an instance group or container group
version_added: 0.2.0
description:
  - Makes an instance group of the service match the fields given; fields not given are left alone.
  - O(pod_spec_override) is compared as data, so the same pod spec in another YAML or JSON style is no change.
  - Takes the options of awx.awx's C(instance_group) module.
author:
  - automation.service maintainers (@automation-service)
notes:
  - The service keeps the settings of its own groups C(default) and C(controlplane) (name, policy fields, container
    group flag) and refuses to delete them.
options:
  name:
    description:
      - Name of the instance group.
    type: str
    required: true
  new_name:
    description:
      - A new name for the instance group (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  credential:
    description:
      - For a container group, the OpenShift or Kubernetes API Bearer Token credential to reach the cluster with, by
        name or id; V('') clears it (the pod's service account is used then).
    type: str
  is_container_group:
    description:
      - Whether the group runs jobs as pods of a Kubernetes or OpenShift cluster rather than on instances.
    type: bool
  policy_instance_percentage:
    description:
      - The lowest percentage of all instances put in the group automatically as they come online.
    type: int
  policy_instance_minimum:
    description:
      - The lowest number of instances put in the group automatically as they come online.
    type: int
  max_concurrent_jobs:
    description:
      - The most jobs the group runs at once; V(0) means no limit.
    type: int
  max_forks:
    description:
      - The most forks the group's jobs use at once; V(0) means no limit.
    type: int
  policy_instance_list:
    description:
      - Host names of instances always put in the group. The list given replaces the group's list.
    type: list
    elements: str
  pod_spec_override:
    description:
      - For a container group, the pod specification (YAML or JSON text) that replaces the default one; V('') goes back
        to the default.
    type: str
  instances:
    description:
      - The instances of the group, by host name or id. The list given replaces the group's instances; V([]) empties it.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the instance group, V(absent) deletes it.
      - V(exists) creates the instance group when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: An instance group of the local node
  automation.service.instance_group:
    name: local
    instances: [localhost]
    max_concurrent_jobs: 10

- name: A container group
  automation.service.instance_group:
    name: openshift
    is_container_group: true
    credential: OpenShift token
    pod_spec_override: |
      apiVersion: v1
      kind: Pod
      metadata:
        namespace: automation
      spec:
        containers:
          - name: worker
            image: quay.io/ansible/awx-ee:latest
            args: [ansible-runner, worker, --private-data-dir=/runner]

- name: Remove an instance group
  automation.service.instance_group:
    name: local
    state: absent
'''

RETURN = r'''
id:
  description: Id of the instance group (of the deleted one with O(state=absent)).
  returned: when the instance group exists or existed
  type: int
  sample: 3
instance_group:
  description: The instance group as the service returns it (the would-be one in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 3, "name": "local", "is_container_group": false, "max_concurrent_jobs": 10, "instances": 1,
           "policy_instance_list": []}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    credential=dict(type='str'),
    is_container_group=dict(type='bool'),
    policy_instance_percentage=dict(type='int'),
    policy_instance_minimum=dict(type='int'),
    max_concurrent_jobs=dict(type='int'),
    max_forks=dict(type='int'),
    policy_instance_list=dict(type='list', elements='str'),
    pod_spec_override=dict(type='str'),
    instances=dict(type='list', elements='str'),
    state=STATE_EXISTS,
)

RESOURCE = Resource(
    'instance_groups', 'instance_group', 'instance group',
    fields=('is_container_group', 'policy_instance_percentage', 'policy_instance_minimum', 'max_concurrent_jobs',
            'max_forks', 'policy_instance_list'),
    references={'credential': 'credentials'},
    json_data=('pod_spec_override',),         # YAML or JSON text, sent as given, compared as data
    associations={'instances': ('instances', 'instances', 'hostname')},
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
