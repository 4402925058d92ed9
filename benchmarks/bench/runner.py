"""Running: the collection's copy, awx.awx and its virtualenv, the reference services; the plays run with the
callback's timings (callback_plugins/bench_timer.py) and the requests the service logged meanwhile."""
import collections
import datetime
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
import time
from pathlib import Path

import requests

from .at_scale import measure_at_scale
from .base import AWX_VENV, GATEWAY_SERVICE_DIR, PLAYBOOKS, ROOT, SERVICE_DIR, WORK, log, ms
from .configurations import (LOOKUP_PAGE_SIZE, PATTERN_ASYNC, PATTERN_CONFIGS, PATTERN_KINDS, SSO_NOTE, Config,
                             make_configs, sso_wanted)
from .plays import ASYNC_PLAY, FANOUT_PLAY, pattern_playbook, pattern_setup, run_playbook, separate_playbook

ANSIBLE_CORE_PIN = "ansible-core==2.19.14"


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
        return self.connect(out.stdout)

    def connect(self, printed):
        """Take the SERVICE_* export lines a start printed; an administrator's HTTP session to the service."""
        values = {}
        for line in printed.splitlines():
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


def sso_user_as_administrator(service, config):
    """The first SSO login makes the (external) user; make it a superuser so that it sees what the others see.
    That login goes into the SSO cache directory's throwaway copy, so the measured create still logs in."""
    env = dict(config.env, SERVICE_CACHE_DIR=str(WORK / "cache" / "sso-setup"))
    subprocess.run(["ansible", "localhost", "-c", "local", "-i", "localhost,", "-m", "automation.service.host",
                    "-a", "name=x inventory=none", "-e", "ansible_python_interpreter=" + sys.executable],
                   env=env, capture_output=True, text=True, cwd=str(WORK))
    service.manage("shell", "-c", "from django.contrib.auth.models import User; "
                   "User.objects.filter(svc_profile__external_account='social').update(is_superuser=True, is_staff=True)")


# -- running -----------------------------------------------------------------------


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


# -- the run ---------------------------------------------------------------------------


def run(args, layouts):
    """Measure what args ask for against the services of ``layouts``; the run's data, also saved in .work for
    --report-only: (configs, extras, rt, info, args, started, elapsed, notes), or with --pattern-only
    (extras, args, started, elapsed, load)."""
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
        if args.scale_only:
            return scale_only(service, make_configs(service, token, awx_collections, our_collections), args, started, t0)
        if args.pattern_only:
            return pattern_only(service, make_configs(service, token, awx_collections, our_collections), args, started, t0)
        gateway_token = None
        if "gateway" in layouts:
            gateway = Service(GATEWAY_SERVICE_DIR, layout="gateway").start()
            gateway_token = gateway.api("POST", gateway.tokens, json={"description": "benchmark", "scope": "write"})["token"]
        configs = make_configs(service, token, awx_collections, our_collections, gateway, gateway_token,
                               baseline=args.baseline)
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
            extras["at_scale"] = measure_at_scale(service, by["token"], by.get("awx-token"), args.runs)
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
        data = (configs, extras, rt, info, args, started, elapsed, notes)
        with open(WORK / "raw.pickle", "wb") as fh:
            pickle.dump(data, fh)
        return data
    finally:
        service.stop()
        if gateway is not None:
            gateway.stop()


def pattern_only(service, configs, args, started, t0):
    """The async pattern and the fan-out alone; measured (the report rewrites their section of RESULTS.md, the rest kept)."""
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
    data = (extras, args, started, elapsed, "%.2f %.2f %.2f" % os.getloadavg())
    with open(WORK / "pattern.pickle", "wb") as fh:
        pickle.dump(data, fh)
    return data


def scale_only(service, configs, args, started, t0):
    """The configuration at scale alone (the report rewrites its section of RESULTS.md, the rest kept)."""
    by = {c.key: c for c in configs}
    extras = {"at_scale": measure_at_scale(service, by["token"], by.get("awx-token"), args.runs)}
    for c in configs:
        c.env = None
    data = (extras, args, started, time.time() - t0, "%.2f %.2f %.2f" % os.getloadavg())
    with open(WORK / "at-scale.pickle", "wb") as fh:
        pickle.dump(data, fh)
    return data
