"""Faults injected into the reference service, and what the client does with them.

The faults are real (status codes, resets, delays and bad bodies produced by the
service's fault middleware over HTTPS); nothing here is mocked.
"""

import time

import pytest

from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConnectionFailure, OutcomeUnknown,
)

from .faults import faulted, record
from .helpers import connect_as, logins


@pytest.fixture(autouse=True)
def no_faults(svc):
    svc.set_faults()
    yield
    svc.set_faults()


def hosts_named(svc, name):
    status, body = svc.admin_request('GET', '/api/v2/hosts/?name=%s' % name)
    assert status == 200
    return body['count']


def make_inventory(client, name):
    return client.request('POST', 'inventories', json_body={'name': name, 'organization': 1})


@pytest.mark.parametrize('status, retry_after', [(502, None), (503, 1), (504, None), (429, 1)])
def test_idempotent_get_is_retried_on_transient_status(svc, status, retry_after):
    client = connect_as(svc)
    svc.set_faults({'fault': 'status', 'status': status, 'retry_after': retry_after,
                    'path': '/api/v2/me/', 'times': 2})
    mark = svc.mark()
    assert client.get('me')['results'][0]['username'] == svc.admin_username
    entries = svc.since(mark)
    assert [e['status'] for e in entries] == [status, status, 200]
    record('GET answered %d%s twice' % (status, ' with Retry-After' if retry_after else ''), 1,
           'succeeded on the third attempt', 'yes, 2 retries')


def test_retries_are_bounded(svc):
    client = connect_as(svc, request_retries=2)
    svc.set_faults({'fault': 'status', 'status': 503, 'path': '/api/v2/me/'})
    mark = svc.mark()
    with pytest.raises(ApiError) as info:
        client.get('me')
    assert info.value.status == 503
    assert len(svc.since(mark)) == 3
    record('GET answered 503 every time', 1, 'failed cleanly after 1 + request_retries attempts',
           'yes, bounded (2)')


def test_post_is_not_retried_on_502(svc):
    client = connect_as(svc)
    svc.set_faults({'fault': 'status', 'status': 502, 'path': '/api/v2/inventories/', 'method': 'POST',
                    'times': 1})
    mark = svc.mark()
    with pytest.raises(ApiError, match='502.*The service may or may not have processed the request'):
        make_inventory(client, 'no-retry-on-502')
    assert len([e for e in svc.since(mark) if e['method'] == 'POST']) == 1
    record('POST answered 502', 1, 'failed cleanly, not retried, outcome said unknown', 'no')


def test_post_is_retried_on_429_which_means_not_processed(svc):
    client = connect_as(svc)
    svc.set_faults({'fault': 'status', 'status': 429, 'retry_after': 1, 'path': '/api/v2/inventories/',
                    'method': 'POST', 'times': 1})
    created = make_inventory(client, 'retried-after-429')
    status, body = svc.admin_request('GET', '/api/v2/inventories/?name=retried-after-429')
    assert body['count'] == 1 and body['results'][0]['id'] == created['id']
    record('POST answered 429 with Retry-After', 1, 'succeeded after waiting', 'yes, 1 retry', 'nothing, no duplicate')


def test_connection_reset_before_answer_is_retried_for_get(svc):
    client = connect_as(svc)
    svc.set_faults({'fault': 'reset_before', 'path': '/api/v2/me/', 'times': 1})
    mark = svc.mark()
    assert client.get('me')['results'][0]['username'] == svc.admin_username
    assert [e.get('fault') for e in svc.since(mark)] == ['reset_before', None]
    record('connection reset before any answer (GET)', 1, 'succeeded on the second attempt', 'yes, 1 retry')


def test_post_processed_then_reset_reports_unknown_outcome_and_never_duplicates(svc):
    client = connect_as(svc)
    svc.set_faults({'fault': 'reset_after', 'path': '/api/v2/inventories/', 'method': 'POST', 'times': 1})
    with pytest.raises(OutcomeUnknown, match='may or may not have processed'):
        make_inventory(client, 'reset-after-post')
    status, body = svc.admin_request('GET', '/api/v2/inventories/?name=reset-after-post')
    assert body['count'] == 1  # processed once, and not sent again
    record('connection reset after a POST was processed', 1,
           'failed cleanly: outcome unknown, how to check', 'no', 'nothing, no duplicate')


