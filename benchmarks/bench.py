#!/usr/bin/env python3
"""The benchmark: this collection beside awx.awx 24.6.1 and Ansible's own floor,
in one run, against one reference service.

    python benchmarks/bench.py [--n 50] [--runs 3] [--only KEYS] [--layouts awx,gateway] [--skip-extras] [--no-write]

(`make bench` runs it with the project's virtualenv.) It

1. copies the collection to benchmarks/.work/collection (edits made while the run
   goes on stay out of it), starts the reference service in
   benchmarks/.work/service (fresh database), makes awx.awx's own virtualenv in benchmarks/.work/awx-venv (ansible-core,
   pinned like ours), unpacks awx.awx 24.6.1 from ansible==12.3.0 and, from git,
   the collection as it was before its action plugins (the previous module);
2. for every configuration runs a play whose one host task loops over N items
   and creates N hosts; then, --runs times, the configurations taking turns so
   that a change of machine load hits them all alike, the same loop again,
   unchanged, and a play of N separate host tasks on the same hosts (written by
   bench.py: no loop, no templating; every task is a new worker process);
3. counts every request, every password check and every TCP connection on the
   server (the service's request log: its password hasher counts verifications,
   each request names its client port), and times every task with a callback
   plugin (Ansible's start-up is not counted);
4. runs the token configuration on the module path too (as on a remote host,
   or with become) through `local_as_remote`, Ansible's local
   connection under another name, beside the previous module;
5. measures one request's round trip, a changed task, forks (-f 20 over 200
   hosts, session auth), scale (2,000-host inventory, a 10,000-object lookup),
   a loop with async on the module path, the async pattern of configuration
   as code (N objects of four kinds through async and async_status loops,
   beside the same loops without async and beside awx.awx) and a fan-out of
   500 async jobs at once, and, when the job modules exist, 50 launches;
6. with the gateway layout (--layouts, both by default), starts a second reference
   service in the platform gateway's layout (svcctl start --layout gateway) and
   measures this collection there too (a token, a cached session), taking turns
   with the others: its time per task beside the same configuration's against
   AWX 24's layout, as a ratio of the same run (awx.awx 24.6.1 is not measured
   there: it sends its requests to /api/v2/, which a gateway does not serve);
7. writes benchmarks/RESULTS.md, benchmarks/results.png and the numbers in the
   README and in the performance guide.
"""
import argparse
import collections
import datetime
import io
import json
import math
import os
import pickle
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = HERE / ".work"
SERVICE_DIR = WORK / "service"
GATEWAY_SERVICE_DIR = WORK / "service-gateway"
AWX_VENV = WORK / "awx-venv"
PLAYBOOKS = HERE / "playbooks"
ANSIBLE_CORE_PIN = "ansible-core==2.19.14"
LOOKUP_PAGE_SIZE = 200  # the largest page size the service allows
TOLERANCE_FLOOR_RT = 1.5
CONNECTION_PLUGINS = HERE / "connection_plugins"
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

COMMAND = "make bench"
# The service's layouts: AWX 24's (/api/v2/) and an Automation Platform gateway's (svcctl start --layout gateway).
LAYOUTS = ("awx", "gateway")
DEFAULT_LAYOUTS = "awx,gateway"
# The configurations measured against the gateway too, each beside the one of the same auth against AWX 24's layout.
GATEWAY_CONFIGS = (("gw-token", "token"), ("gw-session", "session"))
DEFAULT_N = 50
DEFAULT_RUNS = 3


def log(message):
    print("bench: " + message, file=sys.stderr, flush=True)


# -- environment -----------------------------------------------------------------


def snapshot_collection():
    """A copy of the collection as it is when the run starts, under .work, so that edits made to the tree while the
    run goes on do not mix into it: (collections path, which code it is)."""
    root = WORK / "collection"
    target = root / "ansible_collections" / "automation" / "service"
    shutil.rmtree(root, ignore_errors=True)
    target.mkdir(parents=True)
    for name in ("plugins", "meta"):
        shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy2(ROOT / "galaxy.yml", target / "galaxy.yml")
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "plugins", "meta", "galaxy.yml"],
                               check=True, capture_output=True, text=True).stdout.strip()
        code = "commit %s%s" % (head, " with changes not yet committed" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        code = "a tree outside git"
    return root, code


def ensure_awx_collection():
    out = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "service" / "get_awx_collection.py")],
        check=True, capture_output=True, text=True,
    )
    return Path(out.stdout.strip().splitlines()[-1])


def ensure_awx_venv():
    python = AWX_VENV / "bin" / "python"
    stamp = AWX_VENV / ".installed"
    if stamp.exists() and stamp.read_text().strip() == ANSIBLE_CORE_PIN and python.exists():
        return AWX_VENV
    log("making awx.awx's virtualenv in %s" % AWX_VENV)
    shutil.rmtree(AWX_VENV, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(AWX_VENV)], check=True)
    # awx.awx's modules need only ansible-core (they use urllib; PyYAML comes with it).
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", ANSIBLE_CORE_PIN],
                   check=True, stdout=sys.stderr)
    stamp.write_text(ANSIBLE_CORE_PIN + "\n")
    return AWX_VENV


