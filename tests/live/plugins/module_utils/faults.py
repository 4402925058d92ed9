"""The record of fault outcomes behind the reliability page (the faults themselves: Service.set_faults in tests/conftest.py)."""

import json
import os

from ...playbook import ROOT

# Read by docs/tools/reliability_page.py, which writes the reliability guide.
REPORT = os.path.join(ROOT, 'tests', 'output', 'reliability.json')


def faulted(entries):
    return [e for e in entries if e.get('fault')]


def record(case, runs, outcome, retried, lost='nothing'):
    """Append one row of the reliability table (what was tried and what happened)."""
    os.makedirs(os.path.dirname(REPORT), exist_ok=True)
    with open(REPORT, 'a') as handle:
        handle.write(json.dumps({'case': case, 'runs': runs, 'outcome': outcome,
                                 'retried': retried, 'lost': lost}) + '\n')
