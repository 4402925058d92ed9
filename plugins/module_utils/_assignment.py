# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Role assignments (``/api/v2/role_user_assignments/`` and ``role_team_assignments/``):
a role definition given to a user or a team, on one object or system-wide.

The service cannot edit an assignment: one exists or not. An assignment is
found by its role definition, its user or team and its object, by their ids: the
service does not give an assignment's resource ids back (``*_ansible_id`` read
back as null or not at all), so a resource id given is first turned into the id
of the object it names (``?resource__ansible_id=``). Only shared objects
(organizations, teams, users) have one.

Behind a platform gateway, the assignments of the role definitions on organizations and teams that
give a permission on them other than ``view`` (the memberships ``Organization Member``,
``Organization Admin``, ``Team Member``, ``Team Admin``, and others such as ``Organization Audit``)
are the gateway's (``/api/gateway/v1/role_user_assignments/``...): the controller refuses them
(django-ansible-base's ``check_locally_managed``: "Not managed locally, use the resource server
instead"), so they are given and taken back at the gateway, with its role definition of the same
name, to the gateway's user or team and object of the same name as the controller's
(``_shared_resources.Memberships``); ``written_at`` says so. Every other assignment stays the
controller's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._info import object_id as as_object_id
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import STATE, Resource
from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    CONTROLLER, GATEWAY, MEMBERSHIP_TYPES, Memberships, controller_members, managed_at_gateway, on_gateway,
)

# actor -> (endpoint of the actors, the field that names one)
ACTORS = {'user': ('users', 'username'), 'team': ('teams', 'name')}
# The content types whose objects have a resource id, and their endpoints.
SHARED = {'shared.organization': 'organizations', 'shared.team': 'teams'}


# ansible.platform's assignment_objects (its role_team_assignment's): the objects, each by name and type (the
# endpoint of its kind), by id or by resource id.
OBJECTS = dict(type='list', elements='dict', options=dict(
    name=dict(type='str'),
    type=dict(type='str', choices=['organizations', 'teams']),
    object_id=dict(type='int'),
    object_ansible_id=dict(type='str'),
))


def _object_of(api, entry):
    """The options ``object_id`` and ``object_ansible_id`` for one item of ``assignment_objects``: exactly one of
    its name and type, its id or its resource id, as ansible.platform checks them."""
    named, has_type = entry.get('name') not in (None, ''), entry.get('type') not in (None, '')
    if named != has_type:
        raise ConfigError("When using 'name', you must also provide 'type' in each assignment_objects item.")
    given = [named, entry.get('object_id') is not None, entry.get('object_ansible_id') not in (None, '')]
    if sum(given) != 1:
        raise ConfigError('Each assignment_objects item must include exactly one of: (name & type) OR object_id OR '
                          'object_ansible_id.')
    if named:
        found = api.get_one(entry['type'], name=entry['name'])
        if found is None:
            raise NotFound('Unable to find %s with name %s' % (entry['type'], entry['name']), total_results=0)
        return {'object_id': found['id'], 'object_ansible_id': None}
    if entry.get('object_id') is not None:
        return {'object_id': entry['object_id'], 'object_ansible_id': None}
    return {'object_id': None, 'object_ansible_id': entry['object_ansible_id']}


def _object_named(api, definition, value):
    """The options ``object_id`` and ``object_ansible_id`` for one item of ``object_ids``: an id, or the name of
    an object of the kind the role definition applies to."""
    if is_id(value):
        return {'object_id': int(value), 'object_ansible_id': None}
    endpoint = SHARED.get(definition.get('content_type'))
    if endpoint is None:
        raise ConfigError('role definition %s applies to %s: name its objects in object_ids by id.'
                          % (definition['name'], definition.get('content_type') or 'the whole system'))
    found = api.get_one(endpoint, name=value)
    if found is None:
        raise NotFound('Unable to find %s with name or id: %s' % (endpoint, value), total_results=0)
    return {'object_id': found['id'], 'object_ansible_id': None}


def _role_definition(api, value):
    if is_id(value):
        try:
            return api.client.get('role_definitions/%d' % int(value))
        except NotFound:
            raise NotFound('role definition %s was not found.' % value)
    found = api.get_one('role_definitions', name=value)
    if found is None:
        raise NotFound('role definition %r was not found.' % value)
    return found


def _actor_id(api, actor, value):
    if is_id(value):
        return int(value)
    endpoint, name_field = ACTORS[actor]
    found = api.get_one(endpoint, **{name_field: value})
    if found is None:
        raise NotFound('%s %r was not found.' % (actor, value))
    return found['id']


def _by_ansible_id(api, endpoint, field, value):
    """The id of the object of ``endpoint`` whose resource id is ``value``."""
    found = api.get_one(endpoint, resource__ansible_id=value.strip())
    if found is None:
        raise NotFound('%s %r was not found.' % (field, value))
    return found['id']


def _described(obj, actor):
    keys = ('role_definition', actor, 'content_type', 'object_id')
    return dict((key, obj.get(key)) for key in keys if obj.get(key) is not None)