class Service:
    def __init__(self, directory, layout="awx"):
        self.dir = Path(directory)
        self.layout = layout
        self.values = {}
        self.idp_error = None
        self.svcctl = [sys.executable, str(ROOT / "tests" / "service" / "svcctl")]

    @property
    def controller(self):
        """The controller's API: /api/v2/ on AWX 24, /api/controller/v2/ behind the gateway."""
        return "/api/controller/v2/" if self.layout == "gateway" else "/api/v2/"

    @property
    def tokens(self):
        """Where a personal token is made: the gateway's own tokens behind a gateway."""
        return "/api/gateway/v1/tokens/" if self.layout == "gateway" else "/api/v2/tokens/"

    def start(self, with_idp=False):
        subprocess.run(self.svcctl + ["stop", "--dir", str(self.dir)], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        command = self.svcctl + ["start", "--dir", str(self.dir), "--layout", self.layout] + (
            ["--with-idp"] if with_idp else [])
        out = subprocess.run(command, capture_output=True, text=True)
        if out.returncode != 0:
            if not with_idp:
                raise RuntimeError("svcctl start failed:\n%s%s" % (out.stdout, out.stderr))
            log("the service did not start with the identity providers; sso is left out:\n" + out.stderr[-1500:])
            self.idp_error = out.stderr.strip().splitlines()[-1:] or ["unknown error"]
            return self.start(with_idp=False)
        values = {}
        for line in out.stdout.splitlines():
            if line.startswith("export "):
                name, _, value = line[len("export "):].partition("=")
                values[name] = shlex.split(value)[0]
        self.values = values
        self.url = values["SERVICE_URL"]
        self.ca = values["SERVICE_CA_PATH"]
        self.username = values["SERVICE_ADMIN_USERNAME"]
        self.password = values["SERVICE_ADMIN_PASSWORD"]
        self.http = requests.Session()
        self.http.trust_env = False
        self.http.auth = (self.username, self.password)
        return self

    def stop(self):
        subprocess.run(self.svcctl + ["stop", "--dir", str(self.dir)], capture_output=True)

    def manage(self, *args):
        out = subprocess.run(self.svcctl + ["manage", "--dir", str(self.dir)] + list(args),
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("svcctl manage %s failed (rc %s):\n%s%s"
                               % (" ".join(args), out.returncode, out.stdout[-1500:], out.stderr[-3000:]))
        return out.stdout.strip()

    def api(self, method, path, **kwargs):
        response = self.http.request(method, self.url + path, verify=self.ca, timeout=60, **kwargs)
        if response.status_code >= 400:
            raise RuntimeError("%s %s answered %s: %s" % (method, path, response.status_code, response.text[:300]))
        return response.json() if response.content else None

    def log_lines(self):
        try:
            with open(self.dir / "requests.jsonl") as fh:
                return fh.read().splitlines()
        except FileNotFoundError:
            return []

    def mark(self):
        return len(self.log_lines())

    def since(self, mark):
        entries = []
        for line in self.log_lines()[mark:]:
            try:
                entries.append(json.loads(line))
            except ValueError:
                pass
        return entries


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


# -- configurations --------------------------------------------------------------


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


class Measurement:
    def __init__(self, n, seconds_per_task, entries, wall):
        self.n = n
        self.per_task = seconds_per_task
        self.requests = len(entries)
        self.password_checks = sum(e.get("password_checks", 0) for e in entries)
        self.logins = sum(1 for e in entries if e.get("login"))
        self.statuses = {}
        for e in entries:
            self.statuses[e.get("status")] = self.statuses.get(e.get("status"), 0) + 1
        # The service logs each request's client port: one value per TCP (and TLS) connection.
        self.connections = len({e.get("conn") for e in entries if e.get("conn") is not None})
        self.entries = entries
        self.wall = wall
        self.changed = 0
        self.first = self.rest = None  # a loop: the first item, and each later one
        self.inside = None        # separate tasks: the mean time from a task's start to its result


def awx_playbook():
    """The same play with awx.awx.host (written under .work: awx.awx is not installed for ansible-lint)."""
    text = (PLAYBOOKS / "ours.yml").read_text()
    text = text.replace("automation.service.host", "awx.awx.host").replace("SERVICE_*", "CONTROLLER_*")
    path = WORK / "awx.yml"
    path.write_text(text)
    return path


REQUEST_FLOOR_PLAY = """---
# The second floor: one GET from a module that does nothing else (benchmarks/library/one_request.py).
- name: Benchmark floor with one request
  hosts: localhost
  connection: local
  gather_facts: false
  vars:
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
  tasks:
    - name: One request task
      one_request:
        path: "/api/v2/hosts/?name=bench-host-{{ item }}&inventory__name={{ bench_inventory }}&page_size=2"
      loop: "{{ range(bench_n | int) | list }}"
"""


def request_floor_playbook():
    """Written under .work, like awx.awx's: its module is not in a collection for ansible-lint to find."""
    path = WORK / "one_request.yml"
    path.write_text(REQUEST_FLOOR_PLAY)
    return path


WORKER_FLOOR_PLAY = """---
# The third floor: a loop of ansible.builtin.debug, an action that runs in the worker and sends nothing:
# what Ansible itself costs per item on the controller path.
- name: Benchmark floor in the worker
  hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: Debug task
      ansible.builtin.debug:
        msg: "bench-host-{{ item }}"
      loop: "{{ range(bench_n | int) | list }}"
"""


def worker_floor_playbook():
    path = WORK / "debug.yml"
    path.write_text(WORKER_FLOOR_PLAY)
    return path


def one_request_path(host, inventory):
    return "/api/v2/hosts/?name=%s&inventory__name=%s&page_size=2" % (host, inventory)


def task_args(config, i):
    """The arguments of the i-th separate task (the loop's i-th item), as plain values."""
    if config.module == "ansible.builtin.ping":
        return {}
    if config.module == "one_request":
        return {"path": one_request_path("bench-host-%d" % i, config.inventory)}
    if config.module == "ansible.builtin.debug":
        return {"msg": "bench-host-%d" % i}
    return {"name": "bench-host-%d" % i, "inventory": config.inventory, "description": "benchmark"}


def separate_playbook(config, n):
    """A play of n separate tasks, the loop's items written out: no loop and nothing to template
    (the interpreter too is written out), so that each task costs what any task costs Ansible."""
    lines = ["---",
             "# Written by benchmarks/bench.py: %d separate tasks for %s." % (n, config.key),
             "- name: Benchmark separate tasks",
             "  hosts: localhost",
             "  connection: local",
             "  gather_facts: false",
             "  vars:",
             "    ansible_python_interpreter: %s" % json.dumps(config.python),
             "  tasks:"]
    for i in range(n):
        lines.append("    - name: %s" % json.dumps("Separate task %d" % i))
        args = task_args(config, i)
        if not args:
            lines.append("      %s: {}" % config.module)
            continue
        lines.append("      %s:" % config.module)
        lines += ["        %s: %s" % (name, json.dumps(value)) for name, value in args.items()]
    path = WORK / ("separate-%s.yml" % config.key)
    path.write_text("\n".join(lines) + "\n")
    return path


def previous_collection():
    """The collection as it was before its action plugins (its modules ran as modules everywhere),
    unpacked from git under .work: (collections path, commit), or None without git history."""
    def git(*args):
        return subprocess.run(["git", "-C", str(ROOT)] + list(args), check=True, capture_output=True).stdout

    try:
        added = git("log", "--diff-filter=A", "--format=%H", "--", "plugins/plugin_utils/_action.py").decode().split()
        if not added:
            return None
        commit = git("rev-parse", added[-1] + "^").decode().strip()
        root = WORK / "previous" / commit[:12]
        target = root / "ansible_collections" / "automation" / "service"
        stamp = root / ".unpacked"
        if not stamp.exists():
            shutil.rmtree(root, ignore_errors=True)
            target.mkdir(parents=True)
            data = git("archive", "--format=tar", commit, "plugins", "meta", "galaxy.yml")
            with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                tar.extractall(target, filter="data")
            stamp.write_text(commit + "\n")
        return root, commit
    except (OSError, subprocess.CalledProcessError) as exc:
        log("the previous module is left out: %s" % exc)
        return None


CONFIG_ORDER = ("basic", "session", "token", "sso", "auto", "token-preloaded", "token-module", "previous",
                "awx-password", "awx-token", "floor", "floor-request", "floor-worker", "gw-token", "gw-session")


def make_configs(service, token, awx_collections, our_collections, gateway=None, gateway_token=None):
    """The configurations; with ``gateway`` (the service in the gateway's layout, and a token of its own),
    those of GATEWAY_CONFIGS too."""
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


def sso_user_as_administrator(service, config):
    """The first SSO login makes the (external) user; make it a superuser so that it sees what the others see.
    That login goes into the SSO cache directory's throwaway copy, so the measured create still logs in."""
    env = dict(config.env, SERVICE_CACHE_DIR=str(WORK / "cache" / "sso-setup"))
    subprocess.run(["ansible", "localhost", "-c", "local", "-i", "localhost,", "-m", "automation.service.host",
                    "-a", "name=x inventory=none", "-e", "ansible_python_interpreter=" + sys.executable],
                   env=env, capture_output=True, text=True, cwd=str(WORK))
    service.manage("shell", "-c", "from django.contrib.auth.models import User; "
                   "User.objects.filter(svc_profile__external_account='social').update(is_superuser=True, is_staff=True)")


def sso_wanted():
    return (ROOT / "plugins" / "module_utils" / "_auth_sso.py").exists() and (ROOT / "tests" / "idp").is_dir()


SSO_NOTE = ("`sso` is not in the table: the collection has no `sso` auth method, or the test identity provider "
            "did not start (%s).")


# -- running -----------------------------------------------------------------------


def run_playbook(config, service, extra_vars, inventory="localhost,", forks=None, playbook=None):
    timings = WORK / "timings.jsonl"
    if timings.exists():
        timings.unlink()
    env = dict(config.env, BENCH_TIMINGS=str(timings))
    command = ["ansible-playbook", str(playbook or config.playbook), "-i", inventory]
    if forks:
        command += ["-f", str(forks)]
    command += ["-e", json.dumps(dict(config.extra_vars, **extra_vars))]
    mark = service.mark()
    started = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True, cwd=str(WORK))
    wall = time.time() - started
    entries = service.since(mark)
    tasks = []
    if timings.exists():
        tasks = [json.loads(line) for line in timings.read_text().splitlines() if line.strip()]
    failed = [t for t in tasks if t.get("failed")]
    if result.returncode != 0 or failed:
        (WORK / "last-failure.log").write_text(result.stdout + "\n" + result.stderr)
        raise RuntimeError("%s: ansible-playbook failed (rc %s); see %s\n%s"
                           % (config.key, result.returncode, WORK / "last-failure.log", result.stdout[-2000:]))
    return tasks, entries, wall


def measure_loop(config, service, n, inventory_name, description="benchmark", playbook=None):
    """One task looping over n items: time per item is the task's wall time divided by n."""
    extra = {"bench_n": n, "bench_inventory": inventory_name, "bench_description": description}
    tasks, entries, wall = run_playbook(config, service, extra, playbook=playbook)
    task = [t for t in tasks if t.get("items")][-1]
    if task["items"] != n:
        raise RuntimeError("%s: %d items ran, expected %d" % (config.key, task["items"], n))
    per_task = (task["end"] - task["start"]) / n
    m = Measurement(n, per_task, entries, wall)
    m.changed = task.get("changed", 0)
    ends = [task["start"]] + task.get("item_ends", [])
    m.first = ends[1] - ends[0] if n else None   # the first item, with the worker's start
    m.rest = (ends[-1] - ends[1]) / (n - 1) if n > 1 else None  # each later item
    return m


def measure_separate(config, service, n):
    """n separate tasks (the loop's items written out): time per task is the time from the start of the first
    to the result of the last, divided by n, so what Ansible does between two tasks is counted too."""
    tasks, entries, wall = run_playbook(config, service, {}, playbook=separate_playbook(config, n))
    tasks = [t for t in tasks if t["name"].startswith("Separate task")]
    if len(tasks) != n or any(t.get("hosts") != 1 or t.get("end") is None for t in tasks):
        raise RuntimeError("%s: %d separate tasks ran, expected %d" % (config.key, len(tasks), n))
    m = Measurement(n, (max(t["end"] for t in tasks) - min(t["start"] for t in tasks)) / n, entries, wall)
    m.changed = sum(t.get("changed", 0) for t in tasks)
    m.inside = sum(t["end"] - t["start"] for t in tasks) / n
    return m


def measure(config, service, mode, n):
    if mode == "loop":
        return measure_loop(config, service, n, config.inventory)
    return measure_separate(config, service, n)


def round_trip(service, token, inventory_name, samples=30):
    """One request as a task sends it: a new connection (TCP and TLS) and one filtered GET."""
    path = "/api/v2/hosts/?name=bench-host-0&inventory__name=%s&page_size=2" % inventory_name
    headers = {"Authorization": "Bearer %s" % token}
    fresh, reused = [], []
    for _ in range(samples):
        with requests.Session() as s:
            s.trust_env = False
            t0 = time.perf_counter()
            s.get(service.url + path, headers=headers, verify=service.ca, timeout=30).raise_for_status()
            fresh.append(time.perf_counter() - t0)
    with requests.Session() as s:
        s.trust_env = False
        s.get(service.url + path, headers=headers, verify=service.ca, timeout=30)
        for _ in range(samples):
            t0 = time.perf_counter()
            s.get(service.url + path, headers=headers, verify=service.ca, timeout=30).raise_for_status()
            reused.append(time.perf_counter() - t0)
    return statistics.median(fresh), statistics.median(reused)


def requests_import_cost(samples=7):
    """What importing requests adds to a Python that imports ansible.module_utils.basic, as a module does."""
    def run(code):
        times = []
        for _ in range(samples):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    base = run("import ansible.module_utils.basic")
    return run("import ansible.module_utils.basic, requests, requests.adapters") - base


def measure_update(service, token_config, n):
    """A changed host task (a new description for an existing host): GET and PATCH."""
    m = measure_loop(token_config, service, n, "bench-token", description="benchmark, changed")
    if m.changed != n:
        raise RuntimeError("update: %d of %d tasks changed" % (m.changed, n))
    return m


def measure_forks(service, base_config, hosts=200, forks=20):
    inv_name = "bench-forks"
    service.api("POST", "/api/v2/inventories/", json={"name": inv_name, "organization": 1})
    inventory = WORK / "forks-inventory.ini"
    lines = ["[bench]"] + ["bench-fork-%03d ansible_connection=local" % i for i in range(hosts)]
    inventory.write_text("\n".join(lines) + "\n")
    cache = WORK / "cache" / "forks"
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(base_config.env, SERVICE_CACHE_DIR=str(cache))
    config = Config("forks", "forks", "ours", env, PLAYBOOKS / "forks.yml", "automation.service.host")
    tasks, entries, wall = run_playbook(config, service, {"bench_inventory": inv_name}, inventory=str(inventory), forks=forks)
    m = Measurement(hosts, None, entries, wall)
    task = [t for t in tasks if t.get("hosts")][-1]
    m.task_seconds = task["end"] - task["start"]
    m.created = sum(1 for e in entries if e["method"] == "POST" and e["path"] == "/api/v2/hosts/" and e["status"] == 201)
    return m


def measure_scale(service, token_config, token):
    out = {}
    service.manage("bench_seed", "--inventory", "bench-scale", "--hosts", "2000", "--prefix", "bench-scale-")
    config = Config("scale", "scale", "ours", token_config.env, PLAYBOOKS / "ours_one.yml", "automation.service.host")
    tasks, entries, wall = run_playbook(config, service, {"bench_inventory": "bench-scale", "bench_host": "bench-scale-1234"})
    task = [t for t in tasks if t.get("hosts")][-1]
    out["scale_host"] = Measurement(1, task["end"] - task["start"], entries, wall)
    out["scale_host"].changed = task.get("changed", 0)

    service.manage("bench_seed", "--inventory", "bench-lookup", "--hosts", "10000", "--prefix", "bench-lookup-")
    count = service.api("GET", "/api/v2/hosts/?inventory__name=bench-lookup&page_size=1")["count"]
    config = Config("lookup", "lookup", "ours", token_config.env, PLAYBOOKS / "lookup.yml", "ansible.builtin.set_fact")
    tasks, entries, wall = run_playbook(config, service, {"bench_inventory": "bench-lookup"})
    task = [t for t in tasks if t.get("hosts")][-1]
    m = Measurement(count, task["end"] - task["start"], entries, wall)
    m.count = count
    m.expected = math.ceil(count / LOOKUP_PAGE_SIZE)
    m.page_sizes = sorted({q.split("page_size=")[1].split("&")[0] for q in (e.get("query", "") for e in entries) if "page_size=" in q})
    out["lookup"] = m
    return out


def job_modules_present():
    return (ROOT / "plugins" / "modules" / "job_launch.py").exists()


def measure_launches(service, token_config, n=50):
    """N launches of one job template in a loop: each must be one POST to launch/."""
    inventory = service.api("POST", "/api/v2/inventories/", json={"name": "bench-launch", "organization": 1})
    project = service.api("GET", "/api/v2/projects/?name=Demo+Project")["results"][0]
    body = {"name": "bench-launch", "inventory": inventory["id"], "project": project["id"], "playbook": "hello.yml"}
    service.api("POST", "/api/v2/job_templates/", json=body)
    config = Config("launch", "launch", "ours", token_config.env, PLAYBOOKS / "launch.yml", "automation.service.job_launch")
    tasks, entries, wall = run_playbook(config, service, {"bench_n": n, "bench_job_template": "bench-launch"})
    task = [t for t in tasks if t.get("items")][-1]
    m = Measurement(n, (task["end"] - task["start"]) / n, entries, wall)
    m.posts = sum(1 for e in entries if e["method"] == "POST" and e["path"].endswith("/launch/"))
    m.methods = {}
    for e in entries:
        m.methods[e["method"]] = m.methods.get(e["method"], 0) + 1
    # Let the launched jobs finish before the service stops (they run ansible-playbook).
    deadline = time.time() + 180
    while time.time() < deadline:
        jobs = service.api("GET", "/api/v2/jobs/?page_size=200")["results"]
        if all(j.get("status") not in ("new", "pending", "waiting", "running") for j in jobs):
            break
        time.sleep(1)
    return m


ASYNC_PLAY = """---
# Written by benchmarks/bench.py: a loop of MODULE with async and poll, which takes the module path.
- name: Benchmark async
  hosts: localhost
  connection: local
  gather_facts: false
  vars:
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
  tasks:
    - name: Async task
      MODULE:ARGS
      loop: "{{ range(bench_n | int) | list }}"
      async: 60
      poll: 1
"""


def measure_async(service, token_config, floor_config, n=3):
    """The token configuration's loop with async: 60 and poll: 1 on the module path (token_config: the module
    path's, local_as_remote), and ping the same way."""
    out = {}
    ours_args = ('\n        name: "bench-host-{{ item }}"\n        inventory: "{{ bench_inventory }}"'
                 '\n        description: "{{ bench_description }}"')
    for key, config, module, args in (("ours", token_config, "automation.service.host", ours_args),
                                      ("ping", floor_config, "ansible.builtin.ping", " {}")):
        path = WORK / ("async-%s.yml" % key)
        path.write_text(ASYNC_PLAY.replace("MODULE", module).replace("ARGS", args))
        out[key] = measure_loop(config, service, n, token_config.inventory, playbook=path)
    return out


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


class PatternRun:
    """One run of the pattern play: per object, the whole play, its async (or plain) loops and its waiting loops."""

    def __init__(self, n, tasks, entries, wall):
        objects = n * len(PATTERN_KINDS)
        ran = [t for t in tasks if t.get("end") is not None]
        self.n = n
        self.per_object = (max(t["end"] for t in ran) - min(t["start"] for t in ran)) / objects
        self.starting = sum(t["end"] - t["start"] for t in ran if not t["name"].endswith(", wait")) / objects
        self.waiting = sum(t["end"] - t["start"] for t in ran if t["name"].endswith(", wait")) / objects
        self.changed = sum(t.get("changed", 0) for t in ran)
        self.requests = len(entries)
        self.errors = sum(1 for e in entries if (e.get("status") or 0) >= 500)
        self.wall = wall


def pattern_playbook(kind):
    if kind == "ours":
        return PLAYBOOKS / "pattern.yml"
    text = (PLAYBOOKS / "pattern.yml").read_text().replace("automation.service.", "awx.awx.")
    path = WORK / "pattern-awx.yml"
    path.write_text(text)
    return path


def pattern_setup(service):
    """The project the job templates use (a manual project of the service's demo playbooks)."""
    body = {"name": "bench-pattern", "organization": 1, "scm_type": "", "local_path": "demo"}
    return service.api("POST", "/api/v2/projects/", json=body)["name"]


def run_pattern(config, service, key, use_async, n, project, description="benchmark"):
    jobs = WORK / "async-jobs"
    shutil.rmtree(jobs, ignore_errors=True)
    extra = {"bench_n": n, "bench_async": PATTERN_ASYNC if use_async else 0, "bench_prefix": "bp-" + key,
             "bench_inventory": "bench-pattern-" + key, "bench_project": project, "bench_description": description,
             "ansible_async_dir": str(jobs)}
    tasks, entries, wall = run_playbook(config, service, extra, playbook=pattern_playbook(config.kind))
    shutil.rmtree(jobs, ignore_errors=True)
    return PatternRun(n, tasks, entries, wall)


def measure_pattern(service, token_config, awx_config, n, runs):
    """Each configuration creates its N objects of each kind, then re-applies them unchanged `runs` times,
    the configurations taking turns."""
    project = pattern_setup(service)
    out = {"n": n, "runs": runs, "labels": {}, "create": {}, "unchanged": {}}
    configs = []
    for key, label, kind, use_async in PATTERN_CONFIGS:
        base = token_config if kind == "ours" else awx_config
        if base is None:
            continue
        config = Config(key, label, kind, base.env, None, None)
        service.api("POST", "/api/v2/inventories/", json={"name": "bench-pattern-" + key, "organization": 1})
        configs.append((config, use_async))
        out["labels"][key] = label
    objects = n * len(PATTERN_KINDS)
    for config, use_async in configs:
        m = run_pattern(config, service, config.key, use_async, n, project)
        if m.changed != objects:
            raise RuntimeError("pattern %s: %d of %d objects changed on create" % (config.key, m.changed, objects))
        out["create"][config.key] = m
        log("pattern create %-10s %6s ms/object (%s starting, %s waiting) %4d requests %d 5xx"
            % (config.key, ms(m.per_object), ms(m.starting), ms(m.waiting), m.requests, m.errors))
    for run in range(runs):
        order = configs[run % len(configs):] + configs[:run % len(configs)]
        for config, use_async in order:
            m = run_pattern(config, service, config.key, use_async, n, project)
            if m.changed:
                raise RuntimeError("pattern %s: %d objects changed on an unchanged run" % (config.key, m.changed))
            out["unchanged"].setdefault(config.key, []).append(m)
            log("pattern run %d %-10s %6s ms/object (%s starting, %s waiting) %4d requests %d 5xx"
                % (run + 1, config.key, ms(m.per_object), ms(m.starting), ms(m.waiting), m.requests, m.errors))
    return out


FANOUT_PLAY = """---
# Written by benchmarks/bench.py: N hosts through a loop with async and poll 0, all at once; bench.py waits
# for the job files itself.
- name: Benchmark the fan-out
  hosts: localhost
  connection: local
  gather_facts: false
  vars:
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
  tasks:
    - name: Hosts
      automation.service.host:
        name: "bench-fanout-{{ item }}"
        inventory: bench-fanout
        description: "{{ bench_description }}"
      loop: "{{ range(bench_n | int) | list }}"
      async: 1000
      poll: 0
"""


def most_at_once(entries):
    """The most requests the service was serving at one time (its log gives each one's start and duration)."""
    edges = sorted([(e["t"], 1) for e in entries if "t" in e] +
                   [(e["t"] + e.get("duration", 0), -1) for e in entries if "t" in e])
    most = now = 0
    for _t, step in edges:
        now += step
        most = max(most, now)
    return most


def fanout_once(config, service, n, description, limit):
    jobs = WORK / "fanout-jobs"
    shutil.rmtree(jobs, ignore_errors=True)
    path = WORK / "fanout.yml"
    path.write_text(FANOUT_PLAY)
    env = config.env
    if limit is not None:
        config.env = dict(env, SERVICE_MAX_REQUESTS_IN_FLIGHT=str(limit))
    mark = service.mark()
    tasks, _entries, wall = run_playbook(config, service, {"bench_n": n, "bench_description": description,
                                                           "ansible_async_dir": str(jobs)}, playbook=path)
    task = [t for t in tasks if t.get("items")][-1]
    # The jobs go on after the play: wait until every job file holds a result.
    deadline = time.time() + 900
    results = []
    while time.time() < deadline:
        results = []
        for job in jobs.iterdir():
            if job.name.startswith("."):
                continue  # a job file being written (it is renamed into place)
            try:
                results.append(json.loads(job.read_text()))
            except (OSError, ValueError):
                results.append({"started": True})
        if len(results) == n and not any("started" in r for r in results):
            break
        time.sleep(0.2)
    done = max(job.stat().st_mtime for job in jobs.iterdir() if not job.name.startswith("."))
    entries = service.since(mark)
    shutil.rmtree(jobs, ignore_errors=True)
    config.env = env
    return {"n": n, "limit": limit, "start_loop": task["end"] - task["start"], "all_done": done - task["start"],
            "failed": sum(1 for r in results if r.get("failed") or "started" in r),
            "why": sorted(collections.Counter(" ".join(str(r.get("msg", "still running")).split()[:6]) for r in results
                                              if r.get("failed") or "started" in r).items(), key=lambda kv: -kv[1])[:3],
            "changed": sum(1 for r in results if r.get("changed")),
            "requests": len(entries), "errors": sum(1 for e in entries if (e.get("status") or 0) >= 500),
            "statuses": sorted({e.get("status") for e in entries if e.get("status")}),
            "at_once": most_at_once(entries), "wall": wall}


def measure_fanout(service, token_config, n):
    """N hosts changed (created), then re-applied unchanged, through one async loop with every job at once: with
    the default bound on requests in flight, then changed (updated) and re-applied without one (a diagnostic of
    what the bound prevents)."""
    service.api("POST", "/api/v2/inventories/", json={"name": "bench-fanout", "organization": 1})
    config = Config("fanout", "fan-out", "ours", token_config.env, None, None)
    out = {}
    for limit, label in ((None, "bounded"), (0, "unbounded")):
        for phase in ("changed", "unchanged"):
            description = "fan-out " + label   # a change (a create, then an update), then the same again
            m = fanout_once(config, service, n, description, limit)
            out[(label, phase)] = m
            log("fan-out %-9s %-9s %d jobs: start loop %.1f s, all done %.1f s, %d failed, %d changed, %d requests, "
                "%d 5xx, at most %d at once"
                % (label, phase, n, m["start_loop"], m["all_done"], m["failed"], m["changed"], m["requests"],
                   m["errors"], m["at_once"]))
    config.env = None
    return out

# -- reporting ---------------------------------------------------------------------


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import ansible  # noqa: F401 (its version)
    from ansible.release import __version__ as core_version
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "system": "%s %s" % (platform.system(), platform.release()),
        "python": platform.python_version(),
        "ansible_core": core_version,
        "load": "%.2f %.2f %.2f" % os.getloadavg(),
    }


