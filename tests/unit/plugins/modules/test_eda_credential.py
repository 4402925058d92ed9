"""eda_credential, eda_credential_type and their _info against a fake EDA (eda_fake): the credential's secret
inputs (read back as $encrypted$) compared as set, sent with every write of the inputs and masked in the diff and
the result; a second run changes nothing; copy_from; state: test (nothing changes, check mode sends nothing);
references by name written as <x>_id; the credential type's inputs and injectors compared as data."""

from ansible_collections.automation.service.plugins.modules import (
    eda_credential, eda_credential_info, eda_credential_type, eda_credential_type_info,
)

from .eda_fake import FakeEda, objects
from .test_plan import run

CREDENTIALS = '/api/eda/v1/eda-credentials/'
TYPES = '/api/eda/v1/credential-types/'
SECRET = 'very-secret-value'
REGISTRY = dict(name='reg', credential_type_name='Container Registry', organization_name='Default',
                inputs={'host': 'quay.io', 'username': 'robot', 'password': SECRET})


def test_a_credential_is_made_once_its_secret_masked_and_a_second_run_changes_nothing():
    client = FakeEda(objects())
    made, _api = run(eda_credential, REGISTRY, client)
    assert not made.get('failed'), made
    assert client.writes == [('POST', CREDENTIALS, {'name': 'reg', 'credential_type_id': 5, 'organization_id': 1,
                                                    'inputs': REGISTRY['inputs']})]
    assert made['changed'] and made['credential']['inputs']['password'] == '$encrypted$'
    assert SECRET not in repr(made)
    # only the type's secret input stays masked in logs and results; the others show
    assert SECRET in _api.no_log_values and 'robot' not in _api.no_log_values and 'quay.io' not in _api.no_log_values
    stored = client.objects['eda-credentials'][0]
    assert stored['inputs']['password'] == SECRET and made['id'] == stored['id']
    # EDA filled in verify_ssl, whose field has a default: not given, it compares as that default
    assert stored['inputs']['verify_ssl'] is True

    client.calls[:] = []
    again, _api = run(eda_credential, REGISTRY, client)
    assert not again['changed'] and client.writes == [], again

    # another input changed: every input given goes with the write, the secret masked in the diff
    changed, _api = run(eda_credential, dict(REGISTRY, inputs=dict(REGISTRY['inputs'], username='bot')), client)
    assert client.writes == [('PATCH', CREDENTIALS + '%d/' % stored['id'],
                              {'inputs': {'host': 'quay.io', 'username': 'bot', 'password': SECRET}})]
    assert changed['changed'] and SECRET not in repr(changed['diff'])
    assert changed['diff']['after']['inputs']['username'] == 'bot'


def test_check_mode_sends_nothing_and_shows_the_would_be_credential_masked():
    client = FakeEda(objects())
    result, _api = run(eda_credential, REGISTRY, client, check_mode=True)
    assert result['changed'] and client.writes == []
    assert result['credential']['inputs']['password'] == '$encrypted$' and SECRET not in repr(result)


# ansible.eda's words for a credential to copy that does not exist (its credential target asserts them), and ours
NO_SOURCE = "Unable to access 'id' of the credential to copy from. No credential is named 'nope'."


def test_copy_from_makes_the_copy_once_then_leaves_it():
    client = FakeEda(objects())
    run(eda_credential, REGISTRY, client)
    source = client.objects['eda-credentials'][0]['id']
    client.calls[:] = []
    copied, _api = run(eda_credential, dict(name='reg2', copy_from='reg', description='copy'), client)
    assert not copied.get('failed'), copied
    made = client.objects['eda-credentials'][1]
    assert client.writes == [('POST', CREDENTIALS + '%d/copy/' % source, {'name': 'reg2'}),
                             ('PATCH', CREDENTIALS + '%d/' % made['id'], {'description': 'copy'})]
    assert copied['copied'] and copied['copied_from'] == source and copied['changed']
    client.calls[:] = []
    again, _api = run(eda_credential, dict(name='reg2', copy_from='reg', description='copy'), client)
    assert not again['changed'] and client.writes == [] and not again['copied']
    assert again['warnings'] == ['Credential reg2 exists: copy_from reg was not used.']
    missing, _api = run(eda_credential, dict(name='reg3', copy_from='nope'), client)
    assert missing['failed'] and missing['msg'] == NO_SOURCE
    # as with ansible.eda, the credential to copy must exist even when the one named does; nothing is written
    client.calls[:] = []
    gone, _api = run(eda_credential, dict(name='reg2', copy_from='nope'), client)
    assert gone['failed'] and gone['msg'] == NO_SOURCE and client.writes == []


