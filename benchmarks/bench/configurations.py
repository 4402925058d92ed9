"""What is measured: the configurations (the collection's auth methods, awx.awx 24.6.1, the floors, the
gateway layout's), the targets they are judged by, and the async pattern's."""
import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from .base import AWX_VENV, CONNECTION_PLUGINS, HERE, PLAYBOOKS, ROOT, WORK, log
from .plays import awx_playbook, request_floor_playbook, worker_floor_playbook

LOOKUP_PAGE_SIZE = 200  # the largest page size the service allows
TOLERANCE_FLOOR_RT = 1.5
MODULE_PATH_CONNECTION = "local_as_remote"  # connection_plugins/local_as_remote.py

# The targets of the controller path, for an unchanged host task with a token and with a cached session.
LOOP_FLOOR_MAX = 0.1       # a loop: time per item at most this times the ping floor's (a loop of ping)
LOOP_AWX_MIN = 10.0        # a loop: at least this many times faster than awx.awx with a token
SEPARATE_FLOOR_MAX = 0.5   # separate tasks: time per task at most this times N separate pings'
SEPARATE_AWX_MIN = 2.5     # separate tasks: at least this many times faster than awx.awx with a token
# The last committed numbers of the previous module (benchmarks/RESULTS.md of commit 8aee1b8, a loop of 50):
# an unchanged host task with a token, and the ping floor of the same run, in seconds.
PREVIOUS_COMMITTED = {"commit": "8aee1b8", "token": 0.298, "floor": 0.266}

MODES = ("loop", "separate")

# The service's layouts: AWX 24's (/api/v2/) and an Automation Platform gateway's (svcctl start --layout gateway).
LAYOUTS = ("awx", "gateway")
DEFAULT_LAYOUTS = "awx,gateway"
# The configurations measured against the gateway too, each beside the one of the same auth against AWX 24's layout.
GATEWAY_CONFIGS = (("gw-token", "token"), ("gw-session", "session"))
DEFAULT_N = 50
DEFAULT_RUNS = 3


def clean_environ():
    env = dict(os.environ)
    for name in list(env):
        if name.startswith(("SERVICE_", "CONTROLLER_", "TOWER_", "ANSIBLE_", "BENCH_")) or name in ("SSL_CERT_FILE", "VIRTUAL_ENV"):
            del env[name]
    env.update({
        "ANSIBLE_LOCALHOST_WARNING": "false",
        "ANSIBLE_INVENTORY_UNPARSED_WARNING": "false",
        "ANSIBLE_CALLBACK_PLUGINS": str(HERE / "callback_plugins"),
        "ANSIBLE_CALLBACKS_ENABLED": "bench_timer",
        "ANSIBLE_RETRY_FILES_ENABLED": "false",
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_CONFIG": str(HERE / "ansible.cfg"),
    })
    return env


class Config:
    def __init__(self, key, label, kind, env, playbook, module, path="module", python=None, extra_vars=None):
        self.key = key
        self.label = label
        self.kind = kind          # ours, awx, floor
        self.env = env
        self.playbook = playbook  # the loop
        self.module = module      # the task's action (the separate tasks name it)
        self.path = path          # where the task's code runs: "controller" (the worker) or "module"
        self.python = str(python or sys.executable)
        self.extra_vars = dict(extra_vars or {})
        self.inventory = "bench-" + key
        self.modes = MODES
        self.diagnostic = False   # measured for "where the time goes" only
        self.create = None        # one Measurement (a loop)
        self.service = None       # the service it runs against, when not the main one (AWX 24's layout)
        self.layout = "awx"       # that service's layout
        self.beside = None        # a gateway configuration: the key of the same one against AWX 24's layout
        self.runs = {mode: [] for mode in MODES}  # unchanged Measurements


def git(*args):
    return subprocess.run(["git", "-C", str(ROOT)] + list(args), check=True, capture_output=True).stdout


def collection_at(commit):
    """The collection as it was at ``commit``, unpacked from git under .work: its collections path."""
    root = WORK / "previous" / commit[:12]
    target = root / "ansible_collections" / "automation" / "service"
    stamp = root / ".unpacked"
    if not stamp.exists():
        shutil.rmtree(root, ignore_errors=True)
        target.mkdir(parents=True)
        data = git("archive", "--format=tar", commit, "plugins", "meta", "galaxy.yml")
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            # the "data" filter where this Python has it (3.11.4 and later): git's own archive of this repository
            kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(target, **kwargs)  # nosec: an archive git made of this repository's commit
        stamp.write_text(commit + "\n")
    return root


