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

``written_at`` says where a task wrote (in check mode, would write): ``gateway``, ``controller``.
Each side's writes are said with an outcome of their own (``side()``), merged into the task's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, NotFound, ServiceError
from ansible_collections.automation.service.plugins.module_utils._outcome import masked
from ansible_collections.automation.service.plugins.module_utils._resource import IGNORED, Resource

GATEWAY = 'gateway'
CONTROLLER = 'controller'


def on_gateway(api):
    """Whether the task talks to a platform gateway. Asked once a request went to the controller's API
    (a 404 to AWX 24's path settles an ``auto`` layout), so that AWX 24 is sent nothing more."""
    layout = getattr(api.client, 'layout', None)     # a client without one is AWX 24's
    return bool(layout is not None and layout.is_gateway)


def side(api, write, diff=True):
    """Run ``write()`` as a part of the task with an outcome of its own (ApiTask.part); whether it changed
    anything. ``diff`` False: what it shows is left out of the diff (said otherwise by the caller)."""
    with api.part(diff) as part:
        write()
    return part['changed']


def gateway_refused(exc, what):
    """The gateway's answer, said as the gateway's."""
    if isinstance(exc, ApiError) and exc.status not in (None, 404):
        exc.message = 'The platform gateway refused to %s: %s' % (what, exc.message)
    return exc


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

    def write(self, existing, desired, label, create=None, secret=()):
        """Create or update the gateway's object (only the fields that differ); its object."""
        api = self.api
        name = desired.get(self.name_field) or (existing or {}).get(self.name_field)
        what = ('create %s %s' if existing is None else 'change %s %s') % (label, name)
        try:
            obj = api.ensure_present(existing, desired, create=create, secret=secret, endpoint=self.path)
        except ServiceError as exc:
            raise gateway_refused(exc, what)
        return self.with_url(obj)

    def delete(self, obj, label):
        if self.api.check_mode:
            return
        try:
            self.api.client.request('DELETE', obj['url'], expect=(202, 204, 404))
        except ServiceError as exc:
            raise gateway_refused(exc, 'delete %s %s' % (label, obj.get(self.name_field)))


def absent(api, copy, at_gateway, name_field='name'):
    """Delete the object at the gateway (or, found only at the controller, there: a controller behind a
    gateway refuses it with its own message). ``id`` and ``existing`` are the controller's copy's."""
    shown = copy or at_gateway
    if shown is None:
        api.returns(existing={}, end_state={}, written_at=[])
        return
    api.returns(id=shown.get('id'), existing=shown, end_state={})
    if at_gateway is not None:
        Gateway(api, '', name_field).delete(at_gateway, api.result_key)
        where = GATEWAY
    else:
        if not api.check_mode:
            api.client.request('DELETE', api.detail_path(copy), expect=(202, 204, 404))
        where = CONTROLLER
    api.change({'id': shown.get('id'), 'name': shown.get('name')}, {})
    api.returns(written_at=[where])


def copy_after(api, copy, shared, find):
    """The controller's copy once the gateway wrote ``shared``: read again, or found (``find()``) when there
    was none; None when the controller has none yet. In check mode, the copy as it would be."""
    if api.check_mode:
        shared = dict((key, value) for key, value in shared.items() if key != 'password')
        return None if copy is None else dict(copy, **api.changes(copy, shared))
    if copy is not None:
        return api.client.get(api.detail_path(copy))
    return find()


def controller_fields(api, copy, local, new, secret=()):
    """Write the controller's own fields ``local`` at its copy; the copy. For an object the task made, the diff
    is a creation's (before: nothing), whatever the copy's defaults."""
    holder = {}

    def write():
        holder['copy'] = api.ensure_present(copy, local, secret=secret)

    if new and local:
        api.show({}, local, secret)
    if side(api, write, diff=not new):
        api.change()
    return holder['copy']


def no_copy_yet(api, name):
    return NotFound('The platform gateway has %s %s, but the controller has no copy of it yet: run the task again '
                    'once the platform has synchronised it.' % ((api.result_key or 'object').replace('_', ' '), name))


