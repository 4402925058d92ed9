"""Memberships of organizations and teams where the platform keeps them, against the reference service in its
gateway layout: the controller refuses to change them (AWX 24.6.1's "Cannot directly modify user membership"),
so the role, role_user_assignment, role_team_assignment and user modules give and take them back as the gateway's
role assignments (/api/gateway/v1/role_user_assignments/...), which the controller then shows as its
memberships; every other role stays at the controller. Against AWX 24 the same calls write at /api/v2/ only.
"""

from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    MEMBERSHIP_ROLES, is_membership, membership_definition,
)

from .gateway_helpers import CTL, GW, admin, run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)


def names(svc, path, **filters):
    return [u['username'] for u in admin(svc).get(path, params=filters)['results']]


def setup(svc):
    org, team, user = 'ms-org-' + tag(), 'ms-team-' + tag(), 'ms-user-' + tag()
    for module, params in (('organization', {'name': org}), ('team', {'name': team, 'organization': org}),
                           ('user', {'username': user, 'password': 'pw-' + tag()})):
        result, _writes = run(svc, module, **params)
        assert result['changed'] and not result.get('failed'), result
    org_id = admin(svc).get('organizations', params={'name': org})['results'][0]['id']
    team_id = admin(svc).get('teams', params={'name': team})['results'][0]['id']
    return org, org_id, team, team_id, user


def test_the_memberships_are_the_gateways_managed_role_definitions():
    assert is_membership('organization', 'member_role') and is_membership('team', 'admin_role')
    assert not is_membership('organization', 'auditor_role') and not is_membership('inventory', 'admin_role')
    assert sorted(MEMBERSHIP_ROLES.values()) == ['Organization Admin', 'Organization Member', 'Team Admin',
                                                 'Team Member']
    assert membership_definition({'name': 'Team Member', 'content_type': 'shared.team'})
    assert not membership_definition({'name': 'Team Member', 'content_type': 'shared.organization'})
    assert not membership_definition({'name': 'Organization Audit', 'content_type': 'shared.organization'})


def test_role_gives_memberships_at_the_gateway_and_other_roles_at_the_controller(gateway):
    org, org_id, team, team_id, user = setup(gateway)
    checked, writes = run(gateway, 'role', check_mode=True, user=user, target_team=team, organization=org,
                          role='member')
    assert checked['changed'] and checked['written_at'] == ['gateway'] and writes == []
    assert len(checked['changes']) == 2

    made, writes = run(gateway, 'role', diff=True, user=user, target_team=team, organization=org, role='member')
    assert made['changed'] and made['written_at'] == ['gateway'], made
    assert [(m, p, s) for m, p, s in writes] == [('POST', GW + 'role_user_assignments/', 201)] * 2
    assert made['diff']['after'] == {'organization ' + org: {'users': [user]}, 'team ' + team: {'users': [user]}}
    # the controller shows them as its memberships
    assert names(gateway, 'organizations/%d/users' % org_id) == [user]
    assert names(gateway, 'teams/%d/users' % team_id) == [user]

    again, writes = run(gateway, 'role', user=user, target_team=team, organization=org, role='member')
    assert not again['changed'] and again['written_at'] == [] and writes == []

    # an organization's auditor role is the controller's
    audit, writes = run(gateway, 'role', user=user, organization=org, role='auditor')
    assert audit['changed'] and audit['written_at'] == ['controller']
    assert [(m, p.startswith(CTL + 'roles/')) for m, p, s in writes] == [('POST', True)]

    gone, writes = run(gateway, 'role', user=user, target_team=team, organization=org, role='member',
                       state='absent')
    assert gone['changed'] and gone['written_at'] == ['gateway']
    assert [m for m, p, s in writes] == ['DELETE', 'DELETE'] and all(p.startswith(GW) for m, p, s in writes)
    assert names(gateway, 'organizations/%d/users' % org_id) == []
    assert names(gateway, 'teams/%d/users' % team_id) == []


