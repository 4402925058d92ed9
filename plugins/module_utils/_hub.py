# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Automation Hub's conventions, for the ``ah_*`` modules (ansible.hub's names) and the Hub's other modules.

Where the facts come from: galaxy-ng 4.9.2 (and the pulpcore 3.28, pulp_ansible 0.20 and pulp_container 2.15 it
runs on) as installed from PyPI, its source and its answers on a running instance; the published Hub schemas of
Automation Platform 2.6 and 2.7 (hub-2.6.json, hub-2.7.json) for the paths behind a gateway.

* **Where its API is** (the Layout's ``hub``, see _client.py): behind a platform gateway at ``/api/galaxy/`` (the
  published schemas' paths; where the gateway's ``GET /api/`` lists ``apis.galaxy``, there). On a standalone Hub
  (galaxy-ng answers ``GET /api/`` with a 404) at ``/api/<ah_path_prefix>/`` (galaxy-ng's API_PATH_PREFIX,
  ``galaxy`` by default), found by its answer there: galaxy-ng 4.9.2 refuses a request without credentials with a
  403 in its errors form. AWX has none: ``place()`` fails before any write, naming the module.
* **Three API families under the root**, each placed by its prefix: galaxy's ``v3/`` (namespaces by name in the
  URL, ``v3/namespaces/<name>/``; collections, imports, the token at ``v3/auth/token/``), the UI API ``_ui/v1/``
  (users, groups, the EE registries and repositories of 4.9; ``_ui/v1/me/``) and Pulp's ``pulp/api/v3/`` (galaxy-ng
  serves it under its own prefix: ``/pulp/api/v3/`` only answers a 308 there). Seen on galaxy-ng 4.9.2.
* **Pages**: galaxy's and the UI API's lists answer ``{"meta": {"count"}, "links": {"next"}, "data": [...]}``
  (galaxy-ng's LimitOffset pagination, ``limit``/``offset``); Pulp's ``{"count", "next", "results"}`` (``limit``/
  ``offset`` too). ``next`` is a path (galaxy) or a full URL (Pulp). ``objects()`` reads either, every page.
* **Finding by name exactly**: a namespace by its URL (the viewset's ``lookup_field = "name"``: a 404 when there is
  none); elsewhere by the list's filter of the name (``name`` is exact in galaxy-ng's NamespaceFilter and in Pulp's
  name filters; ``username`` for users), compared exactly after it, so that a loose filter cannot find the wrong one.
* **Pulp's objects** are known by their ``pulp_href`` (a path under the Hub's root), not by an id: ``href_path()``.
* **Errors**: galaxy-ng answers ``{"errors": [{"status", "code", "title", "detail", "source": {"parameter"}}]}``
  (galaxy_ng.app.api.exceptions), Pulp the form of Django REST framework (``{"field": ["why"]}``, ``{"detail"}``);
  the client words both (_client.py ``error_detail``). Credentials refused are a 403 there (``not_authenticated``,
  ``authentication_failed``), not a 401: the auth method words it (``refused_by_hub``).
