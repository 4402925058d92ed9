"""Organizations, users and teams where the platform keeps them, against the reference service in its
gateway layout (tests/service/README.md, "Gateway layout"): the shared fields are written at the gateway
(/api/gateway/v1/), the controller's own fields at the controller's copy, deletion at the gateway; and
the same module calls against the default AWX 24 layout, which writes at /api/v2/ as before.

The service's request log (requests.jsonl) names the API each request went to: the gateway's under
/api/gateway/v1/, the controller's under the path the controller sees (/api/v2/, also behind the gateway).
"""

import json
import uuid

import pytest

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError

from ..module_utils.helpers import connect_as
from .gateway_helpers import CTL, GW, WRITES, admin, connection, run, tag
from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import run_module
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)


def at(writes, prefix):
    return [(method, path, status) for method, path, status in writes if path.startswith(prefix)]


def controller_copy(svc, endpoint, **filters):
    found = admin(svc).get(endpoint, params=filters)['results']
    return found[0] if found else None


def gateway_object(svc, endpoint, **filters):
    found = admin(svc).get(GW + endpoint + '/', params=filters)['results']
    return found[0] if found else None


# -- organization ---------------------------------------------------------------------------


def test_an_organization_is_created_at_the_gateway_and_its_controller_fields_at_the_controller(gateway):
    name = 'gw-org-' + tag()
    result, writes = run(gateway, 'organization', diff=True, name=name, description='first', max_hosts=5)
    assert result['changed'] and not result.get('failed'), result
    assert result['written_at'] == ['gateway', 'controller']
    # created at the gateway, never POSTed to the controller; max_hosts PATCHed on the controller's copy
    assert [(m, s) for m, p, s in at(writes, GW)] == [('POST', 201)]
    assert at(writes, CTL) == [('PATCH', '/api/v2/organizations/%d/' % result['id'], 200)]
    assert gateway_object(gateway, 'organizations', name=name)['description'] == 'first'
    copy = controller_copy(gateway, 'organizations', name=name)
    assert (copy['id'], copy['max_hosts'], copy['description']) == (result['id'], 5, 'first')
    assert result['organization']['max_hosts'] == 5 and result['organization']['id'] == copy['id']
    assert result['diff']['before'] == {} and result['diff']['after'] == {
        'name': name, 'description': 'first', 'max_hosts': 5}

    # again: nothing to write, anywhere
    again, writes = run(gateway, 'organization', name=name, description='first', max_hosts=5)
    assert not again['changed'] and again['written_at'] == [] and writes == []
    assert again['id'] == result['id']


def test_an_organization_update_check_mode_rename_and_delete_on_the_gateway(gateway):
    name = 'gw-upd-' + tag()
    run(gateway, 'organization', name=name, description='one', max_hosts=1)
    org_id = controller_copy(gateway, 'organizations', name=name)['id']

    # check mode: says what it would write, where, and writes nothing
    checked, writes = run(gateway, 'organization', check_mode=True, diff=True, name=name, description='two',
                          max_hosts=2)
    assert checked['changed'] and checked['written_at'] == ['gateway', 'controller'] and writes == []
    assert checked['diff'] == {'before': {'name': name, 'description': 'one', 'max_hosts': 1},
                               'after': {'name': name, 'description': 'two', 'max_hosts': 2}}
    assert checked['organization']['description'] == 'two' and checked['organization']['max_hosts'] == 2

    # the description: the gateway's, and the controller's copy's own (AWX 24.6.1 shares no description), both
    updated, writes = run(gateway, 'organization', diff=True, name=name, description='two')
    assert updated['changed'] and updated['written_at'] == ['gateway', 'controller']
    assert at(writes, GW) == [('PATCH', GW + 'organizations/%d/' % org_id, 200)]
    assert at(writes, CTL) == [('PATCH', CTL + 'organizations/%d/' % org_id, 200)]
    assert updated['diff'] == {'before': {'name': name, 'description': 'one'},
                               'after': {'name': name, 'description': 'two'}}
    assert updated['organization']['description'] == 'two'    # the controller's copy, read after the write

    # a controller field only: the controller alone
    updated, writes = run(gateway, 'organization', name=name, max_hosts=2)
    assert updated['changed'] and updated['written_at'] == ['controller']
    assert at(writes, GW) == [] and at(writes, CTL) == [('PATCH', CTL + 'organizations/%d/' % org_id, 200)]

    # rename at the gateway; the next run finds it by its new name
    renamed, writes = run(gateway, 'organization', name=name, new_name=name + '-new')
    assert renamed['changed'] and renamed['written_at'] == ['gateway'] and at(writes, CTL) == []
    assert renamed['organization']['name'] == name + '-new'
    again, writes = run(gateway, 'organization', name=name, new_name=name + '-new')
    assert not again['changed'] and writes == []

    # delete: at the gateway (check mode first: nothing sent)
    checked, writes = run(gateway, 'organization', check_mode=True, name=name + '-new', state='absent')
    assert checked['changed'] and checked['written_at'] == ['gateway'] and writes == []
    deleted, writes = run(gateway, 'organization', name=name + '-new', state='absent')
    assert deleted['changed'] and deleted['written_at'] == ['gateway'] and deleted['id'] == org_id
    assert writes == [('DELETE', GW + 'organizations/%d/' % org_id, 204)]
    assert controller_copy(gateway, 'organizations', name=name + '-new') is None
    gone, writes = run(gateway, 'organization', name=name + '-new', state='absent')
    assert not gone['changed'] and gone['written_at'] == [] and writes == []


