#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_namespace
short_description: Create, update, rename or delete a collection namespace of Automation Hub
version_added: 0.5.0
description:
  - Makes one of Automation Hub's collection namespaces match the options given, at the Hub's
    C(v3/namespaces/<name>/).
  - Takes the options of ansible.hub's C(ah_namespace) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The namespace's name. The Hub takes lower case letters, digits and underscores, more than two of them, not
        starting with an underscore.
    type: str
    required: true
  new_name:
    description:
      - A new name for the namespace named O(name) (or, when there is none, the namespace already named so).
    type: str
  description:
    description:
      - The namespace's description.
    type: str
  company:
    description:
      - The company that owns the namespace.
    type: str
  email:
    description:
      - The namespace's contact email.
    type: str
  avatar_url:
    description:
      - The URL of the namespace's logo (the Hub downloads it).
    type: str
  resources:
    description:
      - The namespace's resources page, in Markdown.
    type: str
  links:
    description:
      - The namespace's links, each a name and a URL; the namespace has exactly these (in any order).
    type: list
    elements: dict
    suboptions:
      name:
        description:
          - The link's text.
        type: str
        required: true
      url:
        description:
          - The link's URL.
        type: str
        required: true
  groups:
    description:
      - The groups that own the namespace (each with the role C(galaxy.collection_namespace_owner)); the namespace
        has exactly these groups. An empty list takes every group away.
      - Not given, the namespace's groups stay as they are (see the notes).
    type: list
    elements: str
  state:
    description:
      - V(present) makes the namespace match; V(absent) deletes it (the Hub refuses while it holds collections).
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
notes:
  - Unlike ansible.hub, whose O(groups) defaults to an empty list and so takes every group away from a namespace
    whenever a task does not list them, a task without O(groups) leaves them as they are.
  - Unlike ansible.hub, a task that changes nothing sends nothing, and O(links) in another order is no change.
'''

EXAMPLES = r'''
- name: A namespace for the platform team's collections
  automation.service.ah_namespace:
    name: platform_team
    company: Example Inc.
    email: platform@example.com
    description: Collections of the platform team
    links:
      - name: Source
        url: https://git.example.com/platform
    groups:
      - platform-publishers

- name: Rename it
  automation.service.ah_namespace:
    name: platform_team
    new_name: platform

- name: Delete it
  automation.service.ah_namespace:
    name: platform
    state: absent
'''

RETURN = r'''
id:
  description: Id of the namespace (of the deleted one with O(state=absent)).
  returned: when the namespace exists or existed
  type: int
  sample: 4
name:
  description: The namespace's name, as ansible.hub returns it.
  returned: with O(state=present)
  type: str
  sample: platform_team
namespace:
  description: The namespace as the Hub returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 4, "name": "platform_team", "company": "Example Inc.", "links": [], "groups": []}
existing:
  description: The namespace before the task (empty when there was none).
  returned: always
  type: dict
end_state:
  description: The namespace after the task (empty once deleted).
  returned: always
  type: dict
'''

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._hub import V3, HubResource

# The role ansible.hub gives each group it names (its ah_namespace's object_roles)
OWNER_ROLE = 'galaxy.collection_namespace_owner'

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    company=dict(type='str'),
    email=dict(type='str'),
    avatar_url=dict(type='str'),
    resources=dict(type='str'),
    links=dict(type='list', elements='dict', options=dict(name=dict(type='str', required=True),
                                                          url=dict(type='str', required=True))),
    groups=dict(type='list', elements='str'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)


def links_as_compared(links):
    """Links as the Hub keeps them, in no order: name and url, sorted."""
    kept = [{'name': to_text(link.get('name')), 'url': to_text(link.get('url'))} for link in links or []
            if isinstance(link, dict)]
    return sorted(kept, key=lambda link: (link['name'], link['url']))


def groups_as_compared(groups):
    """Groups as the Hub reads them back (id, name, object_roles): name and roles, sorted."""
    kept = [{'name': to_text(group.get('name')),
             'object_roles': sorted(to_text(role) for role in group.get('object_roles') or [])}
            for group in groups or [] if isinstance(group, dict)]
    return sorted(kept, key=lambda group: group['name'])


class Namespace(HubResource):
    """A namespace: its groups sent as the Hub takes them (each with its roles)."""

    def desired(self, api, existing):
        wanted = super(Namespace, self).desired(api, existing)
        groups = api.params.get('groups')
        if groups is not None:
            wanted['groups'] = [{'name': name, 'object_roles': [OWNER_ROLE]} for name in groups]
        return wanted


RESOURCE = Namespace(
    V3 + 'namespaces/', 'namespace', 'namespace', 'ah_namespace', lookup='url', detail='name', update_method='PUT',
    fields=('description', 'company', 'email', 'avatar_url', 'resources', 'links'),
    compared_as={'links': links_as_compared, 'groups': groups_as_compared},
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def run(api):
    RESOURCE.run(api)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
