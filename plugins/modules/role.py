#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: role
short_description: Grant or revoke a role of objects to users and teams
version_added: 0.2.0
description:
  - Grants users and teams one role (O(role), such as V(admin), V(execute) or V(use)) of each object named
    (inventories, job templates, workflows, credentials, organizations, projects, teams, instance groups), or
    revokes it with O(state=absent). Members of a team hold the roles granted to the team.
  - Only the users and teams named are looked at; other holders of the role stay as they are. A user or team that
    already holds the role (or no longer holds it, with O(state=absent)) is no change.
  - Every object named must have the role, and every user, team and object must exist; otherwise the task fails
    before changing anything.
  - These are the roles of the objects (C(/api/v2/roles/)). For role definitions and their assignments see
    M(automation.service.role_definition), M(automation.service.role_user_assignment) and
    M(automation.service.role_team_assignment).
  - Behind a platform gateway, the V(member) and V(admin) roles of organizations and teams granted to users (or
    revoked) are the gateway's (the controller refuses to change them), so they are given and taken back as role
    assignments of the gateway (C(/api/gateway/v1/role_user_assignments/)) of its role definitions
    C(Organization Member), C(Organization Admin), C(Team Member) and C(Team Admin), to the gateway's user and
    organization or team of the same name. Every other role, and a team's roles, stay the controller's.
    RV(written_at) says where the task wrote.
  - Takes the options of awx.awx's C(role) module.
author:
  - automation.service maintainers (@automation-service)
options:
  user:
    description:
      - A user who receives (or loses) the role, by username or id. Added to O(users).
    type: str
  users:
    description:
      - Users who receive (or lose) the role, by username or id.
    type: list
    elements: str
  team:
    description:
      - A team that receives (or loses) the role, by name or id. Added to O(teams).
    type: str
  teams:
    description:
      - Teams that receive (or lose) the role, by name or id. Their members hold what the team holds.
      - The service does not let a team hold the V(member) or V(admin) role of an organization.
    type: list
    elements: str
  role:
    description:
      - The role to grant or revoke. Each type of object has its own roles; an organization has most of them.
    type: str
    required: true
    choices: [admin, read, member, execute, adhoc, update, use, approval, auditor, project_admin, inventory_admin,
              credential_admin, workflow_admin, notification_admin, job_template_admin, execution_environment_admin]
  target_team:
    description:
      - A team whose role is granted, by name or id, for example to make a user a V(member) of it. Added to
        O(target_teams).
    type: str
  target_teams:
    description:
      - Teams whose role is granted, by name or id.
    type: list
    elements: str
  inventory:
    description:
      - An inventory whose role is granted, by name or id. Added to O(inventories).
    type: str
  inventories:
    description:
      - Inventories whose role is granted, by name or id.
    type: list
    elements: str
  job_template:
    description:
      - A job template whose role is granted, by name or id. Added to O(job_templates).
    type: str
  job_templates:
    description:
      - Job templates whose role is granted, by name or id.
    type: list
    elements: str
  workflow:
    description:
      - A workflow job template whose role is granted, by name or id. Added to O(workflows).
    type: str
  workflows:
    description:
      - Workflow job templates whose role is granted, by name or id.
    type: list
    elements: str
  credential:
    description:
      - A credential whose role is granted, by name or id. Added to O(credentials).
    type: str
  credentials:
    description:
      - Credentials whose role is granted, by name or id.
    type: list
    elements: str
  organization:
    description:
      - An organization whose role is granted, by name or id. Added to O(organizations).
      - To find the other objects within an organization, use O(lookup_organization).
    type: str
  organizations:
    description:
      - Organizations whose role is granted, by name or id.
    type: list
    elements: str
  lookup_organization:
    description:
      - The organization, by name or id, in which the teams, inventories, job templates, workflows, credentials and
        projects named are looked up, for names that exist in several organizations.
      - Users, organizations and instance groups belong to no organization and are looked up without it.
    type: str
  project:
    description:
      - A project whose role is granted, by name or id. Added to O(projects).
    type: str
  projects:
    description:
      - Projects whose role is granted, by name or id.
    type: list
    elements: str
  instance_groups:
    description:
      - Instance groups whose role is granted, by name or id.
    type: list
    elements: str
  state:
    description:
      - V(present) grants the role, V(absent) revokes it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - awx.awx also looks up instance groups within O(lookup_organization), which fails since an instance group
    belongs to no organization; here O(lookup_organization) does not apply to them.
  - awx.awx changes the roles of the objects it finds before failing on one without the role; here nothing is
    changed unless every object has it.
  - A task that names no user or team, or no object, changes nothing and warns.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Make jdoe a member of the ops team
  automation.service.role:
    user: jdoe
    target_team: ops
    role: member

