# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The items of a loop that will run after the current one, with their arguments, as Ansible will template them
(for the bulk creation of a loop's hosts, see module_utils/_loop_bulk.py and the performance guide).

An action plugin sees only its own item. Here the task's ``loop:`` is templated again with the same variables,
and for each following item (the loop variable, ``index_var`` and ``ansible_loop`` set as Ansible sets them) its
``when`` is evaluated and its arguments templated (``omit`` dropped, ``module_defaults`` applied as for the current
item). Only where that is safe and gives what Ansible will give; ``None`` (unsure: every item writes by itself)
otherwise:

* ``loop:`` only: a ``with_<lookup>`` would run its lookup again; and no ``lookup()``, ``query()`` or ``q()`` in the
  loop, the arguments, the environment or ``when``;
* not with ``until``, ``async``, check mode, ``loop_control.break_when``, or a templated ``delegate_to``;
* not when the arguments or ``when`` name the task's registered variable or ``_task`` (they change from item to item),
  nor when the task's ``environment`` (which may name the service) changes from item to item;
* the current item's arguments templated again must be those Ansible gave it (nothing random, nothing that moves);
* the current item must be found in the list (its index, or a value found once);
* any error on the way.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re

from ansible_collections.automation.service.plugins.plugin_utils import _core


class Unsure(Exception):
    """The items that follow cannot be known for certain: every item writes by itself."""


def original_task(task):
    """The task as the play holds it (its arguments and ``when`` not yet templated): the worker runs a copy of it
    for each item, in the same block."""
    parent = _core.task_parent(task)
    task_id = _core.task_id(task)
    for field in ('block', 'rescue', 'always'):
        for candidate in getattr(parent, field, None) or ():
            if _core.task_id(candidate) == task_id and candidate is not task:
                return candidate
    raise Unsure('the task is not found in its block')


def registered_names(task):
    register = getattr(task, 'register', None)
    if isinstance(register, dict):
        return list(register)
    return [register] if register else []


def mentions(text, names):
    return any(re.search(r'\b%s\b' % re.escape(name), text) for name in names if name)


LOOKUP = re.compile(r'\b(lookup|query|q)\s*\(')


def templates_of(*values):
    """The templates in ``values`` (literal text around them left out)."""
    return ' '.join(re.findall(r'{{.*?}}|{%.*?%}', json.dumps(values, default=str)))


def runs_a_lookup(loop, args, environment, when):
    """Whether templating the loop, the arguments, the environment or ``when`` again would run a lookup again
    (a lookup may read or change something outside: a file, a command, a password it makes)."""
    text = templates_of(loop, args, environment) + ' ' + json.dumps(when, default=str)
    return LOOKUP.search(text) is not None


def names_what_varies(args, environment, when, names):
    """Whether the task's templates (in its arguments and environment) or its ``when`` name one of ``names``
    (what changes from item to item: the registered variable, ``_task``). Literal text around the templates
    does not count."""
    return mentions(templates_of(args, environment) + ' ' + json.dumps(when, default=str), names)


def loop_vars(task_vars, control, items, index):
    """The variables of item ``index``, as Ansible sets them."""
    variables = dict(task_vars)
    loop_var = control.loop_var or 'item'
    variables[loop_var] = items[index]
    variables['ansible_loop_var'] = loop_var
    if control.index_var:
        variables['ansible_index_var'] = control.index_var
        variables[control.index_var] = index
    if getattr(control, 'extended', False):
        length = len(items)
        extended = {'index': index + 1, 'index0': index, 'first': index == 0, 'last': index + 1 == length,
                    'length': length, 'revindex': length - index, 'revindex0': length - index - 1}
        if getattr(control, 'extended_allitems', True):
            extended['allitems'] = items
        if index + 1 < length:
            extended['nextitem'] = items[index + 1]
        if index > 0:
            extended['previtem'] = items[index - 1]
        variables['ansible_loop'] = extended
    return variables


def without_omit(args, omit):
    """``args`` without the values ``omit`` stands for (ansible-core before 2.19 leaves its placeholder in)."""
    if not isinstance(omit, str):
        return args
    if isinstance(args, dict):
        return dict((k, without_omit(v, omit)) for k, v in args.items() if v != omit)
    if isinstance(args, list):
        return [without_omit(v, omit) for v in args if v != omit]
    return args


def plain(value):
    """``value`` as plain data, for comparing what two templatings gave."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def following(action, task_vars):
    """The arguments of the items of the action's loop that will run after the current one (those whose ``when``
    holds), in order; ``None`` when they cannot be known for certain (see above)."""
    try:
        return _following(action, task_vars)
    except Exception:  # unsure, whatever it was: every item writes by itself
        return None


def _following(action, task_vars):
    task = _core.action_task(action)
    if task_vars is None or task.loop_with or task.loop is None or task.until or task.async_val or task.check_mode:
        raise Unsure('not a plain loop')
    control = task.loop_control
    if control is None or getattr(control, 'break_when', None):
        raise Unsure('break_when')
    original = original_task(task)
    if isinstance(original.delegate_to, str) and '{{' in original.delegate_to:
        raise Unsure('templated delegate_to')
    if runs_a_lookup(original.loop, original.args, original.environment, original.when):
        raise Unsure('templating again would run a lookup again')
    if names_what_varies(original.args, original.environment, original.when, registered_names(original) + ['_task']):
        raise Unsure('the arguments name what changes from item to item')
    templar = _core.action_templar(action)
    items = templar.template(original.loop)
    if not isinstance(items, list):
        raise Unsure('the loop is not a list')
    loop_var = control.loop_var or 'item'
    current = task_vars.get(loop_var)
    if control.index_var and control.index_var in task_vars:
        index = task_vars[control.index_var]
    elif isinstance(task_vars.get('ansible_loop'), dict) and 'index0' in task_vars['ansible_loop']:
        index = task_vars['ansible_loop']['index0']
    else:
        found = [i for i, item in enumerate(items) if plain(item) == plain(current)]
        if len(found) != 1:
            raise Unsure('the current item is not found once')
        index = found[0]
    if not isinstance(index, int) or not 0 <= index < len(items) or plain(items[index]) != plain(current):
        raise Unsure('the loop templated again is not the same')
    omit = task_vars.get('omit')

    def templated(variables):
        return without_omit(templar.copy_with_new_env(available_variables=variables).template(original.args), omit)

    # The current item again: what module_defaults added, and proof that templating gives what Ansible gave.
    mine = templated(loop_vars(task_vars, control, items, index))
    given = dict(task.args)
    if any(plain(mine.get(k)) != plain(v) for k, v in given.items() if k in mine) or set(mine) - set(given):
        raise Unsure('the arguments templated again differ')
    defaults = dict((k, v) for k, v in given.items() if k not in mine)
    environment = plain(templar.copy_with_new_env(available_variables=loop_vars(task_vars, control, items, index))
                        .template(original.environment))
    result = []
    for later in range(index + 1, len(items)):
        variables = loop_vars(task_vars, control, items, later)
        item_templar = templar.copy_with_new_env(available_variables=variables)
        if not _core.when_holds(original, item_templar, variables):
            continue
        if environment and plain(item_templar.template(original.environment)) != environment:
            raise Unsure('the environment changes from item to item')
        args = dict(defaults)
        args.update(templated(variables))
        result.append(args)
    return result
