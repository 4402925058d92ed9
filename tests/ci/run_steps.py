#!/usr/bin/env python3
"""Run test steps, several at a time, then print what ran, when, how long, and the verdict.

    run_steps.py [--make MAKE] [--jobs N] STEP [STEP...]
    run_steps.py [--make MAKE] --lane "STEP STEP..." --lane "STEP..."

Each STEP is a make target, run as ``MAKE --no-print-directory STEP``. With
``--jobs N``, N steps run at a time: each time one ends, the next of the list
starts, so the list goes longest first. A step mostly waits on a service or on a
job part of its time, so on a machine with two cores three steps at a time keep
both cores busy where two leave one idle. With ``--lane``, the steps of a lane
run one after another, lanes side by side. When more than one step runs at a
time, a step's output goes to tests/output/steps/STEP.log and is printed whole
when the step ends, so that the outputs do not interleave. Every step runs even
when an earlier one failed, so one run shows all the problems; the exit status
is 0 only when every step passed. A summary table (with how busy the machine's
processors were, and the processor time of each step) goes to stdout and, when
possible, to tests/output/steps.txt.

A step's processor time counts every process it started, services included, that
ended before the step did: on Linux each step runs under a child subreaper
(``run_steps.py --account FILE -- CMD``), which takes in the processes orphaned
under it. A process still running when its step ends (a service a step leaves running) is not
counted.
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import os
import shlex
import subprocess
import sys
import resource
import threading
import time

LOGS = os.path.join('tests', 'output', 'steps')


def fmt_duration(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    return f'{minutes}m{secs:02d}s' if minutes else f'{seconds:.1f}s'


def cpu_times() -> tuple[float, float] | None:
    """The machine's processor time so far, busy and total, in jiffies (Linux's /proc/stat)."""
    try:
        with open('/proc/stat', encoding='ascii') as f:
            fields = [float(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)  # idle and iowait
    total = sum(fields[:8])  # guest time is counted in user time already
    return total - idle, total


def busy_share(before, after) -> str:
    if not before or not after or after[1] <= before[1]:
        return '-'
    return f'{100 * (after[0] - before[0]) / (after[1] - before[1]):.0f}%'


def account(path: str, cmd: list[str]) -> int:
    """Run CMD as a child subreaper; write the processor time of everything it ran to PATH."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass
    # Every process orphaned under the step is reaped as soon as it ends, as init would: a step
    # that stops a service waits for its process to be gone, which a zombie never is.
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
    while True:
        try:
            pid, wait_status = os.wait()
        except ChildProcessError:
            status = 1
            break
        except InterruptedError:
            continue
        if pid == proc.pid:
            status = os.waitstatus_to_exitcode(wait_status)
            proc.returncode = status
            break
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:  # the orphans that are ending now
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        except OSError as exc:
            if exc.errno != errno.EINTR:
                break
            continue
        if pid == 0:
            time.sleep(0.1)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path, 'w', encoding='ascii') as f:
        f.write(f'{usage.ru_utime + usage.ru_stime:.1f}\n')
    return status


def read_cpu(path: str) -> float | None:
    try:
        with open(path, encoding='ascii') as f:
            return float(f.read())
    except (OSError, ValueError):
        return None
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


