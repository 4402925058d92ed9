"""The Hub the tests of tests/hub/tests run against (the ``hub`` fixture).

make test's hub step (tests/hub/run.sh) starts one and sets HUB_URL, HUB_CONTENT_URL, HUB_CA_PATH,
HUB_USERNAME and HUB_PASSWORD: the fixture uses it and leaves it running. Without HUB_URL, the fixture
starts a Hub of its own in .run/hub-tests for the session (about 20 s once the Hub's virtualenv and
migrated database are in the machine's cache, a few minutes the first time) and stops it at the end,
checking that none of its processes is left.
"""
import os
import subprocess
import sys

import pytest

from hub_helpers import HUBCTL, NAMES, Hub, exports


@pytest.fixture(scope="session")
def hub():
    if os.environ.get("HUB_URL"):
        # HUB_DIR: where that Hub runs (its logs), when the step says it
        yield Hub((name, os.environ.get(name, "")) for name in NAMES + ("HUB_DIR",))
        return
    # Under the repository's .run, not pytest's temporary directory: run as root, PostgreSQL runs as its
    # own user, which cannot enter pytest's private folders. Its database is kept for the next run.
    directory = HUBCTL.parents[2] / ".run" / "hub-tests"
    started = subprocess.run([sys.executable, str(HUBCTL), "start", "--dir", str(directory)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # hubctl's own messages (stderr) never carry the password: only its export lines do.
        assert started.returncode == 0, started.stderr[-4000:]
        values = Hub(exports(started.stdout), HUB_DIR=str(directory))
        assert values["HUB_PASSWORD"] not in started.stderr
        yield values
    finally:
        # hubctl stop fails when a process of the instance outlived the stop
        stopped = subprocess.run([sys.executable, str(HUBCTL), "stop", "--dir", str(directory)],
                                 stderr=subprocess.PIPE, text=True)
        assert stopped.returncode == 0, stopped.stderr
        assert not (directory / "pg" / "data" / "postmaster.pid").exists()
