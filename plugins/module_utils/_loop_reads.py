# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Reads shared by the items of one loop (the ``loop_reads`` option; docs/docsite/rst/guide_performance.rst).

The items of a ``loop`` run one after the other in the same worker process, and the ``async`` items are
forked from it. What one item reads by name, the next items may ask again: a loop over the hosts of an
inventory asks for each of them by name (one filtered GET each), and a loop over job templates resolves
the same organization and project for every item. Here the worker keeps, for the task it runs:

* every object a look-up by name found, by its URL: the next look-up of the same name in the same scope
  (the same filters) is answered from it, without a request;
* for each (endpoint, scope) that the task asked for by name often enough, the whole list, read at the
  service's largest page size: the next look-ups in that scope are answered from it.

When a list read pays: a look-up that cannot be answered from what is held is counted against its
(endpoint, scope). The first ones tell nothing about how long the list is (a loop of three items in an
inventory of 5,000 hosts must not read 5,000 hosts), so the ``PROBE_AT``-th of them reads the list's first
page (``page_size=200``): its ``count`` is the list's length, and a list of at most one page is then held
whole. A longer list is read whole once the pages it takes are no more than the look-ups counted so far:
what the list costs is never more than what the single look-ups already cost, one probe besides.

What is held is never trusted to say that something is missing: a name not in a held list is read once more
from the service (an earlier item, or anyone else, may have just made it). A write the task sends updates
what it holds: a PATCH or PUT answered with the object replaces it, any other write to an object or below
it (a DELETE, an association) drops it (the next look-up reads it again), and a created object joins the
list whose look-up missed it. Nothing is held by more than one worker, nor past the task: each task of a
play runs in a worker of its own, so a change made elsewhere is seen by the next task or play. The state is
keyed by the task and host it serves and by the service and credentials each item uses: an item that
names another service, or other credentials, shares nothing with the others.

