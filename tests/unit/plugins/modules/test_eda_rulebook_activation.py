"""eda_rulebook_activation against an EDA in memory (eda_runs_fake): made once with
every name resolved, unchanged the second time; event streams mapped to the rulebook's sources; an enabled
activation is never patched (the service refuses it), a disabled one is changed and enabled; enabled/disabled
only switch; restart; check mode writes nothing; the items of a loop find what they refer to once."""

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._loop_reads import LoopReads
from ansible_collections.automation.service.plugins.modules import eda_rulebook_activation as activation

from .eda_runs_fake import ACTIVATION as MADE
from .eda_runs_fake import ROOT as EDA
from .eda_runs_fake import FakeEdaRuns as FakeEda
from .eda_runs_fake import run


def test_made_once_with_every_name_resolved_then_unchanged():
    eda = FakeEda()
    options = dict(MADE, eda_credentials=['vault', '9'], awx_token_name='controller', extra_vars='a: 1',
                   event_streams=[{'event_stream': 'pushes', 'source_name': 'second'}], state='disabled')
    checked = run(activation, eda, check=True, **options)
    assert checked['changed'] is True and eda.writes == []
    made = run(activation, eda, diff=True, **options)
    assert made['changed'] is True and made['id'] == 101
    (method, path, body), = eda.writes
    assert (method, path) == ('POST', EDA + 'activations/')
    assert body['rulebook_id'] == 5 and body['decision_environment_id'] == 7 and body['organization_id'] == 1
    assert body['eda_credentials'] == [8, 9] and body['awx_token_id'] == 11 and body['is_enabled'] is False
    assert body['restart_policy'] == 'on-failure' and body['log_level'] == 'error' and body['extra_var'] == 'a: 1'
    assert 'rule_engine_credential_id' not in body
    assert made['diff']['after']['source_mappings'] == [
        {'event_stream_id': 10, 'event_stream_name': 'pushes', 'rulebook_hash': 'h1', 'source_name': 'second'}]
    # the same again, the extra vars written otherwise, the credentials in another order: nothing to do
    again = run(activation, eda, **dict(options, extra_vars='{"a": 1}', eda_credentials=['hmac', 'vault']))
    assert again['changed'] is False and len(eda.writes) == 1


def test_an_enabled_activation_is_not_patched_a_disabled_one_is_and_enabled():
    eda = FakeEda()
    run(activation, eda, **MADE)
    assert eda.objects['activations'][0]['is_enabled'] is True
    refused = run(activation, eda, **dict(MADE, log_level='debug'))
    assert refused['failed'] is True and 'state=disabled' in refused['msg'] and 'log_level' in refused['msg']
    assert len(eda.writes) == 1
    # disabled only switches: the change asked with it is not compared (as ansible.eda)
    off = run(activation, eda, diff=True, **dict(MADE, log_level='debug', state='disabled'))
    assert off['changed'] is True and eda.writes[-1][:2] == ('POST', EDA + 'activations/101/disable/')
    assert off['diff'] == {'before': {'is_enabled': True}, 'after': {'is_enabled': False}}
    assert run(activation, eda, **dict(MADE, state='disabled'))['changed'] is False
    changed = run(activation, eda, diff=True, **dict(MADE, log_level='debug'))
    assert changed['changed'] is True
    assert eda.writes[-1] == ('PATCH', EDA + 'activations/101/', {'log_level': 'debug', 'is_enabled': True})
    assert changed['diff']['after'] == {'log_level': 'debug', 'is_enabled': True}
    assert run(activation, eda, **dict(MADE, log_level='debug'))['changed'] is False


def test_present_enables_a_disabled_activation_that_is_otherwise_as_asked():
    eda = FakeEda()
    made = run(activation, eda, **dict(MADE, state='enabled', organization_name=None))
    assert made['failed'] is True and 'organization_name is needed to create' in made['msg'] and eda.writes == []
    run(activation, eda, **dict(MADE, state='disabled'))
    result = run(activation, eda, **MADE)
    assert result['changed'] is True and eda.writes[-1][:2] == ('POST', EDA + 'activations/101/enable/')
    assert result['rulebook_activation']['is_enabled'] is True


