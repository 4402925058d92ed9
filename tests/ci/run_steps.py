#!/usr/bin/env python3
"""Run test steps in lanes, then print what ran, how long, and the verdict.

    run_steps.py [--make MAKE] STEP [STEP...]
    run_steps.py [--make MAKE] --lane "STEP STEP..." --lane "STEP..."

Each STEP is a make target, run as ``MAKE --no-print-directory STEP``. The
steps of a lane run one after another; lanes run side by side, so that a machine
with two cores runs a CPU-bound lane beside one that mostly waits on services.
With lanes, a step's output goes to tests/output/steps/STEP.log and is printed
whole when the step ends, so that the lanes' outputs do not interleave. Every
step runs even when an earlier one failed, so one run shows all the problems;
the exit status is 0 only when every step passed. A summary table goes to stdout
and, when possible, to tests/output/steps.txt.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import threading
import time

LOGS = os.path.join('tests', 'output', 'steps')


def fmt_duration(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    return f'{minutes}m{secs:02d}s' if minutes else f'{seconds:.1f}s'


class Runner:
    def __init__(self, make: str, buffered: bool):
        self.make = shlex.split(make)
        self.buffered = buffered
        self.results: dict[str, tuple[float, str]] = {}
        self.print_lock = threading.Lock()

    def say(self, text: str) -> None:
        with self.print_lock:
            print(text, flush=True)

    def step(self, step: str) -> None:
        cmd = self.make + ['--no-print-directory', step]
        t0 = time.monotonic()
        if not self.buffered:
            self.say(f'\n===== {step}: {" ".join(cmd)}')
            status = subprocess.run(cmd, stdin=subprocess.DEVNULL, check=False).returncode
        else:
            self.say(f'===== {step}: started ({" ".join(cmd)})')
            os.makedirs(LOGS, exist_ok=True)
            log = os.path.join(LOGS, f'{step}.log')
            with open(log, 'wb') as out:
                status = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                        check=False).returncode
            with open(log, encoding='utf-8', errors='replace') as f:
                text = f.read()
        elapsed = time.monotonic() - t0
        verdict = 'pass' if status == 0 else 'FAIL'
        self.results[step] = (elapsed, verdict)
        if self.buffered:
            self.say(f'\n===== {step}: output\n{text.rstrip()}\n===== {step}: {verdict} in {fmt_duration(elapsed)}')
        else:
            self.say(f'===== {step}: {verdict} in {fmt_duration(elapsed)}')

    def lane(self, steps: list[str]) -> None:
        for step in steps:
            self.step(step)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--make', default=os.environ.get('MAKE', 'make'))
    parser.add_argument('--lane', action='append', default=[], help='steps run one after another, beside the other lanes')
    parser.add_argument('steps', nargs='*')
    args = parser.parse_args()

    lanes = [lane.split() for lane in args.lane if lane.split()]
    if args.steps:
        lanes.append(args.steps)
    if not lanes:
        parser.error('no step given')
    runner = Runner(args.make, buffered=len(lanes) > 1)

    started = time.monotonic()
    threads = [threading.Thread(target=runner.lane, args=(lane,), daemon=True) for lane in lanes]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)
    except KeyboardInterrupt:
        pass
    total = time.monotonic() - started

    ordered = [(n, step) for n, lane in enumerate(lanes, 1) for step in lane]
    width = max(len('step'), *(len(step) for _, step in ordered))
    lines = [f'{"lane":>4}  {"step":<{width}}  {"time":>8}  result', f'{"-" * 4}  {"-" * width}  {"-" * 8}  ------']
    failed = False
    for n, step in ordered:
        if step in runner.results:
            secs, verdict = runner.results[step]
            lines.append(f'{n:>4}  {step:<{width}}  {fmt_duration(secs):>8}  {verdict}')
            failed = failed or verdict != 'pass'
        else:
            lines.append(f'{n:>4}  {step:<{width}}  {"-":>8}  not run')
            failed = True
    lines.append(f'{"":>4}  {"total":<{width}}  {fmt_duration(total):>8}  {"FAIL" if failed else "pass"}')
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