def test_state_test_changes_nothing_and_says_what_eda_said():
    client = FakeEda(objects())
    run(eda_credential, REGISTRY, client)
    found = client.objects['eda-credentials'][0]['id']
    client.calls[:] = []
    tested, _api = run(eda_credential, dict(name='reg', state='test', metadata={'secret_key': 'k'}), client)
    assert not tested['changed'] and tested['test_result'] == {'success': True, 'message': 'tested'}
    assert client.writes == [('POST', CREDENTIALS + '%d/test/' % found, {'metadata': {'secret_key': 'k'}})]
    client.test_refusal = {'message': 'cannot reach the vault'}
    refused, _api = run(eda_credential, dict(name='reg', state='test'), client)
    # EDA refused the test (400): the task fails with its answer, as ansible.eda's does
    assert refused['failed'] and not refused['changed'] and 'test_result' not in refused
    assert refused['msg'] == "Failed to test credential: HTTP error {'message': 'cannot reach the vault'}"
    client.calls[:] = []
    checked, _api = run(eda_credential, dict(name='reg', state='test'), client, check_mode=True)
    assert checked['test_result']['details'] == {'check_mode': True} and client.writes == []
    missing, _api = run(eda_credential, dict(name='nope', state='test'), client)
    assert missing['failed'] and missing['msg'] == "Credential 'nope' not found"
    kind, _api = run(eda_credential_type, dict(name='Container Registry', state='test',
                                               test_inputs={'host': 'h'}), client)
    assert client.writes[-1] == ('POST', TYPES + '5/test/', {'inputs': {'host': 'h'}}) and not kind['changed']


def test_a_credential_needs_its_type_inputs_and_organization_to_be_made():
    client = FakeEda(objects())
    no_type, _api = run(eda_credential, dict(name='c', inputs={'host': 'h'}, organization_name='Default'), client)
    assert no_type['failed'] and 'credential_type_name is required' in no_type['msg']
    no_org, _api = run(eda_credential, dict(REGISTRY, organization_name=None), client)
    assert no_org['msg'] == 'Parameter organization_name is a required when state is set to present'
    bad_type, _api = run(eda_credential, dict(REGISTRY, credential_type_name='Nope'), client)
    assert bad_type['msg'] == "Credential type 'Nope' not found"
    assert client.writes == []


def test_a_credential_type_compares_its_inputs_and_injectors_as_data():
    client = FakeEda(objects())
    # a field without a type: EDA makes it a string, and it compares as one
    params = dict(name='hook', description='d', inputs={'fields': [{'id': 'token', 'secret': True}]},
                  injectors={'extra_vars': {'hook_token': '{{ token }}'}})
    made, _api = run(eda_credential_type, params, client)
    assert made['changed'] and client.writes[-1][0] == 'POST' and client.writes[-1][1] == TYPES
    client.calls[:] = []
    again, _api = run(eda_credential_type, params, client)
    assert not again['changed'] and client.writes == []
    changed, _api = run(eda_credential_type, dict(params, injectors={'env': {'HOOK': '{{ token }}'}}), client)
    assert client.writes == [('PATCH', TYPES + '%d/' % made['id'], {'injectors': {'env': {'HOOK': '{{ token }}'}}})]
    assert changed['diff']['before']['injectors'] == {'extra_vars': {'hook_token': '{{ token }}'}}
    gone, _api = run(eda_credential_type, dict(name='hook', state='absent'), client)
    assert gone['changed'] and client.writes[-1] == ('DELETE', TYPES + '%d/' % made['id'], None)


def test_the_info_modules_return_what_eda_lists():
    client = FakeEda(objects())
    run(eda_credential, REGISTRY, client)
    listed, _api = run(eda_credential_info, dict(name='reg'), client)
    assert [c['name'] for c in listed['credentials']] == ['reg']
    assert listed['credentials'][0]['inputs']['password'] == '$encrypted$'
    assert listed['credentials'][0]['credential_type'] == {'id': 5, 'name': 'Container Registry'}
    types, _api = run(eda_credential_type_info, {}, client)
    assert [t['name'] for t in types['credential_types']] == ['Container Registry']
