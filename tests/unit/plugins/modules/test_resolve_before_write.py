"""Every name a task gives is resolved before its first write: a bad name fails with a clear
message and writes nothing (no copy of copy_from, no schedule), and check mode writes nothing.
Against a fake client that keeps objects in memory: no service needed."""

import copy

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.modules import job_template, schedule

WRITES = ('POST', 'PUT', 'PATCH', 'DELETE')


class FakeClient:
    """The objects of a few endpoints; list filters on plain fields, ``or__`` pairs and ``x__name``."""

    def __init__(self, objects):
        self.objects = copy.deepcopy(objects)
        self.calls = []
        self.next_id = 100

    @property
    def writes(self):
        return [call for call in self.calls if call[0] in WRITES]

    def _matches(self, obj, key, value):
        if key.endswith('__name'):
            related = obj.get('summary_fields', {}).get(key[:-len('__name')]) or {}
            return related.get('name') == value
        return str(obj.get(key)) == str(value)

    def get(self, path, params=None):
        self.calls.append(('GET', path, dict(params or {})))
        parts = path.strip('/').split('/')
        if len(parts) == 2 and parts[1].isdigit():
            for obj in self.objects.get(parts[0], []):
                if obj['id'] == int(parts[1]):
                    return obj
            raise NotFound('%s not found' % path, status=404)
        filters = dict((k, v) for k, v in (params or {}).items() if k != 'page_size')
        either = dict((k[len('or__'):], v) for k, v in filters.items() if k.startswith('or__'))
        plain = dict((k, v) for k, v in filters.items() if not k.startswith('or__'))
        results = [obj for obj in self.objects.get(path, [])
                   if all(self._matches(obj, k, v) for k, v in plain.items())
                   and (not either or any(self._matches(obj, k, v) for k, v in either.items()))]
        return {'count': len(results), 'results': results, 'next': None}

    def iterate(self, path, params=None):
        self.calls.append(('GET', path, dict(params or {})))
        return iter([])

    def request(self, method, path, params=None, json_body=None, expect=None):
        self.calls.append((method, path, json_body))
        if method == 'GET':
            return self.get(path, params)
        if method == 'POST' and path.endswith('/copy'):
            endpoint, source = path.split('/')[:2]
            made = dict(self.get('%s/%s' % (endpoint, source)), id=self._new_id(), **json_body)
            self.objects[endpoint].append(made)
            return made
        if method == 'POST' and not json_body.get('id'):
            made = dict(json_body, id=self._new_id())
            self.objects.setdefault(path, []).append(made)
            return made
        if method == 'PATCH':
            endpoint, found = path.split('/')[:2]
            obj = self.get('%s/%s' % (endpoint, found))
            obj.update(json_body)
            return obj
        return None

    def _new_id(self):
        self.next_id += 1
        return self.next_id


OBJECTS = {
    'organizations': [{'id': 1, 'name': 'Default'}],
    'inventories': [{'id': 3, 'name': 'inv'}],
    'projects': [{'id': 4, 'name': 'proj', 'organization': 1, 'summary_fields': {'organization': {'name': 'Default'}}}],
    'credentials': [{'id': 5, 'name': 'machine'}],
    'labels': [{'id': 6, 'name': 'l1', 'organization': 1, 'summary_fields': {'organization': {'name': 'Default'}}}],
    'instance_groups': [{'id': 7, 'name': 'default'}],
    'execution_environments': [],
    'job_templates': [{'id': 9, 'name': 'deploy', 'url': 'job_templates/9', 'description': 'first', 'inventory': 3,
                       'project': 4, 'playbook': 'hello.yml', 'organization': 1,
                       'summary_fields': {'inventory': {'id': 3, 'name': 'inv'}, 'project': {'id': 4, 'name': 'proj'},
                                          'organization': {'id': 1, 'name': 'Default'}}}],
    'workflow_job_templates': [],
    'inventory_sources': [],
    'schedules': [],
    'job_templates/9/schedules': [],
}