def ms(seconds):
    return "%.0f" % (seconds * 1000.0)


def per(value, n):
    text = "%.2f" % (value / float(n))
    return text[:-3] if text.endswith(".00") else text


def summarize(configs):
    for c in configs:
        c.med, c.spread = {}, {}
        for mode in MODES:
            values = [m.per_task for m in c.runs[mode]]
            if values:
                c.med[mode] = statistics.median(values)
                c.spread[mode] = (min(values), max(values))
    return {c.key: c for c in configs}


def over_runs(c, mode, attr):
    """attr of every unchanged run, e.g. [50, 50, 50]."""
    return [getattr(m, attr) for m in c.runs[mode]]


def spread_text(values):
    low, high = min(values), max(values)
    return "%d" % low if low == high else "%d-%d" % (low, high)


def ratio(value):
    return ("%.3fx" if value < 1 else "%.2fx") % value


def speedup(value):
    return ("%.1fx" if value >= 10 else "%.2fx") % value


TASKS_AS = {"loop": "a loop of N items", "separate": "N separate tasks"}
RUNS_AS = {"controller": "in the worker", "module": "as a module"}
SHORT = {"basic": "basic", "session": "session (cached)", "token": "token", "sso": "sso (cached)", "auto": "auto",
         "token-module": "token, module path", "previous": "previous module, token",
         "awx-password": "awx.awx, password", "awx-token": "awx.awx, token", "floor": "ping floor",
         "floor-worker": "debug floor (in the worker)",
         "floor-request": "one-request floor", "gw-token": "token, gateway layout",
         "gw-session": "session (cached), gateway layout"}
