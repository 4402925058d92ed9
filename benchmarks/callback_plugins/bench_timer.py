# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Benchmark callback: writes, for every task, its start and end time, how
many loop items it ran and when each item's result came, as JSON lines to the
file named by BENCH_TIMINGS."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: bench_timer
type: aggregate
short_description: per-task wall time for the benchmark
description: Appends one JSON line per task to the file named by BENCH_TIMINGS.
requirements: [whitelisted in configuration]
'''

import json
import os
import time

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'bench_timer'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        self._path = os.environ.get('BENCH_TIMINGS')
        self._task = None

    def _flush(self):
        if self._task and self._path:
            with open(self._path, 'a') as fh:
                fh.write(json.dumps(self._task) + '\n')
        self._task = None

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._flush()
        self._task = {'name': task.get_name(), 'start': time.time(), 'end': None,
                      'items': 0, 'item_ends': [], 'ok': 0, 'changed': 0, 'failed': 0, 'hosts': 0}

    def _item(self, result, failed=False):
        if self._task is None:
            return
        self._task['items'] += 1
        if failed:
            self._task['failed'] += 1
        elif result._result.get('changed'):
            self._task['changed'] += 1
        self._task['end'] = time.time()
        self._task['item_ends'].append(self._task['end'])

    def v2_runner_item_on_ok(self, result):
        self._item(result)

    def v2_runner_item_on_failed(self, result):
        self._item(result, failed=True)

    def _host(self, result, failed=False):
        if self._task is None:
            return
        self._task['hosts'] += 1
        if failed:
            self._task['failed'] += 1
            self._task['error'] = str(result._result.get('msg', ''))[:500]
        elif result._result.get('changed') and not result._result.get('results'):
            self._task['changed'] += 1
        self._task['end'] = time.time()

    def v2_runner_on_ok(self, result):
        self._host(result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._host(result, failed=True)

    def v2_runner_on_unreachable(self, result):
        self._host(result, failed=True)

    def v2_playbook_on_stats(self, stats):
        self._flush()
