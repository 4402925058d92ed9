"""eda_fake's Event-Driven Ansible with what the project, event stream and activation modules depend on besides
(ansible/eda-server's views and serializers): a rulebook's ``sources/``; a project imported when it is made, when
its url or branch changes and on ``sync/``, its ``import_state`` going through ``imports`` read after read; an
event stream showing its credential and organization nested, in lists too; an activation's credentials shown as
objects, ``enable/``, ``disable/`` and ``restart/`` answered with no content, a PATCH of an enabled one refused
(409), and a copy made disabled."""

import copy

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError

from .eda_fake import ROOT, FakeEda, objects
from .test_plan import run as run_task

# The options of an activation of the seeded rulebook
ACTIVATION = dict(name='hello', project_name='Rulebooks', rulebook_name='hello.yml', decision_environment_name='DE',
                  organization_name='Default')
SOURCES = {5: [{'name': 'first', 'rulebook_hash': 'h1', 'source_info': 'range'},
               {'name': 'second', 'rulebook_hash': 'h1', 'source_info': 'range'}]}


def credential(id, name):
    return {'id': id, 'name': name, 'credential_type_id': 5, 'organization_id': 1, 'inputs': {}}


def seeded():
    """A project with a rulebook of two sources (and one whose name holds its name), a decision environment,
    credentials, an event stream, a controller token."""
    return objects(**{
        'projects': [{'id': 3, 'name': 'Rulebooks', 'url': 'https://git.example.test/rulebooks.git',
                      'organization_id': 1, 'eda_credential_id': None, 'scm_branch': '', 'proxy': '',
                      'description': '', 'update_revision_on_launch': False, 'scm_update_cache_timeout': 0,
                      'import_state': 'completed', 'import_error': None}],
        'rulebooks': [{'id': 5, 'name': 'hello.yml', 'project_id': 3, 'organization_id': 1},
                      {'id': 6, 'name': 'hello.yml.bak', 'project_id': 3, 'organization_id': 1}],
        'decision-environments': [{'id': 7, 'name': 'DE', 'organization_id': 1}],
        'eda-credentials': [credential(8, 'vault'), credential(9, 'hmac')],
        'event-streams': [{'id': 10, 'name': 'pushes', 'test_mode': True, 'additional_data_headers': '',
                           'eda_credential_id': 9, 'organization_id': 1,
                           'uuid': '550e8400-e29b-41d4-a716-446655440000', 'url': 'https://gw.example.test/hook/'}],
        'users/me/awx-tokens': [{'id': 11, 'name': 'controller'}],
        'activations': [],
    })


def without_states(obj):
    return dict((key, value) for key, value in obj.items() if key != '_states')


class FakeEdaRuns(FakeEda):
    def __init__(self, imports=('completed',), **kwargs):
        super(FakeEdaRuns, self).__init__(seeded(), **kwargs)
        self.imports = tuple(imports)   # the states each import of a project goes through, read after read

    def url(self, path, params=None):
        return self.base_url + path

    def shown(self, endpoint, obj, detail):
        shown = without_states(super(FakeEdaRuns, self).shown(endpoint, obj, detail))
        if endpoint == 'event-streams':
            for field, name in (('eda_credential_id', 'eda_credential'), ('organization_id', 'organization')):
                ref = shown.pop(field, None)
                shown[name] = None if ref is None else {'id': ref, 'name': self._stored(
                    'eda-credentials' if name == 'eda_credential' else 'organizations', ref)['name']}
        if endpoint == 'activations':
            shown['eda_credentials'] = [{'id': i, 'name': self._stored('eda-credentials', i)['name']}
                                        for i in shown.get('eda_credentials') or []]
        return shown

    def importing(self, obj):
        obj.update(import_state='pending', import_error=None, _states=list(self.imports))

    def get(self, path, params=None):
        endpoint, found, action = self.split(path.partition('?')[0])
        if endpoint == 'rulebooks' and action == 'sources':
            self.calls.append(('GET', path, dict(params or {})))
            found_sources = copy.deepcopy(SOURCES.get(found, []))
            return {'count': len(found_sources), 'next': None, 'previous': None, 'results': found_sources}
        if endpoint == 'projects' and found is not None and action is None:
            obj = self._stored(endpoint, found)
            if obj.get('_states'):
                obj['import_state'] = obj['_states'].pop(0)
                obj['import_error'] = 'clone failed' if obj['import_state'] == 'failed' else None
        return super(FakeEdaRuns, self).get(path, params)

    def request(self, method, path, params=None, json_body=None, expect=None):
        endpoint, found, action = self.split(path)
        if endpoint == 'activations' and action in ('enable', 'disable', 'restart'):
            self.calls.append((method, path, copy.deepcopy(json_body)))
            obj = self._stored(endpoint, found)
            if action == 'restart' and not obj.get('is_enabled'):
                raise ApiError('Activation is disabled and cannot be run.', status=403)
            if action != 'restart':
                obj['is_enabled'] = action == 'enable'
            return None
        if endpoint == 'activations' and method == 'PATCH' and self._stored(endpoint, found).get('is_enabled'):
            self.calls.append((method, path, copy.deepcopy(json_body)))
            raise ApiError('Activation is not in disabled mode and in stopped status', status=409)
        if endpoint == 'projects' and action == 'sync':
            self.calls.append((method, path, copy.deepcopy(json_body)))
            obj = self._stored(endpoint, found)
            self.importing(obj)
            return self.shown(endpoint, obj, detail=False)
        answer = super(FakeEdaRuns, self).request(method, path, params, json_body, expect)
        if endpoint == 'projects' and method in ('POST', 'PATCH') and (
                method == 'POST' or set(json_body) & {'url', 'scm_branch'}):
            obj = self._stored(endpoint, answer['id'])
            self.importing(obj)
            answer = self.shown(endpoint, obj, detail=False)
        if endpoint == 'activations' and action == 'copy':
            obj = self._stored(endpoint, answer['id'])
            obj['is_enabled'] = False
            answer = self.shown(endpoint, obj, detail=False)
        return answer


def run(module, client, check=False, diff=False, **params):
    """The result of ``module`` run with ``params`` against ``client`` (test_plan's run())."""
    return run_task(module, params, client, check_mode=check, diff=diff)[0]
