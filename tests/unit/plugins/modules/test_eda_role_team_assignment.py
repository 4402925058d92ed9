"""eda_role_team_assignment and eda_user against a fake EDA (eda_fake): an assignment found by its role definition,
team and object (EDA shows object_id as text) is made once, left alone, deleted once, and only read with
state: exists; digits are ids, as ansible.eda reads them; on AWX, which has no EDA, eda_user and the assignment
fail before any request."""

from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.modules import eda_role_team_assignment, eda_user

from .eda_fake import FakeEda, objects
from .test_plan import run

ASSIGNMENTS = '/api/eda/v1/role_team_assignments/'


def eda():
    return FakeEda(objects(role_definitions=[{'id': 6, 'name': 'Organization Activation Admin',
                                              'content_type': 'shared.organization'}],
                           teams=[{'id': 3, 'name': 'operators'}, {'id': 4, 'name': 'operators-2'}],
                           role_team_assignments=[{'id': 9, 'role_definition': 6, 'team': 4, 'object_id': '1',
                                                   'content_type': 'shared.organization'}]))


def test_an_assignment_is_made_once_kept_and_deleted_once():
    client = eda()
    params = dict(role_definition='Organization Activation Admin', team='operators', object_id=1)
    made, _api = run(eda_role_team_assignment, params, client)
    assert not made.get('failed'), made
    assert client.writes == [('POST', ASSIGNMENTS, {'role_definition': 6, 'team': 3, 'object_id': 1})]
    assert made['changed'] and made['diff'] == {'before': {}, 'after': {'role_definition': 6, 'team': 3,
                                                                        'object_id': 1}}
    client.objects['role_team_assignments'][-1]['object_id'] = '1'     # EDA keeps the object's id as text
    client.calls[:] = []
    again, _api = run(eda_role_team_assignment, dict(params, role_definition='6', team='3'), client)
    assert not again['changed'] and client.writes == [] and again['id'] == made['id']
    assert client.calls[0] == ('GET', ASSIGNMENTS, {'role_definition': 6, 'team': 3, 'page_size': 200})

    found, _api = run(eda_role_team_assignment, dict(params, state='exists'), client)
    assert found['id'] == made['id'] and found['team'] == 3 and not found['changed']
    elsewhere, _api = run(eda_role_team_assignment, dict(params, object_id=2, state='exists'), client)
    assert elsewhere['msg'] == 'Role team assignment not found'

    checked, _api = run(eda_role_team_assignment, dict(params, state='absent'), client, check_mode=True)
    assert checked['changed'] and client.writes == []
    gone, _api = run(eda_role_team_assignment, dict(params, state='absent'), client)
    assert gone['changed'] and client.writes == [('DELETE', ASSIGNMENTS + '%d/' % made['id'], None)]
    twice, _api = run(eda_role_team_assignment, dict(params, state='absent'), client)
    assert not twice['changed'] and len(client.writes) == 1
    missing, _api = run(eda_role_team_assignment, dict(params, team='nobody'), client)
    assert missing['failed'] and missing['msg'] == "Team 'nobody' not found"
    # the team gone, its assignment is gone too: nothing to delete
    gone_team, _api = run(eda_role_team_assignment, dict(params, team='nobody', state='absent'), client)
    assert not gone_team['changed'] and not gone_team.get('failed')
    no_team, _api = run(eda_role_team_assignment, dict(role_definition='6'), client)
    assert no_team['failed'] and no_team['msg'] == 'one of the following is required: team, team_ansible_id'
    assert len(client.writes) == 1


def test_on_awx_user_and_assignment_fail_before_any_request():
    client = FakeEda(objects(), layout=Layout.awx())
    for module, params in ((eda_user, dict(username='op')),
                           (eda_role_team_assignment, dict(role_definition='r', team='t'))):
        result, _api = run(module, params, client)
        assert result['failed'] and 'automation.service.%s needs an Automation Platform gateway' % (
            module.__name__.rsplit('.', 1)[-1]) in result['msg']
    assert client.calls == []
