# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The user module's options and its run, shared with import (which writes users where the service keeps
them, behind a platform gateway too)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils._outcome import masked
from ansible_collections.automation.service.plugins.module_utils._plan import Write
from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    MEMBERSHIP_ROLES, BothPlaces, Gateway, Memberships, absent, controller_members, on_gateway,
)

ARGUMENT_SPEC = dict(
    username=dict(type='str', required=True),
    new_username=dict(type='str'),
    first_name=dict(type='str'),
    last_name=dict(type='str'),
    email=dict(type='str'),
    password=dict(type='str', no_log=True),
    update_password=dict(type='str', choices=['on_create', 'always'], default='on_create', no_log=False),
    update_secrets=dict(type='bool', no_log=False),
    organization=dict(type='str'),
    organizations=dict(type='list', elements='str'),
    is_superuser=dict(type='bool', aliases=['superuser']),
    is_system_auditor=dict(type='bool', aliases=['auditor']),
    state=dict(type='str', choices=['present', 'absent', 'exists'], default='present'),
)
FIELDS = ('first_name', 'last_name', 'email', 'is_superuser', 'is_system_auditor')
# Behind a platform gateway: the controller's own fields (the others, username and password are the gateway's).
CONTROLLER_FIELDS = ('is_system_auditor',)


def wanted(api, existing):
    """The fields asked for, the password, and the id of the organization to create the user in."""
    params = api.params
    desired = dict((key, params[key]) for key in FIELDS if params[key] is not None)
    desired['username'] = params['new_username'] or (existing or {}).get('username') or params['username']
    password = params['password']
    always = params['update_secrets'] if params['update_secrets'] is not None else params['update_password'] == 'always'
    if existing is not None and password and always:
        desired['password'] = password
    organization = None
    if existing is None and params['organization']:
        organization = api.resolve_id('organizations', params['organization'], 'organization')
    if password and (existing is None or 'password' in desired) and not api.check_mode:
        # The service replaces the session of a request that sets a password: send it with a
        # session of this task's own, not the one other tasks share.
        api.client.auth = api.client.auth.private(api.client)
    return desired, password, organization


def missing_organizations(names, where=''):
    return NotFound('%d of the organizations were not found%s (by name or id): %s; nothing was written.'
                    % (len(names), where, ', '.join(repr(name) for name in names)), total_results=0)


def organizations_named(api):
    """The controller's organizations of ``organizations``, each once, in the order given; all of them found before
    the first write, the missing ones named together."""
    found, missing = [], []
    for value in api.params.get('organizations') or ():
        obj = api.lookup('organizations', value)
        if obj is None:
            missing.append(value)
        elif obj['id'] not in [org['id'] for org in found]:
            found.append(obj)
    if missing:
        raise missing_organizations(missing)
    return found


def diff_of(joined):
    """The diff of the memberships given: ``organization``'s id (a new user's), the names of ``organizations``'."""
    after = dict(('organization', org_id) for org_id, _name, option in joined if option == 'organization')
    names = [name for _org_id, name, option in joined if option == 'organizations']
    if names:
        after['organizations'] = names
    return after


def without_password(user):
    return dict((key, value) for key, value in user.items() if key != 'password')


# Not Resource.run: a password is sent only on creation or when update_secrets asks for it, over a
# session of the task's own, and a user made in an organization is posted to that organization's users.
def run(api):
    params = api.params
    existing = api.lookup('users', params['username'], 'username')
    if existing is None and params['new_username']:
        existing = api.lookup('users', params['new_username'], 'username')
    if on_gateway(api):     # known once the look-up above went to the controller's API
        return run_at_gateway(api, existing)

    if params['state'] == 'absent':
        api.ensure_absent(existing)
        return
    if params['state'] == 'exists' and existing is not None:
        api.ensure_present(existing, {})
        return
    desired, password, organization = wanted(api, existing)
    joining = [org for org in organizations_named(api) if org['id'] != organization and (
        existing is None or api.get_one('organizations/%d/users' % org['id'], username=existing['username']) is None)]
    # A user made in an organization is posted to its users (as awx.awx does): its admins may.
    plan = api.plan_present(existing, desired, create=lambda: {'password': password} if password else {},
                            secret=('password',),
                            endpoint=None if organization is None else 'organizations/%d/users' % organization)
    if organization is not None:
        plan.writes[0].after = dict(plan.writes[0].after, organization=organization)
    plan.add(*joins(api, existing, joining))
    if joining and existing is None:
        # all or nothing, as ansible.platform: a user made by the task is deleted again when one is refused
        plan.writes[0].undo = lambda made: Write(
            'DELETE', api.detail_path(made), expect=(202, 204, 404),
            note='the user %s made by this task was deleted again' % made.get('username'))
    user = api.returns_object(existing, api.apply(plan), ('password',))
    api.returns(user=without_password(user))


