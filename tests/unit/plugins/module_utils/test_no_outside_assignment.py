# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""No module or module_util sets another object's attributes from outside.

An object's attributes are set by its own methods (``self.x = ...``, ``cls.x = ...``) or through its
constructor. Any other assignment to an attribute (``api.resource = ...``, ``task._client = ...``,
``self._client.on_write = ...``, ``x.y.z = ...``; ``del`` and augmented assignments alike) fails this test,
named by file and line, with one exception, checked here as the code stands: the object is being built in
the same function (or one it is nested in), bound there to a constructor's or a function's fresh answer (a
``Write``, a ``Plan``, a ``namedtuple``, a ``requests.Session``), or to a part of such an object
(``write = plan.writes[0]``, ``for write in plan.writes``), and the attribute is a public one. Finishing an object one has just made is
how a plan's writes are put together (their ``then`` and diff set once the list is known); it changes
nothing anybody else holds. A private attribute (``task._client``) is its object's own business: never set
from outside, not even on an object just built (its constructor takes it).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
SCANNED = ('plugins/modules', 'plugins/module_utils')

# A value that is a new object: a call's answer, a literal, a comprehension.
FRESH = (ast.Call, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)



def _python_files():
    for top in SCANNED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames.sort()
            for filename in sorted(filenames):
                if filename.endswith('.py'):
                    yield os.path.join(dirpath, filename)


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node


def _own_nodes(scope):
    """The nodes of ``scope``, not those of the functions and classes within it."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, SCOPES):
            todo.extend(ast.iter_child_nodes(node))


def _names(target):
    if isinstance(target, (ast.Tuple, ast.List)):
        for item in target.elts:
            for name in _names(item):
                yield name
    elif isinstance(target, ast.Starred):
        for name in _names(target.value):
            yield name
    elif isinstance(target, ast.Name):
        yield target.id


def _built_here(scope, name, seen=()):
    """Whether ``scope`` binds ``name`` to a new object, or to a part of one it binds."""
    if name in seen:
        return False
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign):
            targets, value, loop = node.targets, node.value, False
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            targets, value, loop = [node.target], node.iter, True
        else:
            continue
        if not any(name in _names(target) for target in targets):
            continue
        if isinstance(value, FRESH) and not loop:
            return True
        root = _root(value)
        if isinstance(root, ast.Name) and _built_here(scope, root.id, seen + (name,)):
            return True
    return False


def _flat(target):
    if isinstance(target, (ast.Tuple, ast.List)):
        for item in target.elts:
            for flat in _flat(item):
                yield flat
    elif isinstance(target, ast.Starred):
        for flat in _flat(target.value):
            yield flat
    else:
        yield target


def _targets(node):
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    if isinstance(node, ast.Delete):
        return node.targets
    return []


def outside_assignments(path, source=None):
    """(line, target) of each assignment in ``path`` to an attribute of another object than self's or cls's."""
    if source is None:
        with open(path) as f:
            source = f.read()
    found = []

    def visit(node, scopes):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scopes = scopes + [node]
        for target in _targets(node):
            for flat in _flat(target):
                if not isinstance(flat, ast.Attribute):
                    continue
                if isinstance(flat.value, ast.Name) and flat.value.id in ('self', 'cls'):
                    continue
                root = _root(flat)
                if not flat.attr.startswith('_') and isinstance(root, ast.Name) and any(_built_here(scope, root.id) for scope in scopes):
                    continue
                found.append((flat.lineno, ast.unparse(flat) if hasattr(ast, 'unparse') else flat.attr))
        for child in ast.iter_child_nodes(node):
            visit(child, scopes)

    tree = ast.parse(source, path)
    visit(tree, [tree])
    return sorted(found)


def test_no_attribute_set_from_outside():
    sites = []
    for path in _python_files():
        rel = os.path.relpath(path, ROOT).replace(os.sep, '/')
        for line, target in outside_assignments(path):
            sites.append('%s:%d: %s = ...' % (rel, line, target))
    assert not sites, 'attributes of another object set from outside:\n' + '\n'.join(sites)


def test_the_check_sees_them():
    source = '''
def run(api, task, x):
    api.resource = 'teams'
    task._client = api.client
    x.y.z = 1
    del api.params
    api.count += 1
    self_like = x
    self_like.value = 2


class Thing:
    def __init__(self, client):
        self.client = client
        self.client.auth = None


def built():
    write = Write('POST', 'teams')
    write.then = None
    task = ApiTask(spec, {})
    task._client = None
    for part in write.parts:
        part.after = {}
    return write
'''
    assert outside_assignments('example.py', source) == [
        (3, 'api.resource'), (4, 'task._client'), (5, 'x.y.z'), (6, 'api.params'), (7, 'api.count'),
        (9, 'self_like.value'), (15, 'self.client.auth'), (22, 'task._client'),
    ]