HEADLINE_KEYS = ("session", "token", "sso", "basic", "token-module", "previous", "awx-password", "awx-token", "floor",
                 "floor-worker")


def tasks_as(mode, n):
    return TASKS_AS[mode].replace("N", str(n))


def collect_targets(by, extras, rt, args):
    """(group, target, met, measured) for every target this run can judge."""
    n = args.n
    rt_fresh = rt[0]
    targets = []

    def target(group, text, ok, measured):
        targets.append((group, text, bool(ok), measured))

    floor = by["floor"]
    awx_tok = by.get("awx-token")
    awx_pw = by.get("awx-password")

    # The controller path: a token and a cached session, a loop and separate tasks.
    limits = {"loop": (LOOP_FLOOR_MAX, LOOP_AWX_MIN), "separate": (SEPARATE_FLOOR_MAX, SEPARATE_AWX_MIN)}
    for mode in MODES:
        floor_max, awx_min = limits[mode]
        for key in ("token", "session"):
            if key not in by:
                continue
            c = by[key]
            r = c.med[mode] / floor.med[mode]
            target("controller", "%s, %s: time per task at most %sx the ping floor's (%s)"
                   % (SHORT[key], tasks_as(mode, n), floor_max,
                      "a loop of ping" if mode == "loop" else "%d separate ping tasks" % n),
                   r <= floor_max, "%s ms vs %s ms: %s" % (ms(c.med[mode]), ms(floor.med[mode]), ratio(r)))
            if awx_tok:
                s = awx_tok.med[mode] / c.med[mode]
                target("controller", "%s, %s: at least %sx faster than awx.awx with a token (the same %s)"
                       % (SHORT[key], tasks_as(mode, n), ("%g" % awx_min), "loop" if mode == "loop" else "tasks"),
                       s >= awx_min, "%s ms vs %s ms: %s" % (ms(c.med[mode]), ms(awx_tok.med[mode]), speedup(s)))
    for key in ("session", "token", "sso", "auto"):
        if key not in by:
            continue
        c = by[key]
        reqs = {mode: sorted(set(over_runs(c, mode, "requests"))) for mode in MODES}
        checks = {mode: sorted(set(over_runs(c, mode, "password_checks"))) for mode in MODES}
        target("controller", "%s, unchanged: 1 request and 0 password checks per task (loop and separate tasks)"
               % SHORT[key], all(reqs[m] == [n] and checks[m] == [0] for m in MODES),
               "; ".join("%s: %s requests, %s password checks per run of %d" % (m, reqs[m], checks[m], n) for m in MODES))
    for c in on_awx(by.values()):
        if c.path != "controller" or c.kind != "ours" or c.diagnostic:
            continue
        loops = over_runs(c, "loop", "connections")
        separate = over_runs(c, "separate", "connections")
        target("controller", "%s: one TCP+TLS connection per loop" % SHORT[c.key], set(loops) == {1},
               "loop: %s connections per run; %d separate tasks: %s per run (each task is a new worker process)"
               % (loops, n, separate))

    # The module path (remote hosts, become): no slower than the previous module.
    if "token-module" in by and "previous" in by:
        tm, prev = by["token-module"], by["previous"]
        for mode in MODES:
            target("module", "token, module path, %s: no slower than the previous module (same run)" % tasks_as(mode, n),
                   tm.med[mode] <= prev.med[mode],
                   "%s ms vs %s ms (%s); x the ping floor: %s vs %s"
                   % (ms(tm.med[mode]), ms(prev.med[mode]), ratio(tm.med[mode] / prev.med[mode]),
                      ratio(tm.med[mode] / floor.med[mode]), ratio(prev.med[mode] / floor.med[mode])))
    if "token-module" in by:
        c = by["token-module"]
        above = c.med["loop"] - floor.med["loop"]
        one = ("; a module that only sends the GET is %s ms above it" % ms(by["floor-request"].med["loop"] - floor.med["loop"])
               if "floor-request" in by else "")
        target("module", "token, module path, loop: time above the ping floor at most %.1fx one round trip"
               % TOLERANCE_FLOOR_RT, above <= TOLERANCE_FLOOR_RT * rt_fresh,
               "%s ms above the floor, %.1fx a round trip of %s ms%s" % (ms(above), above / rt_fresh, ms(rt_fresh), one))
        if "floor-request" in by:
            own = c.med["loop"] - by["floor-request"].med["loop"]
            target("module", "token, module path, loop: time above the one-request floor at most %.1fx one round trip"
                   " (added)" % TOLERANCE_FLOOR_RT, own <= TOLERANCE_FLOOR_RT * rt_fresh,
                   "%s ms above it, %.1fx a round trip" % (ms(own), own / rt_fresh))
        reqs = {mode: sorted(set(over_runs(c, mode, "requests"))) for mode in MODES}
        target("module", "token, module path, unchanged: 1 request per task (loop and separate tasks)",
               all(reqs[m] == [n] for m in MODES), "; ".join("%s: %s requests per run of %d" % (m, reqs[m], n) for m in MODES))
    if "async" in extras:
        a = extras["async"]["ours"]
        target("module", "token, module path, async: 60 and poll: 1, a loop of %d: unchanged, 1 request per item" % a.n,
               a.requests == a.n and a.changed == 0,
               "%d requests, %d changed; %s ms per item (ping the same way: %s ms; both wait out the 1 s poll)"
               % (a.requests, a.changed, ms(a.per_task), ms(extras["async"]["ping"].per_task)))

    # Earlier targets, unchanged.
    if "update" in extras:
        m = extras["update"]
        target("other", "changed task (an update), token: 2 requests", m.requests == 2 * m.n,
               "%d requests for %d tasks (%s)" % (m.requests, m.n, ", ".join(sorted({e["method"] for e in m.entries}))))
    lists = [e for c in by.values() if c.kind == "ours" for m in ([c.create] + c.runs["loop"] + c.runs["separate"]) if m
             for e in m.entries
             if e["method"] == "GET" and e["path"] in ("/api/v2/hosts/", "/api/v2/inventories/") and "name=" not in e.get("query", "")
             and "id=" not in e.get("query", "")]
    target("other", "name-to-id lookups are filtered GETs", not lists, "%d unfiltered list GETs" % len(lists))
    for key in ("session", "token", "sso", "auto"):
        if key not in by or not awx_pw or not awx_tok:
            continue
        c = by[key]
        target("other", "%s, loop: at least 2x faster than awx.awx with a password" % SHORT[key],
               awx_pw.med["loop"] / c.med["loop"] >= 2.0, speedup(awx_pw.med["loop"] / c.med["loop"]))
        target("other", "%s, loop: at least 1.3x faster than awx.awx with a token" % SHORT[key],
               awx_tok.med["loop"] / c.med["loop"] >= 1.3, speedup(awx_tok.med["loop"] / c.med["loop"]))
    if "forks" in extras:
        f = extras["forks"]
        target("other", "-f 20 over 200 tasks with session: exactly one login", f.logins == 1,
               "%d login(s), %d password check(s), %d requests, %d hosts created, %d connections, %.1f s"
               % (f.logins, f.password_checks, f.requests, f.created, f.connections, f.task_seconds))
    if "scale_host" in extras:
        s = extras["scale_host"]
        target("other", "2,000-host inventory: unchanged host task = 1 request", s.requests == 1 and s.changed == 0,
               "%d request(s), %s ms" % (s.requests, ms(s.per_task)))
    if "lookup" in extras:
        lk = extras["lookup"]
        target("other", "lookup of %d objects in count / page_size requests" % lk.count, lk.requests == lk.expected,
               "%d requests (expected %d at page_size %d; page sizes sent: %s), %.1f s"
               % (lk.requests, lk.expected, LOOKUP_PAGE_SIZE, ", ".join(lk.page_sizes) or "none", lk.per_task))
    if "launch" in extras:
        la = extras["launch"]
        target("other", "50 launches in a loop, each one POST", la.posts == la.n,
               "%d launch POSTs for %d launches; %d requests in all (%s); %s ms per launch"
               % (la.posts, la.n, la.requests, ", ".join("%s %d" % kv for kv in sorted(la.methods.items())), ms(la.per_task)))
    targets.extend(pattern_targets(extras))
    targets.extend(gateway_targets(by, n))
    return targets


def gateway_targets(by, n):
    """The targets of the gateway layout: an unchanged task costs what it costs against AWX 24's layout."""
    targets = []
    for key, _beside in GATEWAY_CONFIGS:
        if key not in by or not by[key].runs["loop"]:
            continue
        c = by[key]
        reqs = {mode: sorted(set(over_runs(c, mode, "requests"))) for mode in MODES}
        checks = {mode: sorted(set(over_runs(c, mode, "password_checks"))) for mode in MODES}
        targets.append(("gateway", "%s, unchanged: 1 request and 0 password checks per task (loop and separate tasks)"
                        % SHORT[key], all(reqs[m] == [n] and checks[m] == [0] for m in MODES),
                        "; ".join("%s: %s requests, %s password checks per run of %d" % (m, reqs[m], checks[m], n)
                                  for m in MODES)))
        loops = over_runs(c, "loop", "connections")
        targets.append(("gateway", "%s: one TCP+TLS connection per loop" % SHORT[key], set(loops) == {1},
                        "loop: %s connections per run" % loops))
    return targets


TARGET_GROUPS = (("controller", "Targets: the controller path (a local connection, no become)"),
                 ("module", "Targets: the module path (a remote host, become)"),
                 ("other", "Other targets"),
                 ("gateway", "The gateway layout"))

MODULE_PATH_TEXT = (
    "A task on a remote host or with `become` takes the module path (with `async` too: Ansible's async wrapper "
    "runs the module): the action plugin hands it to "
    "the module, which Ansible packs and starts in a new Python, as every task of the previous collection was run. "
    "The benchmark forces that path with `local_as_remote` (`benchmarks/connection_plugins/`), Ansible's local "
    "connection under another name: the action plugins take it for a remote host, and Ansible runs the module "
    "exactly as on `local`, where the previous module and the ping floor run too, so the three compare. "
    "The module path is not measured with `async`: with `poll: 1` Ansible sleeps a whole second before it first "
    "asks for the result, and a module that is done within that second (ours, the previous one and ping alike) "
    "is measured as that second plus an `async_status` task, which hides the module's own time. A short async loop "
    "runs once, to show that the path works and costs one request per item.")


