# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Automation Hub's execution environments, for the ``ah_ee_*`` modules.

What the Hub (galaxy-ng 4.9, with pulp_container) serves for them, as its source and the running Hub show it:

* Remote registries at ``_ui/v1/execution-environments/registries/``: listed in galaxy-ng's form (``meta``,
  ``links``, ``data``), filtered exactly by ``?name=``; an object is at ``<id>/`` and is changed by ``PUT`` only
  (no ``PATCH``), which needs ``name`` and ``url`` and leaves the fields it is not sent as they are. ``username``,
  ``password``, ``client_key``, ``proxy_username`` and ``proxy_password`` are never read back: the registry says
  of each only whether it is set (``write_only_fields``). ``<id>/sync/`` and ``<id>/index/`` start tasks (202);
  indexing is refused (400) for every registry but ``registry.redhat.io``.
* Container repositories at ``v3/plugin/execution-environments/repositories/`` (a distribution each, named and
  found by its base path, ``namespace/name`` or ``name``): deleted by a task; its description is the Pulp
  distribution's (``PATCH`` of its ``pulp_href``, a task); its README at ``<name>/_content/readme/`` (``PUT``
  ``{"text": ...}``); its images at ``<name>/_content/images/``; a remote one synced by ``<name>/_content/sync/``
  (a task). A pushed repository's images are tagged, untagged and removed through Pulp's push repository
  (``tag/``, ``untag/``, ``remove_image/``, each a task).
* A remote repository is made by ``POST _ui/v1/execution-environments/remotes/`` (the remote, its repository and
  its distribution at once, 201) and changed by ``PUT .../remotes/<id>/`` (``name`` unchanged, ``registry``
  needed). On creation the Hub adds ``*-source`` to the tags it excludes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.common.text.converters import to_bytes, to_text

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._hub import (
    UI, find, href_path, objects, place, secrets_set, wait_for_task,
)
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

STATE = dict(type='str', choices=['present', 'absent'], default='present')
# Seconds a module without a timeout option waits for a task its write started (a tag, a deletion)
TASK_TIMEOUT = 300

REGISTRIES = 'execution-environments/registries/'
REMOTES = 'execution-environments/remotes/'
REPOSITORIES = 'execution-environments/repositories/'
PLUGIN = 'v3/plugin/'

# A registry's fields the Hub reads back, and those it only says are set.
REGISTRY_FIELDS = ('url', 'tls_validation', 'client_cert', 'ca_cert', 'proxy_url', 'download_concurrency',
                   'rate_limit')
WRITE_ONLY = ('username', 'password', 'client_key', 'proxy_username', 'proxy_password')
SECRETS = ('password', 'client_key', 'proxy_password')
PEM_FIELDS = ('client_key', 'client_cert', 'ca_cert')

REGISTRY_ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    url=dict(type='str'),
    username=dict(type='str'),
    password=dict(type='str', no_log=True),
    tls_validation=dict(type='bool', default=True),
    client_key=dict(type='str', no_log=True),
    client_cert=dict(type='str'),
    ca_cert=dict(type='str'),
    client_key_path=dict(type='str', no_log=False),
    client_cert_path=dict(type='str'),
    ca_cert_path=dict(type='str'),
    proxy_url=dict(type='str'),
    proxy_username=dict(type='str'),
    proxy_password=dict(type='str', no_log=True),
    download_concurrency=dict(type='str'),
    rate_limit=dict(type='str'),
    state=STATE,
)

# The options of the modules that start a task and may wait for it, as ansible.hub has them.
WAIT_ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    wait=dict(type='bool', default=True),
    interval=dict(type='float', default=1.0),
    timeout=dict(type='int'),
)


# -- paths and tasks -----------------------------------------------------------------------------------------------

def check_interval(api):
    """Refuse an ``interval`` that cannot be waited by, before anything is read or written."""
    interval = api.params.get('interval')
    if api.params.get('wait') and interval is not None and not 0 < interval < float('inf'):
        raise ConfigError('interval must be a number of seconds more than 0.')


