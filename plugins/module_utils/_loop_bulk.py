# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Hosts created by a loop in bulk (docs/docsite/rst/guide_performance.rst, "Loops: hosts created in bulk").

A plain loop of ``host`` tasks that creates many hosts in one inventory costs a look-up and a POST per host.
The service has an endpoint that creates up to 100 hosts in one request (``bulk/host_create``, AWX 22 and later,
the platform's controller). The action plugin sees only its own item, so the first item of the loop whose host
is missing looks ahead (plugin_utils/_loop_ahead.py templates the items that follow it, as Ansible will) and
hands this module the options of every item that will run. Here:

* the rule (``eligible``): an item goes into a batch only when what it asks for is exactly what the bulk
  endpoint makes (a new host with a name, a description, enabled and variables, in the same inventory, with the
  same service and credentials, ``state`` present or exists); anything else is left to the item's own write;
* the hosts that already exist, or whose name is a group's in the inventory (a single POST refuses those), are
  left out, read with a few list reads;
* the batches are sent at once, in order; each host made is read back whole (as a single POST answers it) and
  held in the loop's shared reads (see _loop_reads), so that each item, on its own turn, finds its host there,
  plans as usual (an update when its options turned out different) and reports it as created by the loop
  (``changed``, its ``id``, the host, the diff of a create);
* a batch the service refuses (an answer 4xx: nothing was made) falls back to single writes: each of its items
  writes on its own turn, and the item the service named gets the service's reason as a warning;
* a batch whose answer is lost (the connection broke after sending) is never sent again: the inventory's hosts of
  that batch are read, the ones found are the loop's, the others are left to their items' own writes.

State lives in the loop's Held (one task, one host, one service and set of credentials) and nowhere else.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, OutcomeUnknown
from ansible_collections.automation.service.plugins.module_utils._plan import Write

# The service's default BULK_HOST_MAX_CREATE (AWX 24): hosts per request. A smaller limit set on the service is
# met by halving a refused batch.
BULK_CREATE = 'bulk/host_create'
BATCH = 100
# Hosts read back per request (by id), at the service's largest page size.
READ_BACK = 200
# Names per filtered read (or__name=...), as the bulk modules read them.
NAMES_PER_READ = 100
# The options of the host module a bulk write can say exactly; any other option given leaves the item alone
# (connection options are compared as a whole: the items must share the service and credentials).
BULK_FIELDS = ('description', 'enabled', 'variables')
NOT_BULK = ('new_name',)
# Fewer items than this to create: single writes cost no more.
AT_LEAST = 2


def eligible(params):
    """Why the item with these (validated) options cannot be made by the bulk endpoint; None when it can.
    The rule: a host created where it is missing, named plainly (not digits, which also name an id; no
    ``host:port``, which the service splits; no named URL), with no option the endpoint does not take."""
    name = params.get('name')
    if params.get('state', 'present') not in ('present', 'exists'):
        return 'state %s' % params.get('state')
    for option in NOT_BULK:
        if params.get(option) not in (None, ''):
            return '%s given' % option
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        return 'no plain name'
    if name.isdigit() or ':' in name or '++' in name:
        return 'a name the service reads otherwise'
    inventory = params.get('inventory')
    if inventory in (None, '') or '++' in to_text(inventory):
        return 'no plain inventory'
    variables = params.get('variables')
    if variables is not None and not isinstance(variables, dict):
        return 'variables not a mapping'
    return None


def batches(items, size):
    return [items[start:start + size] for start in range(0, len(items), size)]


def refused_items(detail, count):
    """{index in the batch: the service's reason} that a refusal names (DRF's list errors: a dict keyed by index,
    or a list with an entry per item); and the batch's own reason (a message for the whole batch), or None."""
    named = {}
    whole = None
    hosts = detail.get('hosts') if isinstance(detail, dict) else None
    if isinstance(hosts, dict):
        for key, why in hosts.items():
            if to_text(key).isdigit() and int(key) < count:
                named[int(key)] = why
    elif isinstance(hosts, list) and len(hosts) == count:
        named = dict((index, why) for index, why in enumerate(hosts) if why)
    elif hosts is not None:
        whole = hosts
    if isinstance(detail, dict):
        rest = dict((k, v) for k, v in detail.items() if k != 'hosts')
        if rest:
            whole = rest if whole is None else whole
    elif detail is not None:
        whole = detail
    return named, whole


def reason(why):
    """The service's reason, as one line."""
    if isinstance(why, dict):
        return '; '.join('%s: %s' % (k, reason(v)) for k, v in sorted(why.items()))
    if isinstance(why, list):
        return ' '.join(reason(v) for v in why)
    return to_text(why)


class Candidate:
    """One item of the loop to create in bulk: its host's name and what a single POST would send."""

    def __init__(self, name, body, shown):
        self.name = name
        self.body = body        # the POST body, the inventory's id left out
        self.shown = shown      # the fields as the diff of a single create shows them


class LoopBulk:
    """What the bulk creation of one loop decided and made (kept in the loop's Held)."""

    def __init__(self):
        self.tried = False      # the look-ahead ran (once per task)
        self.made = {}          # name -> the host read back, made by the loop for the first item of that name
        self.bodies = {}        # name -> what was sent for it (the diff of its create)
        self.claimed = set()    # the names whose item has reported its host
        self.refused = {}       # name -> the service's reason for refusing it in a batch
        self.notes = []         # what the loop's bulk writes met, said once by the item that sent them
        self.requests = 0       # requests sent by the bulk creation (reads and writes)

    def count(self, requests=1):
        """``requests`` more sent by the bulk creation."""
        self.requests += requests

    def take(self, name):
        """The host the loop made for the item named ``name``, once (None when it made none for it)."""
        if name in self.claimed or name not in self.made:
            return None
        self.claimed.add(name)
        return self.made[name]


def settle(api, resource, existing, ahead):
    """Called by the resource's plan with the object its look-up found (None: missing). Returns the object the
    plan starts from, and, when it is the host the loop made in bulk for this item, the write that made it (sent
    already: the plan's first write, said as this item's create; else None). ``ahead()``: the validated options of
    the items that will run after this one (None when unsure)."""
    held = api.held
    if held is None:
        return existing, None
    bulk = held.bulk_state(LoopBulk)
    name = api.params.get(resource.name)
    if existing is None and not bulk.tried and eligible(api.params) is None:
        bulk.tried = True
        try:
            create_ahead(api, resource, bulk, ahead)
        finally:
            for note in bulk.notes:
                api.warn(note)
    made = bulk.take(to_text(name)) if name is not None else None
    if made is not None and (existing is None or existing.get('id') == made.get('id')):
        found = existing if existing is not None else made
        return found, Write('POST', BULK_CREATE, bulk.bodies.get(to_text(name)), expect=(201,), before={},
                            after=bulk.bodies.get(to_text(name)), secret=resource.secret, makes=True, answered=found)
    if to_text(name) in bulk.refused:
        api.warn('The bulk creation of hosts refused host %s (%s): it was sent by itself.'
                 % (name, bulk.refused[to_text(name)]))
    return existing, None


def create_ahead(api, resource, bulk, ahead):
    """The look-ahead of the first item whose host is missing: the batches, sent now."""
    params = api.params
    following = ahead()
    if not following:
        return
    from ansible_collections.automation.service.plugins.module_utils._loop_reads import identity
    from ansible_collections.automation.service.plugins.module_utils._options import resolve
    mine = identity(resolve(params, api.environ))
    wanted = [body_for(api, resource, params)]
    names = set([wanted[0].name])
    for other in following:
        if other.get('inventory') != params.get('inventory') or eligible(other) is not None:
            continue
        if identity(resolve(other, api.environ)) != mine:
            continue
        candidate = body_for(api, resource, other)
        if candidate.name in names:     # a later item of the same name finds the host the first one made
            continue
        names.add(candidate.name)
        wanted.append(candidate)
    if len(wanted) < AT_LEAST:
        return
    inventory_id = resource.scope_ids(api).get('inventory')
    if inventory_id is None:
        return
    client = api.client
    taken = taken_names(bulk, client, inventory_id, [c.name for c in wanted])
    wanted = [c for c in wanted if c.name not in taken]
    if len(wanted) < AT_LEAST:
        return
    made = []
    queue = batches(wanted, BATCH)
    while queue:
        batch = queue.pop(0)
        outcome = send_batch(api, bulk, inventory_id, batch)
        if outcome == 'smaller' and len(batch) > 1:
            queue[:0] = batches(batch, max(1, len(batch) // 2))
            continue
        if outcome == 'unavailable':
            break
        if isinstance(outcome, list):
            made.extend(outcome)
    if made:
        keep(api, resource, bulk, inventory_id, made, dict((c.name, c) for c in wanted))


def body_for(api, resource, params):
    """What a single POST of this item would send (its inventory's id left out): the resource's own desired
    fields, encoded as the resource sends them."""
    from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask, dump_variables

    item = ApiTask(api.spec, dict(params), environ=api.environ)
    shown = resource.desired(item, None)
    body = dict((k, dump_variables(v) if k in resource.text_data else v) for k, v in shown.items())
    return Candidate(to_text(body[resource.name]), body, shown)


def taken_names(bulk, client, inventory_id, names):
    """The names among ``names`` that a host or a group of the inventory has: a bulk write of one of them would
    be refused (a host) or would do what a single write refuses (a group of that name)."""
    taken = set()
    for sublist in ('hosts', 'groups'):
        taken.update(named_in(bulk, client, 'inventories/%d/%s' % (inventory_id, sublist), names))
    return taken


def named_in(bulk, client, path, names):
    """The names of ``names`` that the list ``path`` holds: its first page read at the largest size says how long
    it is; a short list is read whole, a long one by name (NAMES_PER_READ names a request), whichever costs less."""
    wanted = set(names)
    page = client.get(path, params={'page_size': READ_BACK})
    bulk.count()
    found = set(to_text(obj.get('name')) for obj in page.get('results', ()))
    if not page.get('next'):
        return found & wanted
    count = int(page.get('count') or 0)
    whole_pages = -(-count // READ_BACK)
    by_name = -(-len(wanted) // NAMES_PER_READ)
    if whole_pages - 1 <= by_name:
        while page.get('next'):
            page = client.get(page['next'])
            bulk.count()
            found.update(to_text(obj.get('name')) for obj in page.get('results', ()))
        return found & wanted
    found = set()
    ordered = sorted(wanted)
    for start in range(0, len(ordered), NAMES_PER_READ):
        chunk = ordered[start:start + NAMES_PER_READ]
        for obj in client.iterate(path, params={'or__name': chunk, 'page_size': READ_BACK}):
            found.add(to_text(obj.get('name')))
        bulk.count()
    return found & wanted


def send_batch(api, bulk, inventory_id, batch):
    """Send one batch. The hosts it made (the service's answer, one per candidate), or 'refused' (nothing made:
    its items write by themselves), 'smaller' (over the service's BULK_HOST_MAX_CREATE: send it in halves),
    'unavailable' (the service has no bulk endpoint)."""
    body = {'inventory': inventory_id, 'hosts': [c.body for c in batch]}
    try:
        answer = api.send_now('POST', BULK_CREATE, body, expect=(201,))
        bulk.count()
    except OutcomeUnknown:
        bulk.count()
        # Sent, its answer lost: never sent again. What it made is what the inventory now holds.
        return settle_lost(api, bulk, inventory_id, batch)
    except ApiError as exc:
        bulk.count()
        if exc.status in (404, 405):
            bulk.notes.append('The service has no bulk creation of hosts (%s answered %s): the hosts were created one '
                              'by one.' % ('bulk/host_create', exc.status))
            return 'unavailable'
        named, whole = refused_items(exc.detail, len(batch))
        if 'BULK_HOST_MAX_CREATE' in reason(whole or ''):
            return 'smaller'
        for index, why in sorted(named.items()):
            bulk.refused[batch[index].name] = reason(why)
        bulk.notes.append('The bulk creation of %d hosts was refused (%s answered %s%s): they were created one by one.'
                          % (len(batch), 'bulk/host_create', exc.status,
                             ': %s' % reason(whole) if whole is not None and not named else ''))
        return 'refused'
    hosts = answer.get('hosts') if isinstance(answer, dict) else None
    if not isinstance(hosts, list):
        return settle_lost(api, bulk, inventory_id, batch)
    return [host for host in hosts if isinstance(host, dict) and host.get('id') is not None]


def settle_lost(api, bulk, inventory_id, batch):
    """The hosts of ``batch`` that the inventory holds now (a batch whose answer was lost: the service made all of
    it or none). The others are left to their items."""
    from ansible_collections.automation.service.plugins.module_utils import _bulk
    client = api.client
    names = [c.name for c in batch]
    found = _bulk.hosts_by_name(client, inventory_id, names)
    bulk.count(-(-len(names) // NAMES_PER_READ))
    bulk.notes.append('The answer to the bulk creation of %d hosts was lost (the connection broke after sending); it '
                      'was not sent again: the inventory holds %d of them, the others were created one by one.'
                      % (len(batch), len(found)))
    return list(found.values())


def keep(api, resource, bulk, inventory_id, made, candidates):
    """Read the hosts made back whole (as a single POST answers them) and hold them in the loop's reads, where
    each item's look-up finds its own."""
    held = api.held
    client = api.client
    ids = [host['id'] for host in made]
    full = {}
    for start in range(0, len(ids), READ_BACK):
        chunk = ids[start:start + READ_BACK]
        page = client.get('hosts', params={'id__in': ','.join(str(i) for i in chunk), 'page_size': READ_BACK})
        bulk.count()
        for host in page.get('results', ()) if isinstance(page, dict) else ():
            full[host['id']] = host
    scope = resource.scope_filter(api)
    key = held.key(resource.endpoint, resource.name, scope)
    for host in made:
        obj = full.get(host['id'])
        name = to_text((obj or {}).get(resource.name))
        if obj is None or obj.get('inventory') != inventory_id or name not in candidates:
            continue
        held.keep(client, key, resource.name, obj, held.lists.get(key))
        bulk.made[name] = obj
        bulk.bodies[name] = dict(candidates[name].shown, inventory=inventory_id)
