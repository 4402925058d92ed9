"""eda_decision_environment and its _info against a fake EDA (eda_fake): where the requests go (/api/eda/v1/ behind
the gateway; nothing at all on AWX), names compared exactly after EDA's loose ?name= filter and every page read,
references written as <x>_id and compared with what EDA reads back (ids in lists, nested objects in details),
idempotence, check mode, the diff, and ansible.eda's words where a task is refused."""

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.module_utils._loop_reads import LoopReads
from ansible_collections.automation.service.plugins.modules import (
    eda_decision_environment, eda_decision_environment_info,
)

from .eda_fake import FakeEda, objects
from .test_plan import run

DE = '/api/eda/v1/decision-environments/'
IMAGE = 'quay.io/ansible/ansible-rulebook:main'


def eda(**more):
    return FakeEda(objects(**more))


def credential(id, name):
    return {'id': id, 'name': name, 'credential_type_id': 5, 'organization_id': 1, 'inputs': {}}


def test_on_awx_the_task_fails_naming_the_module_before_any_request():
    client = FakeEda(objects(), layout=Layout.awx())
    result, _api = run(eda_decision_environment, dict(name='de', image_url=IMAGE, organization_name='Default'), client)
    assert result['failed']
    assert 'automation.service.eda_decision_environment needs an Automation Platform gateway' in result['msg']
    assert '/api/eda/v1/decision-environments/' in result['msg']
    assert client.calls == []
    info, _api = run(eda_decision_environment_info, {}, client)
    assert info['failed'] and 'automation.service.eda_decision_environment_info' in info['msg']
    assert client.calls == []


def test_create_then_the_same_again_changes_nothing():
    client = eda(**{'eda-credentials': [credential(7, 'registry')]})
    params = dict(name='de', image_url=IMAGE, organization_name='Default', credential='registry',
                  pull_policy='missing', description='rulebooks')
    result, _api = run(eda_decision_environment, params, client)
    assert not result.get('failed'), result
    assert result['changed']
    assert client.writes == [('POST', DE, {'name': 'de', 'image_url': IMAGE, 'organization_id': 1,
                                           'eda_credential_id': 7, 'pull_policy': 'missing',
                                           'description': 'rulebooks'})]
    made = client.objects['decision-environments'][0]
    assert result['id'] == made['id'] and result['decision_environment']['name'] == 'de'
    assert result['diff']['before'] == {} and result['diff']['after']['eda_credential_id'] == 7
    # the look-ups are EDA's: ?name= on its own lists, no or__id, no named URL
    reads = [call for call in client.calls if call[0] == 'GET']
    assert (('GET', '/api/eda/v1/organizations/', {'name': 'Default', 'page_size': 200}) in reads)
    assert all(not any(key.startswith('or__') for key in call[2]) for call in reads)

    client.calls[:] = []
    again, _api = run(eda_decision_environment, params, client)
    assert not again['changed'] and client.writes == [] and 'diff' not in again
    assert again['id'] == made['id']


def test_a_name_that_others_start_with_is_found_exactly_and_every_page_is_read():
    # EDA's ?name=de keeps de-1, DE-2 ... and de: the one named exactly is on the third page of two
    others = [{'id': 10 + n, 'name': 'de-%d' % n, 'image_url': 'x', 'organization_id': 1, 'pull_policy': 'always',
               'eda_credential_id': None, 'description': ''} for n in range(4)]
    target = {'id': 30, 'name': 'de', 'image_url': IMAGE, 'organization_id': 1, 'pull_policy': 'always',
              'eda_credential_id': None, 'description': ''}
    client = FakeEda(objects(**{'decision-environments': others + [target]}), page_size_cap=2)
    result, _api = run(eda_decision_environment, dict(name='de', description='new'), client)
    assert not result.get('failed'), result
    assert client.writes == [('PATCH', DE + '30/', {'description': 'new'})]
    pages = [c[1].partition('page=')[2] for c in client.calls if c[0] == 'GET' and c[1].startswith(DE)]
    assert pages == ['', '2', '3']
    # a name no object has exactly is not any of those that start with it
    client.calls[:] = []
    result, _api = run(eda_decision_environment, dict(name='d', image_url=IMAGE, organization_name='1'), client)
    assert result['changed'] and client.writes[0][0] == 'POST'


