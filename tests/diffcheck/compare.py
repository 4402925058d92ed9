#!/usr/bin/env python3
"""Compare the two services' answers that proxy.py recorded.

    compare.py --record FILE [--known known.yml] [--out DIR] [--layout awx|gateway]

For each exchange both services answered, the answers are compared by shape,
not by value: the status; the headers that matter (HEADERS: the media type, the
methods of ``Allow``, whether there is a ``Location`` and what it points at,
``WWW-Authenticate``, ``Warning``, the product name) and the names of the cookies
set; whether the body is JSON; in a JSON body, the keys and the types of the
values at every place (``related`` and ``summary_fields`` included; the items of
a list merged by their ``type``), and a list's ``count``; an error answer's body
as a whole, with numbers made alike. When the statuses differ, only that is
reported for the exchange.

Each difference has an endpoint (``METHOD /api/v2/inventories/<id>/``: ids, named
URLs as ``<named>``), a kind and a place. The known differences (known.yml:
``endpoint``, ``kind``, ``where`` as patterns where ``*`` matches anything, each with its
``reason``; ``layout``: only in that layout's check) explain those they match. The report goes to DIR/report.md and
DIR/report.json; the exit status is 1 when a difference is not explained.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import OrderedDict
from pathlib import Path

import yaml

HEADERS = ('content-type', 'allow', 'location', 'www-authenticate', 'warning', 'x-api-product-name')
NUMBER_RE = re.compile(r'\d+')
ID_SEGMENT_RE = re.compile(r'/\d+(?=/)')
NAMED_SEGMENT_RE = re.compile(r'/[^/]*\+\+[^/]*(?=/)')
CONTROLLER_PREFIX = '/api/controller/v2/'


def endpoint(method: str, path: str) -> str:
    # Behind the platform gateway the controller's API is at /api/controller/v2/: the same
    # endpoints as /api/v2/, named alike so that one known difference explains both layouts.
    if path.startswith(CONTROLLER_PREFIX):
        path = '/api/v2/' + path[len(CONTROLLER_PREFIX):]
    path = ID_SEGMENT_RE.sub('/<id>', path)
    path = NAMED_SEGMENT_RE.sub('/<named>', path)
    return '%s %s' % (method, path)


def type_name(value) -> str:
    if value is None:
        return 'null'
    if isinstance(value, bool):
        return 'bool'
    if isinstance(value, int):
        return 'int'
    if isinstance(value, float):
        return 'float'
    if isinstance(value, str):
        return 'str'
    if isinstance(value, list):
        return 'list'
    return 'dict'


class Shape:
    """The merged shape of the values found at one place: their types, a dict's keys, a list's items by type."""

    def __init__(self):
        self.types: set[str] = set()
        self.keys: dict[str, Shape] | None = None
        self.items: dict[str, Shape] | None = None

    def add(self, value) -> 'Shape':
        self.types.add(type_name(value))
        if isinstance(value, dict):
            if self.keys is None:
                self.keys = {}
            for key, item in value.items():
                # a dict keyed by ids (bulk_host_delete's hosts) has one shape for them all
                self.keys.setdefault('<id>' if key.isdigit() else key, Shape()).add(item)
        elif isinstance(value, list):
            if self.items is None:
                self.items = {}
            for item in value:
                group = item.get('type') if isinstance(item, dict) and isinstance(item.get('type'), str) else ''
                self.items.setdefault(group, Shape()).add(item)
        return self


def join(where: str, key: str) -> str:
    return key if not where else where + '.' + key


def compare_shapes(primary: Shape, secondary: Shape, where: str, out: list):
    left, right = primary.types - {'null'}, secondary.types - {'null'}
    if left and right and left != right:
        out.append(('type', where or '.', '/'.join(sorted(primary.types)), '/'.join(sorted(secondary.types))))
        return
    if bool(left) != bool(right):
        out.append(('null', where or '.', '/'.join(sorted(primary.types)), '/'.join(sorted(secondary.types))))
        return
    if primary.keys is not None and secondary.keys is not None:
        for key in primary.keys:
            if key not in secondary.keys:
                out.append(('key-missing', join(where, key), '/'.join(sorted(primary.keys[key].types)), None))
        for key in secondary.keys:
            if key not in primary.keys:
                out.append(('key-extra', join(where, key), None, '/'.join(sorted(secondary.keys[key].types))))
        for key in primary.keys:
            if key in secondary.keys:
                compare_shapes(primary.keys[key], secondary.keys[key], join(where, key), out)
    if primary.items and secondary.items:
        for group in primary.items:
            place = '%s[%s]' % (where, group)
            if group in secondary.items:
                compare_shapes(primary.items[group], secondary.items[group], place, out)
            else:
                out.append(('item-type-missing', place, group, None))
        for group in secondary.items:
            if group not in primary.items:
                out.append(('item-type-extra', '%s[%s]' % (where, group), None, group))


def media_type(value: str | None) -> str | None:
    return value.split(';')[0].strip().lower() if value else None


def normalise_text(value) -> str:
    return NUMBER_RE.sub('N', json.dumps(value, sort_keys=True))


def header_value(name: str, value: str | None):
    if value is None:
        return None
    if name == 'content-type':
        return media_type(value)
    if name == 'allow':
        return ', '.join(sorted(m.strip() for m in value.split(',')))
    if name == 'location':
        return endpoint('', value.split('?')[0]).strip()
    if name == 'warning':
        return NUMBER_RE.sub('N', value)
    return value


def brief(answer: dict) -> str:
    body = answer.get('json', answer.get('text', ''))
    text = body if isinstance(body, str) else json.dumps(body, sort_keys=True)
    return '%s %s' % (answer['status'], text[:300])


def differences(entry: dict) -> list[tuple]:
    """The differences of one exchange: (kind, where, primary, secondary)."""
    primary, secondary = entry['primary'], entry['secondary']
    if primary['status'] != secondary['status']:
        return [('status', '.', brief(primary), brief(secondary))]
    out = []
    for name in HEADERS:
        a = header_value(name, primary['headers'].get(name))
        b = header_value(name, secondary['headers'].get(name))
        if a != b:
            out.append(('header', name, a, b))
    if primary['cookies'] != secondary['cookies']:
        out.append(('cookie', '.', ', '.join(primary['cookies']), ', '.join(secondary['cookies'])))
    a, b = 'json' in primary, 'json' in secondary
    if a != b:
        out.append(('body', '.', 'json' if a else 'text', 'json' if b else 'text'))
        return out
    if not a:
        return out
    if primary['status'] >= 400:
        if normalise_text(primary['json']) != normalise_text(secondary['json']):
            out.append(('error-body', '.', json.dumps(primary['json'], sort_keys=True)[:300],
                        json.dumps(secondary['json'], sort_keys=True)[:300]))
        return out
    compare_shapes(Shape().add(primary['json']), Shape().add(secondary['json']), '', out)
    body, other = primary['json'], secondary['json']
    if isinstance(body, dict) and isinstance(other, dict) and 'results' in body and 'count' in body:
        if body.get('count') != other.get('count'):
            out.append(('count', 'count', body.get('count'), other.get('count')))
    return out


LAYOUTS = ('awx', 'gateway')


def load_known(path: Path | None, layout: str = 'awx') -> list[dict]:
    """The known differences that apply to the layout checked: an entry with a ``layout``
    applies to that layout only, one without to both."""
    if not path or not path.exists():
        return []
    with open(path, encoding='utf-8') as f:
        known = yaml.safe_load(f) or {}
    entries = known.get('known') or []
    for item in entries:
        missing = {'endpoint', 'kind', 'reason'} - set(item)
        if missing:
            sys.exit('%s: an entry lacks %s: %r' % (path, ', '.join(sorted(missing)), item))
        if not all(isinstance(item.get(key, ''), str) for key in ('endpoint', 'kind', 'where', 'reason')):
            sys.exit('%s: endpoint, kind, where and reason are strings (quote them): %r' % (path, item))
        if item.get('layout', layout) not in LAYOUTS:
            sys.exit('%s: layout is one of %s: %r' % (path, ', '.join(LAYOUTS), item))
    return [item for item in entries if item.get('layout', layout) == layout]


def matches(value: str, pattern: str) -> bool:
    """Whether the pattern (`*` matches anything, every other character itself) matches all of value."""
    return re.fullmatch('.*'.join(re.escape(part) for part in pattern.split('*')), value, re.DOTALL) is not None


def explained_by(known: list[dict], where_endpoint: str, kind: str, where: str) -> dict | None:
    for item in known:
        if matches(where_endpoint, item['endpoint']) and matches(kind, item['kind']) and matches(where, item.get('where', '*')):
            return item
    return None


def build_report(entries: list[dict], known: list[dict]) -> dict:
    groups: OrderedDict = OrderedDict()
    skipped: OrderedDict = OrderedDict()
    compared = 0
    for entry in entries:
        point = endpoint(entry['method'], entry['path'])
        if 'secondary' not in entry:
            reason = entry.get('skipped') or entry.get('secondary_error') or entry.get('primary_error') or 'not sent'
            reason = NUMBER_RE.sub('<id>', reason)
            skipped.setdefault((point, reason), []).append(entry['seq'])
            continue
        compared += 1
        for kind, where, a, b in differences(entry):
            group = groups.setdefault((point, kind, where), {
                'endpoint': point, 'kind': kind, 'where': where, 'count': 0, 'seqs': [],
                'example': {'seq': entry['seq'], 'primary': a, 'secondary': b},
            })
            group['count'] += 1
            if len(group['seqs']) < 20:
                group['seqs'].append(entry['seq'])
    unexplained, unused = explain(groups.values(), known)
    return {
        'summary': {
            'exchanges': len(entries), 'compared': compared, 'skipped': sum(len(v) for v in skipped.values()),
            'differences': len(groups), 'unexplained': len(unexplained),
        },
        'differences': list(groups.values()),
        'skipped': [{'endpoint': k[0], 'reason': k[1], 'count': len(v), 'seqs': v[:20]} for k, v in skipped.items()],
        'unused_known': unused,
    }


def explain(groups, known: list[dict], unexplainable=()) -> tuple[list, list]:
    """Give each group of differences the reason of the first known entry that matches it (none for
    the kinds ``unexplainable``): (the groups left without one, the known entries that matched none)."""
    used = set()
    for group in groups:
        item = None if group['kind'] in unexplainable else explained_by(
            known, group['endpoint'], group['kind'], group['where'])
        group['reason'] = item['reason'] if item else None
        if item:
            used.add(id(item))
    return [g for g in groups if g['reason'] is None], [item for item in known if id(item) not in used]


def cell(value) -> str:
    text = '' if value is None else str(value)
    text = text.replace('|', '\\|').replace('\n', ' ')
    return text if len(text) <= 160 else text[:157] + '...'


def markdown(report: dict) -> str:
    summary = report['summary']
    lines = [
        '# Differential check: the real AWX and the reference service',
        '',
        '%(exchanges)d exchanges, %(compared)d compared, %(skipped)d not sent to the reference service; '
        '%(differences)d differences (endpoint, kind, place), %(unexplained)d unexplained.' % summary,
        '',
    ]
    for title, wanted in (('Unexplained differences', False), ('Explained differences', True)):
        rows = [g for g in report['differences'] if (g['reason'] is not None) == wanted]
        lines += ['## %s (%d)' % (title, len(rows)), '']
        if not rows:
            lines += ['None.', '']
            continue
        by_endpoint: OrderedDict = OrderedDict()
        for group in sorted(rows, key=lambda g: (g['endpoint'].split(' ', 1)[1], g['endpoint'], g['kind'], g['where'])):
            by_endpoint.setdefault(group['endpoint'], []).append(group)
        for point, items in by_endpoint.items():
            lines += ['### `%s`' % point, '', '| kind | where | n | real AWX | reference service | seq |' + (' reason |' if wanted else ''),
                      '|---|---|---|---|---|---|' + ('---|' if wanted else '')]
            for g in items:
                example = g['example']
                row = '| %s | `%s` | %d | %s | %s | %d |' % (
                    g['kind'], cell(g['where']), g['count'], cell(example['primary']), cell(example['secondary']), example['seq'])
                if wanted:
                    row += ' %s |' % cell(g['reason'])
                lines.append(row)
            lines.append('')
    lines += ['## Not sent to the reference service (%d)' % summary['skipped'], '']
    if report['skipped']:
        lines += ['| endpoint | reason | n |', '|---|---|---|']
        lines += ['| `%s` | %s | %d |' % (s['endpoint'], cell(s['reason']), s['count']) for s in report['skipped']]
    else:
        lines.append('None.')
    lines.append('')
    if report['unused_known']:
        lines += ['## Known differences not met in this run', '']
        lines += ['- `%s` %s `%s`: %s' % (k['endpoint'], k['kind'], k.get('where', '*'), k['reason']) for k in report['unused_known']]
        lines.append('')
    return '\n'.join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n', maxsplit=1)[0])
    parser.add_argument('--record', type=Path, required=True, action='append', help='a JSON lines file of proxy.py (repeatable)')
    parser.add_argument('--known', type=Path, default=Path(__file__).resolve().parent / 'known.yml')
    parser.add_argument('--out', type=Path, required=True)
    parser.add_argument('--layout', choices=LAYOUTS, default='awx',
                        help="the layout checked: known.yml's entries of the other layout do not apply")
    args = parser.parse_args(argv)
    entries = []
    for record in args.record:
        with open(record, encoding='utf-8') as f:
            entries.extend(json.loads(line) for line in f if line.strip())
    report = build_report(entries, load_known(args.known, args.layout))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / 'report.json').write_text(json.dumps(report, indent=1, sort_keys=True) + '\n', encoding='utf-8')
    (args.out / 'report.md').write_text(markdown(report), encoding='utf-8')
    summary = report['summary']
    print('diffcheck: %(exchanges)d exchanges, %(compared)d compared, %(skipped)d not sent; '
          '%(differences)d differences, %(unexplained)d unexplained' % summary)
    return 1 if summary['unexplained'] else 0


if __name__ == '__main__':
    sys.exit(main())
