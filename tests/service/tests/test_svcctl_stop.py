"""svcctl stop stops only processes it started for the directory it is given.

A pid file outlives its process; on a busy machine the pid is soon given to
another process, another instance's server or identity provider among them.
"""

import json
import subprocess
import sys
import time
from pathlib import Path

SVCCTL = Path(__file__).resolve().parents[1] / "svcctl"


def sleeper(*args):
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"] + list(args))


def stop(directory):
    subprocess.run([sys.executable, str(SVCCTL), "stop", "--dir", str(directory)], check=True, capture_output=True)


def test_a_stale_pid_of_someone_elses_process_is_left_alone(tmp_path):
    other = sleeper(str(tmp_path.parent / "another-instance" / "gunicorn.pid"))
    try:
        (tmp_path / "idp").mkdir()
        (tmp_path / "gunicorn.pid").write_text(str(other.pid))
        (tmp_path / "idp" / "pids.json").write_text(json.dumps({"oidc": other.pid}))
        stop(tmp_path)
        time.sleep(0.2)
        assert other.poll() is None
        assert not (tmp_path / "gunicorn.pid").exists()
    finally:
        other.kill()
        other.wait()


def test_a_process_started_for_the_directory_is_stopped(tmp_path):
    (tmp_path / "idp").mkdir()
    server = sleeper(str(tmp_path / "gunicorn.pid"))
    provider = sleeper(str(tmp_path / "idp" / "oidc.json"))
    try:
        (tmp_path / "gunicorn.pid").write_text(str(server.pid))
        (tmp_path / "idp" / "pids.json").write_text(json.dumps({"oidc": provider.pid}))
        stop(tmp_path)
        assert server.wait(timeout=20) is not None
        assert provider.wait(timeout=20) is not None
    finally:
        for proc in (server, provider):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
