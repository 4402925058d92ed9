"""What ansible.platform 2.6.20250924's own integration targets expect of its modules at a platform gateway,
asked of this collection's (a drop-in for them), against the reference service in its gateway layout:
an application's user changes, and a team's and a user's missing organizations fail with
ansible.platform's words; a team role is given on several objects named in assignment_objects."""

from ...playbook import run_playbook
from .gateway_helpers import GW, admin, run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)


def test_an_application_is_given_another_user(gateway):
    # applications_test: "Change an application to a user owned application" is changed
    svc = admin(gateway)
    name = 'apt-app-' + tag()
    owner = svc.request('POST', GW + 'users/', json_body={'username': 'apt-owner-' + tag()})
    made, writes = run(gateway, 'application', name=name, organization='Default', client_type='confidential',
                       authorization_grant_type='password')
    assert made['changed'] and not made.get('failed'), made
    assert svc.get(GW + 'applications/%d/' % made['id'])['user'] is None
    changed, writes = run(gateway, 'application', name=str(made['id']), organization='Default', user=owner['username'])
    assert changed['changed'] and not changed.get('failed'), changed
    assert changed['id'] == made['id'] and writes == [('PATCH', GW + 'applications/%d/' % made['id'], 200)]
    assert svc.get(GW + 'applications/%d/' % made['id'])['user'] == owner['id']
    again, writes = run(gateway, 'application', name=name, organization='Default', user=str(owner['id']))
    assert not again['changed'] and writes == []
    assert run(gateway, 'application', name=name, organization='Default', state='absent')[0]['changed']


def test_a_team_in_a_missing_organization(gateway):
    # teams_test: "'Item organization does not exist:' in invalid_team.msg"
    missing = 'apt-no-org-' + tag()
    result, writes = run(gateway, 'team', name='apt-team-' + tag(), organization=missing)
    assert result.get('failed') and writes == []
    assert result['msg'].startswith('Item organization does not exist: %s (' % missing), result['msg']


def test_a_user_in_a_missing_organization(gateway):
    # users_test: "Attempt to create a user with non-existent organization" fails (ansible.platform's words)
    missing = 'apt-no-org-' + tag()
    result, writes = run(gateway, 'user', username='apt-user-' + tag(), organizations=[missing])
    assert result.get('failed') and writes == []
    assert ("Organization '%s' not found. Please ensure it exists and is accessible." % missing) in result['msg']


def test_a_team_role_on_several_objects_by_name(gateway):
    # role_team_assignments_test gives a team roles with assignment_objects (name and type of each object)
    org = 'apt-org-' + tag()
    team = 'apt-team-' + tag()
    others = ['apt-other-' + tag(), 'apt-other-' + tag()]
    assert run(gateway, 'organization', name=org)[0]['changed']
    made = [run(gateway, 'team', name=name, organization=org)[0] for name in [team] + others]
    assert all(result['changed'] for result in made), made
    params = dict(role_definition='Team Member', team=team,
                  assignment_objects=[{'name': others[0], 'type': 'teams'}, {'object_id': made[2]['id']}])
    given, writes = run(gateway, 'role_team_assignment', **params)
    assert given['changed'] and not given.get('failed'), given
    assert writes == [('POST', GW + 'role_team_assignments/', 201)] * 2
    assert [item['changed'] for item in given['assignments']] == [True, True]
    assert len(set(item['id'] for item in given['assignments'])) == 2
    again, writes = run(gateway, 'role_team_assignment', **params)
    assert not again['changed'] and writes == [] and [item['changed'] for item in again['assignments']] == [False] * 2
    # every object is found before the first write; a kind the role definition is not about is refused
    missing, writes = run(gateway, 'role_team_assignment', role_definition='Team Member', team=team, state='absent',
                          assignment_objects=[{'name': others[0], 'type': 'teams'}, {'name': 'nope-' + tag(),
                                                                                     'type': 'teams'}])
    assert missing.get('failed') and writes == [] and 'Unable to find teams with name nope-' in missing['msg']
    wrong, writes = run(gateway, 'role_team_assignment', role_definition='Team Member', team=team,
                        assignment_objects=[{'name': org, 'type': 'organizations'}])
    assert wrong.get('failed') and writes == [] and 'not to organizations' in wrong['msg'], wrong
    bad, writes = run(gateway, 'role_team_assignment', role_definition='Team Member', team=team,
                      assignment_objects=[{'name': others[0]}])
    assert bad.get('failed') and writes == [] and "you must also provide 'type'" in bad['msg']
    gone, writes = run(gateway, 'role_team_assignment', state='absent', **params)
    assert gone['changed'] and [w[0] for w in writes] == ['DELETE', 'DELETE']
    assert run(gateway, 'organization', name=org, state='absent')[0]['changed']


