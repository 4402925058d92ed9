"""Configuration at scale: a configuration of many objects created, then re-applied unchanged, as platform
teams re-apply theirs every night (benchmarks/playbooks/pattern.yml with more objects: SCALE_HOSTS hosts in one
inventory, SCALE_OTHERS job templates, credentials and teams). What it shows is the service's side: requests and
the service's own time per object (its request log gives each request's duration), beside the client's time.

Configurations, in one run against one reference service:
- ours, plain loops: creates everything, then re-applies it unchanged (--runs times);
- ours, the async pattern (async and poll 0, then async_status): re-applies SCALE_ASYNC_HOSTS of those hosts and
  SCALE_ASYNC_OTHERS of each other kind (async_status costs a new Python per item, for any collection);
- awx.awx, plain loops and the async pattern: SCALE_AWX_HOSTS hosts and SCALE_AWX_OTHERS of each other kind of its
  own (its cost per object does not depend on how many there are: a module started and its requests, per object),
  created, then re-applied once each way.
"""
from .base import WORK, log, ms
from .configurations import PATTERN_ASYNC, Config
from .plays import pattern_playbook, pattern_setup, run_playbook

SCALE_HOSTS = 1000
SCALE_OTHERS = 100
SCALE_ASYNC_HOSTS = 200
SCALE_ASYNC_OTHERS = 20
SCALE_AWX_HOSTS = 100
SCALE_AWX_OTHERS = 10
SCALE_INVENTORY = "bench-at-scale"
SCALE_AWX_INVENTORY = "bench-at-scale-awx"

# Targets
SCALE_HOST_REQUESTS_MAX = 20      # an unchanged re-apply of SCALE_HOSTS hosts (plain loop), and SCALE_ASYNC_HOSTS async
SCALE_CREATE_HOSTS_PER_REQUEST = 50   # created: at least this many hosts per request (where bulk applies)
SCALE_AWX_MIN = 10.0              # unchanged, plain loops: at least this many times faster than awx.awx per object
SCALE_SERVER_MIN = 10.0           # and the service's own time per object at least this many times lower

KINDS = (("hosts", "Hosts"), ("job templates", "Job templates"), ("credentials", "Credentials"), ("teams", "Teams"))

# The section's markers in RESULTS.md.
MARKERS = ("<!-- at-scale:start -->", "<!-- at-scale:end -->")
# A past measurement at scale against a real AWX 24.6.1, kept in RESULTS.md as it was: no run measures it again.
PAST_REAL_MARKERS = ("<!-- at-scale-real:start -->", "<!-- at-scale-real:end -->")


class ScaleRun:
    """One run of the pattern play at scale: per object and per kind, client time, requests, the service's time."""

    def __init__(self, counts, tasks, entries, wall):
        ran = [t for t in tasks if t.get("end") is not None]
        self.counts = counts
        self.objects = sum(counts.values())
        self.per_object = (max(t["end"] for t in ran) - min(t["start"] for t in ran)) / self.objects
        self.waiting = sum(t["end"] - t["start"] for t in ran if t["name"].endswith(", wait")) / self.objects
        self.changed = sum(t.get("changed", 0) for t in ran)
        self.requests = len(entries)
        self.server = sum(e.get("duration", 0) for e in entries)
        self.errors = sum(1 for e in entries if (e.get("status") or 0) >= 500)
        self.wall = wall
        # Per kind: the requests sent from the start of its loop to the end of its waiting loop (async jobs send
        # theirs while the play waits for them).
        self.kinds = {}
        for kind, name in KINDS:
            own = [t for t in ran if t["name"] in (name, name + ", wait")]
            if not own:
                continue
            start, end = min(t["start"] for t in own), max(t["end"] for t in own)
            inside = [e for e in entries if "t" in e and start <= e["t"] <= end]
            self.kinds[kind] = {"requests": len(inside), "server": sum(e.get("duration", 0) for e in inside)}


def run_scale(config, service, counts, use_async, prefix, inventory, project, description="benchmark"):
    jobs = WORK / "async-jobs"
    extra = {"bench_n": counts["job templates"], "bench_hosts_n": counts["hosts"],
             "bench_async": PATTERN_ASYNC if use_async else 0, "bench_prefix": prefix, "bench_inventory": inventory,
             "bench_project": project, "bench_description": description, "ansible_async_dir": str(jobs)}
    tasks, entries, wall = run_playbook(config, service, extra, playbook=pattern_playbook(config.kind))
    return ScaleRun(counts, tasks, entries, wall)


def counts_of(hosts, others):
    return {"hosts": hosts, "job templates": others, "credentials": others, "teams": others}