def test_delay_past_the_timeout_is_retried_for_get(svc):
    client = connect_as(svc, request_timeout=1)
    svc.set_faults({'fault': 'delay', 'seconds': 3, 'path': '/api/v2/me/', 'times': 1})
    assert client.get('me')['results'][0]['username'] == svc.admin_username
    record('answer delayed past request_timeout (GET)', 1, 'succeeded on the second attempt', 'yes, 1 retry')


def test_a_get_whose_answer_is_always_late_is_sent_four_times_only(svc):
    """Time bounds the retries of a request never sent; one whose answer was lost is sent again 3 times (the
    default), not until request_retry_max_seconds is spent: its next answer may be lost too."""
    client = connect_as(svc, request_timeout=0.5)
    svc.set_faults({'fault': 'delay', 'seconds': 2, 'path': '/api/v2/me/'})
    mark, began = svc.mark(), time.time()
    try:
        with pytest.raises(ConnectionFailure, match=r'failed after retries: .*\(timeout 0.5s; 4 attempts in \d+ s\)'):
            client.get('me')
    finally:
        svc.set_faults()
    time.sleep(2.5)  # the late answers are logged as they end
    # (by the time each began: a late answer of an earlier test may be logged after the mark)
    assert len([e for e in svc.since(mark) if e['path'] == '/api/v2/me/' and e['t'] >= began]) == 4
    record('answer always later than request_timeout (GET)', 1, 'failed cleanly after 1 + 3 attempts, time tried said',
           'yes, 3 retries (request_retries, 3 when unset)')


def test_delay_past_the_timeout_on_post_is_an_unknown_outcome(svc):
    client = connect_as(svc, request_timeout=1)
    svc.set_faults({'fault': 'delay', 'seconds': 3, 'path': '/api/v2/inventories/', 'method': 'POST',
                    'times': 1})
    with pytest.raises(OutcomeUnknown):
        make_inventory(client, 'slow-post')
    record('answer delayed past request_timeout (POST)', 1, 'failed cleanly: outcome unknown', 'no')


def test_proxy_html_page_is_quoted(svc):
    client = connect_as(svc, request_retries=0)
    svc.set_faults({'fault': 'html', 'status': 502, 'path': '/api/v2/me/'})
    with pytest.raises(ApiError) as info:
        client.get('me')
    message = str(info.value)
    assert '502' in message and '502 Bad Gateway' in message and 'Traceback' not in message
    record("a proxy's HTML error page instead of JSON", 1, 'failed cleanly, status and first bytes quoted',
           'yes (502), then failed')


def test_malformed_json_is_quoted(svc):
    client = connect_as(svc)
    svc.set_faults({'fault': 'malformed_json', 'path': '/api/v2/me/'})
    with pytest.raises(ApiError, match='not JSON: {"count": 3'):
        client.get('me')
    record('malformed JSON with status 200', 1, 'failed cleanly, first bytes quoted', 'no')


def test_restart_that_drops_sessions_is_survived(svc):
    connect_as(svc)  # a cached session
    svc.set_faults({'fault': 'drop_sessions', 'path': '/api/v2/me/', 'times': 1})
    mark = svc.mark()
    client = connect_as(svc)
    assert client.get('me')['results'][0]['username'] == svc.admin_username
    assert len(logins(svc.since(mark))) == 1
    record('server restart that drops every session', 1, 'session renewed once, transparently',
           'yes, after a fresh login')


def test_every_nth_request_fails_and_a_loop_still_completes(svc):
    client = connect_as(svc)
    svc.set_faults({'fault': 'status', 'status': 503, 'path': '/api/v2/organizations/', 'method': 'GET',
                    'every': 3})
    mark = svc.mark()
    for _ in range(12):
        client.get('organizations', params={'name': 'Default'})
    entries = svc.since(mark)
    assert len(faulted(entries)) >= 4
    assert len([e for e in entries if e['status'] == 200]) == 12
    record('every 3rd GET answers 503', 12, 'all succeeded', 'yes, each once')


def test_connection_refused_is_a_clear_error(svc):
    client = connect_as(svc, session_cache=False, request_retry_max_seconds=1.5)
    client.base_url = client.origin = 'https://127.0.0.1:9'  # nothing listens on the discard port
    with pytest.raises(ConnectionFailure, match=r'Cannot connect to https://127.0.0.1:9: .*\(\d+ attempts in \d s; '
                                                r'request_retry_max_seconds 1.5s\)'):
        client.get('me')
    record('nothing listening at the service URL', 1, 'failed cleanly, host named, time tried said',
           'yes, until request_retry_max_seconds, then failed')
