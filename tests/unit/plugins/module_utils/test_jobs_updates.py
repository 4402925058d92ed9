"""Waiting for project and inventory updates with the job waiting code: the endpoint
polled, the messages, and the update asked for once."""

import pytest

from ansible_collections.automation.service.plugins.module_utils import _jobs
from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask, ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, OutcomeUnknown


class Response:
    def __init__(self, text):
        self.status, self.text = 200, text


class FakeClient:
    def __init__(self, statuses, post_error=None):
        self.statuses = list(statuses)
        self.calls = []
        self.post_error = post_error

    def get(self, path, params=None):
        self.calls.append(('GET', path))
        if path.endswith('/update'):
            return {'can_update': True}
        status = self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]
        return {'id': 5, 'status': status, 'elapsed': 1.5, 'job_explanation': 'git exited with 128'}

    def send(self, method, path, params=None, headers=None):
        self.calls.append((method, path))
        return Response('line 1\nfatal: no repository\n')

    def request(self, method, path, json_body=None, expect=None):
        self.calls.append((method, path))
        if self.post_error:
            raise self.post_error
        return {'id': 5, 'status': 'pending', 'url': '/api/v2/project_updates/5/'}


class Api(ApiTask):
    """A task whose client is the fake one."""

    def __init__(self, client, **params):
        super().__init__(ModuleSpec({}), dict(dict(wait=True, interval=1.0, timeout=None), **params))
        self._client = client


def test_wait_polls_the_update_endpoint_and_names_the_kind():
    client = FakeClient(['pending', 'running', 'failed'])
    with pytest.raises(_jobs.JobFailed) as failed:
        _jobs.wait(client, 5, None, 1.0, sleep=lambda s: None, kind=_jobs.PROJECT_UPDATE)
    assert str(failed.value).startswith('Project update 5 failed (git exited with 128)')
    assert 'fatal: no repository' in failed.value.result['stdout']
    assert ('GET', 'project_updates/5') in client.calls and ('GET', 'project_updates/5/stdout') in client.calls
    assert not any(path.startswith('jobs/') for method, path in client.calls)


def test_timeout_message_says_how_to_follow_the_update():
    client = FakeClient(['running'])
    clock = iter([0.0, 0.0, 10.0, 10.0])
    with pytest.raises(_jobs.JobTimeout) as timed_out:
        _jobs.wait(client, 5, 5, 1.0, sleep=lambda s: None, clock=lambda: next(clock), kind=_jobs.INVENTORY_UPDATE)
    assert 'Inventory update 5 is still running' in str(timed_out.value)
    assert 'GET /api/v2/inventory_updates/5/' in str(timed_out.value)


def test_run_update_names_the_result_after_the_kind():
    api = Api(FakeClient(['successful']))
    _jobs.run_update(api, 'projects/3/update', _jobs.PROJECT_UPDATE, 'projects/3/project_updates/', 'Project x: it')
    assert api.result['changed'] is True and api.result['id'] == 5 and api.result['status'] == 'successful'
    assert api.result['project_update']['status'] == 'successful' and 'job' not in api.result
    assert [c for c in api.client.calls if c[0] == 'POST'] == [('POST', 'projects/3/update')]


def test_run_update_refuses_a_bad_interval_before_asking():
    api = Api(FakeClient(['successful']), interval=float('nan'))
    with pytest.raises(ConfigError):
        _jobs.run_update(api, 'projects/3/update', _jobs.PROJECT_UPDATE, 'projects/3/project_updates/', 'Project x: it')
    assert api.client.calls == []


def test_a_lost_answer_is_not_asked_again():
    api = Api(FakeClient(['successful'], post_error=OutcomeUnknown('connection reset')))
    with pytest.raises(OutcomeUnknown) as lost:
        _jobs.run_update(api, 'inventory_sources/7/update', _jobs.INVENTORY_UPDATE,
                         'inventory_sources/7/inventory_updates/', 'Source: it')
    assert 'GET /api/v2/inventory_sources/7/inventory_updates/?order_by=-created' in str(lost.value)
    assert [c for c in api.client.calls if c[0] == 'POST'] == [('POST', 'inventory_sources/7/update')]
