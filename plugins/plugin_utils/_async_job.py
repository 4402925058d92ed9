# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""An async task that runs on the controller, in a process forked from the worker.

Ansible runs an ``async`` module through its async wrapper: the module is
packed, a new Python starts it in the background, and the wrapper answers at
once with the job's id and the file that ``async_status`` reads. Here the
worker forks instead (the module's code and ``requests`` are already imported)
and answers the same: ``ansible_job_id``, ``results_file``, ``started`` and
``finished``, the job file in the same place (the ``async_dir`` shell option,
``ansible_async_dir``) holding the same things while the job runs, when it ends
and when its time limit ends it. So ``async_status``, ``poll``, ``until`` loops
and ``async_status`` with ``mode: cleanup`` work as with any module.

Processes: the worker forks a supervisor, which leaves the worker's session
(as the wrapper's daemon does) and forks the job. The job writes its result
and exits; the supervisor waits for it until the time limit, then kills it
and writes the wrapper's timeout result. The worker does not wait for either:
it reaps the supervisors that have ended when it starts the next job.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import secrets
import select
import signal
import time
import traceback
import warnings

from ansible.release import __version__ as ANSIBLE_VERSION

from ansible_collections.automation.service.plugins.module_utils._private_dir import write_private

# Before ansible-core 2.19 the wrapper wrote started, finished and failed as 1 and 0.
BOOLEANS = tuple(int(part) for part in ANSIBLE_VERSION.split('.')[:2]) >= (2, 19)
TRUE, FALSE = (True, False) if BOOLEANS else (1, 0)

# The supervisors this worker started and has not reaped yet.
_SUPERVISORS = []
# The job files of the jobs this worker started: the items of its loop, in their order. A job
# forked later holds the files of the jobs started before it (see earlier_jobs_finish).
_STARTED = []
POLL_SECONDS = 0.2


def job_id():
    """An id as the wrapper makes it: a random number and a process id."""
    return 'j%d.%d' % (secrets.randbelow(999999999999), os.getpid())


def write_job_file(path, data):
    """The job file, replaced at once (async_status never reads half of one);
    0600: a result is its owner's alone."""
    try:
        text = json.dumps(data)
    except (TypeError, ValueError) as exc:
        text = json.dumps({'failed': TRUE, 'msg': 'The result could not be written as JSON: %s' % exc})
    write_private(path, text.encode('utf-8'), sync=False)


def _fork():
    """os.fork, without the warning Python 3.12 gives a process with threads
    (the worker's queue has one): the children here touch none of its locks."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        return os.fork()


def _reap():
    for pid in list(_SUPERVISORS):
        try:
            done, _status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _SUPERVISORS.remove(pid)


def _detach():
    """What the wrapper's daemon does: a session of its own (a Ctrl-C of
    ansible-playbook or the end of the worker does not end the job), no
    terminal, the default signal handlers."""
    os.setsid()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    if null > 2:
        os.close(null)


def _finished(path):
    try:
        with open(path, 'rb') as handle:
            data = json.loads(handle.read().decode('utf-8'))
    except (OSError, ValueError):
        return True  # gone (async_status cleaned it up), or not a job file of ours
    return data.get('finished') not in (False, 0)


def earlier_jobs_finish():
    """In a job: wait until the jobs the same worker started before this one (the earlier items of
    its loop) have ended, as a loop promises its items in order; their own time limits bound the
    wait. True when one of them was still running, that is, when what they do may not have been
    there when this job looked."""
    running = [path for path in _STARTED if not _finished(path)]
    waited = bool(running)
    while running:
        time.sleep(POLL_SECONDS)
        running = [path for path in running if not _finished(path)]
    return waited


def start(run, async_dir, time_limit):
    """Start ``run()`` (which returns the task's result) as an async job and
    return the wrapper's answer. The job file exists before this returns."""
    _reap()
    try:
        os.makedirs(async_dir, exist_ok=True)
    except OSError as exc:
        return {'failed': TRUE, 'msg': 'could not create directory: %s - %s' % (async_dir, exc)}
    jid = job_id()
    path = os.path.join(async_dir, jid)
    write_job_file(path, {'started': TRUE, 'finished': FALSE, 'ansible_job_id': jid})
    pid = _fork()
    if pid:
        _SUPERVISORS.append(pid)
        _STARTED.append(path)
        return {'failed': FALSE, 'started': TRUE, 'finished': FALSE, 'ansible_job_id': jid, 'results_file': path,
                'changed': True}
    try:  # the supervisor: it never returns into the worker's code
        _detach()
        _supervise(run, path, time_limit)
    finally:
        os._exit(0)


def _supervise(run, path, time_limit):
    ended_r, ended_w = os.pipe()
    pid = _fork()
    if not pid:
        code = 1
        try:  # the job
            os.close(ended_r)
            try:
                result = run()
            except BaseException:  # anything at all: the job file says what ended it, as the wrapper's does
                result = {'failed': TRUE, 'msg': traceback.format_exc()}
            write_job_file(path, result)
            code = 0
        finally:
            os._exit(code)
    os.close(ended_w)
    # The pipe's write end closes when the job ends, however it ends.
    ended, _w, _x = select.select([ended_r], [], [], time_limit if time_limit > 0 else None)
    if not ended:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    _pid, status = os.waitpid(pid, 0)
    if not ended and os.WIFSIGNALED(status):  # (a job that ended as the time ran out keeps its result)
        write_job_file(path, {'msg': 'Timeout exceeded', 'failed': True, 'child_pid': pid})
    elif status:
        write_job_file(path, {'failed': TRUE, 'ansible_job_id': os.path.basename(path),
                              'msg': 'The job ended without a result (wait status %d).' % status})
