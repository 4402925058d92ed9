"""eda_event_stream and eda_event_stream_info against an EDA in memory (eda_runs_fake): made once (forward_events as
the service's test_mode, headers as its additional_data_headers), unchanged the second time although the service
reads its credential and organization back as references; a bad UUID and a missing credential fail before
writing; the info module keeps the exact name."""

from ansible_collections.automation.service.plugins.modules import eda_event_stream as stream
from ansible_collections.automation.service.plugins.modules import eda_event_stream_info as stream_info

from .eda_runs_fake import ROOT as EDA
from .eda_runs_fake import FakeEdaRuns as FakeEda
from .eda_runs_fake import run

NEW = dict(name='push', credential_name='hmac', organization_name='Default', forward_events=True)


def test_made_once_then_changed_field_by_field():
    eda = FakeEda()
    assert run(stream, eda, check=True, **NEW)['changed'] is True and eda.writes == []
    made = run(stream, eda, diff=True, **dict(NEW, uuid='550E8400-E29B-41D4-A716-446655440001'))
    assert made['changed'] is True and made['id'] == 101
    assert eda.writes == [('POST', EDA + 'event-streams/', {
        'name': 'push', 'test_mode': False, 'additional_data_headers': '', 'eda_credential_id': 9,
        'organization_id': 1, 'uuid': '550e8400-e29b-41d4-a716-446655440001'})]
    assert run(stream, eda, **NEW)['changed'] is False
    changed = run(stream, eda, diff=True, **dict(NEW, headers='X-Event', forward_events=False, new_name='pushed'))
    assert changed['changed'] is True
    assert eda.writes[-1] == ('PATCH', EDA + 'event-streams/101/', {
        'name': 'pushed', 'test_mode': True, 'additional_data_headers': 'X-Event'})
    before, after = changed['diff']['before'], changed['diff']['after']
    assert (before['name'], before['test_mode'], before['additional_data_headers']) == ('push', False, '')
    assert (after['name'], after['test_mode'], after['additional_data_headers']) == ('pushed', True, 'X-Event')
    assert before['eda_credential_id'] == after['eda_credential_id'] == 9
    again = run(stream, eda, **dict(NEW, name='pushed', headers='X-Event', forward_events=False))
    assert again['changed'] is False and len(eda.writes) == 2


def test_what_is_wrong_fails_before_writing_and_info():
    eda = FakeEda()
    assert run(stream, eda, **dict(NEW, uuid='not-a-uuid'))['msg'] == 'Invalid UUID format: not-a-uuid'
    assert run(stream, eda, name='push', credential_name='hmac')['msg'] == (
        'state is present but all of the following are missing: organization_name')
    assert "'nope' not found" in run(stream, eda, **dict(NEW, credential_name='nope'))['msg']
    ignored = run(stream, eda, **dict(NEW, event_stream_type='hmac'))
    assert ignored['changed'] is True and 'event_stream_type is ignored' in ' '.join(ignored['warnings'])
    assert len(eda.writes) == 1
    run(stream, eda, **dict(NEW, name='push 2'))
    assert [s['name'] for s in run(stream_info, eda, name='push')['event_streams']] == ['push']
    assert len(run(stream_info, eda)['event_streams']) == 3
    assert run(stream, eda, name='push', state='absent')['changed'] is True
    assert eda.writes[-1][:2] == ('DELETE', EDA + 'event-streams/101/')
