"""Fault injection helpers and the record of outcomes behind the reliability page."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
# Read by docs/tools/reliability_page.py, which writes the reliability guide.
REPORT = os.path.join(ROOT, 'tests', 'output', 'reliability.json')


def set_faults(service, *rules):
    """Replace the instance's fault rules (see tests/service/refsvc/faults/middleware.py)."""
    svcctl = [sys.executable, os.path.join('tests', 'service', 'svcctl'), 'faults', '--dir', str(service.dir)]
    subprocess.run(svcctl + ([json.dumps(list(rules))] if rules else ['--clear']), check=True)


def faulted(entries):
    return [e for e in entries if e.get('fault')]


def record(case, runs, outcome, retried, lost='nothing'):
    """Append one row of the reliability table (what was tried and what happened)."""
    os.makedirs(os.path.dirname(REPORT), exist_ok=True)
    with open(REPORT, 'a') as handle:
        handle.write(json.dumps({'case': case, 'runs': runs, 'outcome': outcome,
                                 'retried': retried, 'lost': lost}) + '\n')
