"""What every test under tests/unit (and tests/live) gets: a session cache of its own and an
environment without the connection variables. tests/conftest.py makes the collection importable
under plain pytest (ansible-test units does that itself)."""

import os

import pytest


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    """Every test gets its own session cache directory and a clean environment."""
    cache = tmp_path / 'cache'
    monkeypatch.setenv('SERVICE_CACHE_DIR', str(cache))
    for name in list(os.environ):
        if name.startswith(('SERVICE_', 'CONTROLLER_', 'TOWER_')) and name != 'SERVICE_CACHE_DIR':
            monkeypatch.delenv(name, raising=False)
    return cache