* **Updates**: galaxy-ng's namespaces take PUT, not PATCH (its access policy lets ``update`` through and refuses
  ``partial_update``: a 403 for the administrator too, seen on 4.9.2); the fields a PUT leaves out stay as they are
  (Django REST framework's serializers); a HubResource says which it uses (``update_method``).
* **Tasks**: what the Hub does in the background (imports, approvals' moves, syncs, deletions of Pulp objects)
  answers a 202 with ``{"task": "<href>"}`` (Pulp) or a task id; ``wait_for_task()`` reads the task until its
  ``state`` is final (pulpcore's TASK_FINAL_STATES: completed, failed, canceled, skipped) and raises TaskFailed with
  its ``error.description`` when it failed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._client import hub_errors
from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConfigError, MultipleFound, NotFound, ServiceError,
)
from ansible_collections.automation.service.plugins.module_utils._loop_reads import Lister
from ansible_collections.automation.service.plugins.module_utils._options import hub_argument_spec
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import Resource

# The three API families under the Hub's root
V3 = 'v3/'
UI = '_ui/v1/'
PULP = 'pulp/api/v3/'
# galaxy-ng's and Pulp's largest page size is not relied on: lists are read by pages of this (``limit``)
PAGE_SIZE = 100
# pulpcore's final states of a task (pulpcore.constants.TASK_FINAL_STATES)
TASK_FINAL = ('completed', 'failed', 'canceled', 'skipped')


class TaskFailed(ServiceError):
    """A Hub task that failed, was canceled, or did not end in time."""

    def __init__(self, message, task=None):
        super(TaskFailed, self).__init__(message)
        self.task = task
        self.result = {'task': task} if task is not None else {}


def hub_spec(argument_spec, **spec_kwargs):
    """The ModuleSpec of a Hub module: its own options, the shared connection options and ansible.hub's."""
    spec = ModuleSpec(argument_spec, **spec_kwargs)
    options = hub_argument_spec()
    options.update(argument_spec)
    spec.argument_spec = options
    return spec


def root(api, module):
    """The Hub's API root (``/api/galaxy/``) for this task's service; ConfigError naming ``module`` where there is
    no Hub (AWX 24), before anything is written."""
    layout = api.client.settled_layout()
    if not layout.hub:
        raise ConfigError('automation.service.%s needs Automation Hub: the service at %s is AWX, which has no Hub '
                          'API (a platform gateway\'s /api/galaxy/, or a standalone Hub\'s /api/<ah_path_prefix>/).'
                          % (module, api.client.base_url))
    return layout.hub


def place(api, path, module):
    """``path`` (``v3/namespaces/``, ``_ui/v1/users/``, ``pulp/api/v3/tasks/``) under the Hub's root, as an absolute
    path ending in a slash (its query kept); a path that is absolute already is taken as it is."""
    text = to_text(path)
    if text.startswith(('/', 'http://', 'https://')):
        return text
    text, mark, query = text.partition('?')
    text = text.strip('/')
    return root(api, module) + (text + '/' if text else '') + mark + query


def secrets_set(obj):
    """The names of the fields the Hub keeps of ``obj`` but never shows, that hold a value: Pulp's ``hidden_fields``
    (a remote's), galaxy-ng's ``write_only_fields`` (a registry's), both ``[{"name", "is_set"}]``."""
    listed = (obj or {}).get('hidden_fields') or (obj or {}).get('write_only_fields') or []
    return set(item.get('name') for item in listed if isinstance(item, dict) and item.get('is_set'))


def href_path(href):
    """The path of a Pulp object's ``pulp_href`` (a path already, or a full URL whose path is kept)."""
    text = to_text(href)
    if text.startswith(('http://', 'https://')):
        parts = text.split('/', 3)
        return '/' + (parts[3] if len(parts) > 3 else '')
    return text


def page_items(page):
    """The objects of one page of a list, whichever family's: ``data`` (galaxy, UI API) or ``results`` (Pulp)."""
    if isinstance(page, dict):
        if isinstance(page.get('data'), list):
            return page['data']
        if isinstance(page.get('results'), list):
            return page['results']
    raise ApiError('The Hub answered a list with something else: %s' % (to_text(page)[:200],))


def next_page(page):
    """The next page's path or URL (None on the last)."""
    links = page.get('links') if isinstance(page.get('links'), dict) else None
    if links is not None:
        return links.get('next')
    return page.get('next')


def objects(api, path, params=None):
    """Every object of the list at ``path`` (placed) that ``params`` keep, every page read."""
    query = dict((k, v) for k, v in (params or {}).items() if v is not None)
    query.setdefault('limit', PAGE_SIZE)
    page = api.client.get(path, params=query)
    while True:
        yield from page_items(page)
        following = next_page(page)
        if not following:
            return
        page = api.client.get(following)


def matching(api, path, value, name_field='name', filter_param=None, **filters):
    """The objects of the list at ``path`` (placed) whose ``name_field`` is exactly ``value``, looked up with the
    list's filter ``filter_param`` (``name_field`` by default) and compared exactly after it."""
    text = to_text(value)
    params = dict(filters)
    params[filter_param or name_field] = text
    return [obj for obj in objects(api, path, params) if to_text(obj.get(name_field)) == text]


def list_page(answer):
    """What one page of a Hub list holds, whichever family's: ``(objects, count, next)``."""
    items = page_items(answer)
    meta = answer.get('meta') if isinstance(answer.get('meta'), dict) else answer
    return items, meta.get('count', len(items)), next_page(answer)


def held_at(path, obj):
    """Where an object of the list at ``path`` is, when its module does not say (``HubResource.detail_path()``):
    ``<path><id>/`` (galaxy's and the UI API's), else its ``pulp_href`` (Pulp's objects without an id)."""
    if obj.get('id') is not None:
        return '%s%s/' % (path, obj['id'])
    return href_path(obj['pulp_href']) if obj.get('pulp_href') else None


def find(api, path, value, name_field='name', label=None, required=False, filter_param=None, detail=None, **filters):
    """The one object of the list at ``path`` named ``value`` exactly (None when there is none; NotFound when
    ``required``; MultipleFound when two have the name). ``detail(obj)``: where the object is, its writes' path
    (``held_at()`` by default).

    The items of a loop share these look-ups (see _loop_reads): the same name looked up again is answered without
    a request, and once enough items looked names up in the same list, the list is read whole (by pages of
    PAGE_SIZE) and answers the next ones; a write of the task to the Hub drops all that is held of it."""
    held = api.held
    if held is None or value is None or to_text(value) == '':
        return _find(api, path, value, name_field, label, required, filter_param, **filters)
    scope = dict((k, v) for k, v in filters.items() if v is not None)
    key = ('hub', path, name_field, tuple(sorted((k, to_text(v)) for k, v in scope.items())))
    # An object of the Hub may be written elsewhere than where it is held (a container repository by its name, its
    # distribution at its Pulp href): any write the task sends to the Hub drops all it holds of the Hub.
    lister = Lister(api.client, path, dict(scope, limit=PAGE_SIZE), detail or (lambda obj: held_at(path, obj)),
                    page=list_page, page_size=PAGE_SIZE, writes_under=api.client.settled_layout().hub)
    return held.shared(api, key, name_field, to_text(value), lister,
                       lambda: _find(api, path, value, name_field, label, required, filter_param, **filters))


def _find(api, path, value, name_field='name', label=None, required=False, filter_param=None, **filters):
    if value is None or to_text(value) == '':
        found = []
    else:
        found = matching(api, path, value, name_field, filter_param, **filters)
    if len(found) > 1:
        raise MultipleFound('More than one %s is named %r in %s: %d of them.'
                            % (label or 'object', to_text(value), path, len(found)), total_results=len(found))
    if found:
        return found[0]
    if required:
        raise NotFound('%s %s was not found.' % ((label or 'object').capitalize(), value), total_results=0)
    return None


def get_or_none(api, path, module=None):
    """The object at ``path`` (a detail placed: ``v3/namespaces/<name>/``), None when the Hub answers 404. A 404
    that is not in galaxy-ng's errors form (Pulp's own are not: use a list's filter there) may come from a gateway
    that serves no Hub: the Hub's root is asked then, and ConfigError naming ``module`` says there is none."""
    try:
        return api.client.get(path)
    except NotFound as exc:
        if hub_errors(exc.detail) is None:
            hub_is_there(api, module)
        return None


def hub_is_there(api, module=None):
    """ConfigError when the Hub's root answers 404 (a platform gateway without Automation Hub behind it)."""
    hub = root(api, module)
    answer = api.client.send('GET', hub)
    if answer.status == 404:
        raise ConfigError('automation.service.%s needs Automation Hub: the service at %s serves no Hub API at %s (it '
                          'answered 404).' % (module or 'module', api.client.base_url, hub))


def task_path(api, task, module):
    """The path of a task given as its href (Pulp's ``/api/galaxy/pulp/api/v3/tasks/<id>/``, galaxy's imports) or
    its id alone (a Pulp task's)."""
    text = to_text(task)
    if text.startswith(('/', 'http://', 'https://')):
        return href_path(text)
    return place(api, PULP + 'tasks/%s/' % text.strip('/'), module)


def wait_for_task(api, task, module, timeout=300, interval=1.0, label='task', sleep=time.sleep, clock=time.time):
    """Read the Hub's task ``task`` (href or id) every ``interval`` seconds until its ``state`` is final, and return
    it; TaskFailed with its ``error.description`` when it failed or was canceled, or when it had not ended after
    ``timeout`` seconds (it goes on in the Hub)."""
    if not 0 < interval < float('inf'):
        raise ConfigError('interval must be a number of seconds more than 0.')
    path = task_path(api, task, module)
    deadline = clock() + timeout
    while True:
        answer = api.client.get(path)
        state = answer.get('state')
        if state in ('completed', 'skipped'):
            return answer
        if state in TASK_FINAL:
            error = answer.get('error') or {}
            why = error.get('description') or error.get('detail') or error.get('code') or 'no reason given'
            raise TaskFailed('The Hub\'s %s %s %s: %s' % (label, path, state, why), task=answer)
        if clock() >= deadline:
            raise TaskFailed('The Hub\'s %s %s had not ended after %s seconds (state %s); it goes on in the Hub.'
                             % (label, path, timeout, state), task=answer)
        sleep(max(0.0, min(interval, deadline - clock())))


def settled(api, answer, module, timeout=300, interval=1.0, label='task'):
    """An answer to a write, once the task it started (a 202's ``task``) has ended; as answered when it started
    none."""
    if isinstance(answer, dict) and answer.get('task'):
        wait_for_task(api, answer['task'], module, timeout, interval, label)
    return answer


class HubResource(Resource):
    """The declaration of a Hub resource module (``Resource`` for the Hub's API): ``endpoint`` is its list under
    the Hub's root (``v3/namespaces/``); ``module`` names it in messages; ``lookup``: how one object is found by its
    name, ``'url'`` (its detail at ``<endpoint><name>/``, a 404 when there is none) or ``'filter'`` (the list's
    filter ``filter_param``, compared exactly); ``detail``: where an object is, ``'name'`` (``<endpoint><name>/``),
    ``'id'`` (``<endpoint><id>/``) or ``'pulp_href'``; ``update_method``: PATCH, or PUT with the name (namespaces);
    ``name_in_update``: the name sent with every update (a PUT needs it)."""

    def __init__(self, endpoint, result_key, label, module, lookup='filter', detail='id', update_method='PATCH',
                 filter_param=None, name_in_update=None, **kwargs):
        kwargs.setdefault('service', 'hub')
        kwargs.setdefault('exists_checks', False)
        super(HubResource, self).__init__(endpoint, result_key, label, **kwargs)
        self.module = module
        self.lookup = lookup
        self.detail = detail
        self.update_method = update_method
        self.filter_param = filter_param
        self.name_in_update = update_method == 'PUT' if name_in_update is None else name_in_update

    @property
    def module_name(self):
        return self.module

    def spec(self, argument_spec, **spec_kwargs):
        return hub_spec(argument_spec, resource=self.endpoint, result_key=self.result_key, **spec_kwargs)

    def placed(self, api):
        if self.placed_at is not None:
            return self
        return self.at_paths(lambda endpoint: place(api, endpoint, self.module), 'hub')

    # -- finding -----------------------------------------------------------------

    def find_one(self, api, value):
        """The object named ``value`` exactly, None when there is none."""
        if value is None or to_text(value) == '':
            return None
        if self.lookup == 'url':
            # One request a name, in a loop too: galaxy-ng's list of namespaces answers a summary of each (its
            # NamespaceSummarySerializer, without ``links`` and ``resources``), which cannot stand for the detail.
            return get_or_none(api, '%s%s/' % (self.endpoint, to_text(value)), self.module)
        return find(api, self.endpoint, value, self.name, self.label, filter_param=self.filter_param,
                    detail=self.detail_path)

    def find(self, api):
        params = api.params
        existing = self.find_one(api, params[self.name])
        new_name = params.get('new_' + self.name)
        if existing is None and new_name:
            existing = self.find_one(api, new_name)
        return existing

    def read_ahead(self, api):
        return

    def detail_path(self, obj):
        """Where ``obj`` is (see ``detail``)."""
        if self.detail == 'pulp_href':
            return href_path(obj['pulp_href'])
        if self.detail == 'name':
            return '%s%s/' % (self.endpoint, obj[self.name])
        return '%s%s/' % (self.endpoint, obj['id'])

    # -- writing -----------------------------------------------------------------

    def plan_object(self, api, existing, desired, lists):
        """Resource.plan_object(), its update sent as the Hub takes it (``update_method``, at ``detail_path()``)."""
        plan = super(HubResource, self).plan_object(api, existing, desired, lists)
        if existing is None:
            return plan
        writes = []
        for write in plan.writes:
            if write.method == 'PATCH' and write.path == api.detail_path(existing, self.endpoint):
                body = dict(write.body)
                if self.name_in_update:
                    body.setdefault(self.name, existing.get(self.name))
                write = write.but(method=self.update_method, path=self.detail_path(existing), body=body)
            writes.append(write)
        plan.writes = writes
        return plan

    def plan_deletion(self, api, existing):
        if existing is None:
            return Plan(None)
        return Plan(existing, [Write('DELETE', self.detail_path(existing), expect=(202, 204, 404),
                                     before={self.name: existing.get(self.name)}, after={},
                                     settle=lambda answer: settled(api, answer, self.module, label='deletion'))])

    def returns(self, api, existing, made, plan=None):
        """What the task returns (Resource.returns()), and the object's ``name``, as ansible.hub returns it."""
        super(HubResource, self).returns(api, existing, made, plan)
        if made is not None:
            api.returns(name=made.get(self.name))