def test_the_gateway_api_lookup_names_the_endpoint_as_given(gateway, tmp_path):
    # lookup_test: "'Expected one object from endpoint users, but obtained 0 from API' in expect_one.msg"
    options = dict(service_url=gateway.url, ca_path=str(gateway.ca_path), service_username=gateway.admin_username,
                   service_password=gateway.admin_password)
    tasks = [{'name': 'expect one of none', 'ansible.builtin.set_fact': {
        'found': "{{ lookup('automation.service.gateway_api', 'users', query_params={'username': 'nobody-%s'}, "
                 "expect_one=True, **options) }}" % tag()},
        'vars': {'options': options}, 'register': 'expect_one', 'ignore_errors': True},
        {'ansible.builtin.assert': {'that': [
            "expect_one is failed",
            "'Expected one object from endpoint users, but obtained 0 from API' in expect_one.msg"]}}]
    rc, output = run_playbook(tmp_path, tasks)
    assert rc == 0, output


def test_a_user_role_on_several_objects_by_id_or_name(gateway):
    # role_user_assignments_test gives a user a role on object_ids: ["{{ org.id }}", "<name of another>"]
    first, second = 'apt-org-' + tag(), 'apt-org-' + tag()
    orgs = [run(gateway, 'organization', name=name)[0] for name in (first, second)]
    user = run(gateway, 'user', username='apt-user-' + tag(), password='pw-' + tag())[0]
    assert user['changed'] and all(org['changed'] for org in orgs), (user, orgs)
    params = dict(role_definition='Organization Admin', user=str(user['id']), object_ids=[str(orgs[0]['id']), second])
    given, writes = run(gateway, 'role_user_assignment', **params)
    assert given['changed'] and not given.get('failed'), given
    assert [w[:2] for w in writes if w[1].startswith(GW + 'role_user_assignments/')] == [
        ('POST', GW + 'role_user_assignments/')] * 2
    assert [item['changed'] for item in given['assignments']] == [True, True]
    again, writes = run(gateway, 'role_user_assignment', **params)
    assert not again['changed'] and writes == [] and [item['changed'] for item in again['assignments']] == [False] * 2
    missing, writes = run(gateway, 'role_user_assignment', role_definition='Organization Admin', user=str(user['id']),
                          object_ids=[first, 'nope-' + tag()])
    assert missing.get('failed') and writes == [] and 'Unable to find organizations with name or id: nope-' in missing['msg']
    gone, writes = run(gateway, 'role_user_assignment', state='absent', **params)
    assert gone['changed'] and [item['changed'] for item in gone['assignments']] == [True, True]
    for name in (first, second):
        assert run(gateway, 'organization', name=name, state='absent')[0]['changed']


def test_the_deprecated_link_options_say_so_and_a_uid_alone_on_a_new_user_is_not_sent(gateway, tmp_path):
    # users_test: "Test deprecation warning for authenticator_uid field" (a new user, no authenticators) passes with
    # deprecations; here a warning says the uid was not sent
    options = dict(service_url=gateway.url, ca_path=str(gateway.ca_path), service_username=gateway.admin_username,
                   service_password=gateway.admin_password)
    username = 'apt-dep-' + tag()
    tasks = [{'name': 'a uid alone', 'automation.service.user': dict(options, username=username, first_name='Dep',
                                                                     authenticator_uid='test_uid'),
              'register': 'alone'},
             {'ansible.builtin.assert': {'that': [
                 "alone is changed",
                 "alone.deprecations | length > 0",
                 "'deprecated' in alone.deprecations[0].msg",
                 "alone.warnings | select('search', 'authenticator_uid is not sent') | list | length == 1"]}}]
    rc, output = run_playbook(tmp_path, tasks)
    assert rc == 0, output
    found = admin(gateway).get(GW + 'users/', params={'username': username})['results']
    assert len(found) == 1