def findings(by, rt):
    """Where the time goes, in sentences computed from this run."""
    out = []
    if "token" in by and "token-preloaded" in by:
        t, p = by["token"].med["separate"], by["token-preloaded"].med["separate"]
        out.append(
            "A separate task with a token takes %s ms; the same task with requests and the module's code imported in "
            "ansible-playbook before the workers fork takes %s ms. So %s ms of every separate task is its new worker "
            "importing them: the action plugin imports them only when the task runs, in the worker, and each task's "
            "worker starts from ansible-playbook's imports again. ansible-playbook loads the action plugin's module "
            "itself before it forks the task's worker (the linear strategy asks the plugin class whether it bypasses "
            "the host loop), so what that module imports at its top the workers inherit."
            % (ms(t), ms(p), ms(t - p)))
    if "token" in by and by["token"].runs["loop"] and by["token"].runs["loop"][0].rest is not None:
        c = by["token"]
        first = statistics.median(over_runs(c, "loop", "first"))
        rest = statistics.median(over_runs(c, "loop", "rest"))
        text = ("In a loop with a token the first item takes %s ms (the worker imports requests and the module's code "
                "and opens the connection), each later item %s ms. One request on a kept-alive connection takes about "
                "%s ms here (from Python requests, outside Ansible)" % (ms(first), ms(rest), ms(rt[1])))
        if "floor-worker" in by and by["floor-worker"].runs["loop"]:
            debug = statistics.median(over_runs(by["floor-worker"], "loop", "rest"))
            own = rest - debug - rt[1]
            work = "the collection's own work (validating the options, auth, the answer's JSON, comparing, the result)"
            text += ("; a loop of ansible.builtin.debug, an action that runs in the worker and sends nothing, takes "
                     "%s ms per later item: Ansible's own cost per item on this path. A host task's later item is "
                     "those two and %s" % (ms(debug), "%s ms more: %s" % (ms(own), work) if own >= 0.0015 else
                                             "nothing measurable beyond them (%s ms): %s is lost in the noise"
                                             % (ms(own), work)))
        out.append(text + ".")
        if "session" in by:
            s = statistics.median(over_runs(by["session"], "loop", "rest"))
            out.append(
                "A cached session's later items take %s ms, %s ms more than a token's: a worker checks the password "
                "against the cached session's verifier (PBKDF2) once, then compares a keyed hash it keeps in memory; "
                "every item still reads the cache entry." % (ms(s), ms(s - rest)))
    if "token-module" in by and "previous" in by and len(rt) > 2:
        tm, prev = by["token-module"].med["loop"], by["previous"].med["loop"]
        out.append(
            "On the module path a task with a token takes %s ms in a loop, the previous module %s ms (%+.0f ms). The "
            "module now imports requests, which adds %s ms to a Python that imports ansible.module_utils.basic on this "
            "machine (measured in this run), and its module_utils are compiled from the zip on every task; the "
            "previous module spoke HTTP over socket and ssl and loaded its module_utils compiled once, from the cache "
            "directory (the zip loader that did so is gone)." % (ms(tm), ms(prev), (tm - prev) * 1000, ms(rt[2])))
    if "token-module" in by and "floor-request" in by:
        out.append("The module-path target marked (added) is not a target of the design: it holds the same measure "
                   "against the one-request floor, a module that sends the GET and nothing else, instead of ping.")
    return out


PATTERN_START, PATTERN_END = "<!-- pattern:start -->", "<!-- pattern:end -->"


def pattern_summary(pattern):
    """Per configuration: (median ms per object unchanged, median starting, median waiting, [per run])."""
    out = {}
    for key, runs in pattern["unchanged"].items():
        out[key] = (statistics.median(m.per_object for m in runs), statistics.median(m.starting for m in runs),
                    statistics.median(m.waiting for m in runs), [m.per_object for m in runs])
    return out


def pattern_targets(extras):
    """(group, target, met, measured) of the async pattern and the fan-out."""
    targets = []
    pattern = extras.get("pattern")
    if pattern:
        n, summary = pattern["n"], pattern_summary(pattern)
        ours = summary.get("ours-async")
        if ours and "awx-async" in summary:
            awx = summary["awx-async"][0]
            targets.append(("pattern", "async pattern, %d objects of each kind, unchanged: at least %gx faster than "
                            "awx.awx's (the same pattern)" % (n, PATTERN_AWX_MIN), awx / ours[0] >= PATTERN_AWX_MIN,
                            "%s ms vs %s ms per object: %s" % (ms(ours[0]), ms(awx), speedup(awx / ours[0]))))
        if ours and "ours-loop" in summary:
            loop = summary["ours-loop"][0]
            targets.append(("pattern", "async pattern, %d objects of each kind, unchanged: within %gx our own loops "
                            "without async" % (n, PATTERN_LOOP_MAX), ours[0] / loop <= PATTERN_LOOP_MAX,
                            "%s ms vs %s ms per object: %s (the async loops %s ms, the async_status loops %s ms)"
                            % (ms(ours[0]), ms(loop), ratio(ours[0] / loop), ms(ours[1]), ms(ours[2]))))
        every = list(pattern["create"].values()) + [r for rs in pattern["unchanged"].values() for r in rs]
        errors = sum(m.errors for m in every)
        targets.append(("pattern", "async pattern: no 5xx from the service", errors == 0, "%d answers 5xx" % errors))
    fanout = extras.get("fanout")
    if fanout:
        bounded = [fanout[("bounded", phase)] for phase in ("changed", "unchanged")]
        n = bounded[0]["n"]
        targets.append(("pattern", "fan-out of %d async host jobs at once (created, then unchanged): no 5xx from the "
                        "service, every job succeeds" % n,
                        all(m["errors"] == 0 and m["failed"] == 0 for m in bounded),
                        "; ".join("%s: %d answers 5xx, %d jobs failed, %d changed"
                                  % (phase, m["errors"], m["failed"], m["changed"])
                                  for phase, m in zip(("created", "unchanged"), bounded))))
        targets.append(("pattern", "fan-out: the service serves at most max_requests_in_flight (default 4) requests "
                        "of the run at once", all(m["at_once"] <= 4 for m in bounded),
                        "at most %s at once" % " and ".join(str(m["at_once"]) for m in bounded)))
    return targets


