# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Resource declarations: what a resource module manages, said once, run by
the shared verbs.

A resource module is its documentation, its argument spec and a ``Resource``:
the endpoint, the option that names an object and the options that scope the
name (an organization, an inventory), the fields copied as given, the fields
given by name or id, the fields compared as data, the secret fields, and the
associations kept in sub-lists (``POST {"id": N}`` to add, with
``"disassociate": true`` to remove). An association may name its objects
within the scope (a group's hosts, in its inventory; without a scope option
given, in the scope the object is in) and may be kept: its ``preserve``
option, when true, adds what is missing and removes nothing. An ordered
association (instance groups, tried in turn) is kept in the order given.
A field the service fixes at creation (an inventory's kind) is sent only
then; asking to change it fails before any change. A field may be compared as something else than
given (``compared_as``: a list of permissions, as a sorted set). A reference may be named within the
organization given (``scope_within``: a job template's project), and a missing object of an
association may have awx.awx's own message (``missing``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.automation.service.plugins.module_utils._api_module import (
    ModuleSpec, dump_variables, is_id, narrow_no_log, parse_variables,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

STATE = dict(type='str', choices=['present', 'absent'], default='present')
# Options of awx.awx's modules that the service shows but no longer takes: accepted, never sent.
IGNORED = {'custom_virtualenv': 'the service no longer takes it (execution environments replaced custom virtualenvs)'}
CUSTOM_VIRTUALENV = dict(type='str')
# ``exists``: create the object when it is missing, leave it as it is when found.
STATE_EXISTS = dict(type='str', choices=['present', 'absent', 'exists'], default='present')
# ``enforced`` (the platform gateway's own objects): as ``present``, and the fields the module sets that the task
# does not give go back to the defaults the gateway says (Resource.enforce).
STATE_ENFORCED = dict(STATE_EXISTS, choices=STATE_EXISTS['choices'] + ['enforced'])


def as_data(value):
    """A dict or list given as such or as JSON/YAML text, for comparing."""
    if isinstance(value, (dict, list)) or value is None:
        return value if value is not None else {}
    return parse_variables(value)


ENCRYPTED = '$encrypted$'


def is_set(value):
    return value not in ('', None)


def encrypted_as_read(data, secrets):
    """``data`` as the service reads it back: its set ``secrets`` as $encrypted$."""
    return dict((k, ENCRYPTED if k in secrets and is_set(v) else v) for k, v in as_data(data).items())


class Encrypted:
    """A field of JSON data some keys of which are secrets the service reads back as ``$encrypted$``
    (a credential's inputs, a notification template's configuration). Those keys compare as set or
    not; a secret given while the service holds one is sent again only with ``update_secrets``
    (``secrets_sent`` says which); and the diff and a check-mode result show them masked.

    ``secrets(api, existing, desired)``: the secret keys; ``defaults(api, existing, desired)``: the keys
    the service fills in when they are not given; ``resets(delta)``: whether the change at hand replaces
    the secrets anyway (a new notification type); ``sent_with_every_write``: the field as given goes with
    every write of the object, not only with one that changes it; ``logged_secrets``: the keys whose values
    logs and results mask (the others show), when not every value of the field is masked.

    A module without the ``update_secrets`` option sends the secrets given with every write of the field and
    never alone: a secret read back as ``$encrypted$`` compares as set, so a run in which nothing else of
    the field changed sends nothing."""

    def __init__(self, field, secrets, defaults=None, resets=None, sent_with_every_write=False, logged_secrets=None):
        self.field = field
        self.secrets = secrets
        # The keys whose values no log or result shows (None: every value of the field, as its option is no_log)
        self.logged_secrets = logged_secrets
        self.defaults = defaults or (lambda api, existing, desired: {})
        self.resets = resets or (lambda delta: False)
        self.sent_with_every_write = sent_with_every_write


def gateway_endpoint(api, endpoint, module):
    """The gateway's path of ``endpoint`` (``authenticators`` -> ``/api/gateway/v1/authenticators/``); a
    ConfigError naming ``module`` when the service has no platform gateway (AWX 24)."""
    layout = api.client.settled_layout()
    if not layout.is_gateway:
        raise ConfigError('automation.service.%s needs an Automation Platform gateway (2.5 or later): the service at '
                          '%s is AWX, which has no %s (the gateway\'s /api/gateway/v1/%s/).'
                          % (module, api.client.base_url, endpoint.replace('_', ' '), endpoint))
    return layout.gateway_path(endpoint)


def eda_endpoint(api, endpoint, module):
    """Event-Driven Ansible's path of ``endpoint`` behind the gateway (``projects`` -> ``/api/eda/v1/projects/``);
    a ConfigError naming ``module`` when the service has no platform gateway (AWX 24, which has no EDA)."""
    layout = api.client.settled_layout()
    if not layout.is_gateway or not getattr(layout, 'eda', None):
        raise ConfigError('automation.service.%s needs an Automation Platform gateway (2.5 or later) with '
                          'Event-Driven Ansible: the service at %s is AWX, which has no Event-Driven Ansible API '
                          '(the gateway\'s /api/eda/v1/%s/).' % (module, api.client.base_url, endpoint))
    return layout.eda_path(endpoint)


PLACES = {
    # service -> (where its endpoints are, what the layout is called once placed)
    'gateway': (gateway_endpoint, 'gateway'),
    'eda': (eda_endpoint, 'eda'),
}


def names_of(api):
    """The names of the objects this task looked up: (endpoint, id) -> name, for its diff."""
    return api.names


class Resource:
    """The declaration of one endpoint's resource module."""

    def __init__(self, endpoint, result_key, label, name='name', scope=None, fields=(), references=None,
                 text_data=(), json_data=(), secret=(), associations=None, required_on_create=(),
                 scoped_associations=(), preserve=None, ordered=(), create_only=(), scope_within=None, missing=None,
                 compared_as=None, encrypted=None, on_create=None, bulk=None, service=None, exists_checks=None):
        self.endpoint = endpoint
        self.result_key = result_key
        self.label = label
        self.name = name                          # option and field that name an object
        self.scope = scope or {}                  # option -> endpoint of the object that scopes the name
        self.scope_within = scope_within or {}    # scope or reference option -> the option naming its organization
        self.fields = tuple(fields)               # options sent as given
        self.references = references or {}        # option -> endpoint; sent as the id of the object named
        self.text_data = tuple(text_data)         # data the service keeps as JSON text (variables)
        self.json_data = tuple(json_data)         # data the service keeps as JSON (inputs, injectors)
        self.secret = tuple(secret)               # fields masked in the diff
        self.associations = associations or {}    # option -> (sub-list, endpoint of its objects[, name field])
        self.required_on_create = tuple(required_on_create)
        self.scoped_associations = tuple(scoped_associations)  # associations named within the scope
        self.preserve = preserve or {}            # association option -> bool option: add, never remove
        self.ordered = tuple(ordered)             # associations whose order matters
        self.create_only = tuple(create_only)     # fields set when the object is created, never changed
        self.missing = missing or {}              # association option -> message for a missing object (%s: its name)
        self.compared_as = compared_as or {}      # field -> what both sides are made into before comparing
        self.encrypted = encrypted                # an Encrypted field (its secrets read back as $encrypted$)
        self.on_create = on_create                # on_create(api): more fields of a new object (its owner)
        self.bulk = bulk                          # the service's bulk action that creates many (see _loop_bulk)
        # where its endpoints are: None, the controller's API (the client puts them under it in either layout);
        # 'gateway', the platform gateway's own API; 'eda', Event-Driven Ansible's behind the gateway (see
        # placed()); a module whose objects are where the layout says overrides placed()
        self.service = service
        # ``state: exists`` as ansible.platform's modules have it: the object is looked for and never made, a missing
        # one fails the task (the gateway's objects by default; else ``exists`` makes a missing object, as awx.awx's)
        self.exists_checks = service == 'gateway' if exists_checks is None else exists_checks
        self.placed_at = None                     # set on the copy placed() makes: the layout it is placed in

    def spec(self, argument_spec, **spec_kwargs):
        return ModuleSpec(argument_spec, resource=self.endpoint, result_key=self.result_key, **spec_kwargs)

    # -- where it is -------------------------------------------------------------

    def placed(self, api):
        """This declaration with its endpoints (its own, its scopes', references' and associations') where the
        task's service serves them. A controller resource's are as declared; a gateway resource's
        (``service='gateway'``) are the gateway's own paths, an EDA resource's (``service='eda'``) those of
        Event-Driven Ansible behind the gateway; either a ConfigError naming the module on AWX 24, which has
        neither. Nothing is read or written but the service's layout."""
        if self.service not in PLACES or self.placed_at is not None:
            return self
        path_of, layout = PLACES[self.service]
        return self.at_paths(lambda endpoint: path_of(api, endpoint, self.module_name), layout)

    @property
    def module_name(self):
        """The module's name, for the messages that name it (a gateway module's is its result key)."""
        return self.result_key

    def at_paths(self, path_of, layout):
        """A copy of this declaration whose endpoints are ``path_of(endpoint)``, placed in ``layout``."""
        placed = copy.copy(self)
        placed.endpoint = path_of(self.endpoint)
        placed.scope = dict((option, path_of(endpoint)) for option, endpoint in self.scope.items())
        placed.references = dict((option, path_of(endpoint)) for option, endpoint in self.references.items())
        placed.associations = dict((option, (kept[0], path_of(kept[1])) + tuple(kept[2:]))
                                   for option, kept in self.associations.items())
        placed.placed_at = layout
        return placed

    # -- finding -----------------------------------------------------------------

    def scope_filter(self, api):
        """The filter that keeps the objects in the scope given: by the scope's name (one request
        with the object's), or by its id once an id or a named URL is looked up, as awx.awx does.
        An empty scope (``organization: ''``) is no scope."""
        where = {}
        for option in self.scope:
            value = api.params.get(option)
            if value is None or value == '':
                continue
            if is_id(value) or '++' in str(value):
                found = self.scope_object(api, option, value)
                where[option] = found['id'] if found else (int(value) if is_id(value) else 0)
            else:
                where[option + '__name'] = value
                where.update(self.within(api, option, option + '__'))
        return where

    def scope_object(self, api, option, value):
        """The scope object ``option`` names (looked up once per task)."""
        known = api.scope_objects
        if (option, value) not in known:
            known[(option, value)] = api.lookup(self.scope[option], value, **self.within(api, option))
        return known[(option, value)]

    def within(self, api, option, prefix=''):
        """The filter that keeps the scope object ``option`` in the organization given for it."""
        organization = api.params.get(self.scope_within.get(option, ''))
        if organization is None or organization == '':
            return {}
        return {prefix + 'organization': int(organization)} if is_id(organization) else {
            prefix + 'organization__name': organization}

    def find(self, api):
        """The object named (None when there is none), by name, named URL, or for digits name
        or id, as awx.awx finds it. Nothing is written (see plan() for ``copy_from``)."""
        params = api.params
        where = self.scope_filter(api)
        existing = api.lookup(self.endpoint, params[self.name], self.name, **where)
        new_name = params.get('new_' + self.name)
        if existing is None and new_name:
            existing = api.lookup(self.endpoint, new_name, self.name, **where)
        return existing

    def read_ahead(self, api):
        """For an async item about to be forked: count the look-up find() will make of the object named, where it
        will make it (placed()), in the worker's shared reads (see _loop_reads), without making it."""
        value = api.params.get(self.name)
        held = api.held
        if held is None or value is None or is_id(value) or '++' in str(value) or not str(value):
            return
        placed = self.placed(api)   # where find() will look: a gateway resource's path at the gateway
        held.expect(api, placed.endpoint, placed.name, dict(placed.scope_filter(api), **{placed.name: str(value)}))

    def locate(self, api):
        """``(existing, source)``: the object named, and with ``copy_from`` (awx.awx's option) the
        object to copy when the one named is missing; ``existing`` is then what the copy will be,
        for the rest of the task to resolve its names against. Nothing is written: the copy is the
        plan's first write, so that a bad name leaves no copy behind."""
        existing = self.find(api)
        if not api.params.get('copy_from') or api.params.get('state', 'present') == 'absent':
            return existing, None
        source = api.params['copy_from']
        if existing is not None:
            api.warn('%s %s exists: copy_from %s was not used.' % (self.label, existing.get(self.name), source))
            return existing, None
        found = api.lookup(self.endpoint, source, self.name)
        if found is None:
            raise NotFound('%s %r to copy from was not found.' % (self.label, source))
        name = api.params.get('new_' + self.name) or api.params[self.name]
        return dict(found, id=None, url=None, related={}, **{self.name: name}), found

    def copy_write(self, api, existing, source, then=None):
        """The write that makes the copy of ``source`` locate() decided on (``existing``: what the copy will
        be); ``then(copy)``: the writes planned once the copy is there."""
        def copied(copy):
            api.returns(copied_from=source['id'])
            return then(copy) if then is not None else []

        return Write('POST', '%s/%d/copy' % (self.endpoint, source['id']), {'name': existing[self.name]},
                     expect=(201,), makes=True, answer=existing, then=copied)

    # -- what the user asks for --------------------------------------------------

    def desired(self, api, existing):
        params = api.params
        for key in self.create_only:
            have = (existing or {}).get(key)
            have = '' if have is None else have
            if existing is not None and params.get(key) is not None and params[key] != have:
                raise ConfigError('The %s of %s %s is %r and cannot be changed to %r.'
                                  % (key.replace('_', ' '), self.label, existing.get(self.name), have, params[key]))
        wanted = dict((key, params[key]) for key in self.fields + self.text_data + self.json_data
                      if params.get(key) is not None)
        if existing is None:
            wanted.update((key, params[key]) for key in self.create_only if params.get(key) is not None)
        # An object found by id or named URL keeps its name unless a new one is given.
        wanted[self.name] = params.get('new_' + self.name) or (existing or {}).get(self.name) or params[self.name]
        for option, endpoint in self.references.items():
            value = params.get(option)
            if value is not None:
                wanted[option] = self.reference_id(api, existing, option, endpoint, value, **self.within(api, option))
        return wanted

    def described(self, api):
        """What the OPTIONS of the list says its POST takes (field -> what it says of it: its type, whether it is
        required, its default), read once a task whoever asks."""
        if self.endpoint not in api.described:
            answer = api.client.request('OPTIONS', self.endpoint, expect=(200,)) or {}
            api.described[self.endpoint] = dict(((answer.get('actions') or {}).get('POST') or {}))
        return api.described[self.endpoint]

    def never_reset(self):
        """The fields ``state: enforced`` leaves as they are when they are not given: the name, the scope, the
        references (no default to go back to), the fields fixed at creation, and the secrets."""
        kept = set([self.name]) | set(self.scope) | set(self.references) | set(self.create_only) | set(self.secret)
        if self.encrypted is not None:
            kept.add(self.encrypted.field)
        return kept

    def enforce(self, api, existing, wanted):
        """``wanted`` with ``state: enforced``: with the fields the module sets (its ``fields``, ``text_data`` and
        ``json_data``) that the task does not give back at their defaults, which the OPTIONS of the list says
        (``actions.POST.<field>.default``, one request). A new object gets the service's defaults anyway: nothing
        is added and nothing read. A field the list does not describe (the service has no such field), or says is
        required, is left as it is; one it describes without a default too, and the task warns once, naming them."""
        kept = self.never_reset()
        resettable = [key for key in self.fields + self.text_data + self.json_data
                      if key not in wanted and key not in kept]
        if existing is None or not resettable:
            return wanted
        described = self.described(api)
        unknown = []
        for key in resettable:
            about = described.get(key) if described else {}
            if not isinstance(about, dict) or about.get('read_only') or about.get('required'):
                continue
            if 'default' in about:
                wanted[key] = about['default']
            else:
                unknown.append(key)
        if unknown:
            api.warn('state=enforced left %s of %s %s as %s: the OPTIONS of %s gives no default for %s.'
                     % (', '.join(unknown), self.label, existing.get(self.name),
                        'they are' if len(unknown) > 1 else 'it is', self.endpoint,
                        'them' if len(unknown) > 1 else 'it'))
        return wanted

    @staticmethod
    def reference_id(api, existing, option, endpoint, value, name_field='name', label=None, missing=None, **filters):
        """The id of ``value`` (a name, an id or a named URL); no request when it names the
        object's current one. ``''`` is none. ``missing``: the message when it is not found."""
        if value == '':
            return None
        current = ((existing or {}).get('summary_fields') or {}).get(option) or {}
        named = current.get('name') == value or (is_id(value) and int(value) == current.get('id'))
        if current.get('id') is not None and named:
            return current['id']
        found = api.lookup(endpoint, value, name_field, label or option.replace('_', ' '), required=True,
                           missing=missing, **filters)
        names_of(api)[(endpoint, found['id'])] = found.get(name_field)
        return found['id']

    def scope_ids(self, api):
        ids = {}
        for option, endpoint in self.scope.items():
            value = api.params.get(option)
            if value is None or value == '':
                continue
            found = self.scope_object(api, option, value) if is_id(value) or '++' in str(value) else None
            ids[option] = found['id'] if found else api.resolve_id(endpoint, value, option.replace('_', ' '),
                                                                   **self.within(api, option))
        return ids

    # -- the verbs ---------------------------------------------------------------

    def require_on_create(self, api):
        """Refuse to create the object without the options ``required_on_create``."""
        params = api.params
        missing = [option for option in self.required_on_create if params.get(option) in (None, '')]
        if missing:
            raise ConfigError('Unable to create %s %s: %s required to create %s %s.'
                              % (self.label, params[self.name],
                                 ' and '.join(missing) + (' are' if len(missing) > 1 else ' is'),
                                 self.label, params[self.name]))

    def plan(self, api):
        """What the task will write, every name resolved and every object read first: the copy of
        ``copy_from``, the create or the update, the sub-lists. Nothing is written here."""
        params = api.params
        for option, why in sorted(IGNORED.items()):
            if params.get(option) not in (None, ''):
                api.warn('%s is ignored: %s.' % (option, why))
        given = params.get(self.encrypted.field) if self.encrypted is not None else None
        if given and self.encrypted.logged_secrets is not None:
            narrow_no_log(params, api.no_log_values, given,
                          [v for k, v in given.items() if k in self.encrypted.logged_secrets])
        existing, source = self.locate(api)
        state = params.get('state', 'present')
        if state == 'absent':
            return self.plan_deletion(api, existing)
        made_in_bulk = None
        if self.bulk is not None and api.ahead is not None and source is None:
            # the object this item's loop made in bulk: that write (sent already) is the plan's create
            from ansible_collections.automation.service.plugins.module_utils import _loop_bulk
            existing, made_in_bulk = _loop_bulk.settle(api, self, existing, api.ahead)
        if state == 'exists' and existing is not None:
            # found, or the copy: kept as it is
            if made_in_bulk is not None:
                return Plan(None, [made_in_bulk])
            return Plan(existing, [self.copy_write(api, existing, source)] if source is not None else [])
        if self.creates(existing):
            self.require_on_create(api)
        desired = self.desired(api, existing)
        if state == 'enforced':
            desired = self.enforce(api, existing, desired)
        lists = self.association_lists(api, existing)
        if source is None:
            plan = self.plan_object(api, existing, desired, lists)
            return plan if made_in_bulk is None else Plan(None, [made_in_bulk]).extend(plan)

        plan = Plan(None)

        def after_copy(copy):
            # the copy as the service made it: what is left to change in it (no name is looked up here)
            plan.copy = copy
            return self.plan_object(api, copy, desired, lists).writes

        return plan.add(self.copy_write(api, existing, source, then=after_copy))

    def creates(self, existing):
        """Whether the plan makes the object anew, ``existing`` being what locate() found (None: nothing)."""
        return existing is None

    def plan_deletion(self, api, existing):
        """The writes that delete ``existing``, what locate() found (None: nothing to delete)."""
        return api.plan_absent(existing, self.endpoint)

    def apply_deletion(self, api, plan):
        """Send plan_deletion()'s plan through the executor, and return what awx.awx returns of a deletion."""
        api.apply_absent(plan)

    def create_endpoint(self, api):
        """Where a new object is posted (None: the resource's endpoint); a resource whose objects are made
        in a sub-list that depends on the options (a template's schedules) says so here."""
        return None

    def create_fields(self, api):
        """The fields a new object gets besides those desired: its scope's ids, and ``on_create``'s."""
        fields = self.scope_ids(api)
        if self.on_create is not None:
            fields.update(self.on_create(api))
        return fields

    def plan_object(self, api, existing, desired, lists):
        """The writes that make ``existing`` (None: a new object) hold ``desired`` and the sub-lists ``lists``."""
        normalize = dict((key, parse_variables) for key in self.text_data)
        normalize.update((key, as_data) for key in self.json_data)
        normalize.update(self.compared_as)
        encode = dict((key, dump_variables) for key in self.text_data)
        if self.encrypted is not None:
            plan = self.plan_encrypted(api, existing, desired, normalize)
        else:
            plan = api.plan_present(existing, desired, create=lambda: self.create_fields(api), normalize=normalize,
                                    encode=encode, secret=self.secret, endpoint=self.create_endpoint(api),
                                    resource=self.endpoint)
        plan.existing = existing
        for option in sorted(lists):
            plan.extend(self.plan_sublist(api, existing, existing is None, option, *self.associations[option],
                                          wanted=lists[option]))
        return plan

    def plan_encrypted(self, api, existing, desired, normalize):
        """plan_present() for a resource with an Encrypted field."""
        field = self.encrypted
        given = api.params.get(field.field)
        secrets = set(field.secrets(api, existing, desired))
        hidden = tuple(self.secret) + tuple(field.field + '.' + key for key in sorted(secrets))   # masked in the diff
        defaults = field.defaults(api, existing, desired)

        def as_read(data):
            return encrypted_as_read(dict(defaults, **as_data(data)), secrets)

        if existing is None:
            plan = api.plan_present(None, desired, create=lambda: self.create_fields(api), secret=hidden,
                                    endpoint=self.create_endpoint(api), resource=self.endpoint)
            write = plan.writes[0]
            if given:
                write.answer = dict(write.answer, **{field.field: encrypted_as_read(given, secrets)})
            return plan
        normalize = dict(normalize, **{field.field: as_read})
        delta = api.changes(existing, desired, normalize)
        stored = as_data(existing.get(field.field))
        held = [] if field.resets(delta) else \
            sorted(key for key in secrets if is_set((given or {}).get(key)) and stored.get(key) == ENCRYPTED)
        path = api.detail_path(existing, self.endpoint)
        if not delta:
            if not (held and api.params.get('update_secrets')):
                return Plan(existing)

            def sent(made):
                api.returns(secrets_sent=held)
                return []

            return Plan(existing, [Write('PATCH', path, {field.field: given}, makes=True, answer=existing, then=sent,
                                         changes=False)])
        before = dict((k, normalize[k](existing.get(k)) if k in normalize else existing.get(k)) for k in delta)
        after = dict((k, normalize[k](delta[k]) if k in normalize else delta[k]) for k in delta)
        body = dict(delta)
        if given is not None and (field.sent_with_every_write or field.field in delta):
            # Every key given goes with the write: what is sent replaces what is stored.
            keep = held if api.params.get('update_secrets') is False else []
            body[field.field] = dict((k, ENCRYPTED if k in keep else v) for k, v in given.items())
        return Plan(existing, [Write('PATCH', path, body, before=before, after=after, secret=hidden, makes=True,
                                     answer=dict(existing, **after))])

    def run(self, api, planned=None):
        """Make the object match: plan, then apply, where the task's service keeps it (placed()). The object (None
        when absent), and whether it is new. ``planned(plan)``: called once the plan is made, before anything is
        written: a module resolves there the names of what it writes once the object is there (a workflow's
        nodes). With ``exists_checks``, ``state: exists`` only looks the object up (see __init__); a gateway
        resource's result has its ``name``, as ansible.platform's modules return it."""
        placed = self.placed(api)
        if placed.exists_checks and api.params.get('state') == 'exists':
            made, new = placed.find(api), False
            if made is None:
                raise NotFound('%s %r does not exist.' % (placed.label.capitalize(), api.params[placed.name]),
                               total_results=0)
            placed.returns(api, made, made)
        else:
            made, new = placed.apply_plan(api, planned)
        return made, new

    def returns(self, api, existing, made, plan=None):
        """What the task returns of the object it ends with, ``made`` (``existing``: the object as it was, None for
        a new one; ``plan``: the plan applied, when there was one): awx.awx's (ApiTask.returns_object()), and a
        gateway resource's ``name``, as ansible.platform's modules return it. A module whose result differs says it
        here."""
        api.returns_object(existing, made, self.secret)
        if self.service == 'gateway' and made is not None:
            api.returns(name=made.get('name'))

    def apply_plan(self, api, planned=None):
        """plan(), then the executor sends it; the object (None when absent), and whether it is new."""
        plan = self.plan(api)
        if planned is not None:
            planned(plan)
        state = api.params.get('state', 'present')
        if state == 'absent':
            self.apply_deletion(api, plan)
            return None, False
        made = api.apply(plan)
        if state == 'exists' and plan.existing is not None:
            self.returns(api, made, made, plan)
            return made, False
        # a copy made by the plan is the object the task found
        existing = plan.existing if plan.copy is None else plan.copy
        self.returns(api, existing, made, plan)
        return made, existing is None

    def association_lists(self, api, existing):
        """The ids of the objects each association given names (option -> ids), resolved before anything is
        written (plan_object() plans the sub-lists' writes from them)."""
        return dict((option, self.association_ids(api, existing, option, *association))
                    for option, association in sorted(self.associations.items()) if api.params.get(option) is not None)

    def association_ids(self, api, existing, option, sublist, endpoint, name_field='name'):
        """The ids of the objects ``option`` names (by ``name_field`` or id)."""
        # Named within the scope the options give, and only that: the same before and after the
        # object exists (as awx.awx looks them up), never in the scope the object has.
        filters = self.scope_filter(api) if option in self.scoped_associations else {}
        label = option.replace('_', ' ')  # one of the list
        label = label[:-3] + 'y' if label.endswith('ies') else label.rstrip('s')
        return [self.reference_id(api, None, option, endpoint, value, name_field, label, self.missing.get(option),
                                  **filters)
                for value in api.params[option]]

    def plan_sublist(self, api, obj, new, option, sublist, endpoint=None, name_field='name', wanted=()):
        """The writes that make the sub-list ``sublist`` of ``obj`` hold exactly the ids ``wanted`` of objects of
        ``endpoint`` (for an object not yet created, ``obj`` None or without an id: the writes add them to the
        object the plan makes). The diff names them."""
        known = obj is not None and obj.get('id') is not None
        names = names_of(api)
        have = []
        if known and not new:
            for item in api.client.iterate('%s/%s/%s' % (self.endpoint, obj['id'], sublist), {'page_size': 200}):
                have.append(item['id'])
                if item.get(name_field) is not None:
                    names[(endpoint, item['id'])] = item[name_field]
        if api.params.get(self.preserve.get(option)):
            wanted = have + [item for item in wanted if item not in have]
        wanted = [item for index, item in enumerate(wanted) if item not in wanted[:index]]
        if option in self.ordered:
            # Keep what is in place up to the first difference, put the rest back in order.
            kept = 0
            while kept < min(len(have), len(wanted)) and have[kept] == wanted[kept]:
                kept += 1
            add, remove = wanted[kept:], have[kept:]
        else:
            add = [item for item in wanted if item not in have]
            remove = [item for item in have if item not in wanted]
        if not add and not remove:
            return Plan(obj)

        def shown(ids):
            named = [names.get((endpoint, item), item) for item in ids]
            return named if option in self.ordered else sorted(named, key=str)

        def path(made):
            return '%s/%s/%s' % (self.endpoint, made['id'], sublist)

        writes = [Write('POST', path, {'id': item, 'disassociate': True}, expect=(204,)) for item in remove]
        writes += [Write('POST', path, {'id': item}, expect=(204,)) for item in add]
        writes[0].before, writes[0].after = ({} if new else {option: shown(have)}), {option: shown(wanted)}
        return Plan(obj, writes)
