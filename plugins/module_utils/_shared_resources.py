# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resources where the platform keeps them: organizations, users and teams behind a platform gateway.

On an Automation Platform (2.5 to 2.7) gateway, the gateway keeps the organizations, users and teams
(``/api/gateway/v1/organizations/``, ``users/``, ``teams/``); the controller behind it keeps read-only
copies, refusing to create or delete them and to change their shared fields (AWX's
``immutablesharedfields``), while it takes changes of its own fields (an organization's
``max_hosts``, a user's ``is_system_auditor``, the sub-lists). So a task writes the shared fields at
the gateway, then its own fields at the controller's copy, and deletes at the gateway; it reads the
controller's copy first, whose request also settles the layout (AWX 24 sends nothing more).

Some fields the gateway keeps are kept apart by the controller's copy (``apart``): AWX 24.6.1's
django-ansible-base (2024.7.1, ``ansible_base/resource_registry/shared_types.py``) shares an
organization's name only and a team's name and organization, so the gateway's description never
reaches the copy, and the copy takes a change of its own (AWX's ``immutablesharedfields`` guards the
shared types' fields only). Such a field is written at the gateway and, where the copy's differs once
the gateway wrote, at the copy too; a platform that shares it gives the copy the gateway's, and
nothing more is written.

``written_at`` says where a task wrote (in check mode, would write): ``gateway``, ``controller``. One
plan holds the writes of both places (``BothPlaces``), each saying where it goes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from copy import copy as shallow_copy

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, NotFound
from ansible_collections.automation.service.plugins.module_utils._outcome import masked
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import Resource

GATEWAY = 'gateway'
CONTROLLER = 'controller'


def on_gateway(api):
    """Whether the task talks to a platform gateway. Asked once a request went to the controller's API
    (a 404 to AWX 24's path settles an ``auto`` layout), so that AWX 24 is sent nothing more."""
    layout = getattr(api.client, 'layout', None)     # a client without one is AWX 24's
    return bool(layout is not None and layout.is_gateway)


def gateway_refused(exc, what):
    """The gateway's answer, said as the gateway's."""
    if isinstance(exc, ApiError) and exc.status not in (None, 404):
        exc.reword('The platform gateway refused to %s: %s' % (what, exc.message))
    return exc


def at_gateway(write, what):
    """``write``, sent to the gateway: said there (written_at), its refusal said as the gateway's."""
    return write.sent_to(GATEWAY, lambda exc: gateway_refused(exc, what))


class Gateway:
    """The gateway's list of one kind of object (``organizations``, ``users``, ``teams``)."""

    def __init__(self, api, endpoint, name_field='name'):
        self.api = api
        self.endpoint = endpoint
        self.name_field = name_field
        self.path = api.client.layout.gateway_path(endpoint)

    def find(self, *names, **filters):
        """The object named by one of ``names`` (by name only: the gateway's ids are not the controller's)."""
        for name in names:
            if name in (None, ''):
                continue
            found = self.api.get_one(self.path, **dict(filters, **{self.name_field: str(name)}))
            if found is not None:
                return self.with_url(found)
        return None

    def with_url(self, obj):
        if obj is not None and not obj.get('url') and obj.get('id') is not None:   # a would-be object has none
            obj = dict(obj, url=self.api.client.layout.gateway_path('%s/%s' % (self.endpoint, obj['id'])))
        return obj

    def plan_write(self, existing, desired, label, create=None, secret=()):
        """The write that creates or updates the gateway's object (only the fields that differ); none when
        nothing differs. A creation says how it is undone (deleted again)."""
        name = desired.get(self.name_field) or (existing or {}).get(self.name_field)
        what = ('create %s %s' if existing is None else 'change %s %s') % (label, name)
        plan = self.api.plan_present(existing, desired, create=create, secret=secret, endpoint=self.path)
        for write in plan.writes:
            at_gateway(write, what)
            if existing is None:
                write.undo = lambda made: self.delete_write(
                    self.with_url(made), label,
                    note='the %s %s made at the platform gateway by this task was deleted again' % (label, name))
        return plan

    def delete_write(self, obj, label, **kwargs):
        return at_gateway(Write('DELETE', obj['url'], expect=(202, 204, 404), **kwargs),
                          'delete %s %s' % (label, obj.get(self.name_field)))


def plan_absent(api, copy, found, name_field='name'):
    """The deletion of the object at the gateway (``found`` there; or, found only at the controller, there: a
    controller behind a gateway refuses it with its own message). ``id`` and ``existing`` are the controller's
    copy's."""
    shown = copy or found
    if shown is None:
        return Plan(None)
    said = dict(before={'id': shown.get('id'), 'name': shown.get('name')}, after={})
    if found is not None:
        write = Gateway(api, '', name_field).delete_write(found, api.result_key, **said)
    else:
        write = Write('DELETE', api.detail_path(copy), expect=(202, 204, 404), at=CONTROLLER, **said)
    return Plan(shown, [write])


def deleted(api, plan):
    """Send plan_absent()'s ``plan`` through the executor: what awx.awx returns of a deletion (``id`` and
    ``existing``, the controller's copy's, said before the write), and where it was written."""
    shown = plan.existing
    api.returns(id=(shown or {}).get('id'), existing=shown or {}, end_state={})
    api.apply(plan)
    api.returns(written_at=plan.written_at())


def absent(api, copy, found, name_field='name'):
    deleted(api, plan_absent(api, copy, found, name_field))


def no_copy_yet(api, name):
    return NotFound('The platform gateway has %s %s, but the controller has no copy of it yet: run the task again '
                    'once the platform has synchronised it.' % ((api.result_key or 'object').replace('_', ' '), name))


class BothPlaces:
    """One object the gateway and the controller both keep, written by one plan: ``shared`` at the gateway's
    (``found``; None: it is made there), then ``local`` (the controller's own fields) and the sub-lists at the
    controller's copy, read once the gateway wrote (the platform gives it the gateway's changes). A
    creation is all or nothing: when the controller refuses its part, the object made at the gateway is
    deleted again."""

    def __init__(self, api, gateway, copy, found, label, secret=()):
        self.api = api
        self.gateway = gateway
        self.copy = copy
        self.found = found
        self.new = found is None
        self.label = label
        self.secret = tuple(secret)
        self.objects = {}

    def plan(self, shared, local, find_copy, create=None, at_gateway_after=None, at_controller_after=None,
             needs_copy=False, apart=()):
        """The plan. ``find_copy()``: the controller's copy of an object it had none of; ``at_gateway_after(obj)``:
        more writes at the gateway once its object is written (when nothing is written there, after the object
        found); ``at_controller_after(obj, new)``: more writes at the controller's copy (its sub-lists);
        ``needs_copy``: the controller has to have one (there is something to write there); ``apart``: the fields
        of ``local`` that ``shared`` has too, written at the copy only when it has one (the gateway's write is
        enough for a copy the platform has not made yet)."""
        api = self.api
        name = shared[self.gateway.name_field]
        plan = self.gateway.plan_write(self.found, shared, self.label, create=create, secret=self.secret)
        plan.existing = self.copy
        self.objects['gateway'] = self.found

        def at_controller(copy):
            if copy is None and not api.check_mode and needs_copy:
                raise no_copy_yet(api, name)
            mine = local
            if copy is None and not api.check_mode:
                mine = dict((key, value) for key, value in local.items() if key not in apart)
            obj = dict(self.objects['gateway'], **mine) if copy is None else copy
            self.objects['controller'] = obj
            if copy is None:        # check mode: the object is not there yet; or nothing to write at the controller
                writes = [Write('PATCH', None, mine, before=None if self.new else {}, after=None if self.new else mine,
                                secret=self.secret, at=CONTROLLER)] if mine else []
            else:
                writes = api.plan_present(copy, mine, secret=self.secret).writes
                for write in writes:
                    write.at, write.then = CONTROLLER, self.made_at_controller
                    if self.new:    # the creation's diff shows them (the gateway's write)
                        write.before = write.after = None
            more = list(at_controller_after(obj, self.new)) if at_controller_after is not None else []
            for write in more:
                write.at = CONTROLLER
                if obj.get('id') is not None:
                    write.path = write.path_for(obj)    # the copy's, not the object the gateway's write made
            return writes + more

        def after_gateway(made):
            made = self.objects['gateway'] = self.gateway.with_url(made)
            more = list(at_gateway_after(made)) if at_gateway_after is not None else []
            return more + at_controller(self.copy_after(shared, find_copy, apart))

        if not plan.writes:     # the gateway's object stays as found: the writes after it are planned from it
            copy = self.copy if self.copy is not None else find_copy()
            more = list(at_gateway_after(self.found)) if at_gateway_after is not None else []
            return plan.extend(Plan(None, more + at_controller(copy)))
        write = plan.writes[-1]
        write.then = after_gateway
        if self.new and local:
            write.after = dict(write.after, **local)     # a creation shows every field, wherever it is kept
        return plan

    def made_at_controller(self, made):
        self.objects['controller'] = made
        return []

    def copy_after(self, shared, find_copy, apart=()):
        """The controller's copy once the gateway wrote ``shared``: read again, or found when there was none; None
        when the controller has none yet. In check mode, the copy as it would be (keeping its own ``apart``)."""
        api, copy = self.api, self.copy
        if api.check_mode:
            shared = dict((key, value) for key, value in shared.items() if key != 'password' and key not in apart)
            return None if copy is None else dict(copy, **api.changes(copy, shared))
        if copy is not None:
            return api.client.get(api.detail_path(copy))
        return find_copy()

    def apply(self, plan):
        """Send the plan; the controller's object (in check mode, as it would be)."""
        self.api.apply(plan)
        return self.objects['controller']


class Located:
    """What a shared resource's task found behind a platform gateway: the controller's ``copy``, the gateway's object
    (``found``) and the gateway's objects of the scope options given (``scope``, option -> object)."""

    def __init__(self, copy, found, scope):
        self.copy, self.found, self.scope = copy, found, scope


class SharedResource(Resource):
    """A Resource the platform gateway keeps: ``shared`` (with the name) are the fields written at the
    gateway; the scope (a team's organization) is the gateway's object of the same name.

    Behind a platform gateway, placed() gives a copy of the declaration that plans at both places, through the
    same plan() as every resource: locate() finds the object at the gateway too (the task's object is the
    controller's copy, else the gateway's), plan_deletion() deletes it there, plan_object() writes the shared
    fields there and the controller's own at the copy (BothPlaces), and returns() says where it wrote."""

    def __init__(self, *args, **kwargs):
        self.shared = tuple(kwargs.pop('shared', ()))
        self.apart = tuple(kwargs.pop('apart', ()))     # shared fields the controller's copy keeps apart
        super(SharedResource, self).__init__(*args, **kwargs)
        self.located = None     # set on the copy placed() makes behind a gateway, by its locate()
        self.both = None        # and by its plan_object(): the object's two places (BothPlaces)

    def find(self, api):
        if self.endpoint in api.found:
            return api.found[self.endpoint]
        return Resource.find(self, api)

    def run(self, api, planned=None):
        api.found[self.endpoint] = Resource.find(self, api)     # the controller's (its request settles the layout)
        return Resource.run(self, api, planned)

    def placed(self, api):
        """Behind a platform gateway, a copy of this declaration placed there (its hooks plan at both places); this
        declaration on AWX 24."""
        if self.placed_at is not None or not on_gateway(api):
            return self
        placed = shallow_copy(self)
        placed.placed_at = GATEWAY
        return placed

    # -- behind a platform gateway -------------------------------------------------------

    def gateway_scope(self, api, required):
        """The gateway's objects of the scope options given (option -> object, found by name; an id or a
        named URL names the controller's copy, whose name the gateway's has). None for one missing, or
        NotFound when ``required``."""
        found = {}
        for option, endpoint in self.scope.items():
            value = api.params.get(option)
            if value in (None, ''):
                continue
            name = value
            if is_id(value) or '++' in str(value):
                named = self.scope_object(api, option, value)
                name = None if named is None else named['name']
            obj = Gateway(api, endpoint).find(name)
            if obj is None and required:
                # ansible.platform's words first (its team module's, which its teams_test expects)
                raise NotFound('Item %s does not exist: %s (not found at the platform gateway, %s, by name).'
                               % (option.replace('_', ' '), value, api.client.layout.gateway_path(endpoint)),
                               total_results=0)
            found[option] = obj
        return found

    def locate(self, api):
        """Behind a gateway: the controller's copy, else the gateway's object of the same name in the gateway's
        scope (the copy's name, when there is one). A scope the gateway lacks has nothing in it."""
        if self.placed_at != GATEWAY:
            return Resource.locate(self, api)
        params = api.params
        copy = self.find(api)
        scope = self.gateway_scope(api, required=params.get('state', 'present') != 'absent')
        if any(obj is None for obj in scope.values()):
            found = None        # no such scope at the gateway: nothing in it either
        else:
            filters = dict((option, obj['id']) for option, obj in scope.items())
            names = [copy.get(self.name)] if copy else [params[self.name], params.get('new_' + self.name)]
            found = Gateway(api, self.endpoint, self.name).find(*names, **filters)
        self.located = Located(copy, found, scope)
        return copy or found, None

    def creates(self, existing):
        if self.placed_at != GATEWAY:
            return Resource.creates(self, existing)
        return self.located.found is None      # made at the gateway, whatever copy the controller has

    def plan_deletion(self, api, existing):
        if self.placed_at != GATEWAY:
            return Resource.plan_deletion(self, api, existing)
        return plan_absent(api, self.located.copy, self.located.found, self.name)

    def apply_deletion(self, api, plan):
        if self.placed_at != GATEWAY:
            return Resource.apply_deletion(self, api, plan)
        return deleted(api, plan)

    def desired(self, api, existing):
        # behind a gateway, the references are the controller's ids, named from its copy's
        return Resource.desired(self, api, self.located.copy if self.placed_at == GATEWAY else existing)

    def association_lists(self, api, existing):
        return Resource.association_lists(self, api, self.located.copy if self.placed_at == GATEWAY else existing)

    def plan_object(self, api, existing, desired, lists):
        """Behind a gateway: the shared fields at the gateway, then the controller's own and the sub-lists at its
        copy (BothPlaces), every name resolved already."""
        if self.placed_at != GATEWAY:
            return Resource.plan_object(self, api, existing, desired, lists)
        located = self.located
        shared = dict((key, value) for key, value in desired.items() if key == self.name or key in self.shared)
        own = dict((key, value) for key, value in desired.items() if key not in shared)
        local = dict(own, **dict((key, value) for key, value in shared.items() if key in self.apart))
        self.both = BothPlaces(api, Gateway(api, self.endpoint, self.name), located.copy, located.found, self.label,
                               self.secret)

        def sublists(obj, new):
            writes = []
            for option in sorted(lists):
                writes += self.plan_sublist(api, obj, new, option, *self.associations[option], wanted=lists[option]).writes
            return writes

        return self.both.plan(shared, local, lambda: Resource.find(self, api),
                              create=lambda: dict((option, obj['id']) for option, obj in located.scope.items()),
                              at_controller_after=sublists, needs_copy=bool(own or lists), apart=self.apart)

    def returns(self, api, existing, made, plan=None):
        """Behind a gateway: the controller's object (as it would be, in check mode), and where the task wrote."""
        if self.placed_at != GATEWAY:
            return Resource.returns(self, api, existing, made, plan)
        if self.both is None:       # state: exists, and there is one: nothing planned
            api.returns_object(existing, made)
            api.returns(written_at=plan.written_at())
            return
        both, located = self.both, self.located
        obj = both.objects['controller']
        api.returns(id=obj.get('id'), existing={} if both.new else masked(located.copy or located.found, self.secret),
                    end_state=masked(obj, self.secret), written_at=plan.written_at(), **{self.result_key: obj})
        if both.new:
            api.returns_created(obj)


# -- memberships: role assignments at the gateway -----------------------------------------------

# The roles of organizations and teams a controller behind a platform gateway refuses to grant to users or take back
# (AWX 24.6.1's UserRolesList and RoleUsersList: "Cannot directly modify user membership to ..."): they are the
# gateway's, given as its role assignments of django-ansible-base's managed role definitions of these names.
MEMBERSHIP_ROLES = {
    ('organization', 'member_role'): 'Organization Member',
    ('organization', 'admin_role'): 'Organization Admin',
    ('team', 'member_role'): 'Team Member',
    ('team', 'admin_role'): 'Team Admin',
}
# The role definitions' content types, and the gateway's lists of their objects.
MEMBERSHIP_TYPES = {'shared.organization': 'organization', 'shared.team': 'team'}


def is_membership(resource_type, role_field):
    return (resource_type, role_field) in MEMBERSHIP_ROLES


def membership_definition(definition):
    """Whether the controller's role definition ``definition`` is one of the memberships the gateway keeps."""
    resource_type = MEMBERSHIP_TYPES.get(definition.get('content_type'))
    return resource_type is not None and definition.get('name') in [
        name for (kind, _field), name in MEMBERSHIP_ROLES.items() if kind == resource_type]


def managed_at_gateway(definition):
    """Whether the controller behind a gateway leaves the assignments of its role definition ``definition`` to
    the gateway: one on an organization or a team with a permission on the shared objects other than ``view``
    (the memberships among them). django-ansible-base's ``check_locally_managed``
    (``ansible_base/rbac/validators.py``, 2024.7.1 in AWX 24.6.1) refuses them at the controller with 400
    "Not managed locally, use the resource server instead"."""
    if definition.get('content_type') not in MEMBERSHIP_TYPES:
        return False
    if membership_definition(definition):
        return True
    for permission in definition.get('permissions') or ():
        prefix, _dot, codename = str(permission).partition('.')
        if prefix == 'shared' and not codename.startswith('view'):
            return True
    return False


# The controller's lists of the users a membership shows in (the legacy roles' members), which a controller behind a
# gateway takes a user attached to and detached from (AWX 24.6.1's immutablesharedfields guards their create only).
MEMBERS_LISTS = {'Organization Member': 'organizations/%d/users', 'Organization Admin': 'organizations/%d/admins',
                 'Team Member': 'teams/%d/users'}


def controller_members(api, definition_name, target, user, giving):
    """After the gateway gave or took back a user's membership (the role definition ``definition_name`` of the
    controller's organization or team ``target``): the writes that attach the controller's ``user`` to, or detach
    it from, the controller's list of the members it shows in, when that list does not agree yet. AWX 24.6.1 shows
    the gateway's memberships as role assignments only (``sync_members_to_new_rbac`` in ``awx/main/models/rbac.py``
    mirrors its legacy members into role assignments, not the other way), granted at that user's next request and
    never taken back."""
    path = MEMBERS_LISTS.get(definition_name)
    if path is None or user.get('id') is None or api.check_mode:
        return []
    path = path % int(target['id'])
    listed = api.get_one(path, username=user['username']) is not None
    if listed == giving:
        return []
    body = {'id': user['id']} if giving else {'id': user['id'], 'disassociate': True}
    return [Write('POST', path, body, expect=(204,), at=CONTROLLER)]


class Memberships:
    """The role assignments of the gateway (``role_user_assignments/``, ``role_team_assignments/``) that are the
    memberships of organizations and teams. The objects are the controller's copies, whose namesakes at the
    gateway are found by name (the gateway's ids are not the controller's)."""

    def __init__(self, api):
        self.api = api
        self.layout = api.client.layout
        self._found = {}

    def _cached(self, key, find):
        if key not in self._found:
            self._found[key] = find()
        return self._found[key]

    def definition(self, name):
        def find():
            found = self.api.get_one(self.layout.gateway_path('role_definitions'), name=name)
            if found is None:
                raise NotFound('The platform gateway has no role definition %r (%s).'
                               % (name, self.layout.gateway_path('role_definitions')), total_results=0)
            return found
        return self._cached(('role_definition', name), find)

    def _gateway(self, endpoint, name_field, name, label, **filters):
        found = Gateway(self.api, endpoint, name_field).find(name, **filters)
        if found is None:
            raise NotFound('%s %r was not found at the platform gateway (%s, by name).'
                           % (label, name, self.layout.gateway_path(endpoint)), total_results=0)
        return found

    def organization(self, name):
        return self._cached(('organization', name), lambda: self._gateway('organizations', 'name', name, 'organization'))

    def user(self, username):
        return self._cached(('user', username), lambda: self._gateway('users', 'username', username, 'user'))

    def team(self, team):
        """The gateway's team of the controller's ``team`` (in the gateway's organization of the same name)."""
        organization = ((team.get('summary_fields') or {}).get('organization') or {}).get('name')

        def find():
            filters = {}
            if organization is not None:
                filters['organization'] = self.organization(organization)['id']
            return self._gateway('teams', 'name', team['name'], 'team', **filters)
        return self._cached(('team', team.get('id'), team['name']), find)

    def target(self, resource_type, obj):
        """The gateway's object of the controller's organization or team ``obj``."""
        if resource_type == 'organization':
            return self.organization(obj['name'])
        return self.team(obj)

    def actor(self, actor_type, obj):
        """The gateway's user or team of the controller's ``obj``."""
        return self.user(obj['username']) if actor_type == 'user' else self.team(obj)

    def endpoint(self, actor_type):
        return self.layout.gateway_path('role_%s_assignments' % actor_type)

    def find(self, actor_type, definition, actor, target):
        return self.api.get_one(self.endpoint(actor_type), role_definition=definition['id'],
                                object_id=target['id'], **{actor_type: actor['id']})

    def grant_write(self, actor_type, definition, actor, target, label, **kwargs):
        """The write that gives the assignment (its answer the assignment; in check mode, the body sent)."""
        body = {'role_definition': definition['id'], actor_type: actor.get('id'), 'object_id': target['id']}
        return at_gateway(Write('POST', self.endpoint(actor_type), body, expect=(200, 201), answer=body, **kwargs),
                          'give %s' % label)

    def revoke_write(self, assignment, label, **kwargs):
        actor_type = 'user' if 'user' in assignment else 'team'
        path = assignment.get('url') or self.layout.gateway_path('role_%s_assignments/%s' % (actor_type, assignment['id']))
        return at_gateway(Write('DELETE', path, expect=(202, 204, 404), **kwargs), 'take back %s' % label)
