"""The service replaces the session of a request that sets a user's password: AWX's
UserSerializer calls update_session_auth_hash, which deletes the session and sets a new one
in the answer, whoever's password it was. Tasks sharing the cached session must not lose it,
against the live reference service (which does as AWX does).

Counts come from the service's own request log."""

import uuid

from .helpers import connect_as, logins


def create_user_through(client):
    """Create a user through ``client``: the POST sets a password, so the service replaces the
    session the request went with."""
    name = 'cycled-' + uuid.uuid4().hex[:8]
    return client.request('POST', 'users', json_body={'username': name, 'password': uuid.uuid4().hex})


def test_setting_a_password_replaces_the_session_and_the_other_tasks_follow(service):
    first = connect_as(service)             # task 1 logs in; the session is cached
    second = connect_as(service)            # task 2 takes it from the cache
    shared = first.auth.state['session_id']
    assert second.auth.state['session_id'] == shared
    user = create_user_through(first)       # the service deletes the shared session
    assert first.auth.state['session_id'] != shared
    mark = service.mark()
    assert second.get('me')['results'][0]['username'] == service.admin_username
    entries = service.since(mark)
    # task 2's old session is refused once; it takes task 1's new one from the cache, no login
    assert [e['status'] for e in entries] == [401, 200]
    assert not logins(entries)
    first.request('DELETE', user['url'])


def test_a_private_session_leaves_the_shared_one_alone(service):
    first = connect_as(service)
    second = connect_as(service)
    shared = second.auth.state['session_id']
    first.auth = first.auth.private(first)  # what the user module does before it sends a password
    assert first.auth.state['session_id'] != shared
    user = create_user_through(first)
    mark = service.mark()
    assert second.get('me')['results'][0]['username'] == service.admin_username
    entries = service.since(mark)
    assert [e['status'] for e in entries] == [200]
    assert second.auth.state['session_id'] == shared
    first.request('DELETE', user['url'])