def ui(api, endpoint, module):
    """``endpoint``'s path in the Hub's ``_ui/v1/`` API (ConfigError naming ``module`` where there is no Hub)."""
    return place(api, UI + endpoint, module)


def repository_path(api, name, module, tail=''):
    """The path of the container repository ``name`` (its ``tail``: ``_content/readme/``) in ``v3/plugin/``."""
    return place(api, '%s%s%s/%s' % (PLUGIN, REPOSITORIES, name, tail), module)


def waited(api, answer, module, children=False, label='task'):
    """The answer of a write (``{"task": href}``) once its task, and with ``children`` the tasks that one started,
    have ended, waited for as the module's ``timeout`` and ``interval`` say (ansible.hub's ``timeout``, not given,
    waits as long as the task takes), or, for a module without them, up to TASK_TIMEOUT seconds."""
    params = api.params
    if 'wait' in params:
        # the modules that start a task on purpose, with ansible.hub's options
        timeout = float('inf') if params.get('timeout') is None else params['timeout']
        interval = 1.0 if params.get('interval') is None else params['interval']
    else:
        # a write that the Hub makes a task of (a tag, a deletion): waited for as the Hub's other modules do
        timeout, interval = TASK_TIMEOUT, 1.0
    href = answer.get('task') if isinstance(answer, dict) else None
    if not href:
        return answer
    task = wait_for_task(api, href, module, timeout, interval, label)
    for child in (task.get('child_tasks') or []) if children else []:
        wait_for_task(api, child, module, timeout, interval, label)
    return answer


def push_repository_href(repository):
    """The Pulp push repository of ``repository`` (the Hub's container repository), from its distribution's
    ``pulp_href`` (the same Pulp API root) and its repository's id."""
    pulp = (repository.get('pulp') or {}).get('repository') or {}
    root = href_path(repository['pulp_href']).split('/distributions/')[0]
    kind = (pulp.get('pulp_type') or 'container.container-push').replace('.', '/', 1)
    return '%s/repositories/%s/%s/' % (root, kind, pulp['id'])


def read_text(path):
    """The text of the file ``path`` (where the module runs), in ansible.hub's words when there is none."""
    try:
        with open(to_bytes(path, errors='surrogate_or_strict'), 'rb') as handle:
            return to_text(handle.read())
    except (IOError, OSError):
        raise ConfigError("No such file found on the local filesystem: '%s'" % path)


# -- registries -----------------------------------------------------------------------------------------------------

def find_registry(api, name, module, required=False):
    found = find(api, ui(api, REGISTRIES, module), name, label='registry')
    if found is None and required:
        raise NotFound('The registry with name: %s, was not found.' % name, total_results=0)
    return found


def is_set(registry, field):
    """Whether the registry holds a value for the write-only ``field``."""
    return field in secrets_set(registry)


def whole_number(option, value):
    if value is None:
        return None
    text = to_text(value).strip()
    if text == '':
        return None
    try:
        return int(text)
    except ValueError:
        raise ConfigError('%s must be a whole number, not %r.' % (option, value))


def as_pem(value):
    return (to_text(value).strip() or None) if value is not None else None


def registry_wanted(api):
    """The registry's read-back fields the options ask for, and its write-only values given."""
    params = api.params
    wanted, written = {}, {}
    for field in ('url', 'tls_validation', 'client_cert', 'ca_cert', 'proxy_url'):
        if params.get(field) is not None:
            wanted[field] = params[field]
    for field in ('download_concurrency', 'rate_limit'):
        if params.get(field) is not None:
            wanted[field] = whole_number(field, params[field])
    for field in PEM_FIELDS:
        path = params.get(field + '_path')
        if path:
            text = read_text(path)
            if field in SECRETS:
                api.no_log_values.add(text)
                api.no_log_values.add(text.strip())
            if field in WRITE_ONLY:
                written[field] = text
            else:
                wanted[field] = text
    for field in WRITE_ONLY:
        if params.get(field) not in (None, ''):
            written[field] = params[field]
    return wanted, written


