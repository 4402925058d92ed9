# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stand-in for a remote host, for the tests: the local connection under another name.

A task on a remote host (or with ``become``) runs the collection's module, not its logic in the
controller's worker: Ansible packs the module with its module_utils, puts the package on the host and
starts a new Python there. These tests have no second machine, so this connection does the same on
this one: it is ansible-core's local connection, but its name is not ``local``, so the action plugin
hands the task to the module as it does for any remote host (``ServiceAction.in_controller``). Only
the transport is local; the packing and the new interpreter are Ansible's own.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = """
name: remote_here
short_description: the local connection, under a name that is not local (tests only)
description:
  - Runs commands on the controller as the local connection does; the collection's action plugin
    treats a task on it as a task on a remote host.
author: automation.service contributors
options: {}
"""

from ansible.plugins.connection.local import Connection as LocalConnection


class Connection(LocalConnection):
    """The local connection, reporting another transport."""

    transport = 'remote_here'
