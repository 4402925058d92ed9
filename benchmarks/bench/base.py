"""Where the benchmark's files are, and what its modules share: the log line and milliseconds."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # benchmarks/
ROOT = HERE.parent
WORK = HERE / ".work"
SERVICE_DIR = WORK / "service"
GATEWAY_SERVICE_DIR = WORK / "service-gateway"
AWX_VENV = WORK / "awx-venv"
PLAYBOOKS = HERE / "playbooks"
CONNECTION_PLUGINS = HERE / "connection_plugins"

# How the benchmark is run, as the report names it.
COMMAND = "make bench"
ENTRY = "python -m benchmarks.bench"


def log(message):
    print("bench: " + message, file=sys.stderr, flush=True)


def ms(seconds):
    return "%.0f" % (seconds * 1000.0)
