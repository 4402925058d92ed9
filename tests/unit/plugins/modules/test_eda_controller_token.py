"""eda_controller_token and eda_credential_input_source(_info) against a fake EDA (eda_fake): a token EDA never
shows again nor changes is made once, left alone on a second run, replaced (deleted, then made) only when its
description changes or update_secrets says so, its value never in the result or the diff; an input source found by
its target, source and input field, made in the target's organization, its metadata compared as data; state:
exists only reads."""

from ansible_collections.automation.service.plugins.modules import (
    eda_controller_token, eda_credential_input_source, eda_credential_input_source_info,
)

from .eda_fake import FakeEda, objects
from .test_plan import run

TOKENS = '/api/eda/v1/users/me/awx-tokens/'
SOURCES = '/api/eda/v1/credential-input-sources/'
VALUE = 'controller-token-value'


def test_a_token_is_made_once_and_replaced_only_when_asked():
    client = FakeEda(objects())
    made, _api = run(eda_controller_token, dict(name='ctl', description='d', token=VALUE), client)
    assert not made.get('failed'), made
    assert client.writes == [('POST', TOKENS, {'name': 'ctl', 'description': 'd', 'token': VALUE})]
    assert made['changed'] and VALUE not in repr(made) and made['id'] in client.tokens
    first = made['id']

    client.calls[:] = []
    again, _api = run(eda_controller_token, dict(name='ctl', description='d', token=VALUE), client)
    assert not again['changed'] and client.writes == [] and again['id'] == first
    # the list is looked up with its search filter, the name compared exactly
    assert client.calls[0] == ('GET', TOKENS, {'search': 'ctl', 'page_size': 200})

    replaced, _api = run(eda_controller_token, dict(name='ctl', description='d', token='other', update_secrets=True),
                         client)
    assert [w[:2] for w in client.writes] == [('DELETE', TOKENS + '%d/' % first), ('POST', TOKENS)]
    assert replaced['changed'] and replaced['id'] != first and client.tokens[replaced['id']] == 'other'
    assert 'other' not in repr(replaced['diff'])

    client.calls[:] = []
    described, _api = run(eda_controller_token, dict(name='ctl', description='new', token='other'), client,
                          check_mode=True)
    assert described['changed'] and client.writes == []
    assert described['diff']['after']['description'] == 'new' and 'other' not in repr(described)
    no_value, _api = run(eda_controller_token, dict(name='ctl', description='new'), client)
    assert no_value['failed'] and 'token is required to replace it' in no_value['msg'] and client.writes == []

    gone, _api = run(eda_controller_token, dict(name='ctl', state='absent'), client)
    assert gone['changed'] and client.writes == [('DELETE', TOKENS + '%d/' % replaced['id'], None)]
    missing, _api = run(eda_controller_token, dict(name='new-one'), client)
    assert missing['failed'] and 'token is required' in missing['msg']


def credentials():
    vault = {'id': 6, 'name': 'HashiCorp Vault Secret Lookup', 'kind': 'external', 'inputs': {
        'fields': [{'id': 'url', 'type': 'string'}, {'id': 'token', 'type': 'string', 'secret': True}],
        'metadata': [{'id': 'secret_path', 'type': 'string'}, {'id': 'secret_key', 'type': 'string'}]}}
    made = objects(**{'eda-credentials': [
        {'id': 15, 'name': 'app', 'credential_type_id': 5, 'organization_id': 2, 'inputs': {'host': 'h'}},
        {'id': 23, 'name': 'vault', 'credential_type_id': 6, 'organization_id': 1, 'inputs': {'url': 'u'}},
    ]})
    made['credential-types'].append(vault)
    return FakeEda(made)


def test_an_input_source_is_found_by_its_target_source_and_field():
    client = credentials()
    params = dict(target_credential='app', source_credential='vault', input_field_name='password',
                  metadata={'secret_path': 'secret/app', 'secret_key': 'password'})
    made, _api = run(eda_credential_input_source, params, client)
    assert not made.get('failed'), made
    # made in the target credential's organization (Dev, 2): ansible.eda sends none, which EDA refuses
    assert client.writes == [('POST', SOURCES, {'input_field_name': 'password', 'metadata': params['metadata'],
                                                'target_credential': 15, 'source_credential': 23,
                                                'organization_id': 2})]
    client.calls[:] = []
    again, _api = run(eda_credential_input_source, params, client)
    assert not again['changed'] and client.writes == [] and again['id'] == made['id']
    changed, _api = run(eda_credential_input_source, dict(params, metadata={'secret_path': 'secret/other',
                                                                            'secret_key': 'password'},
                                                          description='from vault'), client)
    assert client.writes[-1][:2] == ('PATCH', SOURCES + '%d/' % made['id'])
    assert client.writes[-1][2]['metadata']['secret_path'] == 'secret/other'
    assert client.writes[-1][2]['description'] == 'from vault'

    found, _api = run(eda_credential_input_source, dict(params, state='exists'), client)
    assert not found['changed'] and found['id'] == made['id'] and found['input_field_name'] == 'password'
    assert found['target_credential'] == 15 and found['source_credential'] == 23
    other, _api = run(eda_credential_input_source, dict(params, input_field_name='username', state='exists'), client)
    assert other['msg'] == 'Credential input source not found' and not other.get('failed')

    listed, _api = run(eda_credential_input_source_info, dict(target_credential='app'), client)
    assert [s['id'] for s in listed['credential_input_sources']] == [made['id']]
    none, _api = run(eda_credential_input_source_info, dict(target_credential='app', input_field_name='x'), client)
    assert none['credential_input_sources'] == []
    bad, _api = run(eda_credential_input_source_info, dict(source_credential='nope'), client)
    assert bad['failed'] and bad['msg'] == "Source credential 'nope' not found"

    client.calls[:] = []
    gone, _api = run(eda_credential_input_source, dict(params, state='absent'), client)
    assert gone['changed'] and client.writes == [('DELETE', SOURCES + '%d/' % made['id'], None)]
    no_target, _api = run(eda_credential_input_source, dict(params, target_credential='nope'), client)
    assert no_target['failed'] and no_target['msg'] == "Target credential 'nope' not found"
    # the target gone, its input sources are gone too: nothing to delete
    gone_target, _api = run(eda_credential_input_source, dict(params, target_credential='nope', state='absent'),
                            client)
    assert not gone_target['changed'] and not gone_target.get('failed')
    no_source, _api = run(eda_credential_input_source, dict(params, source_credential='nope', state='absent'), client)
    assert not no_source['changed'] and not no_source.get('failed')
