# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Event-Driven Ansible's conventions, for the ``eda_*`` modules.

EDA's API is served behind the platform gateway at ``/api/eda/v1/`` (the Layout's ``eda``); AWX 24 has none, and
a task fails there before it reads or writes anything (``Resource.placed()`` with ``service='eda'``).

Its ways differ from the controller's, as its published schemas (eda-2.6.json, eda-2.7.json) and its server's
source say them:

* An object refers to another by a ``<x>_id`` field it is written with (``organization_id``,
  ``eda_credential_id``, ``credential_type_id``) and reads it back either as that id (its lists) or as the nested
  object ``<x>`` (``{"id": 1, "name": "Default"}``: the detail of a decision environment, a credential's
  ``credential_type`` and ``organization``). ``referred_id()`` reads either.
* Its ``?name=`` filter is not exact (``istartswith`` in the server's filters): a look-up compares the names
  exactly after it, and reads every page of what the filter kept.
* Its pages are ``page`` and ``page_size``; ``next`` is the path of the next page (with its query).
* Its objects have no ``url``: an object is at ``<endpoint><id>/``.
* There are no named URLs and no ``or__id``: an object is named by its name, or for digits, when no object has
  that name, by its id.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec, is_id
from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConfigError, MultipleFound, NotFound,
)
from ansible_collections.automation.service.plugins.module_utils._loop_reads import Lister
from ansible_collections.automation.service.plugins.module_utils._plan import Write
from ansible_collections.automation.service.plugins.module_utils._resource import Resource, eda_endpoint

# EDA's largest page size is not published (its pagination class sets none): the lists are read by pages of this.
PAGE_SIZE = 200
# ansible.eda's words for an option naming an organization on a create that has none
ORGANIZATION_REQUIRED = 'Parameter organization_name is a required when state is set to present'

# The options every module with an organization has, as ansible.eda names them.
ORGANIZATION_OPTION = dict(type='str', aliases=['organization'])


def place(api, endpoint, module):
    """``endpoint``'s path in EDA's API behind the gateway (ConfigError naming ``module`` on AWX)."""
    return eda_endpoint(api, endpoint, module)


def referred_id(obj, field):
    """The id of the object ``obj`` refers to by ``field`` (``organization_id``), as EDA reads it back: the id
    itself, or the nested object ``organization`` (its ``id``); None when it refers to none."""
    if obj is None:
        return None
    if obj.get(field) is not None:
        return obj[field]
    nested = obj.get(field[:-3]) if field.endswith('_id') else None
    if isinstance(nested, dict):
        return nested.get('id')
    if is_id(nested):
        return int(nested)
    return None


def matching(api, endpoint, value, name_field='name', filter_param=None, **filters):
    """The objects of ``endpoint`` (a placed path) whose ``name_field`` is exactly ``value``: its ``?name=``
    filter keeps those whose name starts with it (whatever the case), every page of which is read."""
    text = to_text(value)
    params = dict((k, v) for k, v in filters.items() if v is not None)
    params[filter_param or 'name'] = text
    params['page_size'] = PAGE_SIZE
    return [obj for obj in api.client.iterate(endpoint, params=params) if to_text(obj.get(name_field)) == text]


def find(api, endpoint, value, name_field='name', label=None, required=False, filter_param=None, **filters):
    """The object ``value`` names in ``endpoint`` (a placed path): by its ``name_field`` exactly, or for digits
    that no object is named, by id. None when there is none (NotFound in ansible.eda's words when ``required``);
    MultipleFound when two have the name."""
    if value is None or to_text(value) == '':
        if required:
            raise NotFound("%s '%s' not found" % ((label or 'object').capitalize(), value), total_results=0)
        return None
    held = api.held
    if held is None:
        return _find(api, endpoint, value, name_field, label, required, filter_param, **filters)
    # The items of a loop share their look-ups (see _loop_reads): EDA's lists read by its pages, an object held at
    # <endpoint><id>/ (where its writes go).
    key = ('eda', endpoint, name_field, tuple(sorted((k, to_text(v)) for k, v in filters.items())))
    lister = Lister(api.client, endpoint, dict(filters, page_size=PAGE_SIZE), lambda obj: '%s%d/' % (endpoint, obj['id']),
                    page_size=PAGE_SIZE)
    return held.shared(api, key, name_field, to_text(value), lister,
                       lambda: _find(api, endpoint, value, name_field, label, required, filter_param, **filters))


