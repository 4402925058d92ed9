# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's action plugins.

Every module's action is served by ``controller_meta`` (``meta/runtime.yml``: ``action_plugin``),
and ansible-core imports that plugin in the worker it forks for each task, not in the play's own
process. Before it forks, the play's process looks the task's action up in this package, which
imports this file once: it imports the shared base here, so that the base, ``requests`` and the
collection's module_utils are loaded once per play and every worker inherits them, instead of each
worker importing and compiling them again.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.plugin_utils import _action  # noqa: F401 pylint: disable=unused-import