- name: Let two users run two job templates and a workflow
  automation.service.role:
    users: [joe, ann]
    role: execute
    job_templates: [Deploy, Rollback]
    workflows: [Release]
    lookup_organization: Engineering

- name: Let the ops team use a credential and an inventory
  automation.service.role:
    team: ops
    role: use
    credentials: [Production SSH]
    inventories: [Production]

- name: Take the admin role of an organization back
  automation.service.role:
    user: jdoe
    organization: Engineering
    role: admin
    state: absent
'''

RETURN = r'''
role:
  description: The role granted or revoked, as given in O(role).
  returned: always
  type: str
  sample: execute
changes:
  description:
    - What the task granted or revoked (would have, in check mode), one item per user or team and object.
  returned: always
  type: list
  elements: dict
  contains:
    action:
      description: V(grant) or V(revoke).
      type: str
    role_id:
      description: Id of the role of the object.
      type: int
    resource_type:
      description: Type of the object, such as V(job_template).
      type: str
    resource_name:
      description: Name of the object.
      type: str
    user:
      description: The user, as given (username or id), for a change of a user.
      type: str
    team:
      description: The team, as given (name or id), for a change of a team.
      type: str
  sample: [{"action": "grant", "role_id": 53, "resource_type": "job_template", "resource_name": "Deploy",
            "user": "joe"}]
written_at:
  description:
    - Where the task granted or revoked (in check mode, would have) behind a platform gateway, in that order -
      V(gateway) for the memberships of organizations and teams, V(controller) for the other roles.
    - An empty list when nothing changed.
  returned: when the service is a platform gateway
  type: list
  elements: str
  sample: [gateway]
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    CONTROLLER, GATEWAY, MEMBERSHIP_ROLES, Memberships, controller_members, is_membership, on_gateway,
)

ROLES = ['admin', 'read', 'member', 'execute', 'adhoc', 'update', 'use', 'approval', 'auditor', 'project_admin',
         'inventory_admin', 'credential_admin', 'workflow_admin', 'notification_admin', 'job_template_admin',
         'execution_environment_admin']

# The roles of an organization that make a user part of it; the service grants them to users only.
PARTICIPATION = ('member_role', 'admin_role')


def one_and_many(single, many):
    """The option of one item (deprecated by awx.awx, kept) and the list option it adds to."""
    spec = {many: dict(type='list', elements='str')}
    if single:
        spec[single] = dict(type='str')
    return spec


# (list option, single option, endpoint, resource type, within lookup_organization)
ACTORS = [
    ('users', 'user', 'users', 'user', False),
    ('teams', 'team', 'teams', 'team', True),
]
TARGETS = [
    ('target_teams', 'target_team', 'teams', 'team', True),
    ('inventories', 'inventory', 'inventories', 'inventory', True),
    ('job_templates', 'job_template', 'job_templates', 'job_template', True),
    ('workflows', 'workflow', 'workflow_job_templates', 'workflow_job_template', True),
    ('credentials', 'credential', 'credentials', 'credential', True),
    ('organizations', 'organization', 'organizations', 'organization', False),
    ('projects', 'project', 'projects', 'project', True),
    ('instance_groups', None, 'instance_groups', 'instance_group', False),
]

ARGUMENT_SPEC = dict(
    role=dict(type='str', required=True, choices=ROLES),
    lookup_organization=dict(type='str'),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)
for _many, _single, _endpoint, _type, _scoped in ACTORS + TARGETS:
    ARGUMENT_SPEC.update(one_and_many(_single, _many))