def test_an_organization_created_in_check_mode_writes_nothing(gateway):
    name = 'gw-chk-' + tag()
    result, writes = run(gateway, 'organization', check_mode=True, diff=True, name=name, max_hosts=3)
    assert result['changed'] and result['written_at'] == ['gateway', 'controller'] and writes == []
    assert result['diff']['after'] == {'name': name, 'max_hosts': 3}
    assert gateway_object(gateway, 'organizations', name=name) is None


def test_organization_exists_on_the_gateway(gateway):
    name = 'gw-ex-' + tag()
    made, writes = run(gateway, 'organization', name=name, state='exists')
    assert made['changed'] and made['written_at'] == ['gateway'] and at(writes, CTL) == []
    kept, writes = run(gateway, 'organization', name=name, description='ignored', state='exists')
    assert not kept['changed'] and kept['written_at'] == [] and writes == []


# -- user -------------------------------------------------------------------------------------


def test_a_user_is_made_at_the_gateway_with_its_password_masked(gateway):
    username = 'gw-user-' + tag()
    password = 'pw-' + uuid.uuid4().hex
    org = 'gw-uorg-' + tag()
    run(gateway, 'organization', name=org)
    result, writes = run(gateway, 'user', diff=True, username=username, password=password, email='a@example.com',
                         first_name='Ann', is_system_auditor=True, organization=org)
    assert result['changed'] and not result.get('failed'), result
    assert result['written_at'] == ['gateway', 'controller']
    assert password not in json.dumps(result)
    assert result['diff']['after']['password'] == 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
    assert 'password' not in result['user']
    copy = controller_copy(gateway, 'users', username=username)
    org_id = controller_copy(gateway, 'organizations', name=org)['id']
    # made at the gateway, and the membership (its role assignment); the auditor flag at the controller's copy
    assert [(m, p.split('/')[4], s) for m, p, s in at(writes, GW)] == [('POST', 'users', 201),
                                                                       ('POST', 'role_user_assignments', 201)]
    assert at(writes, CTL) == [('PATCH', CTL + 'users/%d/' % copy['id'], 200)]
    assert copy['is_system_auditor'] is True and copy['email'] == 'a@example.com'
    assert result['user']['id'] == copy['id'] and result['user']['is_system_auditor'] is True
    members = admin(gateway).get('organizations/%d/users' % org_id, params={'username': username})['results']
    assert [m['username'] for m in members] == [username]
    # the password was set at the gateway: the user logs in with it
    user_client = connect_as(gateway, service_username=username, service_password=password, service_auth='basic')
    assert user_client.get('me')['results'][0]['username'] == username

    again, writes = run(gateway, 'user', username=username, password=password, email='a@example.com',
                        first_name='Ann', is_system_auditor=True)
    assert not again['changed'] and again['written_at'] == [] and writes == []


