"""The real AWX (tests/realawx) as the service a measurement runs against: `--real` measures the configuration
at scale there, since only the real server's time per request is what a re-apply really costs. Its nginx access
log (tests/realawx/config/nginx.conf, format `timed`) is the request log: each request's status, its time
(request_time) and when it ended. REALAWX_INSTANCE=<name> measures against another instance of the same
build (tests/realawx/README.md), beside the tests' own."""
import fcntl
import os
import re
import subprocess

from .base import ROOT, log
from .runner import Service

REALAWX = ROOT / "tests" / "realawx" / "realawx"
LINE = re.compile(r'"(?P<method>[A-Z]+) (?P<target>\S+) [^"]*" (?P<status>\d{3}) \S+ "[^"]*" "[^"]*" '
                  r'(?P<duration>[\d.]+) \S+ (?P<end>[\d.]+)$')


def realawx(*args):
    out = subprocess.run([str(REALAWX)] + list(args), capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("realawx %s failed (rc %s):\n%s" % (" ".join(args), out.returncode, out.stderr[-2000:]))
    return out.stdout


class RealService(Service):
    """The real AWX, built if it is not (tests/realawx/realawx start), its database put back as it was made
    (reset) so that every run starts alike; stopped at the end when the run started it. Held for the run, as
    its other users hold it (realawx hold): they take turns instead of resetting each other's database."""

    def __init__(self):
        super().__init__(ROOT / "tests" / "realawx")
        self.started_here = False
        self.held = None

    def start(self, with_idp=False):
        if not os.environ.get("REALAWX_HELD"):
            # each instance of the install (REALAWX_INSTANCE) has its own hold
            instance = os.environ.get("REALAWX_INSTANCE")
            self.held = open(realawx("path").strip() + ("-" + instance if instance else "") + ".hold", "w")
            log("the real AWX: waiting for its other users, if any")
            fcntl.flock(self.held, fcntl.LOCK_EX)
        self.started_here = subprocess.run([str(REALAWX), "status"], capture_output=True).returncode != 0
        log("the real AWX: %s" % ("starting (building it first if it is not built)" if self.started_here
                                  else "running; its database is put back as it was made"))
        out = realawx("start")
        realawx("reset")
        self.access_log = realawx("path", "--logs").strip() + "/nginx-access.log"
        return self.connect(out)

    def stop(self):
        try:
            if self.started_here:
                realawx("stop")
        finally:
            if self.held is not None:
                self.held.close()

    def manage(self, *args):
        raise RuntimeError("the real AWX has no svcctl manage")

    def log_lines(self):
        try:
            with open(self.access_log) as fh:
                return fh.read().splitlines()
        except FileNotFoundError:
            return []

    def since(self, mark):
        entries = []
        for line in self.log_lines()[mark:]:
            found = LINE.search(line)
            if found is None:
                continue
            duration = float(found.group("duration"))
            path, _, query = found.group("target").partition("?")
            entries.append({"t": float(found.group("end")) - duration, "duration": duration,
                            "method": found.group("method"), "path": path, "query": query,
                            "status": int(found.group("status"))})
        return entries