def pattern_lines(extras):
    """The section of RESULTS.md on the async pattern, between its markers (bench.py --pattern-only rewrites it)."""
    pattern, fanout = extras.get("pattern"), extras.get("fanout")
    lines = [PATTERN_START, "## The async pattern (configuration as code)", ""]
    if not pattern and not fanout:
        return lines + ["Not measured in this run.", "", PATTERN_END]
    add = lines.append
    if pattern:
        n, runs = pattern["n"], pattern["runs"]
        add("As infra.aap_configuration's roles run every role (`benchmarks/playbooks/pattern.yml`): for each of %s, "
            "a loop of N = %d items with `async: %d` and `poll: 0`, then a loop of `ansible.builtin.async_status` "
            "with `until: finished` over the jobs; beside it the same loops without `async` (the waiting loops "
            "skipped), and awx.awx running the same pattern; all with a token, in one run, taking turns. Each "
            "configuration creates its own %d objects, then applies them again unchanged %s. Time per object: from "
            "the start of the first task to the result of the last, divided by %d; the median of the unchanged runs "
            "(each run in brackets). The async loops (the items started, or run, one after the other) and the "
            "async_status loops are also given apart, per object."
            % (", ".join(PATTERN_KINDS), n, PATTERN_ASYNC, n * len(PATTERN_KINDS),
               "once" if runs == 1 else "%d times" % runs, n * len(PATTERN_KINDS)))
        add("")
        add("With a local connection and no become, an async task of this collection runs in a process forked from "
            "the worker (the code and requests already imported): starting it costs a fork, not a new Python. "
            "`ansible.builtin.async_status` is a module of ansible-core: every item of its loop is packed and run "
            "in a new Python, for any collection.")
        add("")
        summary = pattern_summary(pattern)
        awx = summary.get("awx-async")
        add("| configuration | created: ms per object | unchanged: ms per object | the async (or plain) loops "
            "| the async_status loops | speed-up over awx.awx | requests per object (unchanged) | answers 5xx |")
        add("|---|---:|---:|---:|---:|---:|---:|---:|")
        for key, label in pattern["labels"].items():
            if key not in summary:
                continue
            med, starting, waiting, each = summary[key]
            runs_ = pattern["unchanged"][key]
            add("| %s | %s | %s [%s] | %s | %s | %s | %s | %d |" % (
                label, ms(pattern["create"][key].per_object), ms(med), ", ".join(ms(v) for v in each), ms(starting),
                ms(waiting), speedup(awx[0] / med) if awx else "-",
                per(statistics.median(m.requests for m in runs_), n * len(PATTERN_KINDS)),
                sum(m.errors for m in [pattern["create"][key]] + runs_)))
        add("")
    if fanout:
        add("The fan-out: N hosts through one loop with `async` and `poll: 0`, every job started as soon as the "
            "loop gets to it, none waited for by the play (bench.py reads the job files until each holds its "
            "result): first with max_requests_in_flight at its default, then, as a diagnostic of what the bound "
            "prevents, changed and re-applied with no bound (max_requests_in_flight 0). At once: the most requests "
            "the service was serving at one time (its log gives each request's start and duration).")
        add("")
        add("| bound | run | jobs | the async loop, s | all jobs done, s | requests | answers 5xx | jobs failed "
            "| most requests at once |")
        add("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for (label, phase), m in fanout.items():
            add("| %s | %s | %d | %.1f | %.1f | %d | %d | %d | %d |" % (
                "default (4)" if label == "bounded" else "none (0)", phase, m["n"], m["start_loop"], m["all_done"],
                m["requests"], m["errors"], m["failed"], m["at_once"]))
        add("")
        for (label, phase), m in fanout.items():
            if m.get("why"):
                add("Why jobs failed (%s bound, %s run; the first words of the message): %s."
                    % ("no" if label == "unbounded" else "the default", phase,
                       "; ".join("%d: %s ..." % (count, text) for text, count in m["why"])))
                add("")
    targets = pattern_targets(extras)
    if targets:
        add("| target | met | measured |")
        add("|---|---|---|")
        for _group, text, ok, measured in targets:
            add("| %s | %s | %s |" % (text, "yes" if ok else "**no**", measured))
        add("")
    if pattern and "ours-async" in pattern_summary(pattern):
        med, starting, waiting, _each = pattern_summary(pattern)["ours-async"]
        add("Where the time goes: of the %s ms per object of the async pattern, the async loops take %s ms (Ansible's "
            "work for an item, a fork) and the async_status loops %s ms, a module started in a new Python for every "
            "item. The async_status loops are ansible-core's and the same for any collection: they bound what the "
            "pattern can gain over the same loops without async, which need no second loop."
            % (ms(med), ms(starting), ms(waiting)))
        add("")
    add(PATTERN_END)
    return lines


def pattern_guide(extras, started):
    """The async pattern's numbers for the performance guide (between its .. bench-pattern markers)."""
    pattern, fanout = extras.get("pattern"), extras.get("fanout")
    if not pattern:
        return None
    summary = pattern_summary(pattern)
    n = pattern["n"]
    rows = [["configuration", "ms per object, unchanged", "the async (or plain) loops", "the async_status loops",
             "created: ms per object"]]
    for key, label in pattern["labels"].items():
        if key in summary:
            med, starting, waiting, _each = summary[key]
            rows.append([label, ms(med), ms(starting), ms(waiting), ms(pattern["create"][key].per_object)])
    text = ["Latest run: %s, %d objects of each kind (%s), median of %d unchanged runs."
            % (started.strftime("%Y-%m-%d"), n, ", ".join(PATTERN_KINDS), pattern["runs"]), "", rst_table(rows)]
    if fanout:
        m = fanout[("bounded", "changed")]
        u = fanout[("unbounded", "changed")]
        text += ["", "%d hosts through one async loop, every job at once: with the default bound %d answers 5xx, %d "
                 "jobs failed, at most %d requests at once; without a bound %d answers 5xx, %d jobs failed, %d requests "
                 "at once." % (m["n"], m["errors"], m["failed"], m["at_once"], u["errors"], u["failed"], u["at_once"])]
    return "\n".join(rst_cell(line) if not line.startswith(".. list-table") else line for line in text)


def write_results(configs, extras, rt, info, args, started, elapsed, notes):
    by = summarize(configs)
    n = args.n
    floor = by["floor"]
    awx_pw = by.get("awx-password")
    awx_tok = by.get("awx-token")
    rt_fresh, rt_reused = rt[:2]
    lines = []
    add = lines.append
    add("# Benchmark results")
    add("")
    command = COMMAND if (n, args.runs) == (DEFAULT_N, DEFAULT_RUNS) else '%s BENCH_ARGS="--n %d --runs %d"' % (
        COMMAND, n, args.runs)
    add("Produced by `%s` (`benchmarks/bench.py --n %d --runs %d`) on %s UTC; the run took %.0f s."
        % (command, n, args.runs, started.strftime("%Y-%m-%d %H:%M"), elapsed))
    add("")
    add("The collection measured: %s (copied when the run started)." % info.get("code", "?"))
    add("")
    add("Machine: %s, %s cores, %s, Python %s, ansible-core %s (all configurations). Load average (1, 5, 15 min) at the "
        "start: %s; at the end: %s. Other work on the machine slows every configuration; they take turns, so the "
        "ratios suffer least."
        % (info["cpu"], info["cores"], info["system"], info["python"], info["ansible_core"], info["load"],
           info.get("load_end", "?")))
    add("")
    add("One reference service (`tests/service`, gunicorn with 2 workers, 4 threads each and keep-alive, PBKDF2 with "
        "600,000 iterations as on the real service), one run, the configurations taking turns. For each configuration "
        "a play whose one `host` task loops over N = %d items creates N hosts; then the same loop runs %s more with "
        "nothing to change, and so does a play of N separate `host` tasks on the same hosts (written out by "
        "bench.py: no loop, nothing to template; each task is a new worker process, as each task of a play is). "
        "Time per task is measured by a callback (Ansible's start-up excluded): for a loop, the task's wall time "
        "divided by N; for separate tasks, the time from the start of the first task to the result of the last, "
        "divided by N. It is the median of the %d runs (range in brackets). The ratios compare like with like: a loop "
        "with a loop of `ansible.builtin.ping` (the floor: Ansible's own cost per task) and with awx.awx's loop, "
        "separate tasks with N separate `ping` tasks and with awx.awx's separate tasks. A third floor, "
        "`ansible.builtin.debug`, is an action that runs in the worker as the controller path does and sends nothing: "
        "Ansible's own cost per task on that path. Requests and password checks "
        "are counted by the service; per task is the total divided by N. Connections are the distinct client ports "
        "in the service's request log during the run: one per TCP connection, each with its TLS handshake (when the "
        "system gives a later connection a port an earlier one had, the two count once, so many short connections "
        "can count a few less than they are)."
        % (n, "once" if args.runs == 1 else "%d times" % args.runs, args.runs))
    add("")
    add("Code runs *in the worker* on the controller path: the action plugin runs the module's code in the worker "
        "process Ansible forked for the task (a local connection, no become, not async), over one keep-alive "
        "connection per worker; an async task there runs in a job forked from the worker (the async pattern "
        "below). It runs *as a module* everywhere else, and always for awx.awx and the ping and "
        "one-request floors.")
    add("")

    targets = collect_targets(by, extras, rt, args)

    def target_table(group):
        rows = [t for t in targets if t[0] == group]
        if not rows:
            return
        add("| target | met | measured |")
        add("|---|---|---|")
        for _group, text, ok, measured in rows:
            add("| %s | %s | %s |" % (text, "yes" if ok else "**no**", measured))
        add("")

    add("## " + TARGET_GROUPS[0][1])
    add("")
    target_table("controller")

    add("## Unchanged host task")
    add("")
    add("| configuration | code runs | tasks | ms per task | x the ping floor | speed-up over awx.awx (token) "
        "| speed-up over awx.awx (password) | requests per task | password checks per task | connections per run |")
    add("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for c in on_awx(configs):
        if c.diagnostic:
            continue
        for mode in MODES:
            value = c.med[mode]
            if c.kind == "floor" and c.key != "floor-request":
                reqs = checks = conns = "-"
            else:
                reqs = per(statistics.median(over_runs(c, mode, "requests")), n)
                checks = per(statistics.median(over_runs(c, mode, "password_checks")), n)
                conns = spread_text(over_runs(c, mode, "connections"))
            add("| %s | %s | %s | %s [%s-%s] | %s | %s | %s | %s | %s | %s |" % (
                c.label, RUNS_AS[c.path], tasks_as(mode, n), ms(value), ms(c.spread[mode][0]), ms(c.spread[mode][1]),
                ratio(value / floor.med[mode]),
                speedup(awx_tok.med[mode] / value) if awx_tok else "-",
                speedup(awx_pw.med[mode] / value) if awx_pw else "-", reqs, checks, conns))
    add("")
    add("### Where the time goes")
    add("")
    add("In a loop, the first item also pays for the worker process: its start, the imports, the connection and "
        "its TLS handshake; each later item, on the controller path, Ansible's work for an item and the request on "
        "the kept-alive connection. Medians of the %d runs." % args.runs)
    add("")
    add("| configuration | a loop: ms per item | the first item | each later item |")
    add("|---|---:|---:|---:|")
    for c in on_awx(configs):
        if c.runs["loop"] and c.runs["loop"][0].rest is not None:
            add("| %s | %s | %s | %s |" % (c.label, ms(c.med["loop"]), ms(statistics.median(over_runs(c, "loop", "first"))),
                                          ms(statistics.median(over_runs(c, "loop", "rest")))))
    add("")
    add("Separate tasks: the time inside a task (from its start to its result, as the callback sees them; the mean "
        "of the N tasks) and between one task's result and the next one's start (Ansible's strategy). A new worker "
        "process is forked for every task, inside the task's time: on the controller path it imports requests and "
        "the module's code and opens a new connection every time. The diagnostic row measures the same tasks with "
        "those imports done in ansible-playbook before the workers fork (`callback_plugins/bench_preload.py`), "
        "which shows how much of the time the imports take; no configuration runs that way.")
    add("")
    add("| configuration | separate tasks: ms per task | inside the task | between tasks |")
    add("|---|---:|---:|---:|")
    for c in on_awx(configs):
        if not c.runs["separate"]:
            continue
        inside = statistics.median(m.inside for m in c.runs["separate"])
        between = statistics.median(m.per_task - m.inside for m in c.runs["separate"])
        add("| %s | %s | %s | %s |" % (c.label, ms(c.med["separate"]), ms(inside), ms(between)))
    add("")
    add("## Created host task (a loop, the first run)")
    add("")
    add("| configuration | ms per task | speed-up over awx.awx (password) | requests per task | password checks per task "
        "| logins | connections |")
    add("|---|---:|---:|---:|---:|---:|---:|")
    awx_create = awx_pw.create.per_task if awx_pw and awx_pw.create else None
    for c in on_awx(configs):
        if c.create is None:
            continue
        m = c.create
        add("| %s | %s | %s | %s | %s | %d | %d |" % (
            c.label, ms(m.per_task), speedup(awx_create / m.per_task) if awx_create else "-",
            per(m.requests, m.n), per(m.password_checks, m.n), m.logins, m.connections))
    add("")
    lines.extend(gateway_lines(by, args))
    target_table("gateway")

    add("## " + TARGET_GROUPS[1][1])
    add("")
    add(MODULE_PATH_TEXT)
    add("")
    if "previous" in by:
        add("The previous module is the collection at commit %s, the last before the action plugins, unpacked from "
            "git and run in this run with a token." % by["previous"].commit[:7])
        add("")
    add("| configuration | loop: ms per task | loop: x the ping floor | separate tasks: ms per task "
        "| separate tasks: x the ping floor |")
    add("|---|---:|---:|---:|---:|")
    for key in ("token-module", "previous", "floor-request", "floor"):  # the module path's own
        if key not in by:
            continue
        c = by[key]
        add("| %s | %s | %s | %s | %s |" % (c.label, ms(c.med["loop"]), ratio(c.med["loop"] / floor.med["loop"]),
                                          ms(c.med["separate"]), ratio(c.med["separate"] / floor.med["separate"])))
    p = PREVIOUS_COMMITTED
    add("| previous module, token, the last committed run (%s) | %s | %s | - | - |"
        % (p["commit"], ms(p["token"]), ratio(p["token"] / p["floor"])))
    add("")
    target_table("module")

    add("## One request's round trip")
    add("")
    add("A filtered GET of one host with a token, from Python `requests`: %s ms on a new connection (TCP and TLS, as "
        "every task on the module path and every separate task opens one), %s ms on a kept-alive connection (as the "
        "items of a loop in the worker share one); median of 30 each." % (ms(rt_fresh), ms(rt_reused)))
    add("")
    if "floor-request" in by:
        one = by["floor-request"].med["loop"]
        modules = [c for c in configs if c.kind == "ours" and c.path == "module"]
        add("The same GET from a module that does nothing else (`benchmarks/library/one_request.py`: the standard "
            "library, a new TLS connection, the answer read but not parsed) takes %s ms per task in a loop, %s ms above "
            "the ping floor: the least any module that asks the service one question pays. Above that second floor, "
            "what is the module's own (options, auth, requests, JSON, the result): %s."
            % (ms(one), ms(one - floor.med["loop"]),
               ", ".join("%s %s ms" % (SHORT[c.key], ms(c.med["loop"] - one)) for c in modules) or "-"))
        add("")

    lines.extend(pattern_lines(extras))
    add("")
    add("## " + TARGET_GROUPS[2][1])
    add("")
    target_table("other")
    notes = findings(by, rt) + list(notes)
    if notes:
        add("## Notes")
        add("")
        for note in notes:
            add("- " + note)
        add("")
    add("![time per task](results.png)")
    add("")
    (HERE / "RESULTS.md").write_text("\n".join(lines))
    (WORK / "results.json").write_text(json.dumps({
        "n": n, "runs": args.runs, "date": started.isoformat(), "round_trip": rt, "machine": info,
        "configs": {c.key: {"label": c.label, "path": c.path, "layout": getattr(c, "layout", "awx"),
                            "create": c.create.per_task if c.create else None,
                            "requests_create": c.create.requests if c.create else None,
                            "password_checks_create": c.create.password_checks if c.create else None,
                            "connections_create": c.create.connections if c.create else None,
                            "unchanged": {mode: {"per_task": over_runs(c, mode, "per_task"),
                                                 "requests": over_runs(c, mode, "requests"),
                                                 "password_checks": over_runs(c, mode, "password_checks"),
                                                 "connections": over_runs(c, mode, "connections")}
                                          for mode in MODES}}
                    for c in configs},
        "targets": targets,
    }, indent=2))
    return targets


def gateway_lines(by, args):
    """The section of the gateway layout: each configuration against the gateway beside the same one against
    AWX 24's layout, in this run; what the run could not measure there, said."""
    n = args.n
    measured = [(by[key], by[beside]) for key, beside in GATEWAY_CONFIGS if key in by and beside in by]
    out = ["## " + TARGET_GROUPS[3][1], ""]
    out.append(
        "A second reference service, started with `svcctl start --layout gateway`, runs beside the first with the same "
        "settings: the platform gateway's layout of Automation Platform 2.5-2.7 (the gateway's API at "
        "`/api/gateway/v1/`, built on django-ansible-base, in front of the controller's at `/api/controller/v2/`; "
        "`tests/service/README.md`, \"Gateway layout\"). The configurations below run the same plays against it (the "
        "create loop, then the unchanged loop and separate tasks), taking turns with all the others. The collection "
        "finds the layout itself (`service_layout: auto`, its default: the create loop's first item asks `/api/` once "
        "and the session cache keeps the answer); the token is a personal token of the gateway, the session the "
        "gateway's login. *Gateway / AWX 24* divides the median time per task against the gateway by the same "
        "configuration's against AWX 24's layout in this run. awx.awx 24.6.1 is not measured there: it sends its "
        "requests to `/api/v2/`, which a gateway does not serve (only `CONTROLLER_OPTIONAL_API_URLPATTERN_PREFIX`, an "
        "environment variable its documentation does not name, moves them).")
    out.append("")
    if not measured:
        out.append("Not measured in this run (`--layouts %s`)." % getattr(args, "layouts", "awx"))
        out.append("")
        return out
    out.append("| configuration | tasks | AWX 24 layout: ms per task | gateway layout: ms per task | gateway / AWX 24 "
               "| requests per task (AWX 24, gateway) | password checks per task (AWX 24, gateway) "
               "| connections per run (AWX 24, gateway) |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|")

    def both(a, b, mode, attr):
        return "%s, %s" % (per(statistics.median(over_runs(a, mode, attr)), n),
                           per(statistics.median(over_runs(b, mode, attr)), n))

    for gw, awx in measured:
        for mode in MODES:
            out.append("| %s | %s | %s [%s-%s] | %s [%s-%s] | %s | %s | %s | %s, %s |" % (
                SHORT[awx.key], tasks_as(mode, n), ms(awx.med[mode]), ms(awx.spread[mode][0]), ms(awx.spread[mode][1]),
                ms(gw.med[mode]), ms(gw.spread[mode][0]), ms(gw.spread[mode][1]), ratio(gw.med[mode] / awx.med[mode]),
                both(awx, gw, mode, "requests"), both(awx, gw, mode, "password_checks"),
                spread_text(over_runs(awx, mode, "connections")), spread_text(over_runs(gw, mode, "connections"))))
        if gw.create and awx.create:
            out.append("| %s | created, a loop of %d | %s | %s | %s | %s, %s | %s, %s | %d, %d |" % (
                SHORT[awx.key], n, ms(awx.create.per_task), ms(gw.create.per_task),
                ratio(gw.create.per_task / awx.create.per_task), per(awx.create.requests, n), per(gw.create.requests, n),
                per(awx.create.password_checks, n), per(gw.create.password_checks, n),
                awx.create.connections, gw.create.connections))
    out.append("")
    return out


def headline(configs, extras, rt, info, args, started, targets):
    """The numbers of the latest run for the README and the user guide: a list of ("p", text) and ("table", rows)."""
    by = {c.key: c for c in configs}
    n = args.n
    floor = by["floor"]
    awx_tok = by.get("awx-token")
    blocks = [("p", "Latest run: %s, N = %d, median of %d unchanged runs, %s (%s cores), load average %s at the start. "
                    "Time per task without ansible-playbook's start-up; each ratio compares a loop with a loop and "
                    "separate tasks with separate tasks."
               % (started.strftime("%Y-%m-%d"), n, args.runs, info["cpu"], info["cores"], info["load"]))]
    rows = [["unchanged host task", "tasks", "ms per task", "x ping floor", "speed-up over awx.awx, token",
             "requests per task", "connections per run"]]
    for key in HEADLINE_KEYS:
        if key not in by:
            continue
        c = by[key]
        for mode in MODES:
            value = c.med[mode]
            floor_row = c.kind == "floor" and c.key != "floor-request"
            rows.append([SHORT[key], tasks_as(mode, n),
                         ms(value), ratio(value / floor.med[mode]),
                         speedup(awx_tok.med[mode] / value) if awx_tok else "-",
                         "-" if floor_row else per(statistics.median(over_runs(c, mode, "requests")), n),
                         "-" if floor_row else spread_text(over_runs(c, mode, "connections"))])
    blocks.append(("table", rows))
    trows = [["target", "measured", "met"]]
    for group, text, ok, measured in targets:
        if group in ("controller", "module") and "(added)" not in text:
            trows.append([text, measured.split("; x the ping floor")[0], "yes" if ok else "**no**"])
    blocks.append(("table", trows))
    sentences = []
    if "token" in by and by["token"].create:
        c = by["token"].create
        sentences.append("Creating a host (a loop, with a token) takes %s ms per task and %s requests, over %d connection(s)."
                         % (ms(c.per_task), per(c.requests, c.n), c.connections))
    if "floor-request" in by:
        one = by["floor-request"].med["loop"]
        sentences.append("A module that sends one GET and does nothing else takes %s ms per task in a loop (%s ms above "
                         "ping): on the controller path a task of this collection costs less than that module does."
                         % (ms(one), ms(one - floor.med["loop"])))
    if "forks" in extras:
        f = extras["forks"]
        sentences.append("200 host tasks with -f 20 and session auth: %d login, %d password check, %d requests."
                         % (f.logins, f.password_checks, f.requests))
    if "scale_host" in extras and "lookup" in extras:
        sentences.append("An unchanged host task in an inventory of 2,000 hosts: %d request. The api lookup reads %s "
                         "objects in %d requests (page size %d)."
                         % (extras["scale_host"].requests, format(extras["lookup"].count, ","), extras["lookup"].requests,
                            LOOKUP_PAGE_SIZE))
    if "launch" in extras:
        la = extras["launch"]
        sentences.append("%d job launches in a loop: %d launch POSTs, %d requests in all."
                         % (la.n, la.posts, la.requests))
    blocks += [("p", s) for s in sentences]
    return blocks


def replace_block(path, start, end, text):
    """Replace what lies between the marker lines ``start`` and ``end`` (kept) in ``path``, if both are there."""
    if not path.exists():
        return False
    content = path.read_text()
    if start not in content or end not in content:
        return False
    head, rest = content.split(start, 1)
    _old, tail = rest.split(end, 1)
    path.write_text(head + start + "\n" + text + end + tail)
    return True


def markdown_table(rows):
    numeric = [all(cell.replace(".", "").replace("x", "").replace("-", "").isdigit() or cell in ("-", "")
                   for cell in column) for column in zip(*rows[1:])]
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join("---:" if num else "---" for num in numeric) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(out)


def rst_cell(cell):
    return cell.replace("`", "``")


def rst_table(rows):
    out = [".. list-table::", "   :header-rows: 1", ""]
    for r in rows:
        out.append("   * - " + rst_cell(r[0]))
        out += ["     - " + rst_cell(cell) for cell in r[1:]]
    return "\n".join(out)


def update_pattern_docs(extras, started):
    text = pattern_guide(extras, started)
    if text:
        replace_block(ROOT / "docs" / "docsite" / "rst" / "guide_performance.rst", ".. bench-pattern:start",
                      ".. bench-pattern:end", "\n" + text + "\n\n")


def update_docs(blocks):
    md = [markdown_table(value) if kind == "table" else value for kind, value in blocks]
    replace_block(ROOT / "README.md", "<!-- bench:start -->", "<!-- bench:end -->", "\n\n".join(md) + "\n")
    rst = [rst_table(value) if kind == "table" else rst_cell(value) for kind, value in blocks]
    guide = ROOT / "docs" / "docsite" / "rst" / "guide_performance.rst"
    replace_block(guide, ".. bench:start", ".. bench:end", "\n" + "\n\n".join(rst) + "\n\n")


def plot(configs, rt, args, started):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by = {c.key: c for c in configs}
    shown = [c for c in on_awx(configs) if not c.diagnostic]
    labels = [c.label + ("\n(in the worker)" if c.path == "controller" else "") for c in shown]
    loop = [c.med["loop"] * 1000 for c in shown]
    separate = [c.med["separate"] * 1000 for c in shown]
    colours = {"ours": "#2b6cb0", "awx": "#c05621", "floor": "#718096"}
    colour = [colours[c.kind] if c.path == "controller" or c.kind != "ours" else "#63b3ed" for c in shown]
    fig, ax = plt.subplots(figsize=(10, 0.66 * len(shown) + 1.8))
    y = list(range(len(shown)))[::-1]
    height = 0.38
    ax.barh([v + height / 2 for v in y], loop, height, color=colour, label="a loop of %d: per item" % args.n)
    ax.barh([v - height / 2 for v in y], separate, height, color=colour, alpha=0.45,
            label="%d separate tasks: per task" % args.n)
    for v, value in zip(y, loop):
        ax.text(value + 6, v + height / 2, "%.0f" % value, va="center", fontsize=8)
    for v, value in zip(y, separate):
        ax.text(value + 6, v - height / 2, "%.0f" % value, va="center", fontsize=8, alpha=0.8)
    for mode, style in (("loop", "--"), ("separate", ":")):
        ax.axvline(by["floor"].med[mode] * 1000, color="#4a5568", linestyle=style, linewidth=1,
                   label="ping floor, %s" % tasks_as(mode, args.n))
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("wall time per unchanged host task, ms (lower is better; Ansible's start-up excluded)")
    ax.set_title("N = %d, median of %d runs, one service, %s" % (args.n, args.runs, started.strftime("%Y-%m-%d")),
                 fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_xlim(0, max(loop + separate) * 1.15)
    fig.tight_layout()
    fig.savefig(HERE / "results.png", dpi=110)


# -- main --------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_N", DEFAULT_N)),
                        help="items per loop and tasks per play of separate tasks (%d)" % DEFAULT_N)
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", DEFAULT_RUNS)),
                        help="unchanged runs per configuration, each a loop and separate tasks (%d)" % DEFAULT_RUNS)
    parser.add_argument("--note", action="append", default=[],
                        help="a note for RESULTS.md about this run (for example why N or the runs are not the defaults)")
    parser.add_argument("--only", help="comma-separated configuration keys, with floor, floor-worker, token and "
                                       "awx-token always "
                                       "(for trying things; the report wants all): " + ", ".join(CONFIG_ORDER))
    parser.add_argument("--layouts", default=os.environ.get("BENCH_LAYOUTS", DEFAULT_LAYOUTS),
                        help="comma-separated layouts of the service to measure the collection against: awx (AWX 24's, "
                             "always; awx.awx and the extras are measured there), gateway (a second service in the "
                             "platform gateway's layout: %s) (%s)"
                             % (", ".join(key for key, _beside in GATEWAY_CONFIGS), DEFAULT_LAYOUTS))
    parser.add_argument("--skip-extras", action="store_true", help="skip the update, forks, scale, lookup, launches and async")
    parser.add_argument("--no-write", action="store_true",
                        help="print the targets; write neither RESULTS.md, results.png nor the README's and guide's numbers")
    parser.add_argument("--report-only", action="store_true", help="rewrite the reports from the last run's data (.work/raw.pickle)")
    parser.add_argument("--pattern-n", type=int, default=int(os.environ.get("BENCH_PATTERN_N", DEFAULT_PATTERN_N)),
                        help="objects of each kind in the async pattern (%d)" % DEFAULT_PATTERN_N)
    parser.add_argument("--fanout-n", type=int, default=int(os.environ.get("BENCH_FANOUT_N", DEFAULT_FANOUT_N)),
                        help="async host jobs started at once in the fan-out (%d)" % DEFAULT_FANOUT_N)
    parser.add_argument("--pattern-only", action="store_true",
                        help="measure the async pattern and the fan-out alone (--runs unchanged runs) and rewrite "
                             "only their section of RESULTS.md")
    args = parser.parse_args(argv)
    layouts = [name.strip() for name in args.layouts.split(",") if name.strip()]
    unknown = [name for name in layouts if name not in LAYOUTS]
    if unknown or "awx" not in layouts:
        parser.error("--layouts takes %s, with awx always (the gateway's numbers are ratios to it), not %s"
                     % (" and ".join(LAYOUTS), args.layouts))
    if args.report_only and args.pattern_only:
        with open(WORK / "pattern.pickle", "rb") as fh:
            data = pickle.load(fh)
        extras, args_, started_ = data[:3]
        elapsed, load = data[3:] if len(data) > 3 else ((datetime.datetime.now(datetime.timezone.utc) - started_)
                                                        .total_seconds(), "%.2f %.2f %.2f" % os.getloadavg())
        args_.no_write = args.no_write
        pattern_report(extras, args_, started_, elapsed, load)
        return 0
    if args.report_only:
        with open(WORK / "raw.pickle", "rb") as fh:
            report(*pickle.load(fh))
        return 0

    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.time()
    WORK.mkdir(parents=True, exist_ok=True)
    info = machine()
    our_collections, info["code"] = snapshot_collection()
    awx_collections = ensure_awx_collection()
    ensure_awx_venv()
    service = Service(SERVICE_DIR).start(with_idp=sso_wanted())
    gateway = None
    notes = list(args.note)
    try:
        token = service.api("POST", service.tokens, json={"description": "benchmark", "scope": "write"})["token"]
        if args.pattern_only:
            return pattern_only(service, make_configs(service, token, awx_collections, our_collections), args, started, t0)
        gateway_token = None
        if "gateway" in layouts:
            gateway = Service(GATEWAY_SERVICE_DIR, layout="gateway").start()
            gateway_token = gateway.api("POST", gateway.tokens, json={"description": "benchmark", "scope": "write"})["token"]
        configs = make_configs(service, token, awx_collections, our_collections, gateway, gateway_token)
        if args.only:
            keep = set(args.only.split(",")) | {"floor", "floor-worker", "token", "awx-token"}
            # A gateway configuration is measured beside its own on AWX 24's layout.
            keep |= {"gw-token"} if gateway else set()
            keep |= set(c.beside for c in configs if c.key in keep and c.beside)
            configs = [c for c in configs if c.key in keep]
        if not any(c.key == "sso" for c in configs) and not args.only:
            notes.append(SSO_NOTE % (service.idp_error or "not wanted"))
        if not any(c.key == "previous" for c in configs) and not args.only:
            notes.append("The previous module is not in this run: the git history that holds it is not at hand.")
        if gateway is None:
            notes.append("The gateway layout is not in this run (`--layouts %s`)." % args.layouts)
        for c in configs:
            if c.key == "sso":
                sso_user_as_administrator(service, c)
            if c.kind != "floor" and not c.diagnostic:
                against = c.service or service
                against.api("POST", against.controller + "inventories/", json={"name": c.inventory, "organization": 1})
        log("service at %s%s; N=%d, %d unchanged runs, %d configurations"
            % (service.url, ", gateway layout at %s" % gateway.url if gateway else "", args.n, args.runs, len(configs)))
        for c in configs:
            if c.kind == "floor" or c.diagnostic:
                continue
            c.create = measure_loop(c, c.service or service, args.n, c.inventory)
            if c.create.changed != args.n:
                raise RuntimeError("%s: %d of %d tasks changed on create" % (c.key, c.create.changed, args.n))
            log("create %-13s %6s ms/task %3d requests %3d password checks %3d connections"
                % (c.key, ms(c.create.per_task), c.create.requests, c.create.password_checks, c.create.connections))
        for run in range(args.runs):
            order = configs[run % len(configs):] + configs[:run % len(configs)]
            for c in order:
                for mode in c.modes:
                    m = measure(c, c.service or service, mode, args.n)
                    if c.kind != "floor" and m.changed:
                        raise RuntimeError("%s: %d tasks changed on an unchanged run (%s)" % (c.key, m.changed, mode))
                    c.runs[mode].append(m)
                    log("run %d %-13s %-8s %6s ms/task %3d requests %3d password checks %3d connections%s"
                        % (run + 1, c.key, mode, ms(m.per_task), m.requests, m.password_checks, m.connections,
                           " (first item %s ms, then %s ms each)" % (ms(m.first), ms(m.rest)) if m.rest else
                           " (%s ms inside each task)" % ms(m.inside) if m.inside else ""))
        by = {c.key: c for c in configs}
        rt = round_trip(service, token, by["token"].inventory)
        rt = (rt[0], rt[1], requests_import_cost())
        log("round trip %s ms fresh, %s ms kept alive; importing requests in a module %s ms"
            % (ms(rt[0]), ms(rt[1]), ms(rt[2])))
        extras = {}
        if not args.skip_extras:
            # The async loop before the update, which changes the token configuration's first hosts.
            extras["async"] = measure_async(service, by.get("token-module", by["token"]), by["floor"], min(3, args.n))
            log("async: %d requests, %s ms per item (ping %s ms)"
                % (extras["async"]["ours"].requests, ms(extras["async"]["ours"].per_task),
                   ms(extras["async"]["ping"].per_task)))
            extras["update"] = measure_update(service, by["token"], min(10, args.n))
            log("update: %d requests for %d tasks" % (extras["update"].requests, extras["update"].n))
            if "session" in by:
                extras["forks"] = measure_forks(service, by["session"])
                log("forks: %d login(s), %d requests, %.1f s"
                    % (extras["forks"].logins, extras["forks"].requests, extras["forks"].task_seconds))
            extras.update(measure_scale(service, by["token"], token))
            log("scale: %d request(s); lookup: %d requests for %d objects"
                % (extras["scale_host"].requests, extras["lookup"].requests, extras["lookup"].count))
            extras["pattern"] = measure_pattern(service, by["token"], by.get("awx-token"), args.pattern_n, args.runs)
            extras["fanout"] = measure_fanout(service, by["token"], args.fanout_n)
            if job_modules_present():
                extras["launch"] = measure_launches(service, by["token"])
                log("launches: %d POSTs, %d requests" % (extras["launch"].posts, extras["launch"].requests))
            else:
                notes.append("The 50-launch measurement is not in this run: the collection has no `job_launch` module yet.")
        elapsed = time.time() - t0
        info["load_end"] = "%.2f %.2f %.2f" % os.getloadavg()
        for c in configs:
            c.env = None  # credentials stay out of the saved data
            c.service = None
        with open(WORK / "raw.pickle", "wb") as fh:
            pickle.dump((configs, extras, rt, info, args, started, elapsed, notes), fh)
        if args.no_write:
            summarize(configs)
            for _group, text, ok, measured in collect_targets(by, extras, rt, args):
                log("%-4s %s: %s" % ("ok" if ok else "MISS", text, measured))
            return 0
        report(configs, extras, rt, info, args, started, elapsed, notes)
    finally:
        service.stop()
        if gateway is not None:
            gateway.stop()
    return 0


def pattern_only(service, configs, args, started, t0):
    """The async pattern and the fan-out alone; their section of RESULTS.md rewritten, the rest kept."""
    by = {c.key: c for c in configs}
    for c in configs:
        if c.key not in ("token", "awx-token"):
            c.env = None
    extras = {"pattern": measure_pattern(service, by["token"], by.get("awx-token"), args.pattern_n, args.runs)}
    with open(WORK / "pattern.pickle", "wb") as fh:  # kept should the fan-out fail
        pickle.dump((extras, args, started, time.time() - t0, "%.2f %.2f %.2f" % os.getloadavg()), fh)
    extras["fanout"] = measure_fanout(service, by["token"], args.fanout_n)
    for c in configs:
        c.env = None
    elapsed = time.time() - t0
    with open(WORK / "pattern.pickle", "wb") as fh:
        pickle.dump((extras, args, started, elapsed, "%.2f %.2f %.2f" % os.getloadavg()), fh)
    pattern_report(extras, args, started, elapsed, "%.2f %.2f %.2f" % os.getloadavg())
    return 0


def pattern_report(extras, args, started, elapsed, load):
    lines = pattern_lines(extras)
    lines.insert(2, "")
    lines.insert(3, "Measured on %s UTC by `benchmarks/bench.py --pattern-only --pattern-n %d --fanout-n %d --runs %d` "
                    "(%.0f s), apart from the rest of this page; load average at the end: %s."
                 % (started.strftime("%Y-%m-%d %H:%M"), args.pattern_n, args.fanout_n, args.runs, elapsed, load))
    text = "\n".join(lines[1:-1]) + "\n"
    results = HERE / "RESULTS.md"
    if not args.no_write:
        if not replace_block(results, PATTERN_START, PATTERN_END, text):
            content = results.read_text()
            marker = "## " + TARGET_GROUPS[2][1]
            content = content.replace(marker, "\n".join([PATTERN_START, text + PATTERN_END, "", marker]), 1)
            results.write_text(content)
        update_pattern_docs(extras, started)
    for _group, text_, ok, measured in pattern_targets(extras):
        log("%-4s %s: %s" % ("ok" if ok else "MISS", text_, measured))


def report(configs, extras, rt, info, args, started, elapsed, notes):
    """Write RESULTS.md, results.png and the README's and the guide's numbers."""
    targets = write_results(configs, extras, rt, info, args, started, elapsed, notes)
    plot(configs, rt, args, started)
    update_docs(headline(configs, extras, rt, info, args, started, targets))
    update_pattern_docs(extras, started)
    missed = [t for t in targets if not t[2]]
    log("wrote %s and %s; %d of %d targets met" % (HERE / "RESULTS.md", HERE / "results.png", len(targets) - len(missed), len(targets)))
    for _group, text, _ok, measured in missed:
        log("target missed: %s (%s)" % (text, measured))


if __name__ == "__main__":
    sys.exit(main())