def test_a_user_update_password_rename_and_delete_on_the_gateway(gateway):
    username = 'gw-upd-' + tag()
    run(gateway, 'user', username=username, password='first-' + tag())
    user_id = controller_copy(gateway, 'users', username=username)['id']

    checked, writes = run(gateway, 'user', check_mode=True, diff=True, username=username, last_name='Lee',
                          is_system_auditor=True)
    assert checked['changed'] and checked['written_at'] == ['gateway', 'controller'] and writes == []
    assert checked['diff']['after'] == {'username': username, 'last_name': 'Lee', 'is_system_auditor': True}

    updated, writes = run(gateway, 'user', username=username, last_name='Lee', is_superuser=False)
    assert updated['changed'] and updated['written_at'] == ['gateway']
    assert at(writes, GW) == [('PATCH', GW + 'users/%d/' % user_id, 200)] and at(writes, CTL) == []

    password = 'second-' + uuid.uuid4().hex
    reset, writes = run(gateway, 'user', diff=True, username=username, password=password, update_password='always')
    assert reset['changed'] and reset['written_at'] == ['gateway'] and password not in json.dumps(reset)
    assert at(writes, GW) == [('PATCH', GW + 'users/%d/' % user_id, 200)]
    assert connect_as(gateway, service_username=username, service_password=password,
                      service_auth='basic').get('me')['results'][0]['id'] == user_id

    renamed, writes = run(gateway, 'user', username=username, new_username=username + 'x')
    assert renamed['changed'] and renamed['written_at'] == ['gateway'] and renamed['user']['username'] == username + 'x'

    deleted, writes = run(gateway, 'user', username=username + 'x', state='absent')
    assert deleted['changed'] and deleted['written_at'] == ['gateway'] and deleted['id'] == user_id
    assert writes == [('DELETE', GW + 'users/%d/' % user_id, 204)]
    assert controller_copy(gateway, 'users', username=username + 'x') is None


# -- team -------------------------------------------------------------------------------------


def test_a_team_is_kept_at_the_gateway(gateway):
    org = 'gw-torg-' + tag()
    name = 'gw-team-' + tag()
    run(gateway, 'organization', name=org)
    org_id = controller_copy(gateway, 'organizations', name=org)['id']

    checked, writes = run(gateway, 'team', check_mode=True, name=name, organization=org)
    assert checked['changed'] and checked['written_at'] == ['gateway'] and writes == []

    # the description is written at the controller's copy too (AWX 24.6.1's copy keeps its own)
    made, writes = run(gateway, 'team', diff=True, name=name, organization=org, description='one')
    assert made['changed'] and made['written_at'] == ['gateway', 'controller']
    copy = controller_copy(gateway, 'teams', name=name)
    assert [(m, p, s) for m, p, s in writes] == [('POST', GW + 'teams/', 201),
                                                 ('PATCH', CTL + 'teams/%d/' % copy['id'], 200)]
    assert (copy['id'], copy['organization'], copy['description']) == (made['id'], org_id, 'one')
    assert made['team']['id'] == copy['id']

    again, writes = run(gateway, 'team', name=name, organization=org, description='one')
    assert not again['changed'] and again['written_at'] == [] and writes == []

    # the organization by id (the controller's) finds the same team
    updated, writes = run(gateway, 'team', diff=True, name=name, organization=str(org_id), description='two')
    assert updated['changed'] and updated['written_at'] == ['gateway', 'controller']
    assert writes == [('PATCH', GW + 'teams/%d/' % copy['id'], 200), ('PATCH', CTL + 'teams/%d/' % copy['id'], 200)]
    assert updated['diff'] == {'before': {'name': name, 'description': 'one'},
                               'after': {'name': name, 'description': 'two'}}

    deleted, writes = run(gateway, 'team', name=name, organization=org, state='absent')
    assert deleted['changed'] and deleted['written_at'] == ['gateway']
    assert writes == [('DELETE', GW + 'teams/%d/' % copy['id'], 204)]
    assert controller_copy(gateway, 'teams', name=name) is None


def test_a_team_in_an_organization_the_gateway_lacks_fails_before_any_write(gateway):
    result, writes = run(gateway, 'team', name='t-' + tag(), organization='no-such-org-' + tag())
    assert result.get('failed') and not result['changed'] and writes == []
    assert result['msg'].startswith('Item organization does not exist: ') and 'not found' in result['msg']


# -- what the controller and the gateway refuse -----------------------------------------------


