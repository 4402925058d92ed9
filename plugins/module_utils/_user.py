# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The user module's options and its run, shared with import (which writes users where the service keeps
them, behind a platform gateway too)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._outcome import masked
from ansible_collections.automation.service.plugins.module_utils._plan import Write
from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    CONTROLLER, MEMBERSHIP_ROLES, BothPlaces, Gateway, Memberships, absent, on_gateway,
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
    # A user made in an organization is posted to its users (as awx.awx does): its admins may.
    plan = api.plan_present(existing, desired, create=lambda: {'password': password} if password else {},
                            secret=('password',),
                            endpoint=None if organization is None else 'organizations/%d/users' % organization)
    if organization is not None:
        plan.writes[0].after = dict(plan.writes[0].after, organization=organization)
    user = api.returns_object(existing, api.apply(plan), ('password',))
    api.returns(user=without_password(user))


def run_at_gateway(api, copy):
    """Behind a platform gateway: the user is the gateway's (its username, password, names, e-mail and
    is_superuser are written there, and it is deleted there); is_system_auditor is the controller's copy's,
    and so is the membership of the organization a new user is made a member of."""
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
    membership = None
    if organization is not None:
        # The membership is the gateway's role assignment (Organization Member), its names resolved before writing.
        memberships = Memberships(api)
        name = api.client.get('organizations/%d' % organization)['name']
        definition = memberships.definition(MEMBERSHIP_ROLES['organization', 'member_role'])
        membership = (memberships, definition, memberships.organization(name), name)

    def member(user):
        """The new user's membership of the organization (it has none yet)."""
        if membership is None:
            return []
        memberships, definition, target, name = membership
        grant = memberships.grant_write('user', definition, user, target, '%s of organization %s (user %s)'
                                        % (definition['name'], name, user.get('username')),
                                        before=None, after={'organization': organization})
        grant.then = lambda made: listed(both.objects.get('controller') or {})
        return [grant]

    def listed(user):
        """The new user among the controller's users of the organization: AWX 24.6.1 shows the gateway's membership
        as its role assignment only (it mirrors its legacy memberships into role assignments, not the other way:
        ``sync_members_to_new_rbac`` in ``awx/main/models/rbac.py``), and takes the user attached to
        ``organizations/<id>/users/`` (``immutablesharedfields`` in ``awx/api/views/__init__.py`` guards
        ``create`` only)."""
        if membership is None or user.get('id') is None or api.check_mode:
            return []
        if api.get_one('organizations/%d/users' % organization, username=user['username']) is not None:
            return []
        return [Write('POST', 'organizations/%d/users' % organization, {'id': user['id']}, expect=(204,),
                      at=CONTROLLER)]

    both = BothPlaces(api, gateway, copy, found, 'user', ('password',))
    plan = both.plan(shared, local, lambda: api.lookup('users', shared['username'], 'username'),
                     create=lambda: {'password': password} if password else {}, at_gateway_after=member,
                     needs_copy=bool(local or organization is not None))
    user = both.apply(plan)
    api.returns(id=user.get('id'), existing={} if both.new else masked(copy or found, ('password',)),
                end_state=masked(user, ('password',)), user=without_password(user), written_at=plan.written_at())


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='users', result_key='user')
