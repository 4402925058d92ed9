"""The user module's ``organizations`` (ansible.platform's option): the user is made a member of each organization
named that it is not a member of yet, against the reference service in both layouts. Behind the gateway each
membership is the gateway's Organization Member role assignment (/api/gateway/v1/role_user_assignments/), then
listed in the controller's users of the organization; against AWX 24 the user is attached to the organization's
users (/api/v2/organizations/<id>/users/). Every organization is looked up before the first write; it only adds.
"""

from .gateway_helpers import CTL, GW, admin, run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)


def organizations(svc, count):
    """``count`` new organizations: their names and the controller's ids."""
    names = ['uo-org-' + tag() for _index in range(count)]
    for name in names:
        made, _writes = run(svc, 'organization', name=name)
        assert made['changed'] and not made.get('failed'), made
    client = admin(svc)
    return names, [client.get('organizations', params={'name': name})['results'][0]['id'] for name in names]


def members(svc, org_id):
    return [u['username'] for u in admin(svc).get('organizations/%d/users' % org_id)['results']]


def user_id(svc, username):
    found = admin(svc).get('users', params={'username': username})['results']
    return found[0]['id'] if found else None


def at(writes, prefix):
    return [(method, path, status) for method, path, status in writes if path.startswith(prefix)]


# -- behind a platform gateway ------------------------------------------------------------------


def test_a_new_user_is_made_a_member_of_the_organizations_at_the_gateway(gateway):
    (first, second), (first_id, second_id) = organizations(gateway, 2)
    username = 'uo-user-' + tag()
    params = dict(username=username, password='pw-' + tag(), organizations=[first, str(second_id)])

    checked, writes = run(gateway, 'user', check_mode=True, diff=True, **params)
    assert checked['changed'] and not checked.get('failed'), checked
    assert checked['written_at'] == ['gateway'] and writes == []
    assert checked['diff']['after']['organizations'] == [first, second]
    assert user_id(gateway, username) is None

    made, writes = run(gateway, 'user', diff=True, **params)
    assert made['changed'] and not made.get('failed'), made
    assert made['written_at'][0] == 'gateway'
    assert at(writes, GW) == [('POST', GW + 'users/', 201)] + [('POST', GW + 'role_user_assignments/', 201)] * 2
    # the controller's lists show the memberships (attached there only when they did not)
    assert all(method == 'POST' and path in (CTL + 'organizations/%d/users/' % first_id,
                                             CTL + 'organizations/%d/users/' % second_id)
               for method, path, _status in at(writes, CTL))
    assert made['diff']['after']['organizations'] == [first, second]
    assert members(gateway, first_id) == [username] and members(gateway, second_id) == [username]

    again, writes = run(gateway, 'user', **params)
    assert not again['changed'] and again['written_at'] == [] and writes == []


def test_an_existing_user_gets_only_the_memberships_it_lacks_and_keeps_the_others(gateway):
    (first, second, third), (first_id, second_id, third_id) = organizations(gateway, 3)
    username = 'uo-user-' + tag()
    made, _writes = run(gateway, 'user', username=username, organizations=[first, second])
    assert made['changed'] and not made.get('failed'), made

    checked, writes = run(gateway, 'user', check_mode=True, diff=True, username=username,
                          organizations=[second, third])
    assert checked['changed'] and checked['written_at'] == ['gateway'] and writes == []
    assert checked['diff']['after'] == {'organizations': [third]}
    assert members(gateway, third_id) == []

    added, writes = run(gateway, 'user', diff=True, username=username, organizations=[second, third])
    assert added['changed'] and added['written_at'][0] == 'gateway', added
    assert at(writes, GW) == [('POST', GW + 'role_user_assignments/', 201)]
    assert added['diff']['after'] == {'organizations': [third]}
    # only adds: the membership of the organization not named stays
    assert [members(gateway, org_id) for org_id in (first_id, second_id, third_id)] == [[username]] * 3

    again, writes = run(gateway, 'user', username=username, organizations=[third, first])
    assert not again['changed'] and again['written_at'] == [] and writes == []


def test_missing_organizations_fail_at_the_gateway_with_nothing_written(gateway):
    (first,), (first_id,) = organizations(gateway, 1)
    username = 'uo-user-' + tag()
    missing = ['uo-none-' + tag(), 'uo-none-' + tag()]
    failed, writes = run(gateway, 'user', username=username, password='pw-' + tag(),
                         organizations=[first] + missing)
    assert failed.get('failed') and not failed['changed'], failed
    assert all(repr(name) in failed['msg'] for name in missing) and repr(first) not in failed['msg'], failed['msg']
    assert writes == []
    assert user_id(gateway, username) is None and members(gateway, first_id) == []


