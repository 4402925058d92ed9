"""tests/ci/free_port.py: the ports the tests' services listen on. Steps side by side pick ports a moment
before their services bind them; two of them once got the same port and a service failed with "Address
already in use". A port is now leased to the caller that picked it."""
import importlib.util
import os
import socket
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SPEC = importlib.util.spec_from_file_location("free_port", ROOT / "tests" / "ci" / "free_port.py")
free_port = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(free_port)


@pytest.fixture
def leases(tmp_path, monkeypatch):
    monkeypatch.setattr(free_port, "_leases", lambda: str(tmp_path))
    return tmp_path


def test_a_port_is_never_given_twice_while_leased(leases):
    ports = [free_port.free_port() for _ in range(50)]
    assert len(set(ports)) == 50
    assert sorted(int(p.name) for p in leases.iterdir()) == sorted(ports)


def test_a_port_is_picked_below_the_ephemeral_range_and_can_be_bound(leases):
    port = free_port.free_port()
    assert port in free_port._candidates()
    with open(free_port.EPHEMERAL) as fh:
        assert port < int(fh.read().split()[0])
    with socket.socket() as server:
        server.bind(("127.0.0.1", port))


def test_a_port_something_listens_on_is_not_picked(leases, monkeypatch):
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        taken = listening.getsockname()[1]
        monkeypatch.setattr(free_port, "_candidates", lambda: range(taken, taken + 1))
        with pytest.raises(RuntimeError, match="no free port"):
            free_port.free_port()
    assert free_port.free_port() == taken   # free once nothing listens


def test_a_stale_lease_is_taken_over_and_a_fresh_one_is_not(leases, monkeypatch):
    port = free_port.free_port()
    monkeypatch.setattr(free_port, "_candidates", lambda: range(port, port + 1))
    with pytest.raises(RuntimeError):
        free_port.free_port()
    old = time.time() - free_port.LEASE - 1
    os.utime(leases / str(port), (old, old))
    assert free_port.free_port() == port
    assert [p.name for p in leases.iterdir()] == [str(port)]