def joins(api, existing, organizations):
    """The writes that attach the user (``existing``; None: the one the plan's first write makes) to the users of
    ``organizations``."""
    def the_user_made(made):
        return {'id': made['id']}

    body = the_user_made if existing is None else {'id': existing['id']}
    writes = [Write('POST', 'organizations/%d/users' % org['id'], body, expect=(204,)) for org in organizations]
    if writes:
        writes[0].after = diff_of([(org['id'], org['name'], 'organizations') for org in organizations])
    return writes


def run_at_gateway(api, copy):
    """Behind a platform gateway: the user is the gateway's (its username, password, names, e-mail and
    is_superuser are written there, and it is deleted there); is_system_auditor is the controller's copy's. The
    memberships of organizations (``organization``'s of a new user, ``organizations``') are the gateway's role
    assignments, then shown in the controller's copy's lists of the organizations' users."""
    params = api.params
    gateway = Gateway(api, 'users', 'username')
    found = gateway.find(*([copy['username']] if copy else [params['username'], params['new_username']]))
    if params['state'] == 'absent':
        return absent(api, copy, found, 'username')
    if params['state'] == 'exists' and (copy or found) is not None:
        api.ensure_present(copy or found, {})
        api.returns(user=without_password(copy or found), written_at=[])
        return
    desired, password, organization = wanted(api, found)
    shared = dict((key, value) for key, value in desired.items() if key not in CONTROLLER_FIELDS)
    local = dict((key, value) for key, value in desired.items() if key in CONTROLLER_FIELDS)
    # joining: (the controller's organization's id, its name, the option naming it, the gateway's organization)
    joining, memberships, definition = [], None, None
    named = [] if organization is None else [
        (organization, api.client.get('organizations/%d' % organization)['name'], 'organization')]
    named += [(org['id'], org['name'], 'organizations') for org in organizations_named(api)
              if org['id'] != organization]
    if named:
        # Each membership is the gateway's role assignment (Organization Member), its names resolved before writing.
        memberships = Memberships(api)
        definition = memberships.definition(MEMBERSHIP_ROLES['organization', 'member_role'])
        targets, missing = [], []
        for org_id, name, option in named:
            try:
                targets.append((org_id, name, option, memberships.organization(name)))
            except NotFound:
                missing.append(name)
        if missing:
            raise missing_organizations(missing, ' at the platform gateway')
        # only those the gateway's user does not have yet (a new user has none)
        joining = [item for item in targets
                   if found is None or memberships.find('user', definition, found, item[3]) is None]

    def member(user):
        """The user's memberships of the organizations it is not a member of yet."""
        writes = []
        for org_id, name, _option, target in joining:
            grant = memberships.grant_write('user', definition, user, target, '%s of organization %s (user %s)'
                                            % (definition['name'], name, user.get('username')))
            # then among the controller's users of the organization (AWX 24.6.1 does not list it)
            grant.then = lambda made, org_id=org_id: controller_members(
                api, definition['name'], {'id': org_id}, both.objects.get('controller') or {}, True)
            writes.append(grant)
        if writes:
            writes[0].after = diff_of([item[:3] for item in joining])
        return writes

    both = BothPlaces(api, gateway, copy, found, 'user', ('password',))
    plan = both.plan(shared, local, lambda: api.lookup('users', shared['username'], 'username'),
                     create=lambda: {'password': password} if password else {}, at_gateway_after=member,
                     needs_copy=bool(local or joining))
    user = both.apply(plan)
    api.returns(id=user.get('id'), existing={} if both.new else masked(copy or found, ('password',)),
                end_state=masked(user, ('password',)), user=without_password(user), written_at=plan.written_at())


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='users', result_key='user')
