#!/usr/bin/env python3
"""Recorded answers of real services, and their replay against the reference service.

    recording.py mark FILE                  # ansible-test's output on stdin: FILE names the target running
    recording.py save --record FILE --dest DIR --layout L --version V
    recording.py replay --record FILE --recorded DIR --layout L --out DIR [--known known.yml] TARGET...

``save`` turns what proxy.py recorded of a real service (the integration targets run through it, each
exchange naming its target) into the recording kept in the repository: DIR/<target>.jsonl, one
normalized exchange a line, and DIR/recording.json (layout, the service's version, the date, the targets
and their exchange counts). Normalized means: only what the comparison reads is kept (the status, the
headers of compare.HEADERS, the names of the cookies set, the JSON body or the start of a text one), and
in it the values that change from one run to the next or must not be kept are made alike: object ids
(in paths, urls and id fields), dates, UUIDs, versions, long random strings (tokens, session ids,
CSRF tokens), the loopback address the service was reached at and the file system paths of the
machine it ran on; proxy.py has already left out request bodies, credentials, cookies and secret fields.

``replay`` reads what proxy.py recorded of the reference service running the same targets and pairs each
exchange with the recorded one of the same target: the same method, endpoint (compare.endpoint: ids and
named urls alike) and query keys, in the order they came (so that requests a target sends side by side
may interleave differently; a request sent more often than recorded, a wait that polls once more, is
paired with the last recorded answer to it). Each pair is compared by compare.py's rules (the recorded answer stands where
a live comparison has the real service's), and known.yml's entries explain a difference as they do there.
Besides, a request the replay sent that the recording never has is a difference of kind ``unrecorded``,
which nothing explains: the target changed, and must be recorded again (``make record``); a recorded
request the replay never sent is of kind ``unreplayed``, which known.yml may explain. When some targets are
replayed, not all, a request the recording lacks for a target may be one a target left out sent before it (the
first target run logs in, where in the recording an earlier one did): it is paired with that target's. The report goes to
DIR/report.md and DIR/report.json, naming each difference's target, endpoint and exchange; the exit status
is 1 when a difference is not explained.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
from collections import OrderedDict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402  (beside this file, not a package)

TARGET_LINE_RE = re.compile(r'Running (\S+) integration test (?:role|script)\b')
FAILED_LINE_RE = re.compile(r'integration test\(s\) listed below \(out of \d+\) failed')
TARGET_NAME_RE = re.compile(r'^[a-z0-9_]+$')
DATE_RE = re.compile(r'\b\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?\b')
UUID_RE = re.compile(r'\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b')
VERSION_RE = re.compile(r'\b\d+\.\d+\.\d+(?:[.+-]?(?:dev|post|rc|a|b|g)[0-9a-z.+]*)?\b')
# A run of letters and digits (and - _ . / = +) long enough to be a generated secret or id, with
# at least one digit and one letter: tokens, session ids, CSRF tokens, hashes.
TOKEN_RE = re.compile(r'(?<![A-Za-z0-9_./+=-])(?=[A-Za-z0-9_./+=-]*\d)(?=[A-Za-z0-9_./+=-]*[A-Za-z])'
                      r'[A-Za-z0-9_+=-]{20,}(?![A-Za-z0-9_+=-])')
# A file system path of the machine a service ran on (its install, its projects, a temporary file).
FS_PATH_RE = re.compile(r'(?<![\w.:/-])/(?:work|root|home|tmp|var|opt|usr|etc|srv|run)/[^\s"\'<>,;)]*')
# The address a service (or the proxy in front of it) was reached at on loopback.
LOOPBACK_RE = re.compile(r'https?://(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?')
ID_KEYS_RE = re.compile(r'^(id|.*_id|object_id|pk)$')
TEXT_LIMIT = 500


def mark(path: Path, lines, out) -> list[str]:
    """Pass ansible-test's output through, writing the name of each target it starts to ``path``;
    the targets its closing error lists as failed are written to ``path``.failed (and returned)."""
    failed, listing = [], False
    for line in lines:
        out.write(line)
        out.flush()
        found = TARGET_LINE_RE.search(line)
        if found:
            path.write_text(found.group(1) + '\n', encoding='utf-8')
        elif FAILED_LINE_RE.search(line):
            listing = True
        elif listing and TARGET_NAME_RE.match(line.strip()):
            failed.append(line.strip())
        else:
            listing = False
    Path(str(path) + '.failed').write_text(''.join(name + '\n' for name in failed), encoding='utf-8')
    return failed


# -- normalizing

def normal_text(value: str) -> str:
    value = LOOPBACK_RE.sub('<service>', value)
    value = FS_PATH_RE.sub('<path>', value)
    value = compare.ID_SEGMENT_RE.sub('/<id>', value)
    value = UUID_RE.sub('<uuid>', value)
    value = DATE_RE.sub('<date>', value)
    value = VERSION_RE.sub('<version>', value)
    return TOKEN_RE.sub('<token>', value)


def normal_json(value, key=None):
    if isinstance(value, dict):
        out = {}
        for name, item in value.items():
            # a key is a field's name (kept as it is), or an id (bulk_host_delete's hosts)
            out['<id>' if name.isdigit() else name] = normal_json(item, name)
        return out
    if isinstance(value, list):
        return [normal_json(item, key) for item in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int) and key is not None and ID_KEYS_RE.match(key):
        return 0
    if isinstance(value, str):
        if key is not None and ID_KEYS_RE.match(key) and value.isdigit():
            return '0'
        return normal_text(value)
    return value


def normal_answer(answer: dict) -> dict:
    headers = {}
    for name in compare.HEADERS:
        value = answer['headers'].get(name)
        if value is not None:
            headers[name] = normal_text(value.split('?')[0] if name == 'location' else value)
    out = {'status': answer['status'], 'headers': headers, 'cookies': sorted(answer.get('cookies') or [])}
    if 'json' in answer:
        out['json'] = normal_json(answer['json'])
    else:
        out['text'] = normal_text(answer.get('text', '')[:TEXT_LIMIT])
    return out


def normal_exchange(entry: dict) -> dict | None:
    """The exchange as a recording keeps it, or None when the service never answered."""
    if 'primary' not in entry:
        return None
    return {
        'target': entry.get('target') or '',
        'method': entry['method'],
        'path': compare.endpoint(entry['method'], entry['path']).split(' ', 1)[1],
        'query': list(entry.get('query') or []),
        'auth': entry.get('auth', ''),
        'answer': normal_answer(entry['primary']),
    }


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def by_target(entries) -> OrderedDict:
    groups: OrderedDict = OrderedDict()
    for entry in entries:
        exchange = normal_exchange(entry)
        if exchange is not None:
            groups.setdefault(exchange['target'], []).append(exchange)
    return groups


# -- saving a recording

def save(record: Path, dest: Path, layout: str, version: str, today: str | None = None, leave_out=()) -> dict:
    groups = by_target(read_jsonl(record))
    for target in leave_out:
        if groups.pop(target, None) is not None:
            print('recording: not kept, the target failed: %s' % target, file=sys.stderr)
    if '' in groups:
        raise SystemExit('recording: %d exchanges came before the first target started' % len(groups[''])
                         + ' (was the proxy given --target-file?)')
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob('*.jsonl'):
        if old.stem in groups:
            old.unlink()
    for target, exchanges in groups.items():
        with open(dest / (target + '.jsonl'), 'w', encoding='utf-8') as f:
            for n, exchange in enumerate(exchanges, 1):
                exchange = dict(exchange, n=n)
                del exchange['target']
                f.write(json.dumps(exchange, sort_keys=True) + '\n')
    meta_path = dest / 'recording.json'
    meta = json.loads(meta_path.read_text(encoding='utf-8')) if meta_path.exists() else {}
    meta.update({'layout': layout, 'service_version': version})
    targets = meta.setdefault('targets', {})
    for target, exchanges in groups.items():
        targets[target] = {'exchanges': len(exchanges), 'recorded': today or datetime.date.today().isoformat()}
    meta['targets'] = dict(sorted(targets.items()))
    meta_path.write_text(json.dumps(meta, indent=1, sort_keys=True) + '\n', encoding='utf-8')
    return meta


# -- replaying

def request_key(exchange: dict) -> tuple:
    return (exchange['method'], exchange['path'], tuple(exchange['query']))


def pair(recorded: list[dict], replayed: list[dict]):
    """(pairs, unrecorded, unreplayed): the exchanges of one target, paired by request_key in order.

    A request sent more often than recorded (a wait that polls once more) is paired with the last
    recorded answer to it, and one sent less often leaves the rest unpaired but unreported: only a
    request the recording never has is unrecorded, and only one the replay never sends unreplayed."""
    waiting: dict[tuple, list] = {}
    for exchange in recorded:
        waiting.setdefault(request_key(exchange), []).append(exchange)
    last: dict[tuple, dict] = {}
    pairs, unrecorded = [], []
    for exchange in replayed:
        key = request_key(exchange)
        queue = waiting.get(key)
        if queue:
            last[key] = queue.pop(0)
            pairs.append((last[key], exchange))
        elif key in last:
            pairs.append((last[key], exchange))
        else:
            unrecorded.append(exchange)
    unreplayed = sorted((e for key, queue in waiting.items() if key not in last for e in queue),
                        key=lambda e: e.get('n', 0))
    return pairs, unrecorded, unreplayed


def skipped_before(recorded_dir: Path, target: str, targets: list[str]) -> list[list[dict]]:
    """The recordings of the targets a replay of some targets leaves out that ran before ``target``
    (ansible-test runs them in name order), the nearest first."""
    names = sorted(path.stem for path in recorded_dir.glob('*.jsonl')
                   if path.stem not in targets and path.stem < target)
    return [read_jsonl(recorded_dir / (name + '.jsonl')) for name in reversed(names)]


def from_skipped(unrecorded: list[dict], skipped: list[list[dict]]):
    """The unrecorded exchanges paired with those of targets the replay left out: what an earlier
    target did first in the recording (the login, the layout asked for) the first target a replay of
    some targets runs does instead. (pairs, still unrecorded)."""
    pairs, rest = [], []
    for exchange in unrecorded:
        key = request_key(exchange)
        match = next((old for recording in skipped for old in recording if request_key(old) == key), None)
        if match is None:
            rest.append(exchange)
        else:
            pairs.append((match, exchange))
    return pairs, rest


def replay_report(recorded_dir: Path, replayed: list[dict], targets: list[str], known: list[dict]) -> dict:
    groups = by_target(replayed)
    entries, missing = [], []
    for target in targets:
        path = recorded_dir / (target + '.jsonl')
        recorded = read_jsonl(path) if path.exists() else []
        mine = groups.get(target, [])
        for n, exchange in enumerate(mine, 1):
            exchange['n'] = n
        pairs, unrecorded, unreplayed = pair(recorded, mine)
        if unrecorded:
            moved, unrecorded = from_skipped(unrecorded, skipped_before(recorded_dir, target, targets))
            pairs += moved
        for old, new in pairs:
            entries.append({'seq': '%s#%d' % (target, new['n']), 'target': target, 'method': new['method'],
                            'path': new['path'], 'primary': old['answer'], 'secondary': new['answer'],
                            'recorded_n': old.get('n')})
        for exchange in unrecorded:
            missing.append(('unrecorded', target, exchange))
        for exchange in unreplayed:
            missing.append(('unreplayed', target, exchange))
    stray = sorted(name for name in groups if name not in targets)
    report = build(entries, missing, known)
    report['summary']['targets'] = len(targets)
    report['stray'] = stray
    return report


def build(entries: list[dict], missing: list[tuple], known: list[dict]) -> dict:
    groups: OrderedDict = OrderedDict()

    def add(point, kind, where, target, seq, a, b):
        group = groups.setdefault((point, kind, where), {
            'endpoint': point, 'kind': kind, 'where': where, 'count': 0, 'seqs': [],
            'example': {'seq': seq, 'target': target, 'primary': a, 'secondary': b},
        })
        group['count'] += 1
        if len(group['seqs']) < 20:
            group['seqs'].append(seq)

    for entry in entries:
        point = compare.endpoint(entry['method'], entry['path'])
        for kind, where, a, b in compare.differences(entry):
            add(point, kind, where, entry['target'], entry['seq'], a, b)
    for kind, target, exchange in missing:
        point = '%s %s' % (exchange['method'], exchange['path'])
        where = '?' + '&'.join(exchange['query']) if exchange['query'] else '.'
        seq = '%s#%d' % (target, exchange['n'])
        answer = compare.brief(exchange['answer'])
        add(point, kind, where, target, seq, answer if kind == 'unreplayed' else None,
            answer if kind == 'unrecorded' else None)
    # nothing explains a request the recording lacks: the target must be recorded again
    unexplained, unused = compare.explain(list(groups.values()), known, unexplainable=('unrecorded',))
    return {
        'summary': {
            'compared': len(entries), 'differences': len(groups), 'unexplained': len(unexplained),
            'unrecorded': sum(1 for m in missing if m[0] == 'unrecorded'),
            'unreplayed': sum(1 for m in missing if m[0] == 'unreplayed'),
        },
        'differences': list(groups.values()),
        'unused_known': unused,
    }


def markdown(report: dict, recorded_dir: str) -> str:
    summary = report['summary']
    lines = [
        '# Replay: the reference service against the recorded answers of %s' % recorded_dir, '',
        '%(targets)d targets, %(compared)d exchanges compared, %(unrecorded)d the recording lacks, '
        '%(unreplayed)d recorded but not sent; %(differences)d differences (endpoint, kind, place), '
        '%(unexplained)d unexplained.' % summary, '',
    ]
    if report.get('stray'):
        lines += ['Exchanges of no target replayed: %s' % ', '.join(report['stray'] or ['(before the first)']), '']
    for title, wanted in (('Unexplained differences', False), ('Explained differences', True)):
        rows = [g for g in report['differences'] if (g['reason'] is not None) == wanted]
        lines += ['## %s (%d)' % (title, len(rows)), '']
        if not rows:
            lines += ['None.', '']
            continue
        lines += ['| endpoint | kind | where | n | target#exchange | recorded | reference service |'
                  + (' reason |' if wanted else ''),
                  '|---|---|---|---|---|---|---|' + ('---|' if wanted else '')]
        for g in sorted(rows, key=lambda g: (g['endpoint'].split(' ', 1)[1], g['endpoint'], g['kind'], g['where'])):
            example = g['example']
            row = '| `%s` | %s | `%s` | %d | %s | %s | %s |' % (
                g['endpoint'], g['kind'], compare.cell(g['where']), g['count'], example['seq'],
                compare.cell(example['primary']), compare.cell(example['secondary']))
            if wanted:
                row += ' %s |' % compare.cell(g['reason'])
            lines.append(row)
        lines.append('')
    if report['unused_known']:
        lines += ['## Known differences not met in this run', '']
        lines += ['- `%s` %s `%s`: %s' % (k['endpoint'], k['kind'], k.get('where', '*'), k['reason'])
                  for k in report['unused_known']]
        lines.append('')
    return '\n'.join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n', maxsplit=1)[0])
    sub = parser.add_subparsers(dest='command', required=True)
    p_mark = sub.add_parser('mark', help="pass ansible-test's output through; FILE names the target running")
    p_mark.add_argument('file', type=Path)
    p_save = sub.add_parser('save', help="keep what proxy.py recorded of a real service as a recording")
    p_save.add_argument('--record', type=Path, required=True)
    p_save.add_argument('--dest', type=Path, required=True)
    p_save.add_argument('--layout', choices=compare.LAYOUTS, required=True)
    p_save.add_argument('--version', required=True)
    p_save.add_argument('--leave-out', type=Path, help='a file naming targets not to keep, one a line (the failed ones)')
    p_replay = sub.add_parser('replay', help='compare what proxy.py recorded of the reference service with a recording')
    p_replay.add_argument('--record', type=Path, required=True)
    p_replay.add_argument('--recorded', type=Path, required=True)
    p_replay.add_argument('--layout', choices=compare.LAYOUTS, required=True)
    p_replay.add_argument('--out', type=Path, required=True)
    p_replay.add_argument('--known', type=Path, default=HERE / 'known.yml')
    p_replay.add_argument('targets', nargs='+')
    args = parser.parse_args(argv)

    if args.command == 'mark':
        mark(args.file, sys.stdin, sys.stdout)
        return 0
    if args.command == 'save':
        failed = args.leave_out.read_text(encoding='utf-8').split() if args.leave_out and args.leave_out.exists() else []
        meta = save(args.record, args.dest, args.layout, args.version, leave_out=failed)
        print('recording: %d targets in %s' % (len(meta['targets']), args.dest))
        return 0
    replayed = read_jsonl(args.record) if args.record.exists() else []
    report = replay_report(args.recorded, replayed, args.targets, compare.load_known(args.known, args.layout))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / 'report.json').write_text(json.dumps(report, indent=1, sort_keys=True) + '\n', encoding='utf-8')
    (args.out / 'report.md').write_text(markdown(report, str(args.recorded)), encoding='utf-8')
    summary = report['summary']
    print('replay: %(targets)d targets, %(compared)d compared, %(unrecorded)d unrecorded, %(unreplayed)d unreplayed; '
          '%(differences)d differences, %(unexplained)d unexplained' % summary)
    for group in report['differences']:
        if group['reason'] is None:
            print('replay: unexplained: %s %s %s (%s)' % (group['endpoint'], group['kind'], group['where'],
                                                          group['example']['seq']))
    return 1 if summary['unexplained'] else 0


if __name__ == '__main__':
    sys.exit(main())
