# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Hub's collection remotes, repositories and distributions (Pulp's), and their syncs: what
``collection_remote``, ``collection_repository`` and ``collection_repository_sync`` share.

Facts from pulp_ansible 0.20 / pulpcore 3.28 under galaxy-ng 4.9.2 (their serializers and viewsets, and their answers
on a running Hub); the paths are those of the published Hub schemas of Automation Platform 2.6 and 2.7 too:

* The objects are Pulp's, known by their ``pulp_href``: ``pulp/api/v3/remotes/ansible/collection/``,
  ``pulp/api/v3/repositories/ansible/ansible/``, ``pulp/api/v3/distributions/ansible/ansible/``; each list's
  ``?name=`` is exact.
* A remote or a repository is created at once (201, the object); a distribution is created in a task (202,
  ``{"task"}``). A change (PATCH) and a deletion of any of them is a task.
* A remote never reads back ``token``, ``password``, ``proxy_password``, ``client_key``, ``username`` nor
  ``proxy_username``: its ``hidden_fields`` say only whether each is set (``[{"name", "is_set"}]``).
* Text fields are kept without the white space around them (Django REST framework's CharField), so a PEM or a
  requirements file given with a final newline reads back without it.
* A repository's ``retain_repo_versions`` is null (keep every version) or at least 1; a label whose value is null
  is refused with a 500; a sync of a repository without a remote answers a 500 too (pulp_ansible reads the remote
  of None): both are kept from being sent here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._hub import (
    PULP, TaskFailed, find, href_path, place, wait_for_task,
)
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

REMOTES = PULP + 'remotes/ansible/collection/'
REPOSITORIES = PULP + 'repositories/ansible/ansible/'
DISTRIBUTIONS = PULP + 'distributions/ansible/ansible/'

# The remote's fields the Hub never reads back (hidden_fields), and those of them that are secrets
HIDDEN = ('client_key', 'password', 'proxy_password', 'proxy_username', 'token', 'username')
SECRETS = ('client_key', 'password', 'proxy_password', 'token')

# How long a write's task (a change, a deletion, a distribution's creation) is waited for
WRITE_TIMEOUT = 300


class SyncFailed(TaskFailed):
    """A sync that failed or did not end in time; the failed result has the task's href, as a sync that went well
    returns it, and its ``sync_status``."""

    def __init__(self, message, task):
        super(SyncFailed, self).__init__(message)
        self.result = {'task': task, 'sync_status': 'Failed'}


def stripped(value):
    """Text as the Hub keeps it: without the white space around it; None for none or ''."""
    if value is None:
        return None
    text = to_text(value).strip()
    return text or None


def requirements_data(text):
    """A requirements file's text as data, for comparing (the text itself when it is no YAML)."""
    if text is None or to_text(text).strip() == '':
        return None
    import yaml
    try:
        return yaml.safe_load(to_text(text))
    except yaml.YAMLError:
        return to_text(text)


def requirements_text(names):
    """The requirements file a list of collection names makes (None for an empty list: every collection)."""
    if not names:
        return None
    return '---\ncollections:\n' + ''.join('  - %s\n' % name for name in names)


def read_file(path, option):
    """The text of the file ``path`` (ConfigError naming ``option`` when it cannot be read)."""
    try:
        with open(path, 'rb') as handle:
            return to_text(handle.read())
    except (IOError, OSError) as exc:
        raise ConfigError('Unable to read the file %s given as %s: %s' % (path, option, to_text(exc)))


def settled_object(api, module, answer, href):
    """The object at ``href`` once the task ``answer`` started (a 202's ``{"task"}``) has ended."""
    if isinstance(answer, dict) and answer.get('task'):
        wait_for_task(api, answer['task'], module, WRITE_TIMEOUT, 1.0, label='task')
    return api.client.get(href)


def task_ended(api, module, answer, label='task'):
    """``answer`` once the task it started has ended (a deletion's)."""
    if isinstance(answer, dict) and answer.get('task'):
        wait_for_task(api, answer['task'], module, WRITE_TIMEOUT, 1.0, label=label)
    return answer


def changed_fields(existing, desired, normalize):
    """The fields of ``desired`` whose values differ from ``existing``'s, each compared as ``normalize`` says."""
    delta = {}
    for key, want in desired.items():
        how = normalize.get(key, lambda value: value)
        if how(want) != how(existing.get(key)):
            delta[key] = want
    return delta


def plan_update(api, module, existing, desired, normalize, secret=(), hidden=None, extra=None):
    """The PATCH that makes the Pulp object ``existing`` hold ``desired`` (none when nothing differs), waited for and
    answered with the object read again. ``hidden``: fields whose change is known otherwise (name -> (before, after,
    sent)); ``extra``: fields sent with any change (secrets given, so that a new value is taken then)."""
    delta = changed_fields(existing, desired, normalize)
    hidden = hidden or {}
    if not delta and not hidden:
        return Plan(existing)
    body = dict(delta)
    body.update(extra or {})
    body.update((key, sent) for key, (_before, _after, sent) in hidden.items())
    before = dict((key, existing.get(key)) for key in delta)
    after = dict(delta)
    for key, (was, will, _sent) in hidden.items():
        before[key], after[key] = was, will
    href = href_path(existing['pulp_href'])
    answer = dict(existing, **delta)
    return Plan(existing, [Write('PATCH', href, body, expect=(200, 202), before=before, after=after, secret=secret,
                                 makes=True, answer=answer,
                                 settle=lambda made: settled_object(api, module, made, href))])


def plan_delete(api, module, obj, label, under=()):
    """The DELETE of the Pulp object ``obj``, waited for (none when ``obj`` is None); its diff under the keys
    ``under``."""
    if obj is None:
        return Plan(None)
    return Plan(obj, [Write('DELETE', href_path(obj['pulp_href']), expect=(202, 204, 404),
                            before={'name': obj.get('name')}, after={}, under=under,
                            settle=lambda answer: task_ended(api, module, answer, label='deletion'))])


def find_named(api, module, endpoint, name, label, required=False):
    """The Pulp object of ``endpoint`` named ``name`` exactly (None when there is none)."""
    return find(api, place(api, endpoint, module), name, 'name', label, required=required)


def hub_result(obj, kind, name):
    """What ansible.hub returns of an object: its fields at the top, its ``name``, ``href`` and ``type``."""
    result = dict(obj or {})
    result.update(name=name, type=kind)
    if (obj or {}).get('pulp_href'):
        result['href'] = obj['pulp_href']
    return result


def sync(api, module, repository, name, wait, interval, timeout):
    """Start the sync of ``repository`` (a Pulp object) from its remote and, with ``wait``, wait for it: what
    ansible.hub returns of it (``name``, ``sync_status``, ``task``). A sync waited for is a change when its task made
    a new version of the repository (its ``created_resources``: none when the remote had nothing new, seen on
    galaxy-ng 4.9.2); one not waited for, or one in check mode, where nothing is started, is a change."""
    if not repository.get('remote'):
        raise ConfigError('Collection repository %s has no remote to sync from.' % name)
    path = href_path(repository['pulp_href']) + 'sync/'
    result = {'name': name}

    def started(answer):
        task = (answer or {}).get('task')
        result.update(sync_status='Started', task=task)
        if not (wait and task):
            return answer
        try:
            ended = wait_for_task(api, task, module, float('inf') if timeout is None else timeout, interval,
                                  label='sync')
        except TaskFailed as exc:
            message = exc.message
            if 'had not ended' in message:
                message = 'Timed out awaiting sync: %s' % message
            raise SyncFailed(message, task)
        result['sync_status'] = 'Complete'
        return {'task': task, 'created_resources': ended.get('created_resources') or []}

    def changed(answer):
        if api.check_mode or answer is None or 'created_resources' not in answer:
            return True
        return bool(answer['created_resources'])

    api.apply(Plan(repository, [Write('POST', path, {}, expect=(202,), answer={}, settle=started, changes=changed)]))
    if api.check_mode:
        api.says('Would have synced collection repository: %s' % name)
    return result


def remote_href(api, module, name):
    """The ``pulp_href`` of the remote ``name`` ('' for none); NotFound in ansible.hub's words when there is none."""
    if name == '':
        return None
    remote = find_named(api, module, REMOTES, name, 'collection remote')
    if remote is None:
        raise NotFound("Remote %s doesn't exist." % name, total_results=0)
    return remote['pulp_href']