The same logic serves every service: what differs, how a list is read (the controller's and EDA's ``page_size``
and ``count``/``next``/``results``, the Hub's ``limit`` and galaxy's ``meta``/``links``/``data``) and where an object
is held (its ``url``, ``<endpoint><id>/``, its ``pulp_href``), a ``Lister`` says; ``Held.shared()`` answers a look-up
with it (_eda.find(), _hub.find(), and the controller's Held.find()).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import hashlib
import json

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ServiceError

# The service's largest page size (AWX's max_page_size).
PAGE_SIZE = 200
# The look-up (of one endpoint and scope, not answered from what is held) that first reads a page of the list.
PROBE_AT = 3

# The reads of the task this process runs now: (task key, LoopReads). Made when a task asks for it, never
# at import (the play's own process imports this before it forks the workers).
_CURRENT = []


def for_task(key):
    """The reads shared by the items of the task ``key`` (its id and host) in this process; what an earlier
    task of this process held is dropped."""
    if not _CURRENT or _CURRENT[0][0] != key:
        del _CURRENT[:]
        _CURRENT.append((key, LoopReads()))
    return _CURRENT[0][1]


def identity(options):
    """What the items sharing reads have in common: the service and every connection option (the
    credentials among them, digested), so that no item reads what other credentials may see."""
    text = json.dumps([[name, options.get(name)] for name in sorted(options)], sort_keys=True, default=str)
    return hashlib.sha256(text.encode('utf-8')).hexdigest()


def pages(total, page_size=PAGE_SIZE):
    """How many pages of ``page_size`` a list of ``total`` objects takes."""
    return max(1, -(-int(total or 0) // page_size))


class LoopReads:
    """The reads of one task: one Held per service and credentials its items use."""

    def __init__(self):
        self.held = {}
        # False in an async job: the worker counted the job's look-up before it forked it (expect()) and reads
        # the lists for the jobs; a job reads none of its own.
        self.counting = True

    def held_for(self, key):
        held = self.held.get(key)
        if held is None:
            held = self.held[key] = Held()
        return held


class HeldList:
    """A list of one endpoint and scope: its length, and once read whole, its objects' URLs by name."""

    def __init__(self, total):
        self.total = total
        self.complete = False
        self.refused = False    # its read failed: not tried again
        self.names = {}   # name -> URLs

    def add(self, name, url):
        urls = self.names.setdefault(name, [])
        if url not in urls:
            urls.append(url)


class Lister:
    """How the items of a loop read one list of one service, what differs between the services: the list's first
    page is ``client.get(path, params=params)`` (``params`` ask for the service's largest page), the next ones
    ``client.get(<next>)``; ``page(answer)`` says what a page holds, ``(objects, count, next)`` (ApiError for an
    answer that is no list); ``url(obj)`` is the path or URL an object is held at, the one its writes go to (None:
    it is not held); ``page_size`` is the page that ``params`` ask for. ``writes_under``: for a service whose
    objects may be written at other paths than the one they are held at (the Hub's: by name, by id, by Pulp's
    href, their distribution's), the path under which any write of the task drops every object held there."""

    def __init__(self, client, path, params, url, page=None, page_size=PAGE_SIZE, writes_under=None):
        self.client = client
        self.path = path
        self.params = params
        self.url = url
        self.page = page or results_page
        self.page_size = page_size
        self.writes_under = client.url(writes_under) if writes_under else None
        self.sent = 0   # the pages asked for

    def held_at(self, obj):
        where = self.url(obj) if isinstance(obj, dict) else None
        return self.client.url(where) if where else None

    def first(self):
        self.sent += 1
        return self.page(self.client.get(self.path, params=self.params))

    def every(self):
        """Every object of the list, every page read."""
        objects, count, following = self.first()
        while True:
            yield from objects
            if not following:
                return
            self.sent += 1
            objects, count, following = self.page(self.client.get(following))


def results_page(answer):
    """What one page of the controller's, EDA's or Pulp's lists holds: ``{"count", "next", "results"}``."""
    if not isinstance(answer, dict) or not isinstance(answer.get('results'), list):
        raise ApiError('The service answered a list with something else: %s' % (to_text(answer)[:200],))
    return answer['results'], answer.get('count', len(answer['results'])), answer.get('next')


def only_one(found):
    """The object of a name when one is held with it; None (ask the service, which says how many) otherwise."""
    return found[0] if len(found) == 1 else None


class Held:
    """What the items of one task hold for one service and set of credentials."""

    def __init__(self):
        self.objects = {}   # full URL -> object
        self.found = {}     # (list key, name) -> full URL: what a look-up by name found
        self.counts = {}    # list key -> look-ups sent to the service
        self.lists = {}     # list key -> HeldList
        self.missed = {}    # endpoint's full URL -> (list key, name field, name) of the last look-up that found nothing
        self.requests = 0   # the list reads sent (probes and pages)
        self.volatile = set()   # full URLs under which any write drops every object held (Lister.writes_under)
        self.bulk = None    # what the loop's bulk creation decided and made (_loop_bulk), once it started

    def bulk_state(self, make):
        """What the loop's bulk creation decided and made: ``make()`` the first time it is asked for."""
        if self.bulk is None:
            self.bulk = make()
        return self.bulk

    @staticmethod
    def key(endpoint, name_field, scope):
        return (endpoint, name_field, tuple(sorted((k, to_text(v)) for k, v in scope.items())))

    def _url(self, client, obj):
        url = obj.get('url') if isinstance(obj, dict) else None
        return client.url(url) if url else None

    def keep(self, client, key, name_field, obj, listed=None):
        """Hold ``obj`` (a controller's object, found in the scope ``key``); its URL, or None for one without."""
        return self.hold(self._url(client, obj), key, name_field, obj, listed)

    def hold(self, url, key, name_field, obj, listed=None):
        """Hold ``obj`` at ``url`` (its full URL; None: not held), found in the list ``key`` (and listed in
        ``listed``, a list read); its URL."""
        if url is None or obj.get(name_field) is None:
            return None
        self.objects[url] = copy.deepcopy(obj)    # the caller may change its own
        name = to_text(obj[name_field])
        self.found[(key, name)] = url
        if listed is not None:
            listed.add(name, url)
            if len(listed.names[name]) > 1:     # a name that two objects have answers nothing by itself
                del self.found[(key, name)]
        return url

    def matches(self, key, name_field, name):
        """The held objects of the complete list ``key`` named ``name`` (None when the list is not held whole)."""
        listed = self.lists.get(key)
        if listed is None or not listed.complete:
            return None
        held = [self.objects.get(url) for url in listed.names.get(name, ())]
        return [obj for obj in held if obj is not None and to_text(obj.get(name_field)) == name]

    def named(self, key, name_field, name):
        """The held objects named ``name`` in the list ``key``: every one when the list is held whole, else the one a
        look-up (or a page read) found; None when nothing is held that says."""
        found = self.matches(key, name_field, name)
        if found is None:
            url = self.found.get((key, name))
            if url in self.objects:
                return [self.objects[url]]
        return found

    def shared(self, api, key, name_field, name, lister, read_one, one=only_one):
        """The object named ``name`` in the list ``key`` (read as ``lister`` says), whatever the service: from what
        is held when it can (``one(found)`` makes the answer of the objects held with that name, None to ask the
        service), else ``read_one()``'s, from the service, then held. Counts the look-up and reads the list when it
        pays (see above)."""
        if lister.writes_under:
            self.volatile.add(lister.writes_under)
        found = self.named(key, name_field, name)
        if found is None and api.reads is not None and api.reads.counting:
            self.counts[key] = self.counts.get(key, 0) + 1
            self.read_list(key, name_field, lister)
            found = self.named(key, name_field, name)
        answer = one(found) if found else None
        if answer is not None:
            return copy.deepcopy(answer)
        # Not held: read once more from the service, whatever a held list says.
        obj = read_one()
        if obj is not None:
            self.hold(lister.held_at(obj), key, name_field, obj, self.lists.get(key))
        return obj

    def lister(self, api, endpoint, scope):
        """How the controller's list ``endpoint`` is read in ``scope``: at its largest page, its objects held at
        their ``url``."""
        return Lister(api.client, endpoint, dict(scope, page_size=PAGE_SIZE), lambda obj: obj.get('url'))

    def find(self, api, endpoint, name_field, params):
        """The one object of ``endpoint`` that ``params`` (the scope's filters and ``name_field``) names, as
        ApiTask.get_one() answers it: from what is held when it can, else from the service."""
        scope = dict(params)
        name = to_text(scope.pop(name_field))
        key = self.key(endpoint, name_field, scope)

        def read_one():
            obj = api.get_one(endpoint, **params)
            if obj is None:
                self.missed[api.client.url(endpoint)] = (key, name_field, name)
            return obj

        def one(found):
            return api.only_one(endpoint, params, {'count': len(found), 'results': found[:2]})

        return self.shared(api, key, name_field, name, self.lister(api, endpoint, scope), read_one, one)

    def again(self, api, asked, read):
        """The object ``read()`` finds, held for the same look-up ``asked`` again (by id or named URL): only
        one found, never "not found"."""
        key = ('again', to_text(repr(asked)))
        url = self.found.get((key, ''))
        if url in self.objects:
            return copy.deepcopy(self.objects[url])
        obj = read()
        url = self._url(api.client, obj)
        if url is not None:
            self.objects[url] = copy.deepcopy(obj)
            self.found[(key, '')] = url
        return obj

    def expect(self, api, endpoint, name_field, params):
        """Count a look-up that a job about to be forked will make (the worker does not make it), and read
        the list now when that pays, for the job to inherit it."""
        scope = dict(params)
        name = to_text(scope.pop(name_field))
        key = self.key(endpoint, name_field, scope)
        if self.named(key, name_field, name) is not None:
            return
        self.counts[key] = self.counts.get(key, 0) + 1
        self.read_list(key, name_field, self.lister(api, endpoint, scope))

    def read_list(self, key, name_field, lister):
        """Read the list ``key`` (as ``lister`` says) when the look-ups counted say it pays (see above). A list
        read that fails (the service refuses it, is away, or answers something else than a list) is not tried
        again in this task: the look-ups go on one by one, and say what fails."""
        try:
            self._read_list(key, name_field, lister)
        except ServiceError:
            listed = self.lists[key] = HeldList(None)
            listed.refused = True

    def _read_list(self, key, name_field, lister):
        count = self.counts.get(key, 0)
        listed = self.lists.get(key)
        sent = lister.sent
        try:
            self._read_pages(key, name_field, lister, count, listed)
        finally:
            self.requests += lister.sent - sent

    def _read_pages(self, key, name_field, lister, count, listed):
        if listed is None:
            if count < PROBE_AT:
                return
            objects, total, following = lister.first()
            listed = self.lists[key] = HeldList(total)
            listed.complete = not following
            for obj in objects:
                self.hold(lister.held_at(obj), key, name_field, obj, listed)
        if listed.complete or listed.refused or pages(listed.total, lister.page_size) > count:
            return
        fresh = HeldList(listed.total)
        for obj in lister.every():
            self.hold(lister.held_at(obj), key, name_field, obj, fresh)
        fresh.complete = True
        self.lists[key] = fresh

    def wrote(self, client, method, url, response):
        """A write to ``url`` (without its query) is about to be sent (``response`` None) or was answered
        ``response``: drop what is held at or below ``url``, then hold the object a PATCH or PUT answered and
        the object a POST made where a look-up missed it."""
        for held_url in [u for u in self.objects if url == u or url.startswith(u.rstrip('/') + '/')]:
            del self.objects[held_url]
        for root in [r for r in self.volatile if url.startswith(r)]:
            for held_url in [u for u in self.objects if u.startswith(root)]:
                del self.objects[held_url]
        status = getattr(response, 'status', None)
        if status not in (200, 201) or method not in ('PATCH', 'PUT', 'POST'):
            return
        try:
            answer = response.json()
        except Exception:  # not JSON: nothing to hold
            return
        if not isinstance(answer, dict):
            return
        if method in ('PATCH', 'PUT') and self._url(client, answer) == url:
            for (key, name), found in list(self.found.items()):
                if found != url:
                    continue
                name_field = key[1]
                if answer.get(name_field) is None:
                    continue
                self.objects[url] = copy.deepcopy(answer)
                renamed = to_text(answer[name_field])
                if renamed != name:     # held under its new name
                    del self.found[(key, name)]
                    self.found[(key, renamed)] = url
                    if key in self.lists:
                        self.lists[key].add(renamed, url)
        missed = self.missed.get(url.rstrip('/') + '/') or self.missed.get(url)
        if method == 'POST' and status == 201 and missed is not None:
            key, name_field, name = missed
            if to_text(answer.get(name_field)) == name:     # the object the look-up missed, made now
                self.keep(client, key, name_field, answer, self.lists.get(key))