def run(module, params, check_mode=False):
    """The module's result for ``params``, and the fake client it ran against."""
    validated = ArgumentSpecValidator(module.SPEC.argument_spec).validate(
        dict(params, service_url='https://service.invalid', service_token='t'))
    assert not validated.error_messages, validated.error_messages
    api = ApiTask(module.SPEC, validated.validated_parameters, check_mode=check_mode)
    api._client = FakeClient(OBJECTS)
    return api.execute(module.run), api._client


def test_a_copy_with_a_bad_label_fails_and_writes_nothing():
    result, client = run(job_template, dict(name='deploy-copy', copy_from='deploy', labels=['no-such-label']))
    assert result['failed'] and not result['changed'] and not result['copied']
    assert result['msg'] == 'Could not find label entry with name no-such-label'
    assert 'copied_from' not in result
    assert client.writes == []


def test_a_copy_with_a_bad_reference_or_credential_fails_and_writes_nothing():
    for given in (dict(inventory='no-such-inventory'), dict(credentials=['no-such-credential']),
                  dict(instance_groups=['no-such-group'])):
        result, client = run(job_template, dict(given, name='deploy-copy', copy_from='deploy'))
        assert result['failed'] and not result['changed'], given
        assert 'no-such-' in result['msg']
        assert client.writes == [], given


def test_a_missing_copy_source_fails_and_writes_nothing():
    result, client = run(job_template, dict(name='deploy-copy', copy_from='no-such-template', labels=['l1']))
    assert result['failed'] and result['msg'] == "job template 'no-such-template' to copy from was not found."
    assert client.writes == []


def test_a_copy_in_check_mode_sends_no_write():
    result, client = run(job_template, dict(name='deploy-copy', copy_from='deploy', description='The copy',
                                            labels=['l1'], credentials=['machine']), check_mode=True)
    assert not result.get('failed'), result
    assert result['changed'] and result['copied'] and result['copied_from'] == 9
    assert result['job_template']['name'] == 'deploy-copy'
    assert client.writes == []


def test_a_copy_is_made_once_every_name_is_resolved():
    result, client = run(job_template, dict(name='deploy-copy', copy_from='deploy', description='The copy',
                                            labels=['l1']))
    assert not result.get('failed'), result
    assert result['changed'] and result['copied'] and result['copied_from'] == 9
    writes = client.writes
    assert writes[0] == ('POST', 'job_templates/9/copy', {'name': 'deploy-copy'})
    first_write = client.calls.index(writes[0])
    reads_after = [call for call in client.calls[first_write:] if call[0] == 'GET' and call[1] in ('labels',)]
    assert reads_after == []
    assert ('PATCH', 'job_templates/%d' % result['id'], {'description': 'The copy'}) in writes


SCHEDULE = dict(name='nightly', unified_job_template='deploy', rrule='DTSTART:20300101T020000Z RRULE:FREQ=DAILY;INTERVAL=1')


def test_a_schedule_with_a_bad_label_or_credential_fails_and_writes_nothing():
    for given in (dict(labels=['no-such-label']), dict(credentials=['no-such-credential']),
                  dict(labels=['l1'], instance_groups=['no-such-group'])):
        result, client = run(schedule, dict(SCHEDULE, **given))
        assert result['failed'] and not result['changed'], given
        assert 'no-such-' in result['msg']
        assert client.writes == [], given


def test_a_schedule_in_check_mode_sends_no_write():
    result, client = run(schedule, dict(SCHEDULE, labels=['l1'], credentials=['machine']), check_mode=True)
    assert not result.get('failed'), result
    assert result['changed']
    assert client.writes == []


def test_a_schedule_is_created_then_given_its_lists():
    result, client = run(schedule, dict(SCHEDULE, labels=['l1'], credentials=['machine']))
    assert not result.get('failed'), result
    assert [call[:2] for call in client.writes] == [
        ('POST', 'job_templates/9/schedules'),
        ('POST', 'schedules/%d/credentials' % result['id']),
        ('POST', 'schedules/%d/labels' % result['id']),
    ]
