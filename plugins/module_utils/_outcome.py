# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a task returns, owned in one place.

A module and the shared verbs never write a result: they say what happened.
``change()`` says that something was written (or, in check mode, would be), with
the fields before and after it for the diff; ``returns()`` gives the values the
module returns. The diff merges field by field, whatever the order of the calls,
masks the fields declared secret, and is kept only in diff mode. ``changed``,
``diff`` and the values are set here and nowhere else.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from types import MappingProxyType

NO_LOG_PLACEHOLDER = 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
# Keys of a result that only this class sets (and the task's failure handling).
RESERVED = frozenset(('changed', 'diff', 'failed', 'msg', 'warnings'))


def is_set(value):
    return value not in (None, '', {}, [])


def masked(data, secret, mark=NO_LOG_PLACEHOLDER):
    """``data`` (a dict of fields) with the ``secret`` fields that hold a value replaced by ``mark``;
    ``field.key`` names a key of a field that holds a dict (a credential's inputs)."""
    inner = {}
    for name in secret:
        field, _dot, key = name.partition('.')
        if key:
            inner.setdefault(field, set()).add(key)
    shown = {}
    for k, v in data.items():
        if k in secret and is_set(v):
            v = mark
        elif k in inner and isinstance(v, dict):
            v = masked(v, inner[k], mark)
        shown[k] = v
    return shown


class Outcome:
    """``changed``, ``diff`` and the returned values of one task."""

    def __init__(self, diff_mode=False):
        self.diff_mode = diff_mode
        self._changed = False
        self._diff = None
        self._values = {}

    @property
    def changed(self):
        return self._changed

    def change(self, before=None, after=None, secret=(), under=()):
        """Something was written, or in check mode would be. ``before`` and ``after`` (dicts of
        fields, ``None`` for no side) join the diff, their ``secret`` fields masked; ``under``:
        the keys they go under (a workflow's node)."""
        self._changed = True
        self.show(before, after, secret, under)

    def show(self, before=None, after=None, secret=(), under=()):
        """Fields for the diff of a change that is not made yet (it is said with change() once the
        service has taken it)."""
        if not self.diff_mode or (before is None and after is None):
            return
        if self._diff is None:
            self._diff = {'before': {}, 'after': {}}
        for side, fields in (('before', before), ('after', after)):
            place = self._diff[side]
            for key in under:
                place = place.setdefault(key, {})
            place.update(masked(fields or {}, secret))

    def returns(self, **values):
        """Values the task returns (awx.awx's keys and this collection's)."""
        reserved = RESERVED.intersection(values)
        if reserved:
            raise ValueError('returns() does not set %s: change() does' % ', '.join(sorted(reserved)))
        self._values.update(values)

    def says(self, message):
        """The ``msg`` of a task that did not fail (a look-up that found nothing, in the words of the module it
        stands for)."""
        self._values['msg'] = message

    def merge(self, part, under=(), values=True):
        """Take in the outcome ``part`` of a part of the task (ApiTask.part) or of a sub-task: its change, its diff
        (under the keys ``under``) and, with ``values``, the values it returns. Whether it changed anything."""
        result = part.result()
        diff = result.pop('diff', None)
        changed = result.pop('changed')
        if diff:
            self.show(diff['before'], diff['after'], under=under)
        if changed:
            self._changed = True
        said = result.pop('msg', None)
        if values:
            self.returns(**result)
            if said is not None:
                self.says(said)
        return changed

    def get(self, key, default=None):
        return self._values.get(key, default)

    def result(self):
        """The result as Ansible gets it."""
        result = dict(self._values, changed=self._changed)
        if self._diff is not None:
            result['diff'] = self._diff
        return result

    def view(self):
        """The result, read-only."""
        return MappingProxyType(self.result())
