# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A plan: the writes a task will send, made before the first of them is sent.

Planning reads (every name resolved, every existing object read) and writes nothing; the task's
executor (``ApiTask.apply``) sends the writes in order, or in check mode only says them, and is
the one place that says what changed and shows the diff. A write's ``before``/``after`` are its
part of the diff, its ``secret`` fields masked there.

A write may depend on an earlier one: its path may be a function of the object made so far (the
sub-lists of an object being created), and ``then`` may plan more writes from an earlier write's
answer (what a copy turned out to hold). Those later writes use only what was resolved before the
first write: names are never looked up once writing has begun.

Where the service keeps two copies of an object (the platform gateway's and the controller's), one
plan writes both: each write says where it goes (``at``), and a write that makes an object may say how
to take it back (``undo``) should a later write of the plan be refused; the executor then sends that
instead, and the task changed nothing.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._outcome import masked


class Write:
    """One write: the request, what it changes from and to, and what it would answer."""

    def __init__(self, method, path, body=None, expect=(200,), before=None, after=None, secret=(), makes=False,
                 answer=None, then=None, refused=None, changes=True, at=None, undo=None, note=None, lost=None):
        self.method = method
        self.path = path            # a path, or a function of the object made so far that gives one
        self.body = body            # sent as given (None: no body), or a function of the object made so far
        self.expect = expect
        self.before = before        # the diff's part of this write (None: it shows nothing of its own)
        self.after = after          # or a function of its answer: shown once the service took the write
        self.secret = tuple(secret)
        self.makes = makes          # its answer is the object (a create, an update, a copy)
        self.answer = answer        # what it would answer: the object in check mode
        self.then = then            # then(made) -> more writes, planned from the answer
        self.refused = refused      # refused(exc): says an ApiError in the module's words (it may reword it)
        self.lost = lost            # lost(exc): says an OutcomeUnknown (sent, its answer lost) in the module's words
        # False: the executor does not say the write as a change, and does not send it in check mode: it
        # changes nothing the service shows (secrets sent again, read back as $encrypted$ either way), or
        # its answer decides what changed (settings the service keeps as they were)
        self.changes = changes
        self.at = at                # where it goes, when a plan writes to more than one place (written_at)
        self.undo = undo            # undo(answer) -> the write that takes it back, if a later write is refused
        self.note = note            # what sending it means, said after the error that made the executor send it

    def but(self, **changes):
        """A new write like this one, with ``changes`` (constructor arguments) made."""
        fields = dict(self.__dict__)
        fields.update(changes)
        return Write(**fields)

    def sent_to(self, at, refused=None):
        """This write, going to ``at`` (written_at); ``refused(exc)``: more to say of its refusal, after what
        the write says of it itself."""
        own = self.refused

        def said(exc):
            if own is not None:
                own(exc)
            if refused is not None:
                refused(exc)

        self.at = at
        self.refused = said
        return self

    def path_for(self, made):
        return self.path(made) if callable(self.path) else self.path

    def body_for(self, made):
        return self.body(made) if callable(self.body) else self.body

    def shows(self):
        return self.before is not None or self.after is not None

    def __repr__(self):
        path = '<path of the object made>' if callable(self.path) else self.path
        return 'Write(%s %s)' % (self.method, path)


class Plan:
    """What a task will write, and the object it starts from (None: there is none yet)."""

    def __init__(self, existing=None, writes=None):
        self.existing = existing
        self.writes = list(writes or [])
        self.copy = None    # the copy its first write made (copy_from), once made
        # the fields a loop's bulk creation sent for the object it starts from: it was made for this task, said as
        # the task's own create (None: the object was there before)
        self.made_in_bulk = None
        self.sent = []      # the writes the executor sent (in check mode, would have sent), in order

    def add(self, *writes):
        self.writes.extend(writes)
        return self

    def extend(self, other):
        """The writes of another plan after this one's."""
        self.writes.extend(other.writes)
        return self

    @property
    def changes(self):
        return any(write.changes for write in self.writes)

    def written_at(self):
        """Where the writes that changed something went (their ``at``), in the order first written."""
        where = []
        for write in self.sent:
            if write.changes and write.at is not None and write.at not in where:
                where.append(write.at)
        return where

    def diff(self):
        """The diff the writes planned so far show (before, after), as the outcome merges them."""
        before, after = {}, {}
        for write in self.writes:
            if write.shows():
                before.update(masked(write.before or {}, write.secret))
                after.update(masked({} if callable(write.after) else write.after or {}, write.secret))
        return before, after
