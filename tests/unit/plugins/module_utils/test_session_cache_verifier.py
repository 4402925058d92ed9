"""The cached session's password verifier: PBKDF2 once per process for the
same password and entry, and never a match for another password."""

import hashlib

import pytest

from ansible_collections.automation.service.plugins.module_utils import _session_cache as cache


@pytest.fixture
def counted(monkeypatch):
    """Counts the real PBKDF2 calls (the function still runs)."""
    calls = []
    real = hashlib.pbkdf2_hmac

    def pbkdf2_hmac(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(cache.hashlib, 'pbkdf2_hmac', pbkdf2_hmac)
    monkeypatch.setattr(cache, '_VERIFIED', {})
    return calls


def test_a_verifier_made_elsewhere_costs_one_pbkdf2_in_this_process(counted):
    verifier = cache.make_verifier('s3cret-pw')
    cache._VERIFIED.clear()  # as a process that did not make it
    del counted[:]
    assert cache.check_verifier('s3cret-pw', verifier)
    assert cache.check_verifier('s3cret-pw', verifier)
    assert cache.check_verifier('s3cret-pw', verifier)
    assert len(counted) == 1


def test_another_password_never_matches_even_after_the_right_one(counted):
    verifier = cache.make_verifier('s3cret-pw')
    assert cache.check_verifier('s3cret-pw', verifier)
    assert not cache.check_verifier('s3cret-pw ', verifier)
    assert not cache.check_verifier('other', verifier)
    cache._VERIFIED.clear()
    assert not cache.check_verifier('other', verifier)
    assert cache.check_verifier('s3cret-pw', verifier)


def test_the_record_keeps_no_password_in_clear(counted):
    verifier = cache.make_verifier('s3cret-pw')
    assert all(b's3cret-pw' not in value for value in cache._VERIFIED.values())
    assert list(cache._VERIFIED) == [verifier]


@pytest.mark.parametrize('damaged', ['', 'no-dollar', None, 42, '\u00e9t\u00e9$abcd'])
def test_a_damaged_verifier_never_matches(counted, damaged):
    assert not cache.check_verifier('s3cret-pw', damaged)


def test_the_record_stays_bounded(counted):
    for index in range(cache._VERIFIED_MAX + 5):
        cache._remember('pw', 'salt%d$x' % index)
    assert len(cache._VERIFIED) <= cache._VERIFIED_MAX
