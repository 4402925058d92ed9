#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: authenticator_map
short_description: Create, update or delete a rule of a platform gateway's authenticator
version_added: 0.3.0
description:
  - Makes one of the maps of a platform gateway's authenticator match the options given; options not given are
    left alone, but with O(state=enforced). A map is a rule the gateway applies when a user logs in through the
    authenticator; when its O(triggers) hold for the user, it lets the user in (V(allow)), makes them a superuser
    (V(is_superuser)), or gives them a role in an organization, a team or the whole platform.
  - The map is found by O(name) (or by id when O(name) is one) among the maps of O(authenticator), at the gateway's
    C(/api/gateway/v1/authenticator_maps/).
  - B(Needs an Automation Platform gateway) (2.5 to 2.7). On AWX 24, which has no authenticators of its own, the
    task fails before it writes anything and says so.
  - Takes the options of ansible.platform's C(authenticator_map) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the map, unique among the maps of its authenticator; or the id of an existing one.
    type: str
    required: true
  new_name:
    description:
      - A new name for the map (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  authenticator:
    description:
      - The authenticator of the map, by name or id.
      - With O(state=absent), a missing authenticator has no map to delete, and the task changes nothing.
    type: str
    required: true
  new_authenticator:
    description:
      - Another authenticator, by name or id, to move the map to (found among the maps of O(authenticator), or of
        O(new_authenticator) when it was already moved).
    type: str
  revoke:
    description:
      - Whether the gateway takes back what the map grants from a user who logs in and no longer meets its
        O(triggers).
    type: bool
    default: false
  map_type:
    description:
      - What the map grants. V(allow) lets the user log in at all; V(is_superuser) makes them a superuser;
        V(organization) and V(team) give O(role) in O(organization) or O(team); V(role) gives O(role) on the whole
        platform.
      - The gateway's default for a new map is V(team).
    type: str
    choices: [allow, is_superuser, team, organization, role]
  team:
    description:
      - The name of the team the map works on (the gateway keeps the name, not a reference, and may expand
        C({% for_attr_value(attr) %}) in it at login). Needed with O(map_type=team), with O(organization).
    type: str
  organization:
    description:
      - The name of the organization the map works on, or the team's organization (kept as a name, as O(team)).
        Needed with O(map_type=team) and O(map_type=organization).
      - V('') is no organization, as for every module of the collection.
    type: str
  role:
    description:
      - The name of the role definition the map gives, for example C(Organization Member), C(Organization Admin),
        C(Team Member) or C(Team Admin) (kept as a name, as O(team)). Needed with O(map_type=team),
        O(map_type=organization) and O(map_type=role); refused with V(allow) and V(is_superuser).
    type: str
  triggers:
    description:
      - "When the map applies, for example C({always: {}}), C({never: {}}), C({groups: {has_or: [admins, ops]}}) or
        C({attributes: {join_condition: or, email: {ends_with: '@example.com'}}}) (the gateway's
        C(trigger_definition/) describes them). Needed to create a map."
      - Compared as data; the dict given replaces the stored one.
    type: dict
  order:
    description:
      - The order in which the gateway applies the maps of an authenticator, lowest first (maps of the same order
        in no set order); 0 or more. The gateway's default for a new map is 0.
    type: int
  state:
    description:
      - V(present) creates or updates the map, V(absent) deletes it.
      - V(exists) (ansible.platform's) only checks that the map is there, and fails when it is not; it changes nothing.
      - V(enforced) is V(present), and the options not given among O(map_type), O(team), O(organization), O(role)
        and O(order) go back to the gateway's defaults (as its OPTIONS says them; see the notes). O(triggers), which
        the gateway requires, is left as it is.
    type: str
    choices: [present, absent, exists, enforced]
    default: present
notes:
  - The gateway checks the map as a whole (which of O(team), O(organization) and O(role) each O(map_type) needs, and
    that O(role) names a role definition); the task fails with its words before anything changes.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_authentication
  - automation.service.gateway_enforced
'''

EXAMPLES = r'''
- name: Only members of the automation group may log in through the directory
  automation.service.authenticator_map:
    name: Automation users only
    authenticator: Directory
    map_type: allow
    revoke: true
    triggers:
      groups:
        has_or:
          - cn=automation,cn=groups,dc=example,dc=com

- name: The directory's admins are superusers
  automation.service.authenticator_map:
    name: Superusers
    authenticator: Directory
    map_type: is_superuser
    revoke: true
    triggers:
      groups:
        has_and:
          - cn=aap-admins,cn=groups,dc=example,dc=com
    order: 1

- name: The HR group administers the HR organization
  automation.service.authenticator_map:
    name: HR admins
    authenticator: Directory
    map_type: organization
    organization: HR
    role: Organization Admin
    triggers:
      groups:
        has_or:
          - cn=hr-admins,cn=groups,dc=example,dc=com
    order: 2

- name: Remove a map
  automation.service.authenticator_map:
    name: HR admins
    authenticator: Directory
    state: absent
'''

RETURN = r'''
id:
  description: Id of the map (of the deleted one with O(state=absent)).
  returned: when the map exists or existed
  type: int
  sample: 7
name:
  description: Name of the map.
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: str
  sample: Superusers
authenticator_map:
  description: The map as the gateway returns it (the would-be map in check mode).
  returned: with O(state=present), O(state=enforced) or O(state=exists)
  type: dict
  sample: {"id": 7, "name": "Superusers", "authenticator": 3, "map_type": "is_superuser", "role": null,
           "organization": null, "team": null, "revoke": true,
           "triggers": {"groups": {"has_and": ["cn=aap-admins,cn=groups,dc=example,dc=com"]}}, "order": 1}
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_ENFORCED, Resource

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    authenticator=dict(type='str', required=True),
    new_authenticator=dict(type='str'),
    revoke=dict(type='bool', default=False),
    map_type=dict(type='str', choices=['allow', 'is_superuser', 'team', 'organization', 'role']),
    team=dict(type='str'),
    organization=dict(type='str'),
    role=dict(type='str'),
    triggers=dict(type='dict'),
    order=dict(type='int'),
    state=STATE_ENFORCED,
)


class AuthenticatorMap(Resource):
    """A map, named within its authenticator; ``new_authenticator`` moves it to another one."""

    def find(self, api):
        existing = super(AuthenticatorMap, self).find(api)
        moved_to = api.params.get('new_authenticator')
        if existing is not None or not moved_to or api.params.get('state') == 'absent':
            return existing
        # already moved: the map is the new authenticator's
        target = self.references['new_authenticator']
        found = api.lookup(target, moved_to)
        if found is None:
            return None
        # by the name it was to get there (another map there may have its old one)
        return api.lookup(self.endpoint, api.params.get('new_name') or api.params[self.name], authenticator=found['id'])

    def desired(self, api, existing):
        wanted = super(AuthenticatorMap, self).desired(api, existing)
        moved_to = wanted.pop('new_authenticator', None)
        if moved_to is not None:
            wanted['authenticator'] = moved_to
        return wanted

    def create_fields(self, api):
        fields = super(AuthenticatorMap, self).create_fields(api)
        if api.params.get('new_authenticator'):
            fields.pop('authenticator', None)   # made at once where it is to be
        return fields


RESOURCE = AuthenticatorMap(
    'authenticator_maps', 'authenticator_map', 'authenticator map',
    scope={'authenticator': 'authenticators'},
    fields=('revoke', 'map_type', 'team', 'organization', 'role', 'order'),
    references={'new_authenticator': 'authenticators'},
    json_data=('triggers',),
    service='gateway',
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
