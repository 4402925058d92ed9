# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared by the bulk modules: reading many hosts of an inventory by name in few
requests, and posting a bulk action once (never retried once it may have reached
the service)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._plan import Write

NAMES_PER_READ = 100


def hosts_by_name(client, inventory_id, names):
    """{name: host} of the hosts of the inventory named in ``names``: one filtered
    read per NAMES_PER_READ names."""
    found = {}
    names = sorted(set(names))
    for start in range(0, len(names), NAMES_PER_READ):
        chunk = names[start:start + NAMES_PER_READ]
        params = {'or__name': chunk, 'page_size': 200}
        for host in client.iterate('inventories/%d/hosts' % inventory_id, params=params):
            found[host['name']] = host
    return found


def hosts_by_id(client, ids):
    """{id: host} of the hosts with these ids that exist (and this user sees)."""
    found = {}
    ids = sorted(set(ids))
    for start in range(0, len(ids), NAMES_PER_READ):
        chunk = ids[start:start + NAMES_PER_READ]
        params = {'id__in': ','.join(str(i) for i in chunk), 'page_size': 200}
        for host in client.iterate('hosts', params=params):
            found[host['id']] = host
    return found


def write(action, body, what, look):
    """The POST of /bulk/<action>/, sent once. ``what`` names the change for the message when the
    connection breaks after sending; ``look`` says how to find out whether it happened."""
    def lost(exc):
        exc.reword('The bulk %s may or may not have happened: the connection broke after the request was sent '
                   '(%s). Do not simply send it again: %s' % (what, exc.message, look))

    return Write('POST', 'bulk/%s' % action, body, expect=(201,), makes=True, lost=lost)
