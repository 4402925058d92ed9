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

A write may take a while to show what it did (a project update it starts): ``settle`` waits for that
and gives the answer it then judges by, and ``changes`` may be a function of that answer (the update
brought a new revision; the service kept a setting as it was). The executor says the change all the
same: a module never says one itself.

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
                 answer=None, then=None, refused=None, changes=True, at=None, undo=None, note=None, lost=None,
                 settle=None, under=(), answered=None):
        self.method = method
        self.path = path            # a path, or a function of the object made so far that gives one
        self.body = body            # sent as given (None: no body), or a function of the object made so far
        self.expect = expect
        self.before = before        # the diff's part of this write (None: it shows nothing of its own), or
        self.after = after          # either a function of its answer: shown once the service took the write
        self.under = tuple(under)   # the keys the diff's part goes under (a workflow's node, an imported object)
        self.secret = tuple(secret)
        self.makes = makes          # its answer is the object (a create, an update, a copy)
        self.answer = answer        # what it would answer: the object in check mode
        self.then = then            # then(made) -> more writes, planned from the answer
        self.refused = refused      # refused(exc): says an ApiError in the module's words (it may reword it)
        self.lost = lost            # lost(exc): says an OutcomeUnknown (sent, its answer lost) in the module's words
        # False: the executor does not say the write as a change, and does not send it in check mode: it
        # changes nothing the service shows (secrets sent again, read back as $encrypted$ either way). Or a
        # function of its (settled) answer that says whether it changed something; in check mode, of its
        # ``answer``; None when settling it failed
        self.changes = changes
        self.settle = settle        # settle(answer) -> the answer once what the write started is done (may raise)
        # its answer, when it was sent already: a loop's bulk creation, sent once for many items (see _loop_bulk),
        # each of which says its own part; the executor says it and does not send it again
        self.answered = answered
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

    def shown_once_taken(self):
        """Its part of the diff depends on its answer: it is shown once the service took the write."""
        return callable(self.before) or callable(self.after)

    def shown(self, answer):
        """Its part of the diff, (before, after), given its answer."""
        return tuple(side(answer) if callable(side) else side for side in (self.before, self.after))

    def changed_by(self, answer):
        """Whether this write changed something, given its (settled) answer."""
        return bool(self.changes(answer)) if callable(self.changes) else self.changes

    def __repr__(self):
        path = '<path of the object made>' if callable(self.path) else self.path
        return 'Write(%s %s)' % (self.method, path)


class Plan:
    """What a task will write, and the object it starts from (None: there is none yet)."""

    def __init__(self, existing=None, writes=None):
        self.existing = existing
        self.writes = list(writes or [])
        self.copy = None    # the copy its first write made (copy_from), once made
        self.sent = []      # the writes the executor sent (in check mode, would have sent), in order
        self.answers = {}   # write -> what the service answered it (in check mode, its ``answer``)
        self.changed = []   # those of them that changed something

    def add(self, *writes):
        self.writes.extend(writes)
        return self

    def extend(self, other):
        """The writes of another plan after this one's."""
        self.writes.extend(other.writes)
        return self

    def written_at(self):
        """Where the writes that changed something went (their ``at``), in the order first written."""
        where = []
        for write in self.changed:
            if write.at is not None and write.at not in where:
                where.append(write.at)
        return where

    @property
    def changes(self):
        """Whether the plan would change something (a write judged by its answer counts as one that would)."""
        return any(write.changes is not False for write in self.writes)

    def diff(self):
        """The diff the writes planned so far show (before, after), as the outcome merges them; a part said from
        an answer is not known yet and left out."""
        before, after = {}, {}
        for write in self.writes:
            if write.shows():
                before.update(masked({} if callable(write.before) else write.before or {}, write.secret))
                after.update(masked({} if callable(write.after) else write.after or {}, write.secret))
        return before, after