def registry_compared(field, value):
    if field in PEM_FIELDS:
        return as_pem(value)
    if field in ('proxy_url',):
        return value or None
    return value


def plan_registry(api, existing, module):
    params = api.params
    path = ui(api, REGISTRIES, module)
    if params['state'] == 'absent':
        if existing is None:
            return Plan(None)
        return Plan(existing, [Write('DELETE', '%s%s/' % (path, existing['id']), expect=(202, 204),
                                     before={'name': existing['name'], 'url': existing.get('url')}, after={})])
    wanted, written = registry_wanted(api)
    if existing is None:
        body = dict(wanted, name=params['name'], **written)
        answer = dict(wanted, name=params['name'],
                      write_only_fields=[{'name': field, 'is_set': field in written} for field in WRITE_ONLY])
        shown = dict(body)
        return Plan(None, [Write('POST', path, body, expect=(201,), before={}, after=shown, secret=SECRETS,
                                 makes=True, answer=answer, refused=unable('create', 'registries', params['name']))])
    delta = dict((field, value) for field, value in wanted.items()
                 if registry_compared(field, value) != registry_compared(field, existing.get(field)))
    unset = sorted(field for field in written if not is_set(existing, field))
    if not delta and not unset:
        return Plan(existing)
    body = dict((field, existing.get(field)) for field in REGISTRY_FIELDS if field in existing)
    body.update(wanted)
    body.update(written)
    body['name'] = existing['name']
    before = dict((field, existing.get(field)) for field in delta)
    before.update((field, None) for field in unset)
    after = dict(delta)
    after.update((field, written[field]) for field in unset)
    answer = dict(existing, **delta)
    answer['write_only_fields'] = [{'name': field, 'is_set': is_set(existing, field) or field in written}
                                   for field in WRITE_ONLY]
    return Plan(existing, [Write('PUT', '%s%s/' % (path, existing['id']), body, expect=(200,), before=before,
                                 after=after, secret=SECRETS, makes=True, answer=answer,
                                 refused=unable('update', 'registries', existing['name']))])


def unable(verb, kind, name):
    """A write's ``refused``: the Hub's refusal in ansible.hub's words."""
    def refused(exc):
        if exc.status == 400:
            exc.reword('Unable to %s %s %s: %s' % (verb, kind, name, exc.message))
    return refused


def without_secrets(obj):
    return dict((key, value) for key, value in (obj or {}).items() if key not in SECRETS)


def run_registry(api, module='ah_ee_registry'):
    params = api.params
    if params['state'] == 'present' and not params.get('url'):
        # ansible.hub's words (its argument spec's required_if), said before anything is read
        raise ConfigError('state is present but all of the following are missing: url')
    existing = find_registry(api, params['name'], module)
    plan = plan_registry(api, existing, module)
    made = api.apply(plan)
    api.returns(name=params['name'], type='registries')
    if params['state'] == 'absent':
        if existing is not None:
            api.returns(id=existing['id'])
        return
    if made is not None and made.get('id') is not None:
        api.returns(id=made['id'])
    api.returns(registry=without_secrets(made))


def run_registry_task(api, action, module):
    """``ah_ee_registry_index`` (``action`` index) and ``ah_ee_registry_sync`` (sync): start the registry's task,
    and with ``wait``, wait until it and the tasks it started end. Always a change (in check mode, none is
    started)."""
    params = api.params
    check_interval(api)
    registry = find_registry(api, params['name'], module, required=True)
    api.returns(name=registry['name'], id=registry['id'])
    done = 'indexed' if action == 'index' else 'synced'

    def settle(answer):
        task = answer.get('task') if isinstance(answer, dict) else None
        status = 'Started'
        if params['wait'] and task:
            waited(api, answer, module, children=True, label=action)
            status = 'Complete'
        return {'task': task, 'task_status': status}

    write = Write('POST', '%s%s/%s/' % (ui(api, REGISTRIES, module), registry['id'], action), {}, expect=(202,),
                  before={done: False}, after={done: True}, makes=True, answer={'task_status': 'Started'},
                  settle=settle, refused=unable('create' if action == 'sync' else 'index', 'registries',
                                                registry['name']))
    made = api.apply(Plan(registry, [write]))
    api.returns(**dict((key, value) for key, value in (made or {}).items() if value is not None))


