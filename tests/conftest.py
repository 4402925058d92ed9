"""Shared pytest fixtures: the reference service (tests/service/svcctl).

    service            a default instance (session-scoped), stopped at the end
    service_factory    service_factory(**settings) -> Service; one instance per
                       distinct settings, cached for the session, all stopped at the end
    sso_service        an instance with the test identity providers (session-scoped)
    svc                an instance for the test module alone (module-scoped): its request log,
                       fault rules and restarts reach no other module; its faults are cleared after
    Service.new_user() a new user with a random name and password on that instance
    repo_root()        the repository root (pathlib.Path)

It also makes ``ansible_collections.automation.service`` importable for plain pytest
(ansible-test units does this itself): the repository is linked into a temporary
collection tree and that tree goes on sys.path.
"""
import atexit
import base64
import fcntl
import hashlib
import os
import shutil
import tempfile
import json
import shlex
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest


# Fewer PBKDF2 iterations than the real service's (refsvc/svc/hashers.py): a test verifies
# passwords often, and the answers do not depend on the count.
os.environ.setdefault("REFSVC_PASSWORD_ITERATIONS", "1000")


def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


def _ensure_importable():
    try:
        import ansible_collections.automation.service.plugins  # noqa: F401
        return
    except ImportError:
        pass
    tree = tempfile.mkdtemp(prefix='automation-service-collections-')
    # removed at exit: rmtree takes the link away, not the repository it points at
    atexit.register(shutil.rmtree, tree, True)
    namespace = os.path.join(tree, 'ansible_collections', 'automation')
    os.makedirs(namespace)
    os.symlink(str(repo_root()), os.path.join(namespace, 'service'))
    sys.path.insert(0, tree)
    for name in [n for n in sys.modules if n == 'ansible_collections' or n.startswith('ansible_collections.')]:
        del sys.modules[name]


_ensure_importable()


def _svcctl() -> list:
    return [sys.executable, str(repo_root() / "tests" / "service" / "svcctl")]


class Service:
    """One running instance of the reference service."""

    def __init__(self, directory: Path, settings: dict, with_idp=False, layout="awx"):
        self.dir = Path(directory)
        self.settings = dict(settings)
        self.with_idp = with_idp
        self.layout = layout
        self.exports = {}
        self.url = None
        self.ca_path = None
        self.admin_username = None
        self.admin_password = None
        self.port = None

    # -- life cycle
    def start(self):
        command = _svcctl() + ["start", "--dir", str(self.dir)]
        for name, value in sorted(self.settings.items()):
            text = value if isinstance(value, str) else json.dumps(value)
            command += ["--set", "%s=%s" % (name, text)]
        if self.with_idp:
            command.append("--with-idp")
        if self.layout != "awx":
            command += ["--layout", self.layout]
        if self.port:
            command += ["--port", str(self.port)]  # started again: where it was
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            raise RuntimeError("svcctl start failed:\n%s\n%s" % (result.stdout, result.stderr))
        values = {}
        for line in result.stdout.splitlines():
            if line.startswith("export "):
                name, _, value = line[len("export "):].partition("=")
                values[name] = shlex.split(value)[0] if value else ""
        return self.adopt(values)

    def adopt(self, values: dict):
        """Take the exports of an instance that is already running."""
        self.exports = values
        self.url = values["SERVICE_URL"]
        self.ca_path = values["SERVICE_CA_PATH"]
        self.admin_username = values["SERVICE_ADMIN_USERNAME"]
        self.admin_password = values["SERVICE_ADMIN_PASSWORD"]
        self.port = int(self.url.rsplit(":", 1)[1])
        return self

    def stop(self):
        subprocess.run(_svcctl() + ["stop", "--dir", str(self.dir)], capture_output=True, text=True, timeout=60)

    def set_faults(self, *rules):
        """Replace the instance's fault rules (see tests/service/refsvc/faults/middleware.py); none: clear them."""
        subprocess.run(_svcctl() + ["faults", "--dir", str(self.dir)] + ([json.dumps(list(rules))] if rules else ["--clear"]),
                       check=True)

    # -- request log
    def log(self) -> list:
        try:
            text = (self.dir / "requests.jsonl").read_text()
        except FileNotFoundError:
            return []
        entries = []
        for line in text.splitlines():
            if line.strip():
                try:
                    entries.append(json.loads(line))
                except ValueError:
                    pass  # a line being written right now
        return entries

    def mark(self) -> int:
        return len(self.log())

    def since(self, mark: int) -> list:
        return self.log()[mark:]

    # -- control
    def manage(self, *args) -> str:
        result = subprocess.run(
            _svcctl() + ["manage", "--dir", str(self.dir)] + [str(a) for a in args],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if result.returncode != 0:
            raise RuntimeError("svcctl manage %s failed (%d):\n%s\n%s" % (args, result.returncode, result.stdout, result.stderr))
        return result.stdout

    def drop_sessions(self) -> None:
        subprocess.run(_svcctl() + ["drop-sessions", "--dir", str(self.dir)], check=True, capture_output=True, timeout=60)

    def env(self) -> dict:
        return {
            "SERVICE_URL": self.url,
            "SERVICE_CA_PATH": str(self.ca_path),
            "SERVICE_ADMIN_USERNAME": self.admin_username,
            "SERVICE_ADMIN_PASSWORD": self.admin_password,
        }

    # -- API helpers (standard library only, Basic as the administrator)
    def ssl_context(self):
        return ssl.create_default_context(cafile=str(self.ca_path))

    def admin_request(self, method: str, path: str, data=None):
        """An API call as the administrator with Basic; returns (status, parsed JSON or None)."""
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(self.url + path, data=body, method=method)
        credentials = base64.b64encode(("%s:%s" % (self.admin_username, self.admin_password)).encode()).decode()
        request.add_header("Authorization", "Basic " + credentials)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, context=self.ssl_context(), timeout=60) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, None

    def make_external(self, username) -> None:
        """Mark a user as coming from an external (social) authentication provider."""
        self.manage(
            "shell", "-c",
            "from django.contrib.auth.models import User; from refsvc.svc.models import UserProfile; "
            "UserProfile.objects.update_or_create(user=User.objects.get(username=%r), "
            "defaults={'external_account': 'social'})" % username,
        )

    def create_application(self, grant="password", client_type="confidential", **extra) -> dict:
        """An OAuth2 application in the Default organization (with its client secret, shown once)."""
        import uuid

        status, orgs = self.admin_request("GET", "/api/v2/organizations/?name=Default")
        body = {"name": "app-" + uuid.uuid4().hex[:8], "organization": orgs["results"][0]["id"],
                "client_type": client_type, "authorization_grant_type": grant}
        body.update(extra)
        status, data = self.admin_request("POST", "/api/v2/applications/", body)
        if status != 201:
            raise RuntimeError("creating application failed: %s %s" % (status, data))
        return data

    def new_user(self, is_superuser=False):
        """A new user with a random name and password: (username, password)."""
        name, password = "u" + uuid.uuid4().hex[:10], "pw-" + uuid.uuid4().hex
        self.create_user(name, password, is_superuser=is_superuser)
        return name, password

    def create_user(self, username, password, is_superuser=False) -> dict:
        status, data = self.admin_request(
            "POST", "/api/v2/users/", {"username": username, "password": password, "is_superuser": is_superuser}
        )
        if status != 201:
            raise RuntimeError("creating user %s failed: %s %s" % (username, status, data))
        return data


