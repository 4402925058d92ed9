# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Runs the application module (in the controller's worker when the task runs
there) and hides a result that holds a new client secret from every display
(as ``no_log`` would), while the registered variable keeps it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.plugin_utils._action import ServiceAction


class ActionModule(ServiceAction):
    module = 'application'

    def finish(self, result):
        if result.get('client_secret'):
            result['_ansible_no_log'] = True
        return result