# -- repositories ---------------------------------------------------------------------------------------------------

def find_repository(api, name, module):
    return find(api, place(api, PLUGIN + REPOSITORIES, module), name, label='repository')


def remote_of(repository):
    return ((repository or {}).get('pulp') or {}).get('repository', {}).get('remote') if repository else None


def tag_list(value):
    return sorted(set(value or []))


def plan_remote(api, repository, registry, module):
    """The write that makes the remote of ``repository`` (None: a new remote repository) pull from ``registry``
    as the options say."""
    params = api.params
    wanted = {'upstream_name': params['upstream_name'], 'registry': registry['id']}
    for field in ('include_tags', 'exclude_tags'):
        if params.get(field) is not None:
            wanted[field] = list(params[field])
    path = ui(api, REMOTES, module)
    if repository is None:
        body = dict(wanted, name=params['name'])
        return [Write('POST', path, body, expect=(201,), before={},
                      after=dict(body, registry=registry['name']), makes=False, answer=body,
                      refused=unable('create', 'remote', params['name']))]
    remote = remote_of(repository)
    if remote is None:
        raise ConfigError('The %s repository holds pushed images: it has no registry to pull from, and cannot be '
                          'given one.' % params['name'])
    have = dict(upstream_name=remote.get('upstream_name'), registry=remote.get('registry'),
                include_tags=remote.get('include_tags') or [], exclude_tags=remote.get('exclude_tags') or [])
    delta = {}
    for field, value in wanted.items():
        compared = tag_list if field.endswith('_tags') else to_text
        if compared(value) != compared(have.get(field)):
            delta[field] = value
    if not delta:
        return []
    body = dict(have, **wanted)
    body['name'] = remote.get('name') or params['name']
    names = {registry['id']: registry['name']}
    before = dict((field, names.get(have.get(field), have.get(field)) if field == 'registry' else have.get(field))
                  for field in delta)
    after = dict((field, registry['name'] if field == 'registry' else value) for field, value in delta.items())
    return [Write('PUT', '%s%s/' % (path, remote['id']), body, expect=(200,), before=before, after=after,
                  refused=unable('update', 'remote', params['name']))]


def readme_text(api):
    params = api.params
    if params.get('readme_file') is not None:
        return read_text(params['readme_file'])
    return params.get('readme')


def plan_repository_fields(api, repository, description, readme, module):
    """The writes of the description and README of ``repository`` (as the Hub read it; for one the plan makes,
    a function of nothing that reads it once made)."""
    name = api.params['name']
    writes = []
    if description is not None and (repository or {}).get('description') != description:
        def distribution(made):
            found = repository or find_repository(api, name, module)
            return href_path(found['pulp_href'])

        writes.append(Write('PATCH', distribution, {'description': description}, expect=(202,),
                            before={'description': (repository or {}).get('description')},
                            after={'description': description}, settle=lambda answer: waited(api, answer, module),
                            refused=unable('update', 'repository', name)))
    if readme is not None:
        have = ''
        if repository is not None:
            have = (api.client.get(repository_path(api, name, module, '_content/readme/')) or {}).get('text') or ''
        if have.strip() != readme.strip():
            writes.append(Write('PUT', repository_path(api, name, module, '_content/readme/'), {'text': readme},
                                expect=(200,), before={'readme': have}, after={'readme': readme},
                                refused=unable('update the README for', 'repository', name)))
    return writes


