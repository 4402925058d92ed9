"""The user module's ansible.platform options of the gateway's user: ``associated_authenticators``, the deprecated
``authenticators`` with ``authenticator_uid``, and ``is_platform_auditor`` (the gateway's "Platform Auditor" role
assignment), against the reference service in both layouts. Behind the gateway the links are fields of the gateway's
user (/api/gateway/v1/users/), written only when they differ from what it shows; against AWX 24 the authenticator
options fail before anything is written, and is_platform_auditor is AWX's is_system_auditor.
"""

import pytest

from .gateway_helpers import CTL, GW, admin, run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)

GITHUB = 'ansible_base.authentication.authenticator_plugins.github'


def authenticator(svc):
    """A GitHub authenticator of the gateway (only its links are used: nobody logs in through it)."""
    made = admin(svc).request('POST', GW + 'authenticators/', json_body={
        'name': 'ua-auth-' + tag(), 'type': GITHUB, 'enabled': True,
        'configuration': {'KEY': 'key-' + tag(), 'SECRET': 'secret'}})
    return made


@pytest.fixture(scope='module')
def two(gateway):
    return authenticator(gateway), authenticator(gateway)


def gateway_user(svc, username):
    found = admin(svc).get(GW + 'users/', params={'username': username})['results']
    return found[0] if found else None


def auditor_assignments(svc, user_id):
    client = admin(svc)
    definition = client.get(GW + 'role_definitions/', params={'name': 'Platform Auditor'})['results'][0]
    return client.get(GW + 'role_user_assignments/', params={'role_definition': definition['id'],
                                                             'user': user_id})['results']


# -- behind a platform gateway ------------------------------------------------------------------


def test_associated_authenticators_by_name_and_id(gateway, two):
    first, second = two
    username = 'ua-user-' + tag()
    params = dict(username=username, password='pw-' + tag(),
                  associated_authenticators={first['name']: {'uid': 'gh-' + username},
                                             str(second['id']): {'uid': 'gh2-' + username,
                                                                 'email': username + '@example.com'}})
    wanted = {str(first['id']): {'uid': 'gh-' + username},
              str(second['id']): {'uid': 'gh2-' + username, 'email': username + '@example.com'}}

    checked, writes = run(gateway, 'user', check_mode=True, diff=True, **params)
    assert checked['changed'] and not checked.get('failed'), checked
    assert writes == [] and gateway_user(gateway, username) is None
    assert checked['diff']['after']['associated_authenticators'] == wanted

    made, writes = run(gateway, 'user', **params)
    assert made['changed'] and not made.get('failed'), made
    assert [(method, path) for method, path, _status in writes if path.startswith(GW)] == [('POST', GW + 'users/')]
    assert gateway_user(gateway, username)['associated_authenticators'] == wanted

    again, writes = run(gateway, 'user', **params)
    assert not again['changed'] and again['written_at'] == [] and writes == [], again

    # one link less: the gateway's user is changed (its links replaced), once
    fewer = dict(params, associated_authenticators={str(second['id']): wanted[str(second['id'])]})
    checked, writes = run(gateway, 'user', check_mode=True, diff=True, **fewer)
    assert checked['changed'] and writes == []
    assert checked['diff']['before']['associated_authenticators'] == wanted
    assert checked['diff']['after']['associated_authenticators'] == {str(second['id']): wanted[str(second['id'])]}
    changed, writes = run(gateway, 'user', **fewer)
    found = gateway_user(gateway, username)
    assert changed['changed'] and changed['written_at'] == ['gateway'], changed
    assert writes == [('PATCH', GW + 'users/%d/' % found['id'], 200)]
    assert found['associated_authenticators'] == {str(second['id']): wanted[str(second['id'])]}
    again, writes = run(gateway, 'user', **fewer)
    assert not again['changed'] and writes == []

    # {} removes them
    removed, writes = run(gateway, 'user', username=username, associated_authenticators={})
    assert removed['changed'] and len(writes) == 1 and gateway_user(gateway, username)['authenticators'] == []
    again, writes = run(gateway, 'user', username=username, associated_authenticators={})
    assert not again['changed'] and writes == []


def test_the_deprecated_pair(gateway, two):
    first, second = two
    username = 'ua-user-' + tag()
    params = dict(username=username, authenticators=[first['name']], authenticator_uid='gh-' + username)
    made, writes = run(gateway, 'user', **params)
    assert made['changed'] and not made.get('failed'), made
    assert [(method, path) for method, path, _status in writes if path.startswith(GW)] == [('POST', GW + 'users/')]
    assert gateway_user(gateway, username)['associated_authenticators'] == {str(first['id']): {'uid': 'gh-' + username}}
    again, writes = run(gateway, 'user', **params)
    assert not again['changed'] and writes == [], again

    # one more, and a new uid for both
    more = dict(params, authenticators=[first['name'], str(second['id'])], authenticator_uid='new-' + username)
    checked, writes = run(gateway, 'user', check_mode=True, **more)
    assert checked['changed'] and writes == []
    changed, writes = run(gateway, 'user', **more)
    found = gateway_user(gateway, username)
    assert changed['changed'] and writes == [('PATCH', GW + 'users/%d/' % found['id'], 200)], changed
    assert found['associated_authenticators'] == {str(first['id']): {'uid': 'new-' + username},
                                                  str(second['id']): {'uid': 'new-' + username}}
    again, writes = run(gateway, 'user', **more)
    assert not again['changed'] and writes == []
    # the uid alone: of the links the user has
    alone, writes = run(gateway, 'user', username=username, authenticator_uid='new-' + username)
    assert not alone['changed'] and writes == [], alone