SPEC = ModuleSpec(ARGUMENT_SPEC, resource='roles', result_key='role')


def named(params, many, single):
    """The items of the list option and of its single option, in order, each once."""
    items = list(params.get(many) or []) + ([params[single]] if single and params.get(single) is not None else [])
    return [item for index, item in enumerate(items) if item not in items[:index]]


def label(resource_type):
    return resource_type.replace('_', ' ')


class Lookup:
    """Finds the objects named, remembering what is missing, so that one message names them all."""

    def __init__(self, api):
        self.api = api
        self.missing = []
        organization = api.params['lookup_organization']
        self.scope = {}
        if organization is not None:
            self.scope = {'organization': api.resolve_id('organizations', organization, 'lookup organization')}

    def find(self, endpoint, resource_type, value, scoped):
        """The object named ``value`` (a name, an id, or a named URL, as awx.awx finds it); None when missing."""
        name_field = 'username' if endpoint == 'users' else 'name'
        found = self.api.lookup(endpoint, value, name_field, **dict(self.scope if scoped else {}))
        if found is None:
            self.missing.append((label(resource_type), value))
        return found

    def check(self):
        if self.missing:
            # awx.awx's words first (playbooks compare them), then what each item is.
            raise NotFound('There were %d missing items, missing items: %s (not found: %s).'
                           % (len(self.missing), [value for kind, value in self.missing],
                              ', '.join('%s %r' % item for item in self.missing)))


def role_of(obj, resource_type, role_field):
    roles = (obj.get('summary_fields') or {}).get('object_roles') or {}
    if role_field in roles:
        return roles[role_field]['id']
    have = ', '.join(sorted(name[:-len('_role')] for name in roles)) or 'none'
    raise ConfigError('%s %s has no %s role (its roles: %s).'
                      % (label(resource_type), obj.get('name'), role_field[:-len('_role')], have))


def run(api):
    params = api.params
    role_field = params['role'] + '_role'
    changes = []
    api.returns(role=params['role'], changes=[])
    lookup = Lookup(api)

    actors = []     # (sub-list of a role, actor type, id, as given, the object)
    for many, single, endpoint, resource_type, scoped in ACTORS:
        for value in named(params, many, single):
            found = lookup.find(endpoint, resource_type, value, scoped)
            if found is not None:
                actors.append((endpoint, resource_type, found['id'], value, found))
    targets = []    # (resource type, object)
    for many, single, endpoint, resource_type, scoped in TARGETS:
        for value in named(params, many, single):
            found = lookup.find(endpoint, resource_type, value, scoped)
            if found is not None:
                targets.append((resource_type, found))
    lookup.check()
    if on_gateway(api):
        api.returns(written_at=[])
    if not actors or not targets:
        api.warn('Nothing to %s: the task names no %s.'
                 % ('grant' if params['state'] == 'present' else 'revoke', 'object' if actors else 'user or team'))
        return

    teams = any(actor[1] == 'team' for actor in actors)
    roles, seen = [], set()
    for resource_type, obj in targets:
        role_id = role_of(obj, resource_type, role_field)
        if teams and resource_type == 'organization' and role_field in PARTICIPATION:
            raise ConfigError('A team cannot hold the %s role of an organization (%s): the service refuses it; '
                              'grant the role to its users instead.' % (params['role'], obj.get('name')))
        if role_id not in seen:
            seen.add(role_id)
            roles.append((role_id, resource_type, obj))

    grant = params['state'] == 'present'
    gateway = on_gateway(api)       # known once the look-ups went to the controller's API
    memberships = Memberships(api) if gateway else None
    at_gateway = set()
    if gateway:
        # Every name resolved at the gateway before the first write.
        for role_id, resource_type, obj in roles:
            if is_membership(resource_type, role_field) and any(actor[1] == 'user' for actor in actors):
                memberships.definition(MEMBERSHIP_ROLES[resource_type, role_field])
                memberships.target(resource_type, obj)
                for actor in actors:
                    if actor[1] == 'user':
                        memberships.actor('user', actor[4])
                at_gateway.add(role_id)
    steps = []     # (write, the change it makes)
    for role_id, resource_type, obj in roles:
        if role_id in at_gateway:
            steps += plan_at_gateway(memberships, role_id, role_field, resource_type, obj,
                                     [actor for actor in actors if actor[1] == 'user'], grant)
            steps += plan(api, role_id, resource_type, obj, [actor for actor in actors if actor[1] != 'user'], grant)
        else:
            steps += plan(api, role_id, resource_type, obj, actors, grant)
    for write, change in steps:
        if gateway and write.at is None:
            write.at = CONTROLLER
        write.then = said(api, changes, change, write.then)
    if steps:
        steps[0][0].before, steps[0][0].after = diff([change for _write, change in steps], grant)
    done = Plan(None, [write for write, _change in steps])
    api.apply(done)
    if gateway:
        api.returns(written_at=[where for where in (GATEWAY, CONTROLLER) if where in done.written_at()])