def run_repository(api, module='ah_ee_repository'):
    params = api.params
    name = params['name']
    api.returns(name=name, type='repository')
    repository = find_repository(api, name, module)
    if params['state'] == 'absent':
        if repository is None:
            return
        api.apply(Plan(repository, [Write('DELETE', repository_path(api, name, module), expect=(202,),
                                          before={'name': name}, after={},
                                          settle=lambda answer: waited(api, answer, module, label='deletion'))]))
        return
    writes = []
    if params.get('registry'):
        registry = find_registry(api, params['registry'], module, required=True)
        writes.extend(plan_remote(api, repository, registry, module))
    elif repository is None:
        raise NotFound('The %s repository does not exist and registry is not set so it is assumed this is a local '
                       'image.' % name, total_results=0)
    writes.extend(plan_repository_fields(api, repository, params.get('description'), readme_text(api), module))
    api.apply(Plan(repository, writes))


def run_repository_sync(api, module='ah_ee_repository_sync'):
    params = api.params
    name = params['name']
    check_interval(api)
    repository = find_repository(api, name, module)
    if repository is None:
        raise NotFound('The repository %s was not found.' % name, total_results=0)
    api.returns(name=name)

    def settle(answer):
        task = answer.get('task') if isinstance(answer, dict) else None
        status = 'Started'
        if params['wait'] and task:
            waited(api, answer, module, label='sync')
            status = 'Complete'
        return {'task': task, 'sync_status': status}

    made = api.apply(Plan(repository, [Write(
        'POST', repository_path(api, name, module, '_content/sync/'), {}, expect=(202,), before={'synced': False},
        after={'synced': True}, makes=True, answer={'sync_status': 'Started'}, settle=settle,
        refused=unable('sync', 'repository', name))]))
    api.returns(**dict((key, value) for key, value in (made or {}).items() if value is not None))


# -- images ---------------------------------------------------------------------------------------------------------

def split_image(value):
    """``repository:tag`` -> (repository, tag); without a tag, ``latest``."""
    parts = value.rsplit(':', 1)
    if len(parts) == 1 or '/' in parts[1]:
        return value, 'latest'
    return parts[0], parts[1]


def run_image(api, module='ah_ee_image'):
    params = api.params
    name, tag = split_image(params['name'])
    api.returns(name=name, tag=tag, type='image')
    repository = find_repository(api, name, module)
    if repository is None:
        raise NotFound('The %s repository does not exist.' % name, total_results=0)
    image = None
    for manifest in objects(api, repository_path(api, name, module, '_content/images/')):
        if tag in (manifest.get('tags') or []):
            image = manifest
            break
    href = push_repository_href(repository)
    tags = params.get('tags')

    def removal():
        api.returns(digest=image['digest'])
        return Plan(image, [Write('POST', href + 'remove_image/', {'digest': image['digest']}, expect=(202,),
                                  before={'digest': image['digest'], 'tags': sorted(image.get('tags') or [])},
                                  after={}, settle=lambda answer: waited(api, answer, module),
                                  refused=unable('delete image from', 'repository', name))])

    if params['state'] == 'absent':
        if image is not None:
            api.apply(removal())
        return
    if image is None:
        raise NotFound('The image tag %s for the %s repository does not exist.' % (tag, name), total_results=0)
    if not tags:
        if not params['append']:
            api.apply(removal())
        return
    current = list(image.get('tags') or [])
    add = [item for index, item in enumerate(tags) if item not in current and item not in tags[:index]]
    remove = [] if params['append'] else [item for item in current if item not in tags]
    if not add and not remove:
        api.returns(digest=image['digest'])
        return
    after = sorted(set(current + add) - set(remove))
    writes = [Write('POST', href + 'tag/', {'tag': item, 'digest': image['digest']}, expect=(202,),
                    settle=lambda answer: waited(api, answer, module), refused=unable('tag image in', 'repository', name))
              for item in add]
    writes += [Write('POST', href + 'untag/', {'tag': item}, expect=(202,), settle=lambda answer: waited(api, answer, module),
                     refused=unable('untag image in', 'repository', name))
               for item in remove]
    writes[0].before, writes[0].after = {'tags': sorted(current)}, {'tags': after}
    api.returns(digest=image['digest'])
    api.apply(Plan(image, writes))