def measure_at_scale(service, token_config, awx_config, runs):
    """Ours creates the configuration and re-applies it unchanged (plain loops, then the async pattern over part
    of it), awx.awx a configuration of its own, smaller; every run is checked: the create changes every object,
    a re-apply none."""
    out = {"runs": runs, "labels": {}, "create": {}, "unchanged": {}, "counts": {}}
    organization = service.api("GET", "/api/v2/organizations/?name=Default")["results"][0]["id"]
    project = pattern_setup(service, organization)
    full, part = counts_of(SCALE_HOSTS, SCALE_OTHERS), counts_of(SCALE_ASYNC_HOSTS, SCALE_ASYNC_OTHERS)
    awx = counts_of(SCALE_AWX_HOSTS, SCALE_AWX_OTHERS)
    service.api("POST", "/api/v2/inventories/", json={"name": SCALE_INVENTORY, "organization": organization})
    plans = [("ours-loop", "automation.service, token, plain loops", token_config, False, full, "bs", SCALE_INVENTORY),
             ("ours-async", "automation.service, token, async and async_status", token_config, True, part, "bs",
              SCALE_INVENTORY)]
    if awx_config is not None:
        service.api("POST", "/api/v2/inventories/", json={"name": SCALE_AWX_INVENTORY, "organization": organization})
        plans += [("awx-loop", "awx.awx 24.6.1, token, plain loops", awx_config, False, awx, "bs-awx",
                   SCALE_AWX_INVENTORY),
                  ("awx-async", "awx.awx 24.6.1, token, async and async_status", awx_config, True, awx, "bs-awx",
                   SCALE_AWX_INVENTORY)]
    for key, label, base, use_async, counts, prefix, inventory in plans:
        out["labels"][key] = label
        out["counts"][key] = counts
    for key, label, base, use_async, counts, prefix, inventory in plans:
        if use_async:
            continue  # the plain loops create; the async pattern re-applies what they made
        config = Config(key, label, base.kind, base.env, None, None)
        m = run_scale(config, service, counts, False, prefix, inventory, project)
        if m.changed != m.objects:
            raise RuntimeError("at scale %s: %d of %d objects changed on create" % (key, m.changed, m.objects))
        out["create"][key] = m
        log("at scale create %-10s %5d objects %6s ms/object %5d requests (hosts %d) %6s ms of the service's "
            "time/object" % (key, m.objects, ms(m.per_object), m.requests, m.kinds["hosts"]["requests"],
                             ms(m.server / m.objects)))
    for run in range(runs):
        for key, label, base, use_async, counts, prefix, inventory in plans:
            if key.startswith("awx") and run:
                continue  # awx.awx's cost per object is flat: one unchanged run of each kind of loop
            config = Config(key, label, base.kind, base.env, None, None)
            m = run_scale(config, service, counts, use_async, prefix, inventory, project)
            if m.changed:
                raise RuntimeError("at scale %s: %d objects changed on an unchanged run" % (key, m.changed))
            out["unchanged"].setdefault(key, []).append(m)
            log("at scale run %d %-10s %5d objects %6s ms/object %5d requests (hosts %d) %6s ms of the service's "
                "time/object" % (run + 1, key, m.objects, ms(m.per_object), m.requests,
                                 m.kinds["hosts"]["requests"], ms(m.server / m.objects)))
    return out


