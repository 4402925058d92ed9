# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""At most so many requests in flight to one service from the processes of a
run on the controller: its workers (forks) and the async jobs forked from them.

Each request holds one of ``limit`` slots while it is sent and its answer is
read. A slot is an exclusive ``flock`` on a file of its own in a directory the
processes share: the user's cache directory, which outlives the run as async
jobs may (the run's temporary directory is removed when ansible-playbook ends,
and a job that made it again would count apart from the others). So the runs
of one user against one service share the bound too. The kernel frees a slot
when its holder ends, however it ends, so a killed job never keeps one. A process takes any free slot, or else waits its turn on one chosen at
random, which spreads the waiters over the slots.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import hashlib
import os
import random

from ansible_collections.automation.service.plugins.module_utils._private_dir import private_directory

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no bound
    fcntl = None

# The slot files this process opened, per (directory, service, limit). A forked
# child opens its own: a lock taken through a descriptor the parent shares is
# the parent's lock too.
_OPEN = {}
_OPEN_PID = [os.getpid()]


class InFlight:
    """The slots of one service in one directory; ``limit`` 0 (or no
    directory) bounds nothing."""

    def __init__(self, directory, service, limit):
        self.directory = directory
        self.service = service
        self.limit = int(limit or 0)

    @property
    def active(self):
        return bool(self.directory and self.limit > 0 and fcntl is not None)

    def _slots(self):
        if _OPEN_PID[0] != os.getpid():
            _OPEN.clear()  # the parent's descriptors stay open for the parent: not closed here
            _OPEN_PID[0] = os.getpid()
        key = (self.directory, self.service, self.limit)
        fds = _OPEN.get(key)
        if fds is None:
            folder = os.path.join(self.directory, 'requests-in-flight')
            if not private_directory(folder):
                raise OSError('%s belongs to another user' % folder)
            name = hashlib.sha256(self.service.encode('utf-8')).hexdigest()[:16]
            fds = [os.open(os.path.join(folder, '%s.%d' % (name, i)), os.O_RDWR | os.O_CREAT, 0o600)
                   for i in range(self.limit)]
            _OPEN[key] = fds
        return fds

    @contextlib.contextmanager
    def slot(self):
        """Hold a slot for the time of the block."""
        fds = None
        if self.active:
            try:
                fds = self._slots()
            except OSError:  # no directory to share: the request goes without a slot
                fds = None
        if not fds:
            yield
            return
        first = random.randrange(len(fds))
        held = None
        for i in range(len(fds)):
            fd = fds[(first + i) % len(fds)]
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            held = fd
            break
        if held is None:
            held = fds[first]
            fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
