"""The service's dispatcher: one long-lived process per instance that starts the runners of
jobs, updates, ad hoc commands and workflow jobs, as AWX's dispatcher does.

Each runner is a module with a ``main()`` that reads its arguments from ``sys.argv``
(``refsvc.jobs.runner JOB_ID``, ``refsvc.updates.runner KIND ID`` ...). Started as
``python -m MODULE ARGS``, every run would set Django up and import the runner's
libraries again: about 1.4 s of processor time, more than a short job's playbook takes.
The dispatcher sets Django up and imports the runners once, then forks a child for each
run, in a session of its own (so that cancelling a run stops all of it) and with its
output in the instance's ``jobs.log``, as before.

gunicorn forks it from its master when the service is ready and stops it when the service stops
(refsvc/gunicorn_conf.py); it also ends by itself when gunicorn's master is gone. The
service's processes reach it at a Unix socket in the abstract namespace, named after
the instance's directory; :func:`start` falls back to starting the module as a process
of its own when no dispatcher answers (a service started without gunicorn_conf, or a
system without abstract sockets).

    python -m refsvc.dispatcher
"""
import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
import traceback
from pathlib import Path

# The runners the dispatcher imports before it serves: their modules and libraries.
RUNNERS = ("refsvc.jobs.runner", "refsvc.updates.runner", "refsvc.adhoc.runner", "refsvc.wfjobs.runner")


def address(instance_dir) -> str:
    digest = hashlib.sha256(str(Path(instance_dir).resolve()).encode()).hexdigest()[:32]
    return "\0refsvc-dispatcher-" + digest


def jobs_log(instance_dir) -> Path:
    return Path(instance_dir) / "jobs.log"


def start(argv):
    """Run ``python -m argv[0] argv[1:]`` for the service, and return at once: through the
    dispatcher when it answers, else as a process of its own (reaped by a thread)."""
    from django.conf import settings

    argv = [str(arg) for arg in argv]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10)
            conn.connect(address(settings.INSTANCE_DIR))
            conn.sendall(json.dumps({"argv": argv}).encode() + b"\n")
            answer = json.loads(conn.makefile("rb").readline() or b"{}")
        if answer.get("pid"):
            return
    except (OSError, ValueError):
        pass
    with open(jobs_log(settings.INSTANCE_DIR), "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m"] + argv,
            cwd=str(Path(__file__).resolve().parents[1]),
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
        )
    threading.Thread(target=proc.wait, daemon=True).start()


def _run_child(argv, instance_dir):
    """In the forked child: become the runner's process, run it, never return."""
    import importlib
    import signal

    code = 1
    try:
        os.setsid()
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        log = os.open(str(jobs_log(instance_dir)), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        sys.argv = list(argv)
        importlib.import_module(argv[0]).main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # the runner's own failure: into jobs.log, as python -m would print it
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve():
    import importlib

    import django
    from django.conf import settings
    from django.db import connections

    django.setup()
    for module in RUNNERS:
        importlib.import_module(module)
    import ansible_runner  # noqa: F401  (the job runners' library, imported once here)

    instance_dir = str(settings.INSTANCE_DIR)
    master = os.getppid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address(instance_dir))
    listener.listen(64)
    listener.settimeout(1.0)
    while os.getppid() == master:
        while True:  # reap the runners that ended
            try:
                pid, _status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        with conn:
            try:
                conn.settimeout(10)
                request = json.loads(conn.makefile("rb").readline())
                argv = [str(arg) for arg in request["argv"]]
                if not argv or argv[0] not in RUNNERS:
                    raise ValueError("not a runner: %r" % argv[:1])
            except (OSError, ValueError, KeyError, TypeError) as exc:
                try:
                    conn.sendall(json.dumps({"error": str(exc)}).encode() + b"\n")
                except OSError:
                    pass
                continue
            connections.close_all()  # a child opens its own database connection
            pid = os.fork()
            if pid == 0:
                listener.close()
                conn.close()
                _run_child(argv, instance_dir)
            try:
                conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            except OSError:
                pass


if __name__ == "__main__":
    serve()
