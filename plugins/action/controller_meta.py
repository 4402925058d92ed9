# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action plugin of every module of the collection.

``meta/runtime.yml`` routes each module's action here (``plugin_routing: modules: <name>:
action_plugin:``); the module the task runs is resolved from the task's action, so a new module
needs no plugin of its own, only its entry in ``meta/runtime.yml``. The file carries a module's name because every
action plugin of a collection documents itself through the module of the same name.
``plugin_utils/_action.py`` holds how a task runs: in the controller's worker, or as the module on
a remote host or under ``become``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.plugin_utils._action import ServiceAction


class ActionModule(ServiceAction):
    pass