def _find(api, endpoint, value, name_field='name', label=None, required=False, filter_param=None, **filters):
    found = matching(api, endpoint, value, name_field, filter_param, **filters)
    if len(found) > 1:
        raise MultipleFound('More than one %s is named %r in %s: %d of them; name it by id instead.'
                            % (label or 'object', to_text(value), endpoint, len(found)), total_results=len(found))
    if found:
        return found[0]
    if is_id(value):
        try:
            obj = api.client.get('%s%d/' % (endpoint, int(value)))
        except NotFound:
            obj = None
        if isinstance(obj, dict) and obj.get('id') is not None:
            return obj
    if required:
        raise NotFound("%s '%s' not found" % ((label or 'object').capitalize(), value), total_results=0)
    return None


def resolve_id(api, endpoint, value, label, name_field='name', filter_param=None):
    """The id of the object ``value`` (a name, or an id) names in ``endpoint`` (a placed path)."""
    return find(api, endpoint, value, name_field, label, required=True, filter_param=filter_param)['id']


class Reference:
    """An option that names another EDA object, written as its ``field`` (``organization_id``): the objects of
    ``endpoint`` (EDA's, not placed), found by ``name_field``, called ``label`` in messages."""

    def __init__(self, endpoint, field, label, name_field='name', filter_param=None):
        self.endpoint = endpoint
        self.field = field
        self.label = label
        self.name_field = name_field
        self.filter_param = filter_param


ORGANIZATION = Reference('organizations', 'organization_id', 'organization')


class EdaResource(Resource):
    """The declaration of an EDA endpoint's resource module (``Resource`` with ``service='eda'``): ``module`` names
    it in messages; ``references`` (option -> Reference) are sent as their ``<x>_id`` fields and compared with what
    EDA reads back (an id or a nested object); ``organization_required``: a new object needs its organization
    (``organization_name``), as EDA requires it."""

    def __init__(self, endpoint, result_key, label, module, references=None, organization_required=False,
                 filter_param=None, **kwargs):
        kwargs.setdefault('service', 'eda')
        kwargs.setdefault('exists_checks', False)
        super(EdaResource, self).__init__(endpoint, result_key, label, **kwargs)
        self.module = module
        self.eda_references = dict(references or {})
        self.organization_required = organization_required
        self.filter_param = filter_param      # the list's filter of the name, when it is not ``name``
        self.paths = {}                       # EDA endpoint -> placed path, set by placed()

    @property
    def module_name(self):
        return self.module

    def at_paths(self, path_of, layout):
        placed = super(EdaResource, self).at_paths(path_of, layout)
        placed.paths = dict((reference.endpoint, path_of(reference.endpoint))
                            for reference in self.eda_references.values())
        return placed

    def path_of(self, endpoint):
        return self.paths.get(endpoint) or endpoint

    # -- finding -----------------------------------------------------------------

    def find(self, api):
        params = api.params
        existing = find(api, self.endpoint, params[self.name], self.name, self.label, filter_param=self.filter_param)
        new_name = params.get('new_' + self.name)
        if existing is None and new_name:
            existing = find(api, self.endpoint, new_name, self.name, self.label, filter_param=self.filter_param)
        return existing

    def read_ahead(self, api):
        # EDA's look-ups are shared by the items of a loop as find() makes them, not read ahead for async items
        return

    def locate(self, api):
        """As Resource.locate(): with ``copy_from``, the object to copy (found by name in EDA) when the one named
        is missing."""
        existing = self.find(api)
        if not api.params.get('copy_from') or api.params.get('state', 'present') == 'absent':
            return existing, None
        source_name = api.params['copy_from']
        # the object to copy must exist even when the one named does (ansible.eda fails then too)
        found = find(api, self.endpoint, source_name, self.name, self.label, filter_param=self.filter_param)
        if found is None:
            # ansible.eda's words (its client's failed look-up of the id), and what they mean
            raise NotFound("Unable to access 'id' of the %s to copy from. No %s is named '%s'."
                           % (self.label, self.label, source_name))
        if existing is not None:
            api.warn('%s %s exists: copy_from %s was not used.'
                     % (self.label.capitalize(), existing.get(self.name), source_name))
            return existing, None
        name = api.params.get('new_' + self.name) or api.params[self.name]
        return dict(found, id=None, **{self.name: name}), found

    def copy_write(self, api, existing, source, then=None):
        def copied(made):
            api.returns(copied_from=source['id'])
            return then(made) if then is not None else []

        return Write('POST', '%s%d/copy/' % (self.endpoint, source['id']), {'name': existing[self.name]},
                     expect=(200, 201), makes=True, answer=existing, then=copied, before={},
                     after={self.name: existing[self.name], 'copy_from': source.get(self.name)})

    # -- what the user asks for --------------------------------------------------

    def desired(self, api, existing):
        wanted = super(EdaResource, self).desired(api, existing)
        params = api.params
        for option, reference in sorted(self.eda_references.items()):
            value = params.get(option)
            if value is None:
                if reference is ORGANIZATION and self.organization_required and existing is None:
                    raise ConfigError(ORGANIZATION_REQUIRED)
                continue
            if value == '':
                wanted[reference.field] = None
                continue
            have = referred_id(existing, reference.field)
            nested = (existing or {}).get(reference.field[:-3])
            if isinstance(nested, dict) and have is not None and to_text(nested.get(reference.name_field)) == value:
                wanted[reference.field] = have      # named as EDA read it back: no look-up
                continue
            wanted[reference.field] = resolve_id(api, self.path_of(reference.endpoint), value, reference.label,
                                                 reference.name_field, reference.filter_param)
        return wanted

    def plan_object(self, api, existing, desired, lists):
        """Resource.plan_object(), the references compared as ids however EDA read them back."""
        if existing is None:
            return super(EdaResource, self).plan_object(api, existing, desired, lists)
        compared = dict(existing)
        for reference in self.eda_references.values():
            if reference.field in desired:
                compared[reference.field] = referred_id(existing, reference.field)
        plan = super(EdaResource, self).plan_object(api, compared, desired, lists)
        plan.existing = existing
        return plan


