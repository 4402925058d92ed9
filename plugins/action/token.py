# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Runs the token module (in the controller's worker when the task runs there)
and hides a result that holds a minted secret from every display (as
``no_log`` would), while the registered variable and the ``service_token``
fact keep it for later tasks."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.plugin_utils._action import ServiceAction


def holds_secret(result):
    token = result.get('token')
    return isinstance(token, dict) and bool(token.get('token'))


class ActionModule(ServiceAction):
    module = 'token'

    def finish(self, result):
        if holds_secret(result):
            result['_ansible_no_log'] = True
        return result