class Runner:
    def __init__(self, make: str, buffered: bool):
        self.make = shlex.split(make)
        self.buffered = buffered
        self.started = time.monotonic()
        self.results: dict[str, tuple[float, float, str, float | None]] = {}
        self.print_lock = threading.Lock()
        self.queue: list[str] = []

    def say(self, text: str) -> None:
        with self.print_lock:
            print(text, flush=True)

    def step(self, step: str) -> None:
        cmd = self.make + ['--no-print-directory', step]
        os.makedirs(LOGS, exist_ok=True)
        cpu_file = os.path.join(LOGS, f'{step}.cpu')
        wrapped = [sys.executable, os.path.abspath(__file__), '--account', cpu_file, '--'] + cmd
        t0 = time.monotonic()
        if not self.buffered:
            self.say(f'\n===== {step}: {" ".join(cmd)}')
            status = subprocess.run(wrapped, stdin=subprocess.DEVNULL, check=False).returncode
        else:
            self.say(f'===== {step}: started ({" ".join(cmd)})')
            log = os.path.join(LOGS, f'{step}.log')
            with open(log, 'wb') as out:
                status = subprocess.run(wrapped, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                        check=False).returncode
            with open(log, encoding='utf-8', errors='replace') as f:
                text = f.read()
        elapsed = time.monotonic() - t0
        verdict = 'pass' if status == 0 else 'FAIL'
        cpu = read_cpu(cpu_file)
        self.results[step] = (t0 - self.started, elapsed, verdict, cpu)
        took = fmt_duration(elapsed) + (f' ({fmt_duration(cpu)} of processor time)' if cpu is not None else '')
        if self.buffered:
            self.say(f'\n===== {step}: output\n{text.rstrip()}\n===== {step}: {verdict} in {took}')
        else:
            self.say(f'===== {step}: {verdict} in {took}')

    def lane(self, steps: list[str]) -> None:
        for step in steps:
            self.step(step)

    def worker(self) -> None:
        while True:
            with self.print_lock:
                if not self.queue:
                    return
                step = self.queue.pop(0)
            self.step(step)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--make', default=os.environ.get('MAKE', 'make'))
    parser.add_argument('--jobs', type=int, default=1, help='steps run at a time')
    parser.add_argument('--lane', action='append', default=[], help='steps run one after another, beside the other lanes')
    parser.add_argument('--account', metavar='FILE', help=argparse.SUPPRESS)
    parser.add_argument('steps', nargs='*')
    args = parser.parse_args()
    if args.account:
        return account(args.account, args.steps)

    lanes = [lane.split() for lane in args.lane if lane.split()]
    if lanes and args.steps:
        parser.error('give steps either in lanes or as a list, not both')
    if not lanes and not args.steps:
        parser.error('no step given')
    if args.jobs < 1:
        parser.error('--jobs must be at least 1')
    ordered = [step for lane in lanes for step in lane] or list(args.steps)
    parallel = len(lanes) if lanes else min(args.jobs, len(args.steps))
    runner = Runner(args.make, buffered=parallel > 1)

    before = cpu_times()
    if lanes:
        threads = [threading.Thread(target=runner.lane, args=(lane,), daemon=True) for lane in lanes]
    else:
        runner.queue = list(args.steps)
        threads = [threading.Thread(target=runner.worker, daemon=True) for _ in range(parallel)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)
    except KeyboardInterrupt:
        pass
    total = time.monotonic() - runner.started
    busy = busy_share(before, cpu_times())

    width = max(len('step'), *(len(step) for step in ordered))
    lines = [f'{"step":<{width}}  {"start":>6}  {"time":>8}  {"cpu":>8}  result',
             f'{"-" * width}  {"-" * 6}  {"-" * 8}  {"-" * 8}  ------']
    failed = False
    cpu_total = 0.0
    for step in ordered:
        if step in runner.results:
            start, secs, verdict, cpu = runner.results[step]
            cpu_total += cpu or 0.0
            cpu_text = fmt_duration(cpu) if cpu is not None else '-'
            lines.append(f'{step:<{width}}  {fmt_duration(start):>6}  {fmt_duration(secs):>8}  {cpu_text:>8}  {verdict}')
            failed = failed or verdict != 'pass'
        else:
            lines.append(f'{step:<{width}}  {"-":>6}  {"-":>8}  {"-":>8}  not run')
            failed = True
    lines.append(f'{"total":<{width}}  {"":>6}  {fmt_duration(total):>8}  {fmt_duration(cpu_total):>8}  '
                 f'{"FAIL" if failed else "pass"}')
    lines.append(f'{parallel} at a time; processors busy {busy} of the time')
    table = '\n'.join(lines)

    print('\n' + table)
    try:
        os.makedirs(os.path.join('tests', 'output'), exist_ok=True)
        with open(os.path.join('tests', 'output', 'steps.txt'), 'w', encoding='utf-8') as f:
            f.write(table + '\n')
    except OSError:
        pass
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