def test_references_read_back_nested_compare_as_ids_and_a_change_is_a_patch_of_ids():
    client = eda(**{'eda-credentials': [credential(7, 'registry'), credential(8, 'other')],
                    'decision-environments': [{'id': 40, 'name': 'de', 'image_url': IMAGE, 'organization_id': 1,
                                               'eda_credential_id': 7, 'pull_policy': 'always',
                                               'description': ''}]})
    same, _api = run(eda_decision_environment, dict(name='de', credential='registry', organization_name='Default'),
                     client)
    assert not same['changed'] and client.writes == []
    moved, _api = run(eda_decision_environment, dict(name='de', credential='other', organization_name='Dev'), client)
    assert client.writes == [('PATCH', DE + '40/', {'eda_credential_id': 8, 'organization_id': 2})]
    assert moved['diff'] == {'before': {'name': 'de', 'eda_credential_id': 7, 'organization_id': 1,
                                        'pull_policy': 'always'},
                             'after': {'name': 'de', 'eda_credential_id': 8, 'organization_id': 2,
                                       'pull_policy': 'always'}}
    # '' is no credential
    client.calls[:] = []
    run(eda_decision_environment, dict(name='de', credential=''), client)
    assert client.writes == [('PATCH', DE + '40/', {'eda_credential_id': None})]


def test_check_mode_and_diff_say_the_change_and_send_nothing():
    client = eda(**{'decision-environments': [{'id': 40, 'name': 'de', 'image_url': IMAGE, 'organization_id': 1,
                                               'eda_credential_id': None, 'pull_policy': 'always',
                                               'description': ''}]})
    result, _api = run(eda_decision_environment, dict(name='de', new_name='de2', pull_policy='never'), client,
                       check_mode=True)
    assert result['changed'] and client.writes == []
    assert result['diff']['after']['name'] == 'de2' and result['diff']['after']['pull_policy'] == 'never'
    assert result['decision_environment']['name'] == 'de2'
    created, _api = run(eda_decision_environment, dict(name='new', image_url=IMAGE, organization_name='Default'),
                        client, check_mode=True)
    assert created['changed'] and client.writes == [] and created['diff']['after']['organization_id'] == 1
    deleted, _api = run(eda_decision_environment, dict(name='de', state='absent'), client, check_mode=True)
    assert deleted['changed'] and deleted['id'] == 40 and client.writes == []


def test_rename_then_found_by_its_new_name_and_delete_twice():
    client = eda(**{'decision-environments': [{'id': 40, 'name': 'de', 'image_url': IMAGE, 'organization_id': 1,
                                               'eda_credential_id': None, 'pull_policy': 'always',
                                               'description': ''}]})
    run(eda_decision_environment, dict(name='de', new_name='de2'), client)
    assert client.writes == [('PATCH', DE + '40/', {'name': 'de2'})]
    again, _api = run(eda_decision_environment, dict(name='de', new_name='de2'), client)
    assert not again['changed']
    gone, _api = run(eda_decision_environment, dict(name='de2', state='absent'), client)
    assert gone['changed'] and gone['id'] == 40 and client.writes[-1] == ('DELETE', DE + '40/', None)
    twice, _api = run(eda_decision_environment, dict(name='de2', state='absent'), client)
    assert not twice['changed'] and client.writes[-1] == ('DELETE', DE + '40/', None)


