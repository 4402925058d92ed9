"""The executor (ApiTask.apply): one plan, writes to two places, a half-done creation undone, a write whose
answer was lost, a diff said from the answer. Against a scripted client (no service): each path answers
what the test says, or raises what it says."""

import pytest

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask, ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, NotFound, OutcomeUnknown
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

SPEC = ModuleSpec(dict(), resource='things', result_key='thing')


class ScriptedClient:
    """Answers each (method, path) with its script's entry: an exception is raised, anything else returned."""

    def __init__(self, script):
        self.script = script
        self.sent = []

    def request(self, method, path, params=None, json_body=None, expect=None):
        self.sent.append((method, path, json_body))
        answer = self.script.get((method, path))
        if isinstance(answer, Exception):
            raise answer
        return answer


def task(script, check_mode=False):
    api = ApiTask(SPEC, dict(service_url='https://service.invalid', service_token='t'), check_mode=check_mode,
                  diff=True)
    api._client = ScriptedClient(script)
    return api


def both_places(note='the thing t made at the platform gateway by this task was deleted again'):
    """A creation at the gateway, then a write at the controller's copy of it."""
    def undo(made):
        return Write('DELETE', 'gateway/things/%d' % made['id'], expect=(204,), note=note)

    return Plan(None, [
        Write('POST', 'gateway/things', {'name': 't'}, expect=(201,), before={}, after={'name': 't'}, makes=True,
              answer={'id': None, 'name': 't'}, at='gateway', undo=undo),
        Write('PATCH', 'things/5', {'local': 1}, at='controller', makes=True, answer={'id': 5, 'local': 1}),
    ])


def test_one_plan_writes_both_places_in_order_and_says_where():
    api = task({('POST', 'gateway/things'): {'id': 3, 'name': 't'}, ('PATCH', 'things/5'): {'id': 5, 'local': 1}})
    plan = both_places()
    assert api.apply(plan) == {'id': 5, 'local': 1}
    assert [(m, p) for m, p, _ in api.client.sent] == [('POST', 'gateway/things'), ('PATCH', 'things/5')]
    assert plan.written_at() == ['gateway', 'controller']
    result = api.outcome.result()
    assert result['changed'] and result['diff'] == {'before': {}, 'after': {'name': 't'}}


def test_a_creation_is_undone_when_a_later_write_is_refused_and_the_task_changed_nothing():
    refusal = ApiError('answered 400: local: bad', status=400)
    api = task({('POST', 'gateway/things'): {'id': 3, 'name': 't'}, ('PATCH', 'things/5'): refusal,
                ('DELETE', 'gateway/things/3'): None})
    with pytest.raises(ApiError) as raised:
        api.apply(both_places())
    assert [(m, p) for m, p, _ in api.client.sent] == [
        ('POST', 'gateway/things'), ('PATCH', 'things/5'), ('DELETE', 'gateway/things/3')]
    assert str(raised.value) == 'answered 400: local: bad (the thing t made at the platform gateway by this task ' \
                                'was deleted again)'
    assert not api.outcome.result()['changed']


def test_not_found_after_a_creation_keeps_it_for_the_next_run():
    api = task({('POST', 'gateway/things'): {'id': 3, 'name': 't'}, ('PATCH', 'things/5'): NotFound('no copy yet')})
    with pytest.raises(NotFound):
        api.apply(both_places())
    assert ('DELETE', 'gateway/things/3', None) not in api.client.sent


def test_check_mode_sends_nothing_and_says_the_plan():
    api = task({}, check_mode=True)
    plan = both_places()
    assert api.apply(plan) == {'id': 5, 'local': 1}
    assert api.client.sent == []
    assert plan.written_at() == ['gateway', 'controller']
    assert api.outcome.result()['changed']


def test_a_write_whose_answer_was_lost_is_said_in_its_words_and_as_a_change():
    def lost(exc):
        exc.message = 'The launch may or may not have happened (%s).' % exc.message

    api = task({('POST', 'launch'): OutcomeUnknown('connection reset')})
    with pytest.raises(OutcomeUnknown) as raised:
        api.apply(Plan(None, [Write('POST', 'launch', {}, expect=(201,), lost=lost)]))
    assert str(raised.value) == 'The launch may or may not have happened (connection reset).'
    assert api.outcome.result()['changed']
    assert len(api.client.sent) == 1     # sent once: never again


def test_a_refused_write_changed_nothing():
    api = task({('POST', 'launch'): ApiError('answered 400', status=400)})
    with pytest.raises(ApiError):
        api.apply(Plan(None, [Write('POST', 'launch', {}, expect=(201,))]))
    assert not api.outcome.result()['changed']


def test_a_diff_said_from_the_answer_is_shown_once_the_service_took_the_write():
    api = task({('POST', 'config'): {'license': 'new'}})
    api.apply(Plan(None, [Write('POST', 'config', {}, before={'license': 'old'},
                                after=lambda answer: {'license': answer['license']})]))
    assert api.outcome.result()['diff'] == {'before': {'license': 'old'}, 'after': {'license': 'new'}}