# -- a gateway whose users do not show their links (the published 2.6 and 2.7 schemas: write-only) -------------


@pytest.fixture(scope='module')
def hiding(gateway_service_factory):
    """A gateway whose users' answers leave out authenticators, authenticator_uid and associated_authenticators, as
    the platform's published schemas have them; their links are read at authenticator_users/."""
    return gateway_service_factory(GATEWAY_USER_LINKS_SHOWN=False)


def links_of(svc, username):
    """The user's links as authenticator_users/ shows them: {authenticator slug: uid}."""
    user = gateway_user(svc, username)
    assert 'associated_authenticators' not in user and 'authenticators' not in user
    return dict((link['provider'], link['uid'])
                for link in admin(svc).get(GW + 'authenticator_users/', params={'user': user['id']})['results'])


def test_links_hidden_by_the_gateway_are_read_at_authenticator_users(hiding):
    first, second = authenticator(hiding), authenticator(hiding)
    username = 'ua-hidden-' + tag()
    params = dict(username=username, password='pw-' + tag(),
                  associated_authenticators={first['name']: {'uid': 'gh-' + username, 'email': username + '@example.com'},
                                             str(second['id']): {'uid': 'gh2-' + username}})
    made, writes = run(hiding, 'user', **params)
    assert made['changed'] and not made.get('failed'), made
    assert links_of(hiding, username) == {first['slug']: 'gh-' + username, second['slug']: 'gh2-' + username}

    # the e-mail cannot be read back: the links are the same when their uids are
    again, writes = run(hiding, 'user', diff=True, **params)
    assert not again['changed'] and writes == [] and not again.get('failed'), again

    fewer = dict(params, associated_authenticators={str(second['id']): {'uid': 'other-' + username}})
    checked, writes = run(hiding, 'user', check_mode=True, diff=True, **fewer)
    assert checked['changed'] and writes == []
    assert checked['diff']['before']['associated_authenticators'] == {
        str(first['id']): {'uid': 'gh-' + username}, str(second['id']): {'uid': 'gh2-' + username}}
    changed, writes = run(hiding, 'user', **fewer)
    found = gateway_user(hiding, username)
    assert changed['changed'] and writes == [('PATCH', GW + 'users/%d/' % found['id'], 200)], changed
    assert links_of(hiding, username) == {second['slug']: 'other-' + username}
    again, writes = run(hiding, 'user', **fewer)
    assert not again['changed'] and writes == []

    # the deprecated pair's uid alone: of the links the user has (named by their slugs there)
    alone, writes = run(hiding, 'user', username=username, authenticator_uid='other-' + username)
    assert not alone['changed'] and writes == [] and not alone.get('failed'), alone


def test_authenticator_user_finds_a_link_named_by_its_authenticator_slug(hiding):
    first = authenticator(hiding)
    username = 'ua-link-' + tag()
    made, _writes = run(hiding, 'user', username=username, password='pw-' + tag(),
                        associated_authenticators={first['name']: {'uid': 'gh-' + username}})
    assert made['changed'] and not made.get('failed'), made
    user = gateway_user(hiding, username)
    link = admin(hiding).get(GW + 'authenticator_users/', params={'user': user['id']})['results'][0]
    assert link['provider'] == first['slug']
    there, writes = run(hiding, 'authenticator_user', authenticator_user_id=str(link['id']),
                        authenticator=first['name'], state='exists')
    assert not there.get('failed') and not there['changed'] and writes == [], there
    kept, writes = run(hiding, 'authenticator_user', authenticator_user_id=str(link['id']),
                       authenticator=str(first['id']))
    assert not kept.get('failed') and not kept['changed'] and writes == [], kept


def test_refused_before_anything_is_written(gateway, two):
    first, second = two
    username = 'ua-user-' + tag()
    failed, writes = run(gateway, 'user', username=username, authenticators=[first['name'], second['name']],
                         authenticator_uid='x-' + username)
    assert failed.get('failed') and 'associated_authenticators' in failed['msg'] and writes == [], failed
    failed, writes = run(gateway, 'user', username=username, authenticators=[first['name']])
    assert failed.get('failed') and 'authenticator_uid is needed' in failed['msg'] and writes == [], failed
    missing = 'ua-none-' + tag()
    failed, writes = run(gateway, 'user', username=username, password='pw-' + tag(), organizations=[],
                         associated_authenticators={missing: {'uid': 'x'}, first['name']: {'uid': 'y'}})
    assert failed.get('failed') and repr(missing) in failed['msg'] and writes == [], failed
    failed, writes = run(gateway, 'user', username=username, associated_authenticators={first['name']: {'uid': 'x'}},
                         authenticators=[first['name']])
    assert failed.get('failed') and 'mutually exclusive' in failed['msg'] and writes == [], failed
    failed, writes = run(gateway, 'user', username=username, associated_authenticators={
        first['name']: {'uid': 'x'}, str(first['id']): {'uid': 'y'}})
    assert failed.get('failed') and 'twice' in failed['msg'] and writes == [], failed
    assert gateway_user(gateway, username) is None