def summary(scale):
    """Per configuration: the unchanged run of median time per object."""
    out = {}
    for key, runs in scale["unchanged"].items():
        ordered = sorted(runs, key=lambda m: m.per_object)
        out[key] = ordered[len(ordered) // 2]
    return out


def targets(extras):
    """(group, target, met, measured) of the section."""
    scale = extras.get("at_scale")
    if not scale:
        return []
    found = []
    med = summary(scale)
    loop = med.get("ours-loop")
    every_loop = scale["unchanged"].get("ours-loop", [])
    if every_loop:
        hosts = [m.kinds["hosts"]["requests"] for m in every_loop]
        found.append(("scale", "at scale, unchanged: %d hosts of one inventory re-applied in a plain loop in at most "
                      "%d requests" % (SCALE_HOSTS, SCALE_HOST_REQUESTS_MAX), max(hosts) <= SCALE_HOST_REQUESTS_MAX,
                      "%s requests per run" % hosts))
    every_async = scale["unchanged"].get("ours-async", [])
    if every_async:
        hosts = [m.kinds["hosts"]["requests"] for m in every_async]
        found.append(("scale", "at scale, unchanged: an async loop over %d of those hosts in at most %d requests"
                      % (SCALE_ASYNC_HOSTS, SCALE_HOST_REQUESTS_MAX), max(hosts) <= SCALE_HOST_REQUESTS_MAX,
                      "%s requests per run" % hosts))
    created = scale["create"].get("ours-loop")
    if created:
        hosts = created.kinds["hosts"]["requests"]
        found.append(("scale", "at scale, created: at least %d hosts per request (bulk creation)"
                      % SCALE_CREATE_HOSTS_PER_REQUEST, hosts * SCALE_CREATE_HOSTS_PER_REQUEST <= SCALE_HOSTS,
                      "%d requests for %d hosts" % (hosts, SCALE_HOSTS)))
    awx = med.get("awx-loop")
    if loop and awx:
        ratio = awx.per_object / loop.per_object
        found.append(("scale", "at scale, unchanged, plain loops: at least %gx faster than awx.awx per object"
                      % SCALE_AWX_MIN, ratio >= SCALE_AWX_MIN,
                      "%s ms vs %s ms per object: %.1fx" % (ms(loop.per_object), ms(awx.per_object), ratio)))
        ours_server, awx_server = loop.server / loop.objects, awx.server / awx.objects
        ratio = awx_server / ours_server if ours_server else float("inf")
        found.append(("scale", "at scale, unchanged, plain loops: the service's own time per object at least %gx "
                      "lower than awx.awx's" % SCALE_SERVER_MIN, ratio >= SCALE_SERVER_MIN,
                      "%.2f ms vs %.2f ms per object: %.1fx" % (ours_server * 1000, awx_server * 1000, ratio)))
    every = list(scale["create"].values()) + [m for runs in scale["unchanged"].values() for m in runs]
    errors = sum(m.errors for m in every)
    found.append(("scale", "at scale: no 5xx from the service", errors == 0, "%d answers 5xx" % errors))
    return found


def markers(extras):
    return MARKERS


def past_real_lines(results):
    """The kept section of a past measurement against a real AWX, markers included, from the RESULTS.md at
    ``results`` (a Path); [] when it has none."""
    try:
        text = results.read_text()
    except FileNotFoundError:
        return []
    start, end = PAST_REAL_MARKERS
    first = text.find(start)
    last = text.find(end, first)
    if first < 0 or last < 0:
        return []
    return text[first:last + len(end)].split("\n")


def lines(extras, markdown_table):
    """The section of RESULTS.md, between its markers."""
    scale = extras.get("at_scale")
    start, end = markers(extras)
    out = [start, "## Configuration at scale", ""]
    if not scale:
        return out + ["Not in this run.", "", end]
    add = out.append
    add("A configuration as platform teams re-apply theirs every night (`benchmarks/playbooks/pattern.yml`): %d "
        "hosts in one inventory and %d each of job templates, credentials and teams, created in plain loops, then "
        "re-applied unchanged in plain loops (%d runs) and in infra.aap_configuration's async pattern (`async` and "
        "`poll: 0`, then a loop of `async_status`) over %d of those hosts and %d of each other kind. awx.awx, in the "
        "same run against the same service, creates and re-applies a configuration of its own of %d hosts and %d of "
        "each other kind (its cost per object is the same whatever their number: a module started and its requests "
        "for every object). Requests and the service's own time come from the service's request log (each request's "
        "duration, as the service measured it); the client's time per object from the start of the play's first "
        "task to the result of its last."
        % (SCALE_HOSTS, SCALE_OTHERS, scale["runs"], SCALE_ASYNC_HOSTS, SCALE_ASYNC_OTHERS, SCALE_AWX_HOSTS,
           SCALE_AWX_OTHERS))
    add("")
    rows = [["configuration", "run", "objects", "ms per object (client)", "requests per object",
             "service's ms per object", "host requests", "async_status ms per object", "answers 5xx"]]
    for key, label in scale["labels"].items():
        for run_name, m in ([("created", scale["create"][key])] if key in scale["create"] else []) + [
                ("unchanged %d" % (i + 1), m) for i, m in enumerate(scale["unchanged"].get(key, []))]:
            rows.append([label, run_name, str(m.objects), ms(m.per_object), "%.3f" % (m.requests / float(m.objects)),
                         "%.2f" % (m.server * 1000.0 / m.objects), str(m.kinds.get("hosts", {}).get("requests", "-")),
                         ms(m.waiting) if m.waiting else "-", str(m.errors)])
    add(markdown_table(rows))
    add("")
    med = summary(scale)
    if "ours-async" in med and "ours-loop" in med:
        a, p = med["ours-async"], med["ours-loop"]
        add("The async pattern re-applies in %s ms per object, of which %s ms are the async_status loops: a module "
            "of ansible-core started in a new Python for every item, for any collection. The same objects in plain "
            "loops take %s ms per object. What the async pattern saves the service is the same as the plain loops: "
            "%.3f requests per object against awx.awx's %s."
            % (ms(a.per_object), ms(a.waiting), ms(p.per_object), a.requests / float(a.objects),
               "%.2f" % (med["awx-async"].requests / float(med["awx-async"].objects)) if "awx-async" in med else "-"))
        add("")
    add("| target | met | measured |")
    add("|---|---|---|")
    for _group, text, ok, measured in targets(extras):
        add("| %s | %s | %s |" % (text, "yes" if ok else "**no**", measured))
    add("")
    add(end)
    return out