def _missing(api, actor, definition, target):
    """``state: exists`` and no such assignment: the task fails, as ansible.platform's does."""
    params = api.params
    raise NotFound('%s role assignment does not exist: %s, %s: %s, object: %s.'
                   % (actor.capitalize(), definition['name'], actor, params[actor] or params[actor + '_ansible_id'],
                      target if target is not None else 'the whole system'), total_results=0)


def _controller_object(api, endpoint, object_id, label):
    try:
        return api.client.get('%s/%d' % (endpoint, int(object_id)))
    except NotFound:
        raise NotFound('%s %s was not found.' % (label, object_id))


class Assignment(Resource):
    """The role assignments of one kind of actor (``user``, ``team``), declared: an assignment is found by its role
    definition, its actor and its object, never changed; ``present`` gives it, ``absent`` takes it back, ``exists``
    fails the task when it is not given. ``several``: the option of ansible.platform's module that names several
    objects (``assignment_objects`` of its role_team_assignment, ``object_ids`` of its role_user_assignment), each
    one assignment, said in ``assignments``."""

    def __init__(self, actor, several=None):
        Resource.__init__(self, 'role_%s_assignments' % actor, 'role_%s_assignment' % actor,
                          'role %s assignment' % actor, name=actor)
        self.actor = actor
        self.several = several

    def options(self):
        """The module's options."""
        argument_spec = {
            'role_definition': dict(type='str', required=True),
            self.actor: dict(type='str'),
            self.actor + '_ansible_id': dict(type='str'),
            'object_id': dict(type='raw'),   # an id; raw, since ansible-core's int check crashes on inf
            'object_ansible_id': dict(type='str'),
            # exists: ansible.platform's (the assignment is checked, never made); awx.awx's modules have no exists.
            'state': dict(STATE, choices=STATE['choices'] + ['exists']),
        }
        if self.several:
            argument_spec[self.several] = OBJECTS if self.several == 'assignment_objects' else dict(type='list',
                                                                                                    elements='str')
        return argument_spec

    def spec(self, argument_spec, **spec_kwargs):
        exclusive = [(self.actor, self.actor + '_ansible_id'), ('object_id', 'object_ansible_id')]
        if self.several:
            exclusive += [(self.several, 'object_id'), (self.several, 'object_ansible_id')]
        return Resource.spec(self, argument_spec, mutually_exclusive=exclusive, **spec_kwargs)

    def read_ahead(self, api):
        """Nothing for a loop's shared reads to count: an assignment is found by ids, not by a name."""

    def run(self, api, planned=None):
        """``assignment_objects`` or ``object_ids`` given: the assignment on each of the objects, in order, each said
        in ``assignments``, every object found first; else the one assignment of ``object_id`` or
        ``object_ansible_id``."""
        params = api.params
        if params.get('object_ids'):
            definition = _role_definition(api, params['role_definition'])
            return self.each(api, [_object_named(api, definition, value) for value in params['object_ids']])
        entries = params.get('assignment_objects')
        if not entries:
            return Resource.run(self, api, planned)
        objects = [_object_of(api, entry) for entry in entries]     # all found before the first write
        definition = _role_definition(api, params['role_definition'])
        for entry, found in zip(entries, objects):
            if entry.get('type') and SHARED.get(definition.get('content_type')) != entry['type']:
                applies = ('one %s' % definition['content_type']) if definition.get('content_type') else \
                    'the whole system'
                raise ConfigError('role definition %s applies to %s, not to %s %s.'
                                  % (definition['name'], applies, entry['type'], entry['name']))
        return self.each(api, objects)

    def each(self, api, objects):
        """The assignment on each object (``object_id`` and ``object_ansible_id`` options), each said in
        ``assignments``."""
        said = []
        for found in objects:
            with api.part() as part:
                with api.reading(**found):
                    Resource.run(self, api)
                item = dict(api.result)
            item['changed'] = part['changed']
            said.append(item)
        api.returns(assignments=said)
        return None, False

    def plan(self, api):
        """The assignment's grant (``present``, when it is not given) or its revocation (``absent``, when it is),
        at the controller, or behind a platform gateway at the gateway for the assignments it keeps; every name
        and object resolved first. ``exists`` plans nothing, and fails when the assignment is not given."""
        params = api.params
        actor = self.actor
        actor_ansible_id = actor + '_ansible_id'
        # Checked here rather than by required_one_of, which would hide a bad whole number of the connection options.
        if params[actor] is None and params[actor_ansible_id] is None:
            raise ConfigError('one of the following is required: %s, %s' % (actor, actor_ansible_id))
        definition = _role_definition(api, params['role_definition'])
        object_id, object_ansible_id = as_object_id('object_id', params['object_id']), params['object_ansible_id']
        on_object = object_id is not None or object_ansible_id is not None
        if definition.get('content_type') and not on_object:
            raise ConfigError('role definition %s applies to one %s: give object_id or object_ansible_id.'
                              % (definition['name'], definition['content_type']))
        if not definition.get('content_type') and on_object:
            raise ConfigError('role definition %s applies to the whole system, not to one object: leave out '
                              'object_id and object_ansible_id.' % definition['name'])

        if object_ansible_id is not None:
            if definition['content_type'] not in SHARED:
                raise ConfigError('role definition %s applies to one %s, which has no resource id: give object_id.'
                                  % (definition['name'], definition['content_type']))
            object_id = _by_ansible_id(api, SHARED[definition['content_type']], 'object_ansible_id',
                                       object_ansible_id)
        gateway = on_gateway(api)       # known once the role definition was read at the controller
        if gateway:
            api.returns(written_at=[])
            if on_object and managed_at_gateway(definition):
                return self.plan_at_gateway(api, definition, object_id)
        at = CONTROLLER if gateway else None

        filters = {'role_definition': definition['id']}
        body = {'role_definition': definition['id']}
        if params[actor] is not None:
            filters[actor] = body[actor] = _actor_id(api, actor, params[actor])
        else:
            filters[actor] = body[actor] = _by_ansible_id(api, ACTORS[actor][0], actor_ansible_id,
                                                          params[actor_ansible_id])
        if object_id is not None:
            filters['object_id'] = body['object_id'] = object_id
        else:
            filters['object_id__isnull'] = 'true'
        existing = api.get_one(self.endpoint, **filters)

        if params['state'] == 'absent':
            if existing is None:
                return Plan(None)
            return Plan(existing, [Write('DELETE', api.detail_path(existing), expect=(202, 204, 404),
                                         before=_described(existing, actor), after={}, at=at)])
        if existing is not None:
            return Plan(existing)
        if params['state'] == 'exists':
            _missing(api, actor, definition, params['object_id'] or params['object_ansible_id'])
        if gateway:
            api.returns(written_at=[CONTROLLER])    # said as soon as the grant is planned, whatever its answer
        return Plan(None, [Write('POST', self.endpoint, body, expect=(200, 201), before={}, after=body, makes=True,
                                 answer=body, at=at)])

    def plan_at_gateway(self, api, definition, object_id):
        """The plan of the assignment of ``definition`` at the platform gateway: the controller's actor and object
        are turned into the gateway's of the same name, and so is the role definition; a user's membership is
        then shown in the controller's list of members as well (controller_members())."""
        params = api.params
        actor = self.actor
        actor_ansible_id = actor + '_ansible_id'
        endpoint, name_field = ACTORS[actor]
        if params[actor] is not None:
            if is_id(params[actor]):
                found = _controller_object(api, endpoint, params[actor], actor)
            else:
                found = api.get_one(endpoint, **{name_field: params[actor]})
                if found is None:
                    raise NotFound('%s %r was not found.' % (actor, params[actor]))
        else:
            found = _controller_object(api, endpoint, _by_ansible_id(api, endpoint, actor_ansible_id,
                                                                     params[actor_ansible_id]), actor)
        resource_type = MEMBERSHIP_TYPES[definition['content_type']]
        target = _controller_object(api, SHARED[definition['content_type']], object_id, resource_type)
        memberships = Memberships(api)
        gateway_definition = memberships.definition(definition['name'])
        gateway_actor = memberships.actor(actor, found)
        gateway_target = memberships.target(resource_type, target)
        existing = memberships.find(actor, gateway_definition, gateway_actor, gateway_target)
        what = '%s of %s %s (%s %s)' % (definition['name'], resource_type, target.get('name'), actor,
                                        found.get(name_field))

        def members(giving):
            return lambda made: controller_members(api, definition['name'], target, found, giving) \
                if actor == 'user' else []

        if params['state'] == 'absent':
            if existing is None:
                return Plan(None)
            revoke = memberships.revoke_write(existing, what, before=_described(existing, actor), after={})
            revoke.then = members(False)
            return Plan(existing, [revoke])
        if existing is not None:
            return Plan(existing)
        if params['state'] == 'exists':
            _missing(api, actor, definition, params['object_id'] or params['object_ansible_id'])
        grant = memberships.grant_write(actor, gateway_definition, gateway_actor, gateway_target, what, before={},
                                        makes=True)
        grant.after = dict((key, grant.body[key]) for key in ('role_definition', actor, 'object_id'))
        grant.then = members(True)
        return Plan(None, [grant])

    def apply_deletion(self, api, plan):
        """The revocation sent; its ``id``, and behind a gateway where it was written."""
        existing = plan.existing
        if existing is None:
            return
        api.returns(id=existing['id'])
        api.apply(plan)
        if on_gateway(api):
            api.returns(written_at=plan.written_at())

    def returns(self, api, existing, made, plan=None):
        """The assignment found (``existing``), or the one granted: its ``id`` (none in check mode) and the result
        key; at the gateway, where it was written; at the controller, what awx.awx returns of an object created."""
        if existing is not None:
            api.returns(id=existing['id'], **{self.result_key: existing})
            return
        if plan.writes[0].at == GATEWAY:
            api.returns(written_at=plan.written_at(), **{self.result_key: made})
            if not api.check_mode:
                api.returns(id=made.get('id'))
            return
        if api.check_mode:
            api.returns(**{self.result_key: made})
            return
        api.returns(id=made.get('id'), **{self.result_key: made})
        api.returns_created(made)
