#!/usr/bin/env python3
"""Run test steps one after another, then print what ran, how long, and the verdict.

    run_steps.py [--make MAKE] STEP [STEP...]

Each STEP is a make target, run as ``MAKE --no-print-directory STEP``. Every step
runs even when an earlier one failed, so one run shows all the problems; the exit
status is 0 only when every step passed. A summary table goes to stdout and, when
possible, to tests/output/steps.txt.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time


def fmt_duration(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    return f'{minutes}m{secs:02d}s' if minutes else f'{seconds:.1f}s'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--make', default=os.environ.get('MAKE', 'make'))
    parser.add_argument('steps', nargs='+')
    args = parser.parse_args()

    results = []
    started = time.monotonic()
    for step in args.steps:
        cmd = shlex.split(args.make) + ['--no-print-directory', step]
        print(f'\n===== {step}: {" ".join(cmd)}', flush=True)
        t0 = time.monotonic()
        try:
            status = subprocess.run(cmd, stdin=subprocess.DEVNULL, check=False).returncode
        except KeyboardInterrupt:
            results.append((step, time.monotonic() - t0, 'interrupted'))
            break
        elapsed = time.monotonic() - t0
        results.append((step, elapsed, 'pass' if status == 0 else 'FAIL'))
        print(f'===== {step}: {results[-1][2]} in {fmt_duration(elapsed)}', flush=True)
    total = time.monotonic() - started

    width = max(len('step'), *(len(r[0]) for r in results))
    lines = [f'{"step":<{width}}  {"time":>8}  result', f'{"-" * width}  {"-" * 8}  ------']
    lines += [f'{name:<{width}}  {fmt_duration(secs):>8}  {verdict}' for name, secs, verdict in results]
    failed = [r for r in results if r[2] != 'pass'] or len(results) < len(args.steps)
    lines.append(f'{"total":<{width}}  {fmt_duration(total):>8}  {"FAIL" if failed else "pass"}')
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