def test_is_platform_auditor_is_the_platform_auditor_role_assignment(gateway):
    username = 'ua-user-' + tag()
    checked, writes = run(gateway, 'user', check_mode=True, diff=True, username=username, is_platform_auditor=True)
    assert checked['changed'] and writes == [] and gateway_user(gateway, username) is None, checked

    made, writes = run(gateway, 'user', username=username, is_platform_auditor=True)
    assert made['changed'] and not made.get('failed'), made
    assert [(method, path) for method, path, _status in writes] == [
        ('POST', GW + 'users/'), ('POST', GW + 'role_user_assignments/')]
    found = gateway_user(gateway, username)
    assert found['is_platform_auditor'] is True and len(auditor_assignments(gateway, found['id'])) == 1
    again, writes = run(gateway, 'user', username=username, is_platform_auditor=True)
    assert not again['changed'] and writes == [], again

    checked, writes = run(gateway, 'user', check_mode=True, diff=True, username=username, is_platform_auditor=False)
    assert checked['changed'] and writes == [] and checked['diff']['after'] == {'is_platform_auditor': False}
    taken, writes = run(gateway, 'user', username=username, is_platform_auditor=False)
    assert taken['changed'] and [(method, path.split('/')[4]) for method, path, _status in writes] == [
        ('DELETE', 'role_user_assignments')], writes
    assert gateway_user(gateway, username)['is_platform_auditor'] is False
    assert auditor_assignments(gateway, found['id']) == []
    again, writes = run(gateway, 'user', username=username, is_platform_auditor=False)
    assert not again['changed'] and writes == []


# -- AWX 24 (no gateway) ------------------------------------------------------------------------


@pytest.mark.parametrize('option, value', [
    ('associated_authenticators', {'1': {'uid': 'x'}}), ('authenticators', ['1']), ('authenticator_uid', 'x')])
def test_on_awx_the_authenticator_options_are_refused(service, option, value):
    username = 'ua-user-' + tag()
    failed, writes = run(service, 'user', username=username, password='pw-' + tag(), **{option: value})
    assert failed.get('failed') and not failed['changed'], failed
    assert option in failed['msg'] and 'needs an Automation Platform gateway' in failed['msg']
    assert writes == [] and admin(service).get('users', params={'username': username})['results'] == []


def test_on_awx_is_platform_auditor_is_the_system_auditor(service):
    username = 'ua-user-' + tag()
    made, writes = run(service, 'user', username=username, is_platform_auditor=True)
    assert made['changed'] and writes == [('POST', CTL + 'users/', 201)], made
    assert made['user']['is_system_auditor'] is True
    again, writes = run(service, 'user', username=username, is_platform_auditor=True)
    assert not again['changed'] and writes == []
    failed, writes = run(service, 'user', username=username, is_platform_auditor=False, is_system_auditor=True)
    assert failed.get('failed') and 'is_system_auditor' in failed['msg'] and writes == [], failed


def test_authenticator_user_moves_a_link_to_another_authenticator(gateway, two):
    first, second = two
    username = 'ua-move-' + tag()
    made, _writes = run(gateway, 'user', username=username, password='pw-' + tag(),
                        associated_authenticators={first['name']: {'uid': 'gh-' + username}})
    assert made['changed'] and not made.get('failed'), made
    user = gateway_user(gateway, username)
    link = admin(gateway).get(GW + 'authenticator_users/', params={'user': user['id']})['results'][0]
    params = dict(authenticator_user_id=str(link['id']), authenticator=second['name'], new_uid='moved-' + username,
                  keep_memberships=True)
    checked, writes = run(gateway, 'authenticator_user', check_mode=True, **params)
    assert checked['changed'] and writes == [], checked
    moved, writes = run(gateway, 'authenticator_user', **params)
    assert moved['changed'] and not moved.get('failed'), moved
    assert writes == [('POST', GW + 'authenticator_users/%d/move/' % link['id'], 200)], writes
    assert gateway_user(gateway, username)['associated_authenticators'] == {str(second['id']): {'uid': 'moved-' + username}}
    # the move's answer is the fields sent (the schemas' AuthenticatorUserMove); the user's link at the new
    # authenticator is a new one (django-ansible-base's move deletes the old): named by its id, it is there
    new = admin(gateway).get(GW + 'authenticator_users/', params={'user': user['id']})['results'][0]
    assert new['provider'] == second['slug'] and new['uid'] == 'moved-' + username
    again, writes = run(gateway, 'authenticator_user', **dict(params, authenticator_user_id=str(new['id'])))
    assert not again['changed'] and writes == [] and not again.get('failed'), again
