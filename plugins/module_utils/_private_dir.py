# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's cache directory, and files in it that only their owner can use
(0700 directories, 0600 files written atomically)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import stat
import tempfile


JOB_CACHE_NAME = '.automation.service'


def job_private_data_dir(environ=None):
    """The private data directory of the AWX or Automation Platform job (or any run of
    ansible-runner) this process is part of, or None outside one.

    ansible-runner gives every run ``AWX_ISOLATED_DATA_DIR``, the run's artifact
    directory ``<private data dir>/artifacts/<ident>`` as the run sees it (inside an
    execution environment, under ``/runner``); AWX also sets ``AWX_PRIVATE_DATA_DIR``,
    which is the path on the node that started the run (not always visible from inside
    the execution environment). The directory is the job's alone and is removed when
    the job ends."""
    environ = os.environ if environ is None else environ
    candidates = []
    artifacts = environ.get('AWX_ISOLATED_DATA_DIR')
    if artifacts:
        parent = os.path.dirname(os.path.normpath(artifacts))
        if os.path.basename(parent) == 'artifacts':
            candidates.append(os.path.dirname(parent))
    if environ.get('AWX_PRIVATE_DATA_DIR'):
        candidates.append(environ['AWX_PRIVATE_DATA_DIR'])
    for path in candidates:
        if os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK):
            return path
    return None


def default_directory(environ=None):
    """``SERVICE_CACHE_DIR``; else, inside an AWX job, ``.automation.service`` in the job's
    private data directory (it goes with the job: nothing stays for the next job, and
    nothing is written to a home directory that jobs share); else
    ``$XDG_CACHE_HOME/automation.service``, else ``~/.cache/automation.service``."""
    environ = os.environ if environ is None else environ
    if environ.get('SERVICE_CACHE_DIR'):
        return environ['SERVICE_CACHE_DIR']
    job_dir = job_private_data_dir(environ)
    if job_dir:
        return os.path.join(job_dir, JOB_CACHE_NAME)
    base = environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'automation.service')


def private_directory(path):
    """Make ``path`` if it is missing and leave it 0700: True when it is ours,
    False when another user owns it (then it must not be used). OSError when
    it cannot be made or read."""
    if not os.path.isdir(path):
        try:
            os.makedirs(path, 0o700)
        except OSError:
            # another fork may have made it at the same moment
            if not os.path.isdir(path):
                raise
    info = os.stat(path)
    if info.st_uid != os.getuid():
        return False
    if stat.S_IMODE(info.st_mode) != 0o700:
        os.chmod(path, 0o700)
    return True


class NotPrivate(Exception):
    """A file that another user owns, or that other users can read or write."""


def read_private(path):
    """The bytes of ``path``; None when it is missing or unreadable. NotPrivate
    when it is not ours alone (then it must not be trusted)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0))
    except OSError:
        return None
    with os.fdopen(fd, 'rb') as handle:
        info = os.fstat(handle.fileno())
        if info.st_uid != os.getuid() or stat.S_IMODE(info.st_mode) & 0o077:
            raise NotPrivate(path)
        try:
            return handle.read()
        except OSError:
            return None


def write_private(path, data, sync=True):
    """Write ``data`` to ``path`` as a 0600 file, atomically (a temporary file
    in the same directory, renamed over it), flushed to the disk first unless
    ``sync`` is false. OSError when it cannot."""
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(path) or '.', prefix='.tmp-')
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, 'wb') as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.rename(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
