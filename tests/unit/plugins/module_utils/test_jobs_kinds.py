"""Waiting for and cancelling unified jobs of each kind (jobs, ad hoc commands)
against a scripted client: no service needed."""

import pytest

from ansible_collections.automation.service.plugins.module_utils import _jobs
from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask, ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound, ServiceError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write


class Response:
    def __init__(self, text):
        self.status, self.text = 200, text


class Client:
    """Answers GETs from ``pages`` (a path -> list of answers, the last one repeated)."""

    def __init__(self, pages, stdout=''):
        self.pages, self.stdout, self.calls = pages, stdout, []

    def get(self, path, params=None):
        self.calls.append(('GET', path))
        answers = self.pages[path]
        return answers.pop(0) if len(answers) > 1 else answers[0]

    def send(self, method, path, **kwargs):
        self.calls.append((method, path))
        return Response(self.stdout)

    def request(self, method, path, json_body=None, expect=None, params=None):
        self.calls.append((method, path))
        return {}


class Clock:
    def __init__(self):
        self.now = 0.0

    def time(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


class Task(ApiTask):
    """A task whose client is the fake one, and whose get_one reads its pages."""

    def __init__(self, client, check_mode=False):
        super().__init__(ModuleSpec({}), {}, check_mode=check_mode)
        self._client = client

    def get_one(self, endpoint, **filters):
        page = self.client.get(endpoint)
        found = [o for o in page['results'] if o['id'] == filters['id']]
        return found[0] if found else None


def test_wait_on_an_ad_hoc_command_reads_its_endpoint_and_names_it():
    client = Client({'ad_hoc_commands/7': [{'id': 7, 'status': 'running'}, {'id': 7, 'status': 'failed'}]},
                    stdout='web01 | FAILED | rc=4')
    clock = Clock()
    with pytest.raises(_jobs.JobFailed) as info:
        _jobs.wait(client, 7, None, 1, sleep=clock.sleep, clock=clock.time, kind=_jobs.AD_HOC_COMMAND)
    assert str(info.value).startswith('Ad hoc command 7 failed (see its output).')
    assert info.value.result['command']['status'] == 'failed' and 'job' not in info.value.result
    assert info.value.result['stdout'] == 'web01 | FAILED | rc=4'
    assert ('GET', 'ad_hoc_commands/7/stdout') in client.calls


def test_wait_timeout_names_the_wait_module_of_the_kind():
    client = Client({'ad_hoc_commands/7': [{'id': 7, 'status': 'running'}]})
    clock = Clock()
    with pytest.raises(_jobs.JobTimeout) as info:
        _jobs.wait(client, 7, 3, 1, sleep=clock.sleep, clock=clock.time, kind=_jobs.AD_HOC_COMMAND)
    assert 'Ad hoc command 7 is still running after waiting 3 seconds' in str(info.value)
    assert 'automation.service.ad_hoc_command_wait and command_id 7' in str(info.value)
    # jobs keep their words
    client = Client({'jobs/5': [{'id': 5, 'status': 'pending'}]})
    with pytest.raises(_jobs.JobTimeout, match='Job 5 is still pending .* automation.service.job_wait and job_id 5'):
        _jobs.wait(client, 5, 1, 1, sleep=clock.sleep, clock=clock.time)


def test_cancel_waits_until_it_can_no_longer_be_canceled():
    client = Client({
        'ad_hoc_commands': [{'results': [{'id': 3, 'status': 'running'}]}],
        'ad_hoc_commands/3/cancel/': [{'can_cancel': True}, {'can_cancel': True}, {'can_cancel': True}, {'can_cancel': False}],
        'ad_hoc_commands/3': [{'id': 3, 'status': 'canceled'}],
    })
    clock = Clock()
    task = Task(client)
    _jobs.cancel(task, 3, False, kind=_jobs.AD_HOC_COMMAND, interval=1, timeout=0, sleep=clock.sleep, clock=clock.time)
    assert task.result == {'changed': True, 'id': 3, 'status': 'canceled'}
    assert client.calls.count(('POST', 'ad_hoc_commands/3/cancel/')) == 1
    assert clock.now == 2


def test_cancel_timeout_missing_and_finished():
    pages = {
        'ad_hoc_commands': [{'results': [{'id': 3, 'status': 'running'}]}],
        'ad_hoc_commands/3/cancel/': [{'can_cancel': True}],
        'ad_hoc_commands/3': [{'id': 3, 'status': 'running'}],
    }
    clock = Clock()
    with pytest.raises(ServiceError, match='Ad hoc command 3 was asked to cancel but is still running after 2 seconds'):
        _jobs.cancel(Task(Client(pages)), 3, False, kind=_jobs.AD_HOC_COMMAND, interval=1, timeout=2,
                     sleep=clock.sleep, clock=clock.time)
    with pytest.raises(NotFound, match='^Unable to find command with id 4$'):
        _jobs.cancel(Task(Client(pages)), 4, False, kind=_jobs.AD_HOC_COMMAND)
    done = {'jobs': [{'results': [{'id': 3, 'status': 'successful'}]}], 'jobs/3/cancel/': [{'can_cancel': False}]}
    task = Task(Client(done))
    _jobs.cancel(task, 3, False)
    assert task.result == {'changed': False, 'id': 3, 'status': 'successful'}
    with pytest.raises(ServiceError, match='^Job is not running$'):
        _jobs.cancel(Task(Client(done)), 3, True)
    # check mode asks for nothing
    task = Task(Client(dict(pages)), check_mode=True)
    _jobs.cancel(task, 3, False, kind=_jobs.AD_HOC_COMMAND, interval=1)
    assert task.result['changed'] is True and ('POST', 'ad_hoc_commands/3/cancel/') not in task.client.calls


def test_extra_vars_go_through_an_enabled_survey():
    info = {'ask_variables_on_launch': False, 'ask_limit_on_launch': False, 'survey_enabled': True}
    assert _jobs.not_prompted(info, ['extra_vars', 'limit']) == ['limit']
    assert _jobs.not_prompted(dict(info, survey_enabled=False), ['extra_vars']) == ['extra_vars']
    _jobs.check_prompts('deploy', info, ['extra_vars'])
    with pytest.raises(ServiceError, match='does not prompt for extra_vars'):
        _jobs.check_prompts('deploy', dict(info, survey_enabled=False), ['extra_vars'])


def test_a_failed_or_timed_out_wait_carries_the_shaped_result_and_the_task_result_under_it():
    def shape(result):
        return {'update': result['job'], 'stdout': result.get('stdout')}

    client = Client({'jobs/5': [{'id': 5, 'status': 'failed'}]}, stdout='boom')
    clock = Clock()
    assert _jobs.wait(Client({'jobs/5': [{'id': 5, 'status': 'successful'}]}), 5, None, 1, shape=shape) == {
        'update': {'id': 5, 'status': 'successful'}, 'stdout': ''}
    with pytest.raises(_jobs.JobTimeout) as info:
        _jobs.wait(Client({'jobs/5': [{'id': 5, 'status': 'running'}]}), 5, 1, 1, sleep=clock.sleep, clock=clock.time,
                   shape=shape)
    assert info.value.result == {'update': {'id': 5, 'status': 'running'}, 'stdout': None}

    def waited(_started):
        api.returns(id=9)
        return api.returns(**_jobs.wait(client, 5, None, 1, shape=shape))

    def run(api):
        api.apply(Plan(None, [Write('POST', 'things/9/update', {}, expect=(202,), settle=waited)]))

    api = Task(client)
    result = api.execute(run)
    assert result['failed'] and result['msg'].startswith('Job 5 failed')
    assert result['id'] == 9 and result['changed'] and result['update'] == {'id': 5, 'status': 'failed'}
    assert result['stdout'] == 'boom'