class SharedResource(Resource):
    """A Resource the platform gateway keeps: ``shared`` (with the name) are the fields written at the
    gateway; the scope (a team's organization) is the gateway's object of the same name."""

    def __init__(self, *args, **kwargs):
        self.shared = tuple(kwargs.pop('shared', ()))
        super(SharedResource, self).__init__(*args, **kwargs)

    def find(self, api):
        if self.endpoint in api.found:
            return api.found[self.endpoint]
        return Resource.find(self, api)

    def run(self, api):
        copy = Resource.find(self, api)     # the controller's (its request settles the layout)
        api.found[self.endpoint] = copy
        if not on_gateway(api):
            return Resource.run(self, api)
        return self.run_at_gateway(api, copy)

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
                raise NotFound('%s %r was not found at the platform gateway (%s, by name).'
                               % (option.replace('_', ' '), value, api.client.layout.gateway_path(endpoint)),
                               total_results=0)
            found[option] = obj
        return found

    def run_at_gateway(self, api, copy):
        params = api.params
        state = params.get('state', 'present')
        for option, why in sorted(IGNORED.items()):
            if params.get(option) not in (None, ''):
                api.warn('%s is ignored: %s.' % (option, why))
        scope = self.gateway_scope(api, required=state != 'absent')
        if any(obj is None for obj in scope.values()):
            at_gateway = None       # no such scope at the gateway: nothing in it either
        else:
            filters = dict((option, obj['id']) for option, obj in scope.items())
            names = [copy.get(self.name)] if copy else [params[self.name], params.get('new_' + self.name)]
            at_gateway = Gateway(api, self.endpoint, self.name).find(*names, **filters)
        if state == 'absent':
            return absent(api, copy, at_gateway, self.name)
        if state == 'exists' and (copy or at_gateway) is not None:
            api.ensure_present(copy or at_gateway, {})
            api.returns(written_at=[])
            return copy or at_gateway, False
        if at_gateway is None:
            self.require_on_create(api)
        desired = self.desired(api, copy)
        lists = self.association_lists(api, copy)   # every name resolved before the first write
        shared = dict((key, value) for key, value in desired.items() if key == self.name or key in self.shared)
        local = dict((key, value) for key, value in desired.items() if key not in shared)
        new = at_gateway is None
        written = []
        gateway = Gateway(api, self.endpoint, self.name)
        holder = {}

        def write_gateway():
            holder['gateway'] = gateway.write(
                at_gateway, shared, self.label, secret=self.secret,
                create=lambda: dict((option, obj['id']) for option, obj in scope.items()))

        def write_both():
            if side(api, write_gateway):
                written.append(GATEWAY)
            copy = original
            if GATEWAY in written or copy is None:
                copy = copy_after(api, copy, shared, lambda: Resource.find(self, api))
            if copy is None and not api.check_mode and (local or lists):
                raise no_copy_yet(api, shared[self.name])
            holder['copy'] = copy
            if side(api, write_controller):
                written.append(CONTROLLER)

        def write_controller():
            copy = holder['copy']
            if copy is None:        # check mode: the object is not there yet; or nothing to write at the controller
                if local:
                    api.show({}, local, self.secret)
                    api.change()
                holder['controller'] = dict(holder['gateway'], **local)
                self.set_sublists(api, holder['controller'], True, lists)
                return
            holder['controller'] = controller_fields(api, copy, local, new, self.secret)
            self.set_sublists(api, holder['controller'], new, lists)

        original = copy
        if not new or api.check_mode:
            write_both()
        else:
            # All or nothing: when the controller refuses its fields of an object this task made at the
            # gateway, the object is deleted again there, and the task changed nothing.
            try:
                with api.part(undone_on_error=True):
                    write_both()
            except ServiceError as exc:
                made = holder.get('gateway')
                if made is not None and made.get('id') is not None and not isinstance(exc, NotFound):
                    gateway.delete(made, self.label)
                    exc.message = '%s (the %s %s made at the platform gateway by this task was deleted again)' % (
                        exc.message, self.label, made.get(self.name))
                raise
        obj = holder['controller']
        api.returns(id=obj.get('id'), existing={} if new else masked(original or at_gateway, self.secret),
                    end_state=masked(obj, self.secret), written_at=written, **{self.result_key: obj})
        return obj, new


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

    def grant(self, actor_type, definition, actor, target, label):
        """Give the assignment (not in check mode); the assignment, or the body that would be sent."""
        body = {'role_definition': definition['id'], actor_type: actor.get('id'), 'object_id': target['id']}
        if self.api.check_mode:
            return body
        try:
            return self.api.client.request('POST', self.endpoint(actor_type), json_body=body, expect=(200, 201))
        except ServiceError as exc:
            raise gateway_refused(exc, 'give %s' % label)

    def revoke(self, assignment, label):
        if self.api.check_mode:
            return
        actor_type = 'user' if 'user' in assignment else 'team'
        path = assignment.get('url') or self.layout.gateway_path('role_%s_assignments/%s' % (actor_type, assignment['id']))
        try:
            self.api.client.request('DELETE', path, expect=(202, 204, 404))
        except ServiceError as exc:
            raise gateway_refused(exc, 'take back %s' % label)