def previous_collection():
    """The collection as it was before its action plugins (its modules ran as modules everywhere),
    unpacked from git under .work: (collections path, commit), or None without git history."""
    try:
        added = git("log", "--diff-filter=A", "--format=%H", "--", "plugins/plugin_utils/_action.py").decode().split()
        if not added:
            return None
        commit = git("rev-parse", added[-1] + "^").decode().strip()
        return collection_at(commit), commit
    except (OSError, subprocess.CalledProcessError) as exc:
        log("the previous module is left out: %s" % exc)
        return None


def baseline_collection(revision):
    """The collection at ``revision`` (a commit, tag or branch), to measure this one against in the same run:
    (collections path, commit), or None when git cannot give it."""
    try:
        commit = git("rev-parse", "--verify", revision + "^{commit}").decode().strip()
        return collection_at(commit), commit
    except (OSError, subprocess.CalledProcessError) as exc:
        log("the baseline %s is left out: %s" % (revision, exc))
        return None


CONFIG_ORDER = ("basic", "session", "token", "baseline", "sso", "auto", "token-preloaded", "token-module", "previous",
                "awx-password", "awx-token", "floor", "floor-request", "floor-worker", "gw-token", "gw-session")


def make_configs(service, token, awx_collections, our_collections, gateway=None, gateway_token=None, baseline=None):
    """The configurations; with ``gateway`` (the service in the gateway's layout, and a token of its own),
    those of GATEWAY_CONFIGS too; with ``baseline`` (a git revision), the collection at that revision with a
    token, beside this one's."""
    base = clean_environ()
    ours_path = str(Path(sys.executable).parent) + os.pathsep + base.get("PATH", "")
    awx_path = str(AWX_VENV / "bin") + os.pathsep + base.get("PATH", "")
    cache_root = WORK / "cache"
    shutil.rmtree(cache_root, ignore_errors=True)
    host_module = "automation.service.host"

    def ours(key, label, path="controller", collections=None, against=None, **extra):
        collections = collections or our_collections
        against = against or service
        env = dict(base, PATH=ours_path, ANSIBLE_COLLECTIONS_PATH=str(collections),
                   SERVICE_URL=against.url, SERVICE_CA_PATH=against.ca,
                   SERVICE_CACHE_DIR=str(cache_root / key))
        env.update(extra)
        return Config(key, label, "ours", env, PLAYBOOKS / "ours.yml", host_module, path=path)

    def awx(key, label, **extra):
        env = dict(base, PATH=awx_path, ANSIBLE_COLLECTIONS_PATH=str(awx_collections),
                   CONTROLLER_HOST=service.url, SSL_CERT_FILE=service.ca)
        env.update(extra)
        return Config(key, label, "awx", env, awx_playbook(), "awx.awx.host", python=AWX_VENV / "bin" / "python")

    password = dict(SERVICE_USERNAME=service.username, SERVICE_PASSWORD=service.password)
    with_token = dict(SERVICE_AUTH="token", SERVICE_TOKEN=token)
    configs = [
        ours("basic", "automation.service, basic", SERVICE_AUTH="basic", **password),
        ours("session", "automation.service, session (cached)", SERVICE_AUTH="session", **password),
        ours("token", "automation.service, token", **with_token),
    ]
    at = baseline_collection(baseline) if baseline else None
    if at:
        collections, commit = at
        configs.append(ours("baseline", "automation.service at %s, token" % commit[:7], collections=collections,
                            **with_token))
        configs[-1].commit = commit
    sso = sso_config(service)
    if sso:
        configs.append(ours("sso", "automation.service, sso (cached)", **sso))
    configs.append(ours("auto", "automation.service, auto with a password", **password))
    # A diagnostic, not a configuration anyone runs: the token's separate tasks with requests and the module's
    # code imported before the workers fork (callback_plugins/bench_preload.py).
    preloaded = ours("token-preloaded", "automation.service, token, imports done before the workers fork (diagnostic)",
                     ANSIBLE_CALLBACKS_ENABLED="bench_timer,bench_preload", **with_token)
    preloaded.inventory = "bench-token"
    preloaded.env["SERVICE_CACHE_DIR"] = str(cache_root / "token")
    preloaded.modes = ("separate",)
    preloaded.diagnostic = True
    configs.append(preloaded)
    module_path = ours("token-module", "automation.service, token, module path", path="module",
                       ANSIBLE_CONNECTION_PLUGINS=str(CONNECTION_PLUGINS), **with_token)
    module_path.extra_vars["ansible_connection"] = MODULE_PATH_CONNECTION
    configs.append(module_path)
    previous = previous_collection()
    if previous:
        collections, commit = previous
        configs.append(ours("previous", "previous module (%s), token" % commit[:7], path="module",
                            collections=collections, **with_token))
        configs[-1].commit = commit
    configs += [
        awx("awx-password", "awx.awx 24.6.1, username and password",
            CONTROLLER_USERNAME=service.username, CONTROLLER_PASSWORD=service.password),
        awx("awx-token", "awx.awx 24.6.1, token", CONTROLLER_OAUTH_TOKEN=token),
        Config("floor", "floor: ansible.builtin.ping", "floor", dict(base, PATH=ours_path), PLAYBOOKS / "ping.yml",
               "ansible.builtin.ping"),
        Config("floor-request", "floor with one request: a module that only sends the GET", "floor",
               dict(base, PATH=ours_path, ANSIBLE_LIBRARY=str(HERE / "library"), SERVICE_URL=service.url,
                    SERVICE_CA_PATH=service.ca, SERVICE_TOKEN=token), request_floor_playbook(), "one_request"),
    ]
    configs[-1].inventory = "bench-token"
    configs.append(Config("floor-worker", "floor in the worker: ansible.builtin.debug", "floor", dict(base, PATH=ours_path),
                          worker_floor_playbook(), "ansible.builtin.debug", path="controller"))
    if gateway is not None:
        # The collection finds the layout itself (service_layout auto, its default), as a playbook would.
        gateway_password = dict(SERVICE_USERNAME=gateway.username, SERVICE_PASSWORD=gateway.password)
        made = {
            "gw-token": ours("gw-token", "automation.service, token, gateway layout", against=gateway,
                             SERVICE_AUTH="token", SERVICE_TOKEN=gateway_token),
            "gw-session": ours("gw-session", "automation.service, session (cached), gateway layout", against=gateway,
                               SERVICE_AUTH="session", **gateway_password),
        }
        for key, beside in GATEWAY_CONFIGS:
            c = made[key]
            c.service, c.layout, c.beside = gateway, "gateway", beside
            configs.append(c)
    return configs


