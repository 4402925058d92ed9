"""List the error messages the auth layer can give, straight from the code.

    auth_messages.py                  print each message template with where it is raised
    auth_messages.py --check PAGE     fail unless PAGE (the troubleshooting page) quotes
                                      every message, and quotes none that is gone

A message template is the first argument of a ``ServiceError`` subclass
(``ConfigError``, ``AuthError``, ``ConnectionFailure``, ...) created in
plugins/module_utils/, with each ``%s``-style or ``{}`` placeholder written as
``…``. On the page, each message is quoted as a literal in a line of its own
starting ``:Message:``, so the check needs no guessing.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULE_UTILS = os.path.join(ROOT, 'plugins', 'module_utils')
# The auth layer: options, HTTP client, the methods, the cache, the login forms.
AUTH_LAYER = re.compile(r'^_(auth\w*|gateway_authenticators|client|transport|options|session_cache|html_forms|errors)\.py$')
PLACEHOLDER = re.compile(r'%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[sdrifx]')
ELLIPSIS = '…'


def error_classes(tree_by_file):
    """Names of ServiceError and every class derived from it."""
    names = {'ServiceError'}
    changed = True
    while changed:
        changed = False
        for tree in tree_by_file.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    bases = {b.id if isinstance(b, ast.Name) else getattr(b, 'attr', None) for b in node.bases}
                    if bases & names:
                        names.add(node.name)
                        changed = True
    return names


def template(node):
    """The message template of an expression, or None when it is not literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return PLACEHOLDER.sub(ELLIPSIS, node.value.replace('%%', '\0')).replace('\0', '%')
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return template(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template(node.left), template(node.right)
        return (left if left is not None else ELLIPSIS) + (right if right is not None else ELLIPSIS)
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            parts.append(value.value if isinstance(value, ast.Constant) else ELLIPSIS)
        return ''.join(parts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'format':
        inner = template(node.func.value)
        return re.sub(r'\{[^}]*\}', ELLIPSIS, inner) if inner is not None else None
    return None


def _functions(tree):
    """{name: FunctionDef} of every function and method in the tree."""
    return {node.name: node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _parents(tree):
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _called_name(node):
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, 'attr', None)


def collect(directory=MODULE_UTILS):
    """[(template, exception class, file, line)] for every error message the auth layer gives.

    Besides literals given to an error class, this follows what the code does
    with messages: a name assigned a literal in the same function, a helper that
    returns a literal (``self._tls_message(...)``), a wrapper that passes its
    parameter to an error class (``self.fail('...')``), and a hint appended to
    a message (``forbidden_hint`` returning a literal).
    """
    trees = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith('.py'):
            with open(os.path.join(directory, name), encoding='utf-8') as f:
                trees[name] = ast.parse(f.read(), name)
    classes = error_classes(trees)
    layer = {name: tree for name, tree in trees.items() if AUTH_LAYER.match(name)}
    functions = {}
    for tree in layer.values():
        functions.update(_functions(tree))

    def returned_templates(func):
        out = []
        for node in ast.walk(func):
            if isinstance(node, ast.Return) and node.value is not None:
                text = template(node.value)
                if text is not None:
                    out.append(text)
        return out

    def resolve(arg, scope):
        """Templates an argument expression can stand for."""
        text = template(arg)
        if text is not None and text != ELLIPSIS:
            return [text]
        if isinstance(arg, ast.Name) and scope is not None:
            out = []
            for node in ast.walk(scope):
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == arg.id
                                                        for t in node.targets):
                    out += resolve(node.value, None)
            return out
        if isinstance(arg, ast.Call) and _called_name(arg) in functions:
            return returned_templates(functions[_called_name(arg)])
        return []

    # Wrappers: functions that hand one of their parameters to an error class.
    wrappers = {}
    for tree in layer.values():
        for func in _functions(tree).values():
            params = [a.arg for a in func.args.args]
            for node in ast.walk(func):
                if (isinstance(node, ast.Call) and _called_name(node) in classes and node.args
                        and isinstance(node.args[0], ast.Name) and node.args[0].id in params):
                    wrappers[func.name] = _called_name(node)

    found = []
    for name, tree in layer.items():
        if name == '_errors.py':
            continue
        parents = _parents(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            called = _called_name(node)
            scope = node
            while scope in parents and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope = parents[scope]
            if called in classes:
                cls = called
            elif called in wrappers:
                cls = wrappers[called]
            elif isinstance(node.func, ast.Name) and scope is not node:
                # cls = NotFound if ... else ApiError; cls(message, ...)
                bound = [n.id for a in ast.walk(scope) if isinstance(a, ast.Assign)
                         and any(isinstance(t, ast.Name) and t.id == called for t in a.targets)
                         for n in ast.walk(a.value) if isinstance(n, ast.Name) and n.id in classes]
                if not bound:
                    continue
                cls = '/'.join(sorted(set(bound)))
            else:
                continue
            if isinstance(node.args[0], ast.Name) and node.args[0].id in [a.arg for a in getattr(scope, 'args', ast.arguments(args=[])).args]:
                continue  # the wrapper itself; its callers are listed
            texts = resolve(node.args[0], scope)
            for text in texts or [ELLIPSIS]:
                found.append((' '.join(text.split()), cls, name, node.lineno))
        # Hints appended to a message of the service.
        for func in _functions(tree).values():
            if func.name.endswith('_hint'):
                for text in returned_templates(func):
                    found.append((' '.join(text.split()), 'hint', name, func.lineno))
    return found


def quoted_on_page(path):
    """Messages the page quotes in ``:Message: ``...```` lines."""
    messages = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            match = re.match(r'\s*:Message:\s*``(.*)``\s*$', line)
            if match:
                messages.append(' '.join(match.group(1).split()))
    return messages


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--check', metavar='PAGE')
    parser.add_argument('--source', metavar='DIR', default=MODULE_UTILS,
                        help='the module_utils directory (default: this tree\'s)')
    args = parser.parse_args()
    found = collect(args.source)
    if not args.check:
        for text, cls, name, line in sorted(found):
            print('%s:%d %s: %s' % (name, line, cls, text))
        return 0

    on_page = quoted_on_page(args.check)
    in_code = {text for text, _, _, _ in found if text != ELLIPSIS}
    missing = sorted({(text, cls, name, line) for text, cls, name, line in found
                      if text != ELLIPSIS and text not in on_page}, key=lambda item: (item[2], item[3]))
    stale = sorted(set(on_page) - in_code)
    for text, cls, name, line in missing:
        print('%s: not documented: plugins/module_utils/%s:%d %s: %s' % (args.check, name, line, cls, text),
              file=sys.stderr)
    for text in stale:
        print('%s: documents a message the code no longer gives: %s' % (args.check, text), file=sys.stderr)
    if missing or stale:
        print('%s: add a ":Message: ``...``" entry for each undocumented message (placeholders as %s), '
              'and remove the stale ones' % (args.check, ELLIPSIS), file=sys.stderr)
        return 1
    print('%s: all %d messages of the auth layer are documented' % (args.check, len(in_code)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
