"""Check that every module documents what users need, from ansible-doc's own view.

    python docs/tools/check_module_docs.py [COLLECTION_ROOT]   (the collection on ANSIBLE_COLLECTIONS_PATH)

Every module must have: DOCUMENTATION ``attributes`` with ``check_mode``,
``diff_mode`` and ``action_group`` (naming the ``automation.service.api`` group,
which meta/runtime.yml must list the module in); ``EXAMPLES``; and ``RETURN``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLLECTION = 'automation.service'
REQUIRED_ATTRIBUTES = ('check_mode', 'diff_mode', 'action_group')


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else ROOT
    modules_dir = os.path.join(root, 'plugins', 'modules')
    names = sorted(n[:-3] for n in os.listdir(modules_dir) if n.endswith('.py') and not n.startswith('_'))
    with open(os.path.join(root, 'meta', 'runtime.yml'), encoding='utf-8') as f:
        group = (yaml.safe_load(f).get('action_groups') or {}).get('api') or []
    fqcns = ['%s.%s' % (COLLECTION, name) for name in names]
    out = subprocess.run(['ansible-doc', '--json', '-t', 'module'] + fqcns,
                         check=True, capture_output=True, text=True).stdout
    docs = json.loads(out)
    problems = []
    for name, fqcn in zip(names, fqcns):
        entry = docs.get(fqcn) or {}
        doc = entry.get('doc') or {}
        attributes = doc.get('attributes') or {}
        for attribute in REQUIRED_ATTRIBUTES:
            if attribute not in attributes:
                problems.append('%s: DOCUMENTATION has no attributes.%s' % (name, attribute))
        action_group = attributes.get('action_group') or {}
        if action_group and COLLECTION + '.api' not in (action_group.get('membership') or []):
            problems.append('%s: attributes.action_group does not name %s.api' % (name, COLLECTION))
        if name not in group:
            problems.append('%s: not in action_groups.api of meta/runtime.yml' % name)
        if not (entry.get('examples') or '').strip():
            problems.append('%s: no EXAMPLES' % name)
        if not entry.get('return'):
            problems.append('%s: no RETURN' % name)
    for problem in problems:
        print('module docs: ' + problem, file=sys.stderr)
    if problems:
        return 1
    print('module docs: %d modules have attributes (%s), EXAMPLES and RETURN'
          % (len(names), ', '.join(REQUIRED_ATTRIBUTES)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
