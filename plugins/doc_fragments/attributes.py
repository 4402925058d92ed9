# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    DOCUMENTATION = r'''
options: {}
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying the service.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check mode), when in diff mode.
    support: full
  action:
    description: >-
      Runs in the controller's worker process through an action plugin when the task runs on the controller (a local
      connection, no become), an C(async) task in a job forked from the worker; otherwise the module runs where the
      task runs.
    support: full
  action_group:
    description: Use C(group/automation.service.api) in C(module_defaults) to set the connection options once.
    support: full
    membership:
      - automation.service.api
'''

    INFO_MODULE = r'''
options: {}
attributes:
  check_mode:
    description: Reads only; runs the same in check mode.
    support: full
  diff_mode:
    description: Reads only; returns no diff.
    support: N/A
  action:
    description: >-
      Runs in the controller's worker process through an action plugin when the task runs on the controller (a local
      connection, no become), an C(async) task in a job forked from the worker; otherwise the module runs where the
      task runs.
    support: full
  action_group:
    description: Use C(group/automation.service.api) in C(module_defaults) to set the connection options once.
    support: full
    membership:
      - automation.service.api
'''