def test_role_user_assignment_of_a_membership_is_the_gateways(gateway):
    org, org_id, team, team_id, user = setup(gateway)
    params = dict(role_definition='Organization Admin', user=user, object_id=org_id)
    checked, writes = run(gateway, 'role_user_assignment', check_mode=True, **params)
    assert checked['changed'] and checked['written_at'] == ['gateway'] and writes == []
    made, writes = run(gateway, 'role_user_assignment', diff=True, **params)
    assert made['changed'] and made['written_at'] == ['gateway'], made
    assert writes == [('POST', GW + 'role_user_assignments/', 201)]
    assert made['role_user_assignment']['url'].startswith(GW)
    assert names(gateway, 'organizations/%d/admins' % org_id) == [user]
    again, writes = run(gateway, 'role_user_assignment', **params)
    assert not again['changed'] and again['id'] == made['id'] and writes == []
    gone, writes = run(gateway, 'role_user_assignment', state='absent', **params)
    assert gone['changed'] and gone['written_at'] == ['gateway'] and writes[0][0] == 'DELETE'
    assert names(gateway, 'organizations/%d/admins' % org_id) == []


def test_role_team_assignment_of_a_team_role_is_the_gateways(gateway):
    org, org_id, team, team_id, user = setup(gateway)
    other, _writes = run(gateway, 'team', name=team + '-2', organization=org)
    params = dict(role_definition='Team Member', team=team, object_id=other['id'])
    made, writes = run(gateway, 'role_team_assignment', **params)
    assert made['changed'] and made['written_at'] == ['gateway'], made
    assert writes == [('POST', GW + 'role_team_assignments/', 201)]
    again, writes = run(gateway, 'role_team_assignment', **params)
    assert not again['changed'] and writes == []
    gone, writes = run(gateway, 'role_team_assignment', state='absent', **params)
    assert gone['changed'] and writes[0][0] == 'DELETE' and writes[0][1].startswith(GW)


def test_a_membership_the_controller_shows_is_one_the_gateway_has(gateway):
    """A membership made before (at the gateway by another client) is found there: nothing to do."""
    org, org_id, team, team_id, user = setup(gateway)
    client = admin(gateway)
    definition = client.get(GW + 'role_definitions/', params={'name': 'Team Member'})['results'][0]
    gw_user = client.get(GW + 'users/', params={'username': user})['results'][0]
    gw_team = client.get(GW + 'teams/', params={'name': team})['results'][0]
    client.request('POST', GW + 'role_user_assignments/', json_body={
        'role_definition': definition['id'], 'user': gw_user['id'], 'object_id': gw_team['id']}, expect=(201,))
    assert names(gateway, 'teams/%d/users' % team_id) == [user]
    again, writes = run(gateway, 'role', user=user, target_team=team, role='member')
    assert not again['changed'] and writes == []


def test_the_same_calls_on_awx_write_at_the_controller_only(service):
    org, org_id, team, team_id, user = setup(service)
    made, writes = run(service, 'role', user=user, target_team=team, role='member')
    assert made['changed'] and 'written_at' not in made
    assert [(m, p.startswith(CTL + 'roles/')) for m, p, s in writes] == [('POST', True)]
    made, writes = run(service, 'role_user_assignment', role_definition='Organization Member', user=user,
                       object_id=org_id)
    assert made['changed'] and 'written_at' not in made
    assert writes == [('POST', CTL + 'role_user_assignments/', 201)]


def test_a_membership_made_at_the_controller_is_the_gateways_assignment(gateway):
    """Attaching a user to an organization's users at the controller (AWX 24.6.1 takes it) is, on the
    reference service, the gateway's Organization Member assignment: taken back there."""
    org, org_id, team, team_id, user = setup(gateway)
    client = admin(gateway)
    user_id = client.get('users', params={'username': user})['results'][0]['id']
    client.request('POST', 'organizations/%d/users' % org_id, json_body={'id': user_id}, expect=(204,))
    found = client.get(GW + 'role_user_assignments/', params={'user': user_id, 'object_id': org_id})['results']
    assert [a['summary_fields']['role_definition']['name'] for a in found] == ['Organization Member']
    assert found[0]['url'].startswith(GW) and found[0]['related']['content_object'] == GW + 'organizations/%d/' % org_id
    gone, writes = run(gateway, 'role', user=user, organization=org, role='member', state='absent')
    assert gone['changed'] and writes == [('DELETE', found[0]['url'], 204)]
    assert names(gateway, 'organizations/%d/users' % org_id) == []