def test_refusals_in_ansible_edas_words_and_nothing_written():
    client = eda()
    no_org, _api = run(eda_decision_environment, dict(name='de', image_url=IMAGE), client)
    assert no_org['failed'] and no_org['msg'] == 'Parameter organization_name is a required when state is set to present'
    no_image, _api = run(eda_decision_environment, dict(name='de', organization_name='Default'), client)
    assert no_image['failed'] and 'image_url is required' in no_image['msg']
    bad_credential, _api = run(eda_decision_environment, dict(name='de', image_url=IMAGE, organization_name='Default',
                                                              credential='nope'), client)
    assert bad_credential['failed'] and bad_credential['msg'] == "Credential 'nope' not found"
    assert client.writes == []


def test_info_lists_every_page_or_the_one_named_exactly():
    des = [{'id': 10 + n, 'name': 'de-%d' % n, 'image_url': 'x', 'organization_id': 1} for n in range(5)]
    client = FakeEda(objects(**{'decision-environments': des}), page_size_cap=2)
    every, _api = run(eda_decision_environment_info, {}, client)
    assert [d['id'] for d in every['decision_environments']] == [10, 11, 12, 13, 14] and not every['changed']
    one, _api = run(eda_decision_environment_info, dict(name='de-3'), client)
    assert [d['id'] for d in one['decision_environments']] == [13]
    none, _api = run(eda_decision_environment_info, dict(name='de'), client)
    assert none['decision_environments'] == []


def loop(client, names):
    """A loop of eda_decision_environment items over ``names``, sharing reads as the action plugin has them share."""
    reads = LoopReads()
    for name in names:
        params = dict(name=name, image_url=IMAGE, organization_name='Default', credential='registry',
                      service_url='https://service.invalid', service_token='t')
        validated = ArgumentSpecValidator(eda_decision_environment.SPEC.argument_spec).validate(params)
        api = ApiTask(eda_decision_environment.SPEC, validated.validated_parameters, reads=reads)
        api._client = client
        result = api.execute(eda_decision_environment.run)
        assert not result.get('failed'), result


def test_the_items_of_a_loop_share_their_look_ups():
    client = eda(**{'eda-credentials': [credential(7, 'registry')]})
    names = ['de-%d' % n for n in range(5)]
    loop(client, names)
    # the organization and the credential every item refers to: looked up once
    looked_up = [call[1] for call in client.calls if call[0] == 'GET' and not call[1].startswith(DE)]
    assert sorted(looked_up) == ['/api/eda/v1/eda-credentials/', '/api/eda/v1/organizations/']
    assert len(client.writes) == 5
    # the third item read the list whole (one page) besides its own look-up: a name not held is read again
    reads = [call[2] for call in client.calls if call[0] == 'GET' and call[1].startswith(DE)]
    assert reads == [{'name': 'de-0', 'page_size': 200}, {'name': 'de-1', 'page_size': 200}, {'page_size': 200},
                     {'name': 'de-2', 'page_size': 200}, {'name': 'de-3', 'page_size': 200},
                     {'name': 'de-4', 'page_size': 200}]

    # the same loop again: from its third item on, each is answered from the list read then
    client.calls[:] = []
    loop(client, names)
    assert client.writes == []
    reads = [call[2] for call in client.calls if call[0] == 'GET' and call[1].startswith(DE)]
    assert reads == [{'name': 'de-0', 'page_size': 200}, {'name': 'de-1', 'page_size': 200}, {'page_size': 200}]


def test_a_list_the_loop_cannot_read_whole_leaves_the_look_ups_one_by_one():
    client = eda(**{'eda-credentials': [credential(7, 'registry')]})
    names = ['de-%d' % n for n in range(4)]
    loop(client, names)
    client.refuse_whole_lists = True
    client.calls[:] = []
    loop(client, names)     # no item fails
    reads = [call[2] for call in client.calls if call[0] == 'GET' and call[1].startswith(DE)]
    # the list read refused once (the third item), not tried again: each item looks its own up
    assert reads == [{'name': 'de-0', 'page_size': 200}, {'name': 'de-1', 'page_size': 200}, {'page_size': 200},
                     {'name': 'de-2', 'page_size': 200}, {'name': 'de-3', 'page_size': 200}]
    assert client.writes == []
