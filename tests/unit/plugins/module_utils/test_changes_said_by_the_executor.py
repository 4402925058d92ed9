# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Only the executor says that a task changed something.

A module plans its writes and the executor (``ApiTask.apply``) sends them and says each change once the
service took it; a write whose effect shows only later (an update it starts, settings the service may keep
as they were) says how to judge it (``Write.settle``, ``Write.changes``), and a sub-task's change is merged
(``ApiTask.merge``). So ``change(`` is called in two places only: the outcome itself and the executor in
``_api_module.py``. This test fails, naming file and line, on any other call.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
SCANNED = ('plugins/modules', 'plugins/module_utils', 'plugins/action', 'plugins/plugin_utils')
# file -> the functions in which change() may be called
ALLOWED = {
    'plugins/module_utils/_outcome.py': {'change', 'merge'},
    'plugins/module_utils/_api_module.py': {'_send', '_sent'},
}


def _calls_of_change():
    for top in SCANNED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames.sort()
            for filename in sorted(filenames):
                if not filename.endswith('.py'):
                    continue
                path = os.path.join(dirpath, filename)
                relative = os.path.relpath(path, ROOT)
                with open(path) as fh:
                    tree = ast.parse(fh.read(), path)
                for function, node in _walk(tree, None):
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'change':
                        yield relative, node.lineno, function


def _walk(node, function):
    for child in ast.iter_child_nodes(node):
        inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
        yield inner, child
        for found in _walk(child, inner):
            yield found


def test_only_the_executor_and_the_outcome_say_a_change():
    found = list(_calls_of_change())
    outside = ['%s:%d (in %s)' % (path, line, function) for path, line, function in found
               if function not in ALLOWED.get(path, ())]
    assert not outside, 'change() called outside the executor: ' + ', '.join(outside)
    # the executor does say them: the test would pass vacuously if the scan found nothing
    assert any(path == 'plugins/module_utils/_api_module.py' for path, _line, _function in found)
