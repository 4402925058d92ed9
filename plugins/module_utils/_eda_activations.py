# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the modules of Event-Driven Ansible's projects, event streams and rulebook activations share beyond
the EDA base (_eda): a project's import waited for, a proxy as the service shows it, an activation's event
streams as the service maps them to its rulebook's sources, and the writes the activation modules plan alike.

Facts of the service (ansible/eda-server) these rely on:

* a project is imported when it is made and synced again when its ``url``, ``scm_branch`` or ``scm_refspec``
  changes, or on ``POST .../sync/`` (202); its ``import_state`` goes ``pending``, ``running``, then
  ``completed`` or ``failed`` (with ``import_error``); it cannot be deleted while ``pending`` or ``running``;
* a proxy's password is shown as ``$encrypted$`` (``http://user:$encrypted$@host``, or ``$encrypted$@host``
  without a user name);
* an activation's and a rulebook's ``name`` filters match any part of a name (a project's and an event
  stream's its start): _eda's look-ups keep the exact name;
* an activation is changed (PATCH) only while it is disabled and not starting, running or stopping (409
  otherwise); ``enable/``, ``disable/`` and ``restart/`` answer 204, a restart of a disabled one 403; a copy is
  made disabled;
* EDA 2.6 (Automation Platform 2.6, eda-2.6.json) has no project ``update_revision_on_launch`` nor
  ``scm_update_cache_timeout``, no activation ``restart_on_project_update``, ``enable_persistence`` nor
  ``rule_engine_credential_id``: it neither shows them nor keeps them when they are sent;
* an activation's ``source_mappings`` are YAML text: a list of ``source_name``, ``rulebook_hash``,
  ``event_stream_name`` and ``event_stream_id``, one per rulebook source an event stream replaces.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ansible_collections.automation.service.plugins.module_utils._api_module import parse_variables
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, ServiceError

ENCRYPTED = '$encrypted$'
IMPORT_DONE = ('completed', 'failed')


# -- fields of later releases --------------------------------------------------------------------------------

def known_only(api, existing, wanted, later, label):
    """``wanted`` without the fields of ``later`` (those of a later EDA than some) that ``existing`` does not show:
    the service has none such and would keep nothing sent (compared, they would change on every run). One set
    otherwise than its default (``later``: field -> default) is named in a warning."""
    if existing is None:
        return wanted
    unknown = sorted(field for field in later if field in wanted and field not in existing)
    ignored = [field for field in unknown if wanted[field] not in (later[field], None)]
    if ignored:
        api.warn('The service has no %s for %s %s (a later Event-Driven Ansible has): %s ignored.'
                 % (', '.join(ignored), label, existing.get('name'), 'they are' if len(ignored) > 1 else 'it is'))
    return dict((key, value) for key, value in wanted.items() if key not in unknown)


# -- projects ----------------------------------------------------------------------------------------------

def proxy_as_read(proxy):
    """``proxy`` as the service shows it: the password of an HTTP(S) proxy as $encrypted$."""
    if not proxy or not proxy.startswith(('http://', 'https://')) or '@' not in proxy:
        return proxy
    scheme, rest = proxy.split('://', 1)
    netloc, slash, path = rest.partition('/')
    if '@' not in netloc:
        return proxy
    credentials, host = netloc.rsplit('@', 1)
    user = credentials.split(':', 1)[0] + ':' if ':' in credentials else ''
    return '%s://%s%s@%s%s%s' % (scheme, user, ENCRYPTED, host, slash, path)


def proxy_password(proxy):
    """The password in ``proxy`` (None when it has none), to keep out of every output."""
    if not proxy or '@' not in proxy or '://' not in proxy:
        return None
    credentials = proxy.split('://', 1)[1].partition('/')[0].rsplit('@', 1)[0]
    if ':' in credentials:
        return credentials.split(':', 1)[1] or None
    return credentials or None


class ImportFailed(ServiceError):
    """The project's import or sync ended as failed, or did not end in time."""


def wait_for_import(client, path, timeout, interval, sleep=time.sleep, clock=time.time):
    """Read the project at ``path`` every ``interval`` seconds until its import or sync has ended, and return it
    as it ended; ImportFailed (ansible.eda's words) when it failed or was still going after ``timeout`` seconds."""
    if not 0 < interval < float('inf'):
        raise ConfigError('interval must be a number of seconds more than 0.')
    deadline = clock() + timeout
    while True:
        project = client.get(path)
        state = project.get('import_state')
        if state == 'completed':
            return project
        if state == 'failed':
            raise ImportFailed('Project import failed: %s' % (project.get('import_error') or 'Unknown error'))
        if clock() >= deadline:
            raise ImportFailed('Timeout waiting for project import to complete after %s seconds. Last state: %s'
                               % (timeout, state))
        sleep(min(interval, max(0.0, deadline - clock())))


# -- activations -------------------------------------------------------------------------------------------

def source_mapping(sources, item):
    """The mapping of one item of an activation's ``event_streams`` to the rulebook's ``sources``, without its
    event stream (ansible.eda's checks and messages)."""
    index, name = item.get('source_index'), item.get('source_name')
    if index is not None and name:
        raise ConfigError('source_index and source_name options are mutually exclusive.')
    if index is None and name is None:
        raise ConfigError('You must specify one of the options: source_index or source_name.')
    if index is not None:
        if not 0 <= index < len(sources):
            raise ConfigError('The specified source_index %d is out of range: the rulebook has %d source%s.'
                              % (index, len(sources), '' if len(sources) == 1 else 's'))
        source = sources[index]
    else:
        source = next((source for source in sources if source.get('name') == name), None)
        if source is None:
            raise ConfigError('The specified source_name %s does not exist.' % name)
    if not item.get('event_stream'):
        raise ConfigError('You must specify an event stream name.')
    return {'source_name': source.get('name'), 'rulebook_hash': source.get('rulebook_hash')}


def sources_of(api, rulebooks, rulebook_id):
    """The sources of the rulebook ``rulebook_id`` (``rulebooks``: the placed path of the rulebooks), every page."""
    from ansible_collections.automation.service.plugins.module_utils._eda import PAGE_SIZE

    return list(api.client.iterate('%s%d/sources/' % (rulebooks, rulebook_id), params={'page_size': PAGE_SIZE}))


def mappings_as_data(value):
    """An activation's ``source_mappings`` (YAML text, or a list) as a list, for comparing."""
    if value in (None, ''):
        return []
    data = parse_variables(value) if not isinstance(value, list) else value
    return data if isinstance(data, list) else []


def ids_of(items):
    """The ids of an activation's ``eda_credentials`` (objects as the service lists them, or ids), sorted."""
    return sorted(item['id'] if isinstance(item, dict) else int(item) for item in items or [])


# -- where, and the writes every module plans alike ----------------------------------------------------------

def paths_of(api, module):
    """``path(endpoint)``: EDA's path of ``endpoint`` behind the task's gateway (``projects`` ->
    ``/api/eda/v1/projects/``); a ConfigError naming ``module`` on AWX, which has no EDA. The layout is read once."""
    from ansible_collections.automation.service.plugins.module_utils._eda import place

    known = {}

    def path(endpoint):
        if endpoint not in known:
            known[endpoint] = place(api, endpoint, module)
        return known[endpoint]

    return path


def plan_deletion(existing, path):
    """The DELETE of ``existing`` from the list at ``path`` (nothing when there is none)."""
    from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

    if existing is None:
        return Plan(None)
    return Plan(existing, [Write('DELETE', '%s%d/' % (path, existing['id']), expect=(202, 204, 404),
                                 before={'id': existing['id'], 'name': existing.get('name')}, after={})])


def refused_create(label, name):
    """How a refused creation is said: ansible.eda's words first."""
    def refused(exc):
        if exc.status == 400:
            exc.reword('Unable to create %s %s: %s' % (label, name, exc.message))
    return refused
