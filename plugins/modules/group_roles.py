#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: group_roles
short_description: Give roles of Automation Hub to groups, on the whole Hub or on some of its objects
version_added: 0.5.0
description:
  - Gives the roles of O(role_list) to each group of O(groups), or takes them away (Pulp's
    C(pulp/api/v3/groups/<id>/roles/) under the Hub's API). A role is given on the whole Hub, or on each object
    its C(targets) name (a collection namespace, remote or repository, an execution environment, a remote
    registry); the Hub refuses a role on an object it carries no permission for (V(galaxy.user_admin) on a
    namespace).
  - Seen on galaxy-ng 4.9.2, the managed roles that fit each kind of target are V(galaxy.collection_namespace_owner)
    on a namespace, V(galaxy.collection_remote_owner) on a collection remote, V(galaxy.ansible_repository_owner) on a
    collection repository and the V(container.containerdistribution_*) roles on an execution environment; a custom
    role fits where its permissions do.
  - Every name is looked up before anything is written; a group that does not exist is created, and deleted again
    when the Hub then refuses one of its roles (the task fails and changed nothing).
  - Takes the options and return values of ansible.hub's C(group_roles) module. Unlike it, check mode writes
    nothing, and a diff says which roles each group gains and loses.
author:
  - automation.service maintainers (@automation-service)
options:
  groups:
    description:
      - Names of the groups that get the roles. A group that does not exist is created (with O(state=absent) too).
    type: list
    elements: str
    required: true
  role_list:
    description:
      - The roles, each set of them on its targets.
    type: list
    elements: dict
    required: true
    suboptions:
      roles:
        description:
          - Names of the roles (V(galaxy.collection_admin), a custom role made with M(automation.service.ah_role)).
        type: list
        elements: str
        required: true
      targets:
        description:
          - The objects the roles are given on, by name. When every list is empty (or O(role_list[].targets) is
            not given), the roles are given on the whole Hub.
        type: dict
        default: {}
        suboptions:
          collection_namespaces:
            description:
              - Collection namespaces.
            type: list
            elements: str
            default: []
          collection_remotes:
            description:
              - Collection remotes.
            type: list
            elements: str
            default: []
          collection_repositories:
            description:
              - Collection repositories.
            type: list
            elements: str
            default: []
          execution_environments:
            description:
              - Execution environments (container repositories), each as its container distribution, as
                ansible.hub names it. The Hub takes the roles of a distribution there
                (V(container.containerdistribution_owner), ...); it refuses the V(galaxy.execution_environment_*)
                roles, which are roles of a container namespace.
            type: list
            elements: str
            default: []
          container_registery_remotes:
            description:
              - Remote container registries (the spelling is ansible.hub's).
            type: list
            elements: str
            default: []
  state:
    description:
      - V(present) gives the roles (those the groups have already stay as they are).
      - V(absent) takes the roles of O(role_list) away (those the groups do not have are no change).
      - V(enforced) gives the roles and takes every other role of the groups away.
    type: str
    choices: [present, enforced, absent]
    default: present
seealso:
  - module: automation.service.ah_group
  - module: automation.service.ah_role
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Operators manage groups on the whole Hub, and own one namespace
  automation.service.group_roles:
    groups:
      - operators
    role_list:
      - roles:
          - galaxy.group_admin
      - roles:
          - galaxy.collection_namespace_owner
        targets:
          collection_namespaces:
            - acme

- name: Developers have exactly these roles, and no other
  automation.service.group_roles:
    groups:
      - developers
    role_list:
      - roles:
          - galaxy.collection_publisher
          - galaxy.execution_environment_publisher
    state: enforced
'''

RETURN = r'''
added:
  description: The roles given, each as the Hub answered it (in check mode, as it would be given).
  returned: always
  type: list
  elements: dict
  sample: [{"role": "galaxy.group_admin", "content_object": null, "pulp_href": "/api/galaxy/pulp/api/v3/groups/3/roles/01a2.../"}]
removed:
  description: The roles taken away, each with its group's name (C(group)) and the role (C(perms)).
  returned: always
  type: list
  elements: dict
  sample: [{"group": "operators", "perms": {"role": "galaxy.collection_admin", "content_object": null}}]
existing:
  description: The roles of O(role_list) the groups had already, each with the group's name and path.
  returned: always
  type: list
  elements: dict
  sample: [{"group": "operators", "group_href": "/api/galaxy/pulp/api/v3/groups/3/",
            "perms": {"role": "galaxy.group_admin", "content_object": null}}]
perm_list:
  description: Every role of O(role_list) with the object it is given on (C(content_object), the object's path, or
    null for the whole Hub).
  returned: always
  type: list
  elements: dict
  sample: [{"role": "galaxy.group_admin", "content_object": null}]
role_list:
  description: O(role_list), each item with the paths of its targets (C(content_urls)).
  returned: always
  type: list
  elements: dict
'''

from ansible_collections.automation.service.plugins.module_utils._hub_access import GROUP_ROLES, group_roles_spec

TARGETS = dict(
    collection_namespaces=dict(type='list', elements='str', default=[]),
    collection_remotes=dict(type='list', elements='str', default=[]),
    collection_repositories=dict(type='list', elements='str', default=[]),
    execution_environments=dict(type='list', elements='str', default=[]),
    container_registery_remotes=dict(type='list', elements='str', default=[]),
)

ARGUMENT_SPEC = dict(
    groups=dict(type='list', elements='str', required=True),
    role_list=dict(type='list', elements='dict', required=True, options=dict(
        roles=dict(type='list', elements='str', required=True),
        targets=dict(type='dict', default={}, options=TARGETS),
    )),
    state=dict(type='str', choices=['present', 'enforced', 'absent'], default='present'),
)

SPEC = group_roles_spec(ARGUMENT_SPEC)
run = GROUP_ROLES.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