def info_spec(result_key, argument_spec):
    """The ModuleSpec of an EDA info module (its own options only, as ansible.eda's)."""
    return ModuleSpec(argument_spec, result_key=result_key)


def read_list(api, endpoint, module, name=None, name_field='name', filter_param=None, **filters):
    """Every object of EDA's ``endpoint`` (placed for ``module``) that ``filters`` keep, every page read; with
    ``name``, only those named exactly so."""
    path = place(api, endpoint, module)
    params = dict((k, v) for k, v in filters.items() if v is not None)
    params['page_size'] = PAGE_SIZE
    if name is None:
        return list(api.client.iterate(path, params=params))
    return matching(api, path, name, name_field, filter_param, **params)


def run_test(api, placed, label, body):
    """``state: test`` of a credential or a credential type (ansible.eda's): find the object named, ask EDA to test
    it (``POST <endpoint><id>/test/`` with ``body``), and return ``test_result`` as ansible.eda says it; nothing
    changes. A test EDA refuses fails the task with its answer. In check mode nothing is sent and the result says the
    test would be made."""
    name = api.params[placed.name]
    found = find(api, placed.endpoint, name, placed.name, label)
    if found is None:
        raise NotFound("%s '%s' not found" % (label.capitalize(), name), total_results=0)
    api.returns(id=found['id'])
    if api.check_mode:
        api.returns(test_result={'success': True, 'message': 'Check mode - test would be performed',
                                 'details': {'check_mode': True}})
        return
    path = '%s%d/test/' % (placed.endpoint, found['id'])
    try:
        answer = api.client.request('POST', path, json_body=body, expect=(200, 202, 204))
    except ApiError as exc:
        # EDA refuses a test it could not make (400: the inputs it needs, or the external system's failure); the
        # task fails with EDA's answer, in ansible.eda's words, whose client raises on any other status than 2xx
        raise ApiError('Failed to test %s: HTTP error %r' % (label, exc.detail if exc.detail is not None else exc.status),
                       status=exc.status, detail=exc.detail, method='POST', url=path)
    if answer:
        api.returns(test_result=answer)
    else:
        api.returns(test_result={'success': True, 'message': '%s test accepted' % label.capitalize(),
                                 'details': {}})
