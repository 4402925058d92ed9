# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Benchmark diagnostic: imports requests and the host module's code in the
ansible-playbook process, so that the worker processes forked for the tasks
find them imported. Enabled for one diagnostic measurement only: how much of a
separate task's time is the worker importing them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: bench_preload
type: aggregate
short_description: import the host module's code before the workers fork (benchmark diagnostic)
description: Imports requests and the collection's code that an unchanged host task with a token uses.
requirements: [whitelisted in configuration]
'''

import importlib

from ansible.plugins.callback import CallbackBase

PRELOAD = (
    'requests',
    'requests.adapters',
    'ansible_collections.automation.service.plugins.module_utils._client',
    'ansible_collections.automation.service.plugins.module_utils._authenticator',
    'ansible_collections.automation.service.plugins.module_utils._auth_token',
    'ansible_collections.automation.service.plugins.module_utils._resource',
    'ansible_collections.automation.service.plugins.modules.host',
)


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'bench_preload'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        self.preloaded = []
        for name in PRELOAD:
            try:
                importlib.import_module(name)
            except ImportError:
                continue
            self.preloaded.append(name)
