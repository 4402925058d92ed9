# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Benchmark connection: Ansible's local connection under another name.

The collection's action plugins run a module's code in the controller's worker
only on the ``local`` connection; on any other they hand the task to the module,
as for a remote host. This connection runs commands exactly as ``local`` does,
so a task on it measures the module path without a network in between."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: local_as_remote
short_description: the local connection, taken for a remote host (benchmark)
description:
  - Runs everything on the controller exactly as C(ansible.builtin.local) does, under another transport name,
    so that the collection's action plugins take the module path.
author: automation.service contributors
options:
  become_success_timeout:
    type: int
    default: 10
    description: As for C(ansible.builtin.local).
    vars:
      - name: ansible_local_become_success_timeout
  become_strip_preamble:
    type: bool
    default: true
    description: As for C(ansible.builtin.local).
    vars:
      - name: ansible_local_become_strip_preamble
extends_documentation_fragment:
  - connection_pipelining
'''

from ansible.plugins.connection.local import Connection as LocalConnection


class Connection(LocalConnection):
    transport = 'local_as_remote'
