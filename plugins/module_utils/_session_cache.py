# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""On-disk cache of sessions and minted tokens, shared by tasks and forks.

Files are 0600 in a 0700 directory under the user's cache directory
(``$XDG_CACHE_HOME/automation.service`` or ``~/.cache/automation.service``;
``SERVICE_CACHE_DIR`` overrides it). Writes are atomic (temporary file and
rename); a per-entry lock makes parallel forks log in once. A file that is
unreadable, corrupt, or open to other users is discarded, never trusted.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import binascii
import contextlib
import hashlib
import hmac
import json
import os
import time

from ansible_collections.automation.service.plugins.module_utils._private_dir import (
    NotPrivate, default_directory, private_directory, read_private, write_private,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no cross-process lock
    fcntl = None

VERIFIER_ITERATIONS = 20000


def entry_key(*parts):
    """A file-name-safe key for the identity given by ``parts`` (never secrets)."""
    digest = hashlib.sha256('\0'.join(str(part) for part in parts).encode('utf-8'))
    return digest.hexdigest()[:40]


def make_verifier(secret, salt=None):
    """A slow salted hash of a password, so that a cached session is only reused
    by a task that gives the same password it was created with."""
    verifier = _pbkdf2(secret, salt or binascii.hexlify(os.urandom(16)).decode('ascii'))
    _remember(secret, verifier)
    return verifier


def _pbkdf2(secret, salt):
    digest = hashlib.pbkdf2_hmac('sha256', secret.encode('utf-8'), salt.encode('ascii'), VERIFIER_ITERATIONS)
    return '%s$%s' % (salt, binascii.hexlify(digest).decode('ascii'))


# Verifiers this process has already checked (or made), each with a keyed hash of
# the secret that matched it: the items of a loop run in one worker process, and
# only the first pays for PBKDF2. The key is random per process and the record is
# never written anywhere, so it makes no offline guessing cheaper.
_PROCESS_KEY = os.urandom(32)
_VERIFIED = {}
_VERIFIED_MAX = 64


def _keyed(secret):
    return hmac.new(_PROCESS_KEY, secret.encode('utf-8'), hashlib.sha256).digest()


def _remember(secret, verifier):
    if len(_VERIFIED) >= _VERIFIED_MAX:
        _VERIFIED.clear()
    _VERIFIED[verifier] = _keyed(secret)


def check_verifier(secret, verifier):
    if not isinstance(verifier, str) or '$' not in verifier:
        return False
    known = _VERIFIED.get(verifier)
    if known is not None:
        return hmac.compare_digest(known, _keyed(secret))
    try:
        if not hmac.compare_digest(_pbkdf2(secret, verifier.split('$', 1)[0]), verifier):
            return False
    except (UnicodeError, TypeError):  # a damaged entry: never a match
        return False
    _remember(secret, verifier)
    return True


class SessionCache:
    """Reads and writes cache entries; collects warnings for the caller to show."""

    def __init__(self, directory=None, enabled=True):
        self.enabled = enabled
        self.directory = directory or default_directory()
        self.warnings = []
        self._ready = False

    def _prepare(self):
        if self._ready:
            return True
        try:
            if not private_directory(self.directory):
                self.warnings.append('Session cache %s belongs to another user: not used.' % self.directory)
                self.enabled = False
                return False
        except OSError as exc:
            self.warnings.append('Session cache %s cannot be used (%s): logging in without it.'
                                 % (self.directory, exc.strerror or exc))
            self.enabled = False
            return False
        self._ready = True
        return True

    def _path(self, key, suffix='.json'):
        return os.path.join(self.directory, key + suffix)

    @contextlib.contextmanager
    def lock(self, key):
        """Hold an exclusive lock on one entry (a no-op when the cache is off)."""
        if not self.enabled or fcntl is None or not self._prepare():
            yield
            return
        fd = os.open(self._path(key, '.lock'), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def load(self, key):
        """Return the entry, or None when absent, expired or not trustworthy."""
        if not self.enabled or not self._prepare():
            return None
        path = self._path(key)
        try:
            data = read_private(path)
        except NotPrivate:
            self._discard(path, 'it is readable or writable by other users')
            return None
        if data is None:
            return None
        try:
            entry = json.loads(data)
            if not isinstance(entry, dict):
                raise ValueError('not an object')
        except ValueError:
            self._discard(path, 'it is corrupt or truncated')
            return None
        expires = entry.get('expires_at')
        if isinstance(expires, (int, float)) and expires <= time.time():
            self.drop(key)
            return None
        return entry

    def save(self, key, entry):
        if not self.enabled or not self._prepare():
            return
        try:
            write_private(self._path(key), json.dumps(entry).encode('utf-8'))
        except (OSError, TypeError, ValueError) as exc:
            self.warnings.append('Could not write the session cache (%s).' % exc)

    def drop(self, key):
        if not self.enabled:
            return
        try:
            os.unlink(self._path(key))
        except OSError:
            pass

    def _discard(self, path, why):
        self.warnings.append('Discarded session cache file %s because %s.' % (path, why))
        try:
            os.unlink(path)
        except OSError:
            pass