# -- AWX 24 (no gateway) ------------------------------------------------------------------------


def test_on_awx_the_user_is_attached_to_the_organizations_users(service):
    (first, second), (first_id, second_id) = organizations(service, 2)
    username = 'uo-user-' + tag()
    params = dict(username=username, password='pw-' + tag(), organizations=[first, str(second_id)])

    checked, writes = run(service, 'user', check_mode=True, diff=True, **params)
    assert checked['changed'] and not checked.get('failed') and writes == [], checked
    assert checked['diff']['after']['organizations'] == [first, second] and 'written_at' not in checked
    assert user_id(service, username) is None

    made, writes = run(service, 'user', diff=True, **params)
    assert made['changed'] and not made.get('failed'), made
    assert writes == [('POST', CTL + 'users/', 201), ('POST', CTL + 'organizations/%d/users/' % first_id, 204),
                      ('POST', CTL + 'organizations/%d/users/' % second_id, 204)]
    assert made['diff']['after']['organizations'] == [first, second]
    assert members(service, first_id) == [username] and members(service, second_id) == [username]

    again, writes = run(service, 'user', **params)
    assert not again['changed'] and writes == []


def test_on_awx_an_existing_user_is_attached_only_where_it_is_not_yet(service):
    (first, second), (first_id, second_id) = organizations(service, 2)
    username = 'uo-user-' + tag()
    run(service, 'user', username=username, organization=first)
    assert members(service, first_id) == [username]

    added, writes = run(service, 'user', diff=True, username=username, organizations=[first, second])
    assert added['changed'] and added['diff']['after'] == {'organizations': [second]}, added
    assert writes == [('POST', CTL + 'organizations/%d/users/' % second_id, 204)]
    assert members(service, second_id) == [username]

    # a new user made in organization (through its users) is not attached to it again
    other = 'uo-user-' + tag()
    made, writes = run(service, 'user', username=other, organization=first, organizations=[first, second])
    assert made['changed'] and [path for _method, path, _status in writes] == [
        CTL + 'organizations/%d/users/' % first_id, CTL + 'organizations/%d/users/' % second_id]


def test_on_awx_missing_organizations_fail_with_nothing_written(service):
    (first,), (first_id,) = organizations(service, 1)
    username = 'uo-user-' + tag()
    missing = ['uo-none-' + tag(), '987654321']
    failed, writes = run(service, 'user', username=username, organizations=missing + [first])
    assert failed.get('failed') and not failed['changed'], failed
    assert all(repr(name) in failed['msg'] for name in missing), failed['msg']
    assert writes == [] and user_id(service, username) is None and members(service, first_id) == []


# -- a membership refused: the user the task made is deleted again -------------------------------


def refused(svc, path, **params):
    svc.set_faults({'fault': 'status', 'status': 400, 'path': path, 'method': 'POST', 'times': 1})
    try:
        return run(svc, 'user', **params)
    finally:
        svc.set_faults()


def test_a_user_made_at_the_gateway_is_deleted_again_when_a_membership_is_refused(gateway):
    (first,), (first_id,) = organizations(gateway, 1)
    username = 'uo-user-' + tag()
    failed, writes = refused(gateway, GW + 'role_user_assignments/', username=username, organizations=[first])
    assert failed.get('failed') and not failed['changed'], failed
    assert [(method, path.split('/')[4]) for method, path, _status in writes] == [
        ('POST', 'users'), ('POST', 'role_user_assignments'), ('DELETE', 'users')]
    assert admin(gateway).get(GW + 'users/', params={'username': username})['results'] == []
    assert members(gateway, first_id) == []


def test_a_user_made_on_awx_is_deleted_again_when_a_membership_is_refused(service):
    (first,), (first_id,) = organizations(service, 1)
    username = 'uo-user-' + tag()
    failed, writes = refused(service, CTL + 'organizations/%d/users/' % first_id, username=username,
                             organizations=[first])
    assert failed.get('failed') and not failed['changed'], failed
    assert [(method, path.split('/')[3]) for method, path, _status in writes] == [
        ('POST', 'users'), ('POST', 'organizations'), ('DELETE', 'users')]
    assert user_id(service, username) is None and members(service, first_id) == []