def test_the_controllers_copies_refuse_direct_writes_with_awxs_words(gateway):
    client = admin(gateway)
    name = 'gw-direct-' + tag()
    for endpoint, body in (('organizations', {'name': name}), ('users', {'username': name, 'password': 'x'}),
                           ('teams', {'name': name, 'organization': 1})):
        with pytest.raises(ApiError) as refused:
            client.request('POST', endpoint, json_body=body)
        assert refused.value.status == 403
        assert refused.value.detail == {
            'detail': 'Creation of this resource is not allowed. Create this resource via the platform ingress.'}
    run(gateway, 'organization', name=name)
    copy = controller_copy(gateway, 'organizations', name=name)
    with pytest.raises(ApiError) as refused:
        client.request('PATCH', copy['url'], json_body={'name': name + '-x'})
    assert refused.value.status == 403 and refused.value.detail == {
        'name': "Cannot change shared field 'name'. Alter this field via the platform ingress."}
    with pytest.raises(ApiError) as refused:
        client.request('DELETE', copy['url'])
    assert refused.value.status == 403 and refused.value.detail == {
        'detail': 'Deletion of this resource is not allowed. Delete this resource via the platform ingress.'}
    # the controller's own fields change, and a shared field given as it is
    assert client.request('PATCH', copy['url'], json_body={'name': name, 'max_hosts': 9})['max_hosts'] == 9
    member_role = client.get('roles', params={'role_field': 'member_role', 'page_size': 1})['results'][0]
    with pytest.raises(ApiError) as refused:
        client.request('POST', 'users/1/roles', json_body={'id': member_role['id']})
    assert refused.value.status == 403 and refused.value.detail['msg'].startswith(
        'Cannot directly modify user membership to ')


def test_a_write_the_gateway_refuses_fails_with_its_message(gateway):
    username = 'gw-plain-' + tag()
    password = 'pw-' + uuid.uuid4().hex
    run(gateway, 'user', username=username, password=password)
    params = dict(connection(gateway), service_username=username, service_password=password,
                  service_auth='basic', name='gw-refused-' + tag())
    mark = gateway.mark()
    result = run_module('organization', params)
    assert result.get('failed') and not result['changed']
    assert result['msg'].startswith('The platform gateway refused to create organization %s: ' % params['name'])
    assert 'answered 403' in result['msg'] and 'permission' in result['msg']
    assert [(e['method'], e['status']) for e in gateway.since(mark) if e['method'] in WRITES] == [('POST', 403)]


# -- AWX 24: the same calls, written at /api/v2/ as before -------------------------------------


def test_the_same_calls_on_awx_write_at_the_controller_only(service):
    org, team, username = 'awx-org-' + tag(), 'awx-team-' + tag(), 'awx-user-' + tag()
    made, writes = run(service, 'organization', name=org, description='d', max_hosts=4)
    assert made['changed'] and 'written_at' not in made
    assert [(m, p, s) for m, p, s in writes] == [('POST', CTL + 'organizations/', 201)]
    again, writes = run(service, 'organization', name=org, description='d', max_hosts=4)
    assert not again['changed'] and writes == []
    made, writes = run(service, 'team', name=team, organization=org)
    assert made['changed'] and writes == [('POST', CTL + 'teams/', 201)]
    made, writes = run(service, 'user', username=username, password='pw-' + tag(), is_system_auditor=True)
    assert made['changed'] and [(m, p, s) for m, p, s in writes] == [('POST', CTL + 'users/', 201)]
    mark = service.mark()
    for module, params in (('user', {'username': username}), ('team', {'name': team, 'organization': org}),
                           ('organization', {'name': org})):
        gone, writes = run(service, module, state='absent', **params)
        assert gone['changed'] and 'written_at' not in gone and len(writes) == 1 and writes[0][0] == 'DELETE'
        assert writes[0][1].startswith(CTL)
    # AWX 24 is never asked for its layout
    assert [e for e in service.since(mark) if e['path'] == '/api/'] == []


def test_an_organization_the_controller_refuses_is_deleted_again_at_the_gateway(gateway):
    """All or nothing: the controller refuses its fields of an organization this task made at the gateway (a
    negative max_hosts), so the organization is deleted again there and the task changed nothing."""
    name = 'gw-org-refused-' + tag()
    result, writes = run(gateway, 'organization', diff=True, name=name, max_hosts=-1)
    assert result.get('failed') and not result['changed'], result
    assert 'deleted again' in result['msg'] and 'max_hosts' in result['msg'], result['msg']
    assert [m for m, p, s in at(writes, GW)] == ['POST', 'DELETE']
    assert gateway_object(gateway, 'organizations', name=name) is None
    assert controller_copy(gateway, 'organizations', name=name) is None