def on_awx(configs):
    """The configurations measured against AWX 24's layout (the gateway's have a section of their own)."""
    return [c for c in configs if getattr(c, "layout", "awx") == "awx"]


def sso_config(service):
    """SSO through the test OIDC provider, when the service was started with it (svcctl --with-idp)."""
    if not (ROOT / "plugins" / "module_utils" / "_auth_sso.py").exists():
        return None
    if not service.values.get("SSO_USERNAME"):
        return None
    return dict(SERVICE_AUTH="sso", SERVICE_SSO_BACKEND="oidc",
                SERVICE_USERNAME=service.values["SSO_USERNAME"], SERVICE_PASSWORD=service.values["SSO_PASSWORD"])


def sso_wanted():
    return (ROOT / "plugins" / "module_utils" / "_auth_sso.py").exists() and (ROOT / "tests" / "idp").is_dir()


SSO_NOTE = ("`sso` is not in the table: the collection has no `sso` auth method, or the test identity provider "
            "did not start (%s).")


# The configuration-as-code pattern: N objects of each kind, a loop with async and poll 0 then a loop of
# async_status (benchmarks/playbooks/pattern.yml), as infra.aap_configuration's roles run every role.
PATTERN_KINDS = ("hosts", "job templates", "credentials", "teams")
PATTERN_ASYNC = 1000             # the roles' async
PATTERN_AWX_MIN = 5.0            # the async pattern at least this many times faster than awx.awx's
PATTERN_LOOP_MAX = 1.5           # and within this many times our own loop without async
DEFAULT_PATTERN_N = 20
DEFAULT_FANOUT_N = 500
PATTERN_CONFIGS = (("ours-async", "automation.service, token, async and async_status", "ours", True),
                   ("ours-loop", "automation.service, token, the same loops without async", "ours", False),
                   ("awx-async", "awx.awx 24.6.1, token, async and async_status", "awx", True))
