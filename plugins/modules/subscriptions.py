#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: subscriptions
short_description: List the subscriptions of a Red Hat account
version_added: 0.3.0
description:
  - Asks the service for the subscriptions that a Red Hat (or Red Hat Satellite) account can attach; the service asks
    Red Hat with the credentials given.
  - The service stores the credentials when Red Hat accepts them, for M(automation.service.license) to attach a pool
    (its C(pool_id) option) later and to renew the subscription.
  - Takes the options of awx.awx's C(subscriptions) module.
author:
  - automation.service maintainers (@automation-service)
notes:
  - AWX itself runs under its open licence and never asks Red Hat; it answers every request with
    C(Invalid Subscription), and the task fails with that reason.
  - The credentials are secrets; they appear in no output, diff or log.
  - Reports no change, as awx.awx does, although the service keeps the credentials it accepted.
  - In check mode nothing is sent (the request would store the credentials) and nothing is listed.
  - awx.awx 24.6.1 has no service account options (C(client_id), C(client_secret)); neither has this module.
attributes:
  check_mode:
    description: Sends nothing in check mode; returns no subscriptions.
    support: full
  diff_mode:
    description: Changes nothing the service shows; returns no diff.
    support: none
options:
  username:
    description:
      - The Red Hat or Red Hat Satellite user name.
    type: str
    required: true
  password:
    description:
      - The password of O(username).
    type: str
    required: true
  filters:
    description:
      - Keep only the subscriptions that match every entry of this dictionary.
      - A subscription matches an entry when it has no value (or an empty one) for its key, or when its value contains
        the entry's value (a part of a text, an item of a list), or equals it.
      - Applied to the list the service returns, not sent to the service.
    type: dict
    default: {}
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: List the subscriptions of a Red Hat account
  automation.service.subscriptions:
    username: "{{ rh_username }}"
    password: "{{ rh_password }}"
  register: found

- name: Only the self-supported Automation Platform ones
  automation.service.subscriptions:
    username: "{{ rh_username }}"
    password: "{{ rh_password }}"
    filters:
      product_name: Red Hat Ansible Automation Platform
      support_level: Self-Support
  register: found

- name: Attach the first one
  automation.service.license:
    pool_id: "{{ found.subscriptions[0].pool_id }}"
  when: found.subscriptions | length > 0
'''

RETURN = r'''
subscriptions:
  description:
    - The subscriptions the account can attach, as the service lists them, those that O(filters) keeps.
  returned: when the service listed them (not in check mode)
  type: list
  elements: dict
  sample:
    - subscription_name: Red Hat Ansible Automation Platform, Premium (100 Managed Nodes)
      pool_id: 8a85f99a7db4827d017dc512fcad00b0
      instance_count: 100
      support_level: Premium
      trial: false
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ARGUMENT_SPEC = dict(
    username=dict(type='str', required=True),
    password=dict(type='str', required=True, no_log=True),
    filters=dict(type='dict', default={}),
)


def contains(have, want):
    if isinstance(have, (str, list, tuple, dict)):
        try:
            return want in have
        except TypeError:  # e.g. a list looked for in a text
            return False
    return have == want


def kept(subscription, filters):
    """awx.awx's filter: every entry must match where the subscription has a value for its key."""
    for key, want in filters.items():
        have = subscription.get(key)
        if have and not contains(have, want):
            return False
    return True


def run(api):
    params = api.params
    if params['password']:
        api.no_log_values.add(params['password'])
    if api.check_mode:
        return
    body = {'subscriptions_username': params['username'], 'subscriptions_password': params['password']}

    def refused(exc):
        reason = exc.detail.get('error') if isinstance(exc.detail, dict) else None
        if exc.status != 400 or not reason:
            return
        raise ApiError('The service listed no subscriptions for these credentials: %s' % reason,
                       status=exc.status, detail=exc.detail, method=exc.method, url=exc.url)

    # A POST that changes nothing: the service lists the subscriptions these credentials give.
    found = api.apply(Plan(None, [Write('POST', 'config/subscriptions', body, makes=True, refused=refused,
                                        changes=False)]))
    if not isinstance(found, list):
        raise ApiError('The service answered the subscription list with %s, not a list.' % type(found).__name__)
    filters = params['filters'] or {}
    api.returns(subscriptions=[sub for sub in found if isinstance(sub, dict) and kept(sub, filters)])


SPEC = ModuleSpec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
