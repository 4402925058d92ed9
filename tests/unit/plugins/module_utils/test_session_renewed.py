"""A session the service renews as it answers (AWX's SessionTimeoutMiddleware sets ``Session-Timeout`` and
pushes the session's expiry on with every request) stays usable in the session cache for as long as it is
used: the cached entry's expiry follows, written again once half of its time is gone. A session cache in
a temporary directory and answers made here (no service: the header's effect on the cache is the point)."""

import time

import pytest

from ansible_collections.automation.service.plugins.module_utils._auth_session import EXPIRY_MARGIN, SessionAuth
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache, make_verifier


class Client:
    base_url = 'https://service.invalid'


class Answer:
    def __init__(self, timeout=None, cookies=None):
        self.headers = {} if timeout is None else {'Session-Timeout': str(timeout)}
        self.cookies = cookies or {}


@pytest.fixture
def session(tmp_path):
    """A session logged in ``age`` seconds ago with a lifetime of 1800 s, kept in the cache."""
    def make(age):
        auth = SessionAuth({'service_username': 'u', 'service_password': 'p'}, cache=SessionCache(str(tmp_path)))
        auth.state = {'cookie_name': 'awx_sessionid', 'session_id': 'abc', 'csrftoken': 't',
                      'expires_at': time.time() - age + 1800 - EXPIRY_MARGIN}
        auth.cache.save(auth._key(Client), dict(auth.state, verifier=make_verifier('p')))
        return auth
    return make


def cached(auth):
    return auth.cache.load(auth._key(Client))


def test_a_session_in_use_past_its_first_lifetime_stays_in_the_cache(session):
    auth = session(age=1700)    # 70 s left of the first lifetime, less its margin
    auth.answered(Client, Answer(timeout=1800))
    entry = cached(auth)
    assert entry is not None and entry['session_id'] == 'abc'
    assert entry['expires_at'] > time.time() + 1800 - EXPIRY_MARGIN - 5
    assert auth.state['expires_at'] == entry['expires_at']
    assert entry['verifier']    # the entry keeps what proves its password


def test_the_entry_is_not_written_again_while_more_than_half_its_time_is_left(session):
    auth = session(age=60)
    before = cached(auth)['expires_at']
    auth.answered(Client, Answer(timeout=1800))
    assert cached(auth)['expires_at'] == before


def test_an_answer_without_the_header_renews_nothing(session):
    auth = session(age=1700)
    before = cached(auth)['expires_at']
    auth.answered(Client, Answer())
    assert cached(auth)['expires_at'] == before


def test_an_entry_another_login_replaced_is_left_as_it_is(session):
    auth = session(age=1700)
    other = dict(cached(auth), session_id='xyz')
    auth.cache.save(auth._key(Client), other)
    auth.answered(Client, Answer(timeout=1800))
    assert cached(auth) == other