# -- the pool of instances ---------------------------------------------------------
# Instances are kept in a pool directory shared by every process of one pytest run:
# the main process makes it, xdist workers and forked tests (ansible-test units runs
# each test in a fork of its worker) inherit it through the environment. Each worker
# has instances of its own (its tests run one at a time, so request counts stay
# exact); the main process stops them all at the end, so no fork leaves one behind.
POOL = "REFERENCE_SERVICE_POOL"  # (not SERVICE_*: tests clear those from the environment)


def _pool() -> Path:
    if not os.environ.get(POOL):
        os.environ[POOL] = tempfile.mkdtemp(prefix="service-pool-")
        os.environ[POOL + "_OWNER"] = str(os.getpid())
        atexit.register(_stop_pool)
    return Path(os.environ[POOL])


def _stop_pool():
    if os.environ.get(POOL + "_OWNER") != str(os.getpid()):
        return
    pool = Path(os.environ[POOL])
    for state in pool.glob("*.json"):
        Service(pool / state.stem, {}).stop()
        state.unlink()


def pytest_sessionfinish(session):
    _stop_pool()


def pooled(settings: dict, with_idp: bool = False, layout: str = "awx", owner: str = "") -> Service:
    """The running instance for ``settings`` (and the layout, svcctl start --layout; and the owner,
    for an instance of its own) in this worker, started on first use."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    parts = [worker, settings, with_idp] + ([layout] if layout != "awx" else []) + ([owner] if owner else [])
    key = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]
    pool = _pool()
    state = pool / (key + ".json")
    with open(str(pool / (key + ".lock")), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if state.exists():
            return Service(pool / key, settings, with_idp=with_idp, layout=layout).adopt(json.loads(state.read_text()))
        instance = Service(pool / key, settings, with_idp=with_idp, layout=layout).start()
        state.write_text(json.dumps(instance.exports))
        return instance


_pool()  # made at import, in the main process, before any worker starts


@pytest.fixture(scope="session")
def service_factory():
    def factory(**settings) -> Service:
        return pooled(settings)

    return factory


@pytest.fixture(scope="session")
def service(service_factory) -> Service:
    return service_factory()


@pytest.fixture(scope="module")
def svc(request) -> Service:
    """An instance for this test module alone: its request log, its fault rules and its restarts
    reach no other module's tests. Its fault rules are cleared when the module ends."""
    instance = pooled({}, owner=request.module.__name__)
    yield instance
    instance.set_faults()


@pytest.fixture(scope="session")
def gateway_service_factory():
    """Instances in the platform gateway's layout (svcctl start --layout gateway), from the pool:
    ``gateway_service_factory(with_idp=False, **settings)``."""
    def factory(with_idp=False, **settings) -> Service:
        return pooled(settings, with_idp=with_idp, layout="gateway")

    return factory


@pytest.fixture(scope="session")
def sso_service() -> Service:
    """An instance with the test identity providers (svcctl start --with-idp); SSO_* in .exports."""
    return pooled({}, with_idp=True)
