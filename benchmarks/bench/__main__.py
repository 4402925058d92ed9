"""The benchmark: this collection beside awx.awx 24.6.1 and Ansible's own floor,
in one run, against one reference service.

    python -m benchmarks.bench [--n 50] [--runs 3] [--only KEYS] [--layouts awx,gateway] [--skip-extras] [--no-write]

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
   the benchmark: no loop, no templating; every task is a new worker process);
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
   500 async jobs at once, the configuration at scale (1,000 hosts and 100 each
   of job templates, credentials and teams created, then re-applied unchanged
   in plain loops and in the async pattern, beside awx.awx: requests and the
   service's own time per object; `--scale-only` measures it alone) and, when
   the job modules exist, 50 launches;
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
import datetime
import os
import pickle
import sys

from . import report, runner
from .base import ENTRY, WORK
from .configurations import (CONFIG_ORDER, DEFAULT_FANOUT_N, DEFAULT_LAYOUTS, DEFAULT_N, DEFAULT_PATTERN_N,
                             DEFAULT_RUNS, GATEWAY_CONFIGS, LAYOUTS)


def main(argv=None):
    parser = argparse.ArgumentParser(prog=ENTRY, description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("BENCH_N", DEFAULT_N)),
                        help="items per loop and tasks per play of separate tasks (%d)" % DEFAULT_N)
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", DEFAULT_RUNS)),
                        help="unchanged runs per configuration, each a loop and separate tasks (%d)" % DEFAULT_RUNS)
    parser.add_argument("--note", action="append", default=[],
                        help="a note for RESULTS.md about this run (for example why N or the runs are not the defaults)")
    parser.add_argument("--only", help="comma-separated configuration keys, with floor, floor-worker, token and "
                                       "awx-token always "
                                       "(for trying things; the report wants all): " + ", ".join(CONFIG_ORDER))
    parser.add_argument("--baseline", default=os.environ.get("BENCH_BASELINE"),
                        help="a git revision: measure the collection as it was there (a token, in the worker) beside "
                             "this one's token, in the same run, so that a change is shown to cost nothing (or what it "
                             "costs); the report says it as a target")
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
    parser.add_argument("--scale-only", action="store_true",
                        help="measure the configuration at scale alone (--runs unchanged runs) and rewrite only its "
                             "section of RESULTS.md")
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
        report.pattern_report(extras, args_, started_, elapsed, load)
        return 0
    if args.report_only and args.scale_only:
        with open(WORK / "at-scale.pickle", "rb") as fh:
            report.scale_report(*pickle.load(fh))
        return 0
    if args.report_only:
        with open(WORK / "raw.pickle", "rb") as fh:
            report.report(*pickle.load(fh))
        return 0

    data = runner.run(args, layouts)
    if args.scale_only:
        report.scale_report(*data)
    elif args.pattern_only:
        report.pattern_report(*data)
    elif args.no_write:
        report.log_targets(*data)
    else:
        report.report(*data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
