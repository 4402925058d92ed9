#!/usr/bin/env python3
"""A TCP port on 127.0.0.1 for a service of the tests to listen on: printed, or ``free_port()`` imported.

The steps of make test run side by side, and each picks the ports of the services it starts (the
reference service, the identity providers, LDAP) a moment before those services bind them. A port
the kernel hands out for ``bind(0)`` comes from its ephemeral range, which every outgoing connection
draws from too, and a step running beside may be handed the same port in that moment: the second
service to bind it then fails with "Address already in use". So a port is picked below the
ephemeral range, only when nothing listens on it, and it is leased: a file made exclusively in a
folder of the temporary directory keeps every other caller off it for ``LEASE`` seconds, long
enough for its service to bind it (once bound, the port is seen in use).
"""

import errno
import os
import random
import socket
import tempfile
import time

LEASE = 600                 # seconds a picked port is kept from other callers
LOWEST = 20000
EPHEMERAL = '/proc/sys/net/ipv4/ip_local_port_range'


def _candidates():
    """The ports to pick from: from LOWEST up to the kernel's ephemeral range (Linux's default starts at
    32768; elsewhere, or when that range starts too low, up to 32768)."""
    try:
        with open(EPHEMERAL) as fh:
            first = int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        first = 32768
    return range(LOWEST, first if first > LOWEST + 1000 else 32768)


def _leases():
    folder = os.path.join(tempfile.gettempdir(), 'automation-service-ports-%d' % os.getuid())
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return folder


def _lease(folder, port):
    """True when this caller now holds the lease of ``port`` (a lease older than LEASE is taken over)."""
    path = os.path.join(folder, str(port))
    try:
        if time.time() - os.stat(path).st_mtime > LEASE:
            stale = '%s.stale.%d.%d' % (path, os.getpid(), random.getrandbits(32))
            os.rename(path, stale)      # one caller wins the rename of a stale lease
            os.unlink(stale)
    except OSError:
        pass
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            return False
        raise
    return True


def _unused(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(('127.0.0.1', port))
        except OSError:
            return False
    return True


def free_port():
    """A port nothing listens on and no other caller was given in the last LEASE seconds."""
    folder, ports = _leases(), _candidates()
    for _attempt in range(200):
        port = random.choice(ports)
        if _unused(port) and _lease(folder, port):
            return port
    raise RuntimeError('no free port between %d and %d' % (ports.start, ports.stop - 1))


if __name__ == '__main__':
    print(free_port())