def test_restart_and_delete():
    eda = FakeEda()
    missing = run(activation, eda, name='hello', restart=True)
    assert missing['failed'] is True and missing['msg'] == 'Cannot restart activation that does not exist.'
    run(activation, eda, **MADE)
    assert run(activation, eda, check=True, name='hello', restart=True)['changed'] is True
    assert len(eda.writes) == 1                 # the creation only
    restarted = run(activation, eda, name='hello', restart=True)
    assert restarted['changed'] is True and eda.writes[-1][:2] == ('POST', EDA + 'activations/101/restart/')
    gone = run(activation, eda, name='hello', state='absent')
    assert gone['changed'] is True and gone['id'] == 101 and eda.writes[-1][:2] == ('DELETE', EDA + 'activations/101/')
    assert run(activation, eda, name='hello', state='absent')['changed'] is False


def test_what_is_missing_fails_before_writing():
    eda = FakeEda()
    cases = [
        (dict(MADE, organization_name=None), 'organization_name is required'),
        (dict(MADE, project_name=None), 'project_name is needed'),
        (dict(MADE, rulebook_name='nope.yml'), "'nope.yml' not found"),
        (dict(MADE, eda_credentials=['nope']), "'nope' not found"),
        (dict(MADE, event_streams=[{'event_stream': 'pushes', 'source_index': 2}]), 'source_index 2 is out of range'),
        (dict(MADE, event_streams=[{'event_stream': 'pushes', 'source_name': 'x'}]), 'source_name x does not exist'),
        (dict(MADE, event_streams=[{'event_stream': 'pushes', 'source_name': 'first', 'source_index': 0}]),
         'mutually exclusive'),
        (dict(MADE, event_streams=[{'event_stream': 'nope', 'source_index': 0}]), 'event stream nope does not exist'),
    ]
    for options, message in cases:
        result = run(activation, eda, **options)
        assert result['failed'] is True and message in result['msg'], (options, result['msg'])
    assert eda.writes == []



def test_on_eda_2_6_the_fields_it_has_not_are_not_compared():
    eda = FakeEda()
    run(activation, eda, **MADE)
    stored = eda.objects['activations'][0]
    for field in ('restart_on_project_update', 'enable_persistence'):
        del stored[field]                         # EDA 2.6 shows no such fields
    assert run(activation, eda, **MADE)['changed'] is False and len(eda.writes) == 1
    asked = run(activation, eda, **dict(MADE, enable_persistence=True))
    assert asked['changed'] is False and 'has no enable_persistence' in asked['warnings'][0]


def test_the_items_of_a_loop_find_what_they_refer_to_once():
    eda = FakeEda()
    reads = LoopReads()      # what the items of one loop share (see _loop_reads)
    for index in range(3):
        options = dict(MADE, name='hello %d' % index, eda_credentials=['vault'], service_url='https://service.invalid',
                       service_token='t', event_streams=[{'event_stream': 'pushes', 'source_name': 'first'}])
        validated = ArgumentSpecValidator(activation.SPEC.argument_spec).validate(options).validated_parameters
        api = ApiTask(activation.SPEC, validated, reads=reads, environ={})
        api._client = eda
        assert api.execute(activation.run)['changed'] is True
    looked_up = [path for method, path, _params in eda.calls if method == 'GET']
    for endpoint in ('projects/', 'rulebooks/', 'decision-environments/', 'organizations/', 'eda-credentials/',
                     'event-streams/'):
        assert looked_up.count(EDA + endpoint) == 1, (endpoint, looked_up)
    # each item's own activation by name, and the third look-up in the list reads its first page (_loop_reads' probe)
    assert looked_up.count(EDA + 'activations/') == 4
    assert looked_up.count(EDA + 'rulebooks/5/sources/') == 3       # read for each item: not a name look-up