def test_a_write_sent_elsewhere_says_its_own_refusal_first_then_the_place():
    said = []
    write = Write('POST', 'users', {'username': 'u'}, refused=lambda exc: said.append('own: %s' % exc.message))
    assert write.sent_to('gateway', lambda exc: said.append('place: %s' % exc.message)) is write
    assert write.at == 'gateway'
    write.refused(ApiError('bad', status=400))
    assert said == ['own: bad', 'place: bad']
    bare = Write('DELETE', 'users/1').sent_to('controller')
    bare.refused(ApiError('gone', status=400))     # nothing to say, and nothing fails
    assert bare.at == 'controller'


def test_but_makes_a_new_write_and_leaves_the_first_as_it_was():
    first = Write('PATCH', 'hosts/1', {'name': 'a'}, expect=(200,), secret=('x',))
    second = first.but(makes=True, after={'name': 'a'})
    assert second is not first
    assert (second.method, second.path, second.body, second.expect, second.secret) == \
        ('PATCH', 'hosts/1', {'name': 'a'}, (200,), ('x',))
    assert second.makes and second.after == {'name': 'a'}
    assert not first.makes and first.after is None


def started(settle, changes):
    """A write that starts something (an update) the task waits for (``settle``) and judges (``changes``)."""
    return Plan(None, [Write('POST', 'things/5/update', {}, expect=(202,), makes=True, settle=settle, changes=changes,
                             answer={'id': None})])


def test_a_settled_write_is_judged_by_how_what_it_started_ended():
    api = task({('POST', 'things/5/update'): {'id': 9, 'status': 'pending'}})
    ended = api.apply(started(lambda update: dict(update, status='successful', revision='b'),
                              lambda done: done is None or done['revision'] != 'a'))
    assert ended == {'id': 9, 'status': 'successful', 'revision': 'b'}
    assert api.outcome.result()['changed']

    api = task({('POST', 'things/5/update'): {'id': 9, 'status': 'pending'}})
    api.apply(started(lambda update: dict(update, revision='a'), lambda done: done is None or done['revision'] != 'a'))
    assert not api.outcome.result()['changed']


def test_a_write_whose_settling_failed_is_said_as_its_changes_says_for_none():
    def failed(update):
        raise NotFound('the update %d failed' % update['id'])

    for changes, changed in ((lambda done: done is None, True), (lambda done: done is not None, False), (True, True)):
        api = task({('POST', 'things/5/update'): {'id': 9}})
        with pytest.raises(NotFound):
            api.apply(started(failed, changes))
        assert api.outcome.result()['changed'] is changed


def test_a_judged_write_in_check_mode_is_judged_by_what_it_would_answer_and_not_settled():
    api = task({}, check_mode=True)
    api.apply(Plan(None, [Write('PATCH', 'settings', {'a': 1}, settle=pytest.fail, answer={'a': 1},
                                changes=lambda answer: answer['a'] == 1, before={'a': 0}, after=lambda answer: answer)]))
    assert api.client.sent == []
    assert api.outcome.result()['changed']
    assert api.outcome.result()['diff'] == {'before': {'a': 0}, 'after': {'a': 1}}


def test_a_diff_and_change_judged_from_the_answer_leave_out_what_the_service_kept():
    api = task({('PATCH', 'settings'): {'a': 0, 'b': 2}})
    wanted, before = {'a': 1, 'b': 2}, {'a': 0, 'b': 1}

    def made(answer):
        return dict((k, v) for k, v in wanted.items() if answer[k] == v)

    plan = Plan(None, [Write('PATCH', 'settings', wanted, before=lambda answer: dict((k, before[k]) for k in made(answer)),
                             after=made, changes=made, at='controller')])
    api.apply(plan)
    assert api.outcome.result()['diff'] == {'before': {'b': 1}, 'after': {'b': 2}}
    assert plan.written_at() == ['controller']

    api = task({('PATCH', 'settings'): {'a': 0, 'b': 1}})
    plan = Plan(None, [Write('PATCH', 'settings', wanted, after=made, changes=made, at='controller')])
    api.apply(plan)
    assert not api.outcome.result()['changed'] and plan.written_at() == []


def test_a_write_answered_already_is_said_and_not_sent_again():
    api = task({('PATCH', 'things/3'): {'id': 3, 'name': 't', 'enabled': False}})
    made = {'id': 3, 'name': 't', 'enabled': True}
    plan = Plan(None, [Write('POST', 'bulk/things', {'name': 't'}, before={}, after={'name': 't'}, makes=True,
                             answered=made),
                       Write('PATCH', lambda obj: 'things/%d' % obj['id'], {'enabled': False}, makes=True)])
    assert api.apply(plan) == {'id': 3, 'name': 't', 'enabled': False}
    assert api.client.sent == [('PATCH', 'things/3', {'enabled': False})]
    assert api.outcome.result()['changed'] and api.outcome.result()['diff']['after'] == {'name': 't'}


def test_a_sub_task_is_merged_under_its_keys_without_its_values():
    api = task({})
    sub = task({('POST', 'nodes'): {'id': 4}})
    sub.apply(Plan(None, [Write('POST', 'nodes', {'identifier': 'n'}, expect=(201,), before={}, after={'identifier': 'n'})]))
    sub.returns(id=4)
    sub.warn('careful')
    assert api.merge(sub, under=('workflow_nodes', 'n')) is True
    result = api.outcome.result()
    assert result['changed'] and 'id' not in result and api.warnings == ['careful']
    assert result['diff'] == {'before': {'workflow_nodes': {'n': {}}}, 'after': {'workflow_nodes': {'n': {'identifier': 'n'}}}}
    assert task({}).merge(task({})) is False
