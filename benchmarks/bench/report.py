"""The report: RESULTS.md, results.png, and the latest numbers in the README and the performance guide."""
import json
import statistics

from . import at_scale
from .base import COMMAND, ENTRY, HERE, ROOT, WORK, log, ms
from .configurations import (DEFAULT_N, DEFAULT_RUNS, GATEWAY_CONFIGS, LOOKUP_PAGE_SIZE, LOOP_AWX_MIN, LOOP_FLOOR_MAX,
                             MODES, PATTERN_ASYNC, PATTERN_AWX_MIN, PATTERN_KINDS, PATTERN_LOOP_MAX, PREVIOUS_COMMITTED,
                             SEPARATE_AWX_MIN, SEPARATE_FLOOR_MAX, TOLERANCE_FLOOR_RT, on_awx)


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
         "token-module": "token, module path", "previous": "previous module, token", "baseline": "baseline, token",
         "awx-password": "awx.awx, password", "awx-token": "awx.awx, token", "floor": "ping floor",
         "floor-worker": "debug floor (in the worker)",
         "floor-request": "one-request floor", "gw-token": "token, gateway layout",
         "gw-session": "session (cached), gateway layout"}
HEADLINE_KEYS = ("session", "token", "sso", "basic", "token-module", "previous", "awx-password", "awx-token", "floor",
                 "floor-worker")


def tasks_as(mode, n):
    return TASKS_AS[mode].replace("N", str(n))


def unchanged_target(c, n):
    """(target, met, measured): an unchanged task costs at most one request (a loop's items share their reads,
    loop_reads, so a loop costs fewer) and no password check."""
    reqs = {mode: sorted(set(over_runs(c, mode, "requests"))) for mode in MODES}
    checks = {mode: sorted(set(over_runs(c, mode, "password_checks"))) for mode in MODES}
    return ("%s, unchanged: at most 1 request and 0 password checks per task (loop and separate tasks)" % SHORT[c.key],
            all(reqs[m] and max(reqs[m]) <= n and checks[m] == [0] for m in MODES),
            "; ".join("%s: %s requests, %s password checks per run of %d" % (m, reqs[m], checks[m], n) for m in MODES))


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
        target("controller", *unchanged_target(by[key], n))
    for c in on_awx(by.values()):
        if c.path != "controller" or c.kind != "ours" or c.diagnostic:
            continue
        loops = over_runs(c, "loop", "connections")
        separate = over_runs(c, "separate", "connections")
        target("controller", "%s: one TCP+TLS connection per loop" % SHORT[c.key], set(loops) == {1},
               "loop: %s connections per run; %d separate tasks: %s per run (each task is a new worker process)"
               % (loops, n, separate))

    # A change measured against the collection before it (--baseline), in the same run.
    if "baseline" in by:
        base = by["baseline"]
        for mode in MODES:
            mine, theirs = by["token"].med[mode], base.med[mode]
            target("controller", "token, %s: no slower than at %s (same run), but for one round trip's noise"
                   % (tasks_as(mode, n), base.commit[:7]), mine <= theirs + rt_fresh,
                   "%s ms vs %s ms (%s); requests per run: %s vs %s"
                   % (ms(mine), ms(theirs), ratio(mine / theirs), sorted(set(over_runs(by["token"], mode, "requests"))),
                      sorted(set(over_runs(base, mode, "requests")))))

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
    targets.extend(at_scale.targets(extras))
    targets.extend(gateway_targets(by, n))
    return targets


def gateway_targets(by, n):
    """The targets of the gateway layout: an unchanged task costs what it costs against AWX 24's layout."""
    targets = []
    for key, _beside in GATEWAY_CONFIGS:
        if key not in by or not by[key].runs["loop"]:
            continue
        c = by[key]
        targets.append(("gateway",) + unchanged_target(c, n))
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
    """The section of RESULTS.md on the async pattern, between its markers (--pattern-only rewrites it)."""
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
            "loop gets to it, none waited for by the play (the benchmark reads the job files until each holds its "
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
    add("Produced by `%s` (`%s --n %d --runs %d`) on %s UTC; the run took %.0f s."
        % (command, ENTRY, n, args.runs, started.strftime("%Y-%m-%d %H:%M"), elapsed))
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
        "the benchmark: no loop, nothing to template; each task is a new worker process, as each task of a play is). "
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
    lines.extend(at_scale.lines(extras, markdown_table))
    add("")
    past = at_scale.past_real_lines(HERE / "RESULTS.md")
    if past:
        lines.extend(past)
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


def pattern_report(extras, args, started, elapsed, load):
    lines = pattern_lines(extras)
    lines.insert(2, "")
    lines.insert(3, "Measured on %s UTC by `%s --pattern-only --pattern-n %d --fanout-n %d --runs %d` "
                    "(%.0f s), apart from the rest of this page; load average at the end: %s."
                 % (started.strftime("%Y-%m-%d %H:%M"), ENTRY, args.pattern_n, args.fanout_n, args.runs, elapsed, load))
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


def scale_report(extras, args, started, elapsed, load):
    """--scale-only: the section on the configuration at scale, rewritten in RESULTS.md (added before the other
    targets when it is not there yet)."""
    lines = at_scale.lines(extras, markdown_table)
    lines.insert(2, "")
    lines.insert(3, "Measured on %s UTC by `%s %s --runs %d` (%.0f s), apart from the rest of this page; "
                    "load average at the end: %s." % (started.strftime("%Y-%m-%d %H:%M"), ENTRY,
                                                      "--scale-only", args.runs, elapsed, load))
    text = "\n".join(lines[1:-1]) + "\n"
    results = HERE / "RESULTS.md"
    start, end = at_scale.markers(extras)
    if not args.no_write and not replace_block(results, start, end, text):
        content = results.read_text()
        marker = "## " + TARGET_GROUPS[2][1]
        content = content.replace(marker, "\n".join([start, text + end, "", marker]), 1)
        results.write_text(content)
    for _group, text_, ok, measured in at_scale.targets(extras):
        log("%-4s %s: %s" % ("ok" if ok else "MISS", text_, measured))


def log_targets(configs, extras, rt, info, args, started, elapsed, notes):
    """--no-write: the targets, judged and logged; nothing written."""
    by = summarize(configs)
    for _group, text, ok, measured in collect_targets(by, extras, rt, args):
        log("%-4s %s: %s" % ("ok" if ok else "MISS", text, measured))


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