def said(api, changes, change, follow=None):
    """The hook that adds ``change`` to the changes returned, once its write is sent (in check mode, planned), then
    plans the writes ``follow`` plans after it."""
    def then(made):
        changes.append(change)
        api.returns(changes=list(changes))
        return follow(made) if follow is not None else []
    return then


def plan(api, role_id, resource_type, obj, actors, grant):
    """The writes that grant (or revoke) the role ``role_id`` to the actors that lack (or hold) it, each with the
    change it makes."""
    steps = []
    for sublist in sorted(set(actor[0] for actor in actors)):
        mine = [actor for actor in actors if actor[0] == sublist]
        path = 'roles/%d/%s' % (role_id, sublist)
        ids = sorted(set(actor[2] for actor in mine))
        held = set(item['id'] for item in api.client.iterate(
            path, {'id__in': ','.join(str(i) for i in ids), 'page_size': 200}))
        done = set()
        for _endpoint, actor_type, actor_id, given, _found in mine:
            if actor_id in done or (actor_id in held) == grant:
                continue
            done.add(actor_id)
            body = {'id': actor_id} if grant else {'id': actor_id, 'disassociate': True}
            steps.append((Write('POST', path, body, expect=(204,)), {
                'action': 'grant' if grant else 'revoke', 'role_id': role_id,
                'resource_type': resource_type, 'resource_name': obj.get('name'), actor_type: str(given)}))
    return steps


def plan_at_gateway(memberships, role_id, role_field, resource_type, obj, users, grant):
    """Behind a platform gateway: the writes that give (or take back) the users the gateway's assignment of the
    membership role ``role_field`` of the organization or team ``obj``, each with the change it makes."""
    definition = memberships.definition(MEMBERSHIP_ROLES[resource_type, role_field])
    target = memberships.target(resource_type, obj)
    steps = []
    done = set()
    for _endpoint, actor_type, actor_id, given, found in users:
        if actor_id in done:
            continue
        done.add(actor_id)
        user = memberships.actor('user', found)
        held = memberships.find('user', definition, user, target)
        if (held is not None) == grant:
            continue
        what = '%s of %s %s (user %s)' % (definition['name'], label(resource_type), obj.get('name'), found.get('username'))
        change = {'action': 'grant' if grant else 'revoke', 'role_id': role_id, 'resource_type': resource_type,
                  'resource_name': obj.get('name'), actor_type: str(given)}
        # then: the controller's list of the members, which the gateway's assignment does not reach at once
        then = {'then': lambda _made, found=found: controller_members(memberships.api, definition['name'], obj, found,
                                                                      grant)}
        write = memberships.grant_write('user', definition, user, target, what, **then) if grant else \
            memberships.revoke_write(held, what, **then)
        steps.append((write, change))
    return steps


def diff(changes, grant):
    """Per object, the users and teams named whose holding of the role changes."""
    before, after = {}, {}
    for change in changes:
        key = '%s %s' % (label(change['resource_type']), change['resource_name'])
        actor_type = 'user' if 'user' in change else 'team'
        holders = (after if grant else before).setdefault(key, {}).setdefault(actor_type + 's', [])
        holders.append(change[actor_type])
        (before if grant else after).setdefault(key, {}).setdefault(actor_type + 's', [])
    return before, after


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
