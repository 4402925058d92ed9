#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: license
short_description: Install or remove the service's subscription
version_added: 0.3.0
description:
  - Installs a Red Hat subscription manifest (O(manifest)) or attaches a subscription pool (O(pool_id)) on the
    service, or removes the installed subscription (O(state=absent)).
  - As awx.awx's C(license) does, nothing is installed when the service already has a subscription that is not a
    trial and covers at least one managed node, unless O(force=true).
  - Takes the options of awx.awx's C(license) module.
author:
  - automation.service maintainers (@automation-service)
notes:
  - AWX itself runs under its open licence and refuses every manifest and every pool (the subscription flow is that of
    the licensed Automation Platform controller); the task then fails with the service's own reason, for instance
    that a subscription manifest zip file is required.
  - Attaching a pool needs subscription credentials stored on the service first, which
    M(automation.service.subscriptions) does when Red Hat accepts them; without them AWX 24.6.1 answers with a server
    error (HTTP 500), and the task fails with that status.
  - O(state=absent) removes only an installed subscription; the open licence of AWX is not one, so removing it changes
    nothing and sends nothing (awx.awx sends the removal every time and reports no change).
  - The manifest is read where the module runs (the controller for a task on the controller).
options:
  manifest:
    description:
      - Path of a Red Hat subscription manifest (a C(.zip) file), sent to the service base64-encoded.
      - Mutually exclusive with O(pool_id). One of them is needed with O(state=present).
    type: path
  pool_id:
    description:
      - The Red Hat or Red Hat Satellite pool to attach the service to.
      - Mutually exclusive with O(manifest).
    type: str
  force:
    description:
      - Install even when the service already has a subscription that is not a trial.
    type: bool
    default: false
  state:
    description:
      - V(present) installs the subscription, V(absent) removes the installed one.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Install a subscription manifest
  automation.service.license:
    manifest: files/manifest.zip

- name: List the subscriptions of a Red Hat account (stores its credentials on the service)
  automation.service.subscriptions:
    username: "{{ rh_username }}"
    password: "{{ rh_password }}"
  register: found

- name: Attach the first of them
  automation.service.license:
    pool_id: "{{ found.subscriptions[0].pool_id }}"

- name: Remove the subscription
  automation.service.license:
    state: absent
'''

RETURN = r'''
license_info:
  description:
    - The service's C(license_info) (from C(/api/v2/config/)) after the task; before it in check mode.
    - The open licence of AWX has C(license_type=open), C(subscription_name=OPEN) and C(product_name=AWX).
  returned: success
  type: dict
  sample:
    license_type: enterprise
    subscription_name: Red Hat Ansible Automation Platform, Premium (100 Managed Nodes)
    pool_id: 8a85f99a7db4827d017dc512fcad00b0
    instance_count: 100
    trial: false
    valid_key: true
'''

import base64
import os

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ARGUMENT_SPEC = dict(
    manifest=dict(type='path'),
    pool_id=dict(type='str'),
    force=dict(type='bool', default=False),
    state=dict(type='str', choices=['present', 'absent'], default='present'),
)

# What a diff shows of a licence.
SUMMARY = ('license_type', 'subscription_name', 'product_name', 'pool_id', 'instance_count', 'trial', 'license_date')


def license_info(api):
    config = api.client.get('config')
    info = config.get('license_info') if isinstance(config, dict) else None
    return info if isinstance(info, dict) else {}


def summary(info):
    return dict((key, info[key]) for key in SUMMARY if key in info)


def subscribed(info):
    """awx.awx's test: a subscription that is not a trial and covers at least one node."""
    count = info.get('instance_count')
    nodes = isinstance(count, int) and not isinstance(count, bool) and count > 0
    return nodes and 'trial' in info and not info['trial']


def removable(info):
    """A subscription is installed (the open licence of AWX is none; nothing shows once it is removed)."""
    return bool(info) and info.get('license_type') != 'open'


def read_manifest(path):
    try:
        with open(path, 'rb') as handle:
            content = handle.read()
    except (IOError, OSError) as exc:
        raise ConfigError('Cannot read the subscription manifest %s: %s.' % (path, exc.strerror or exc))
    return base64.b64encode(content).decode('ascii')


def refusal(exc, what):
    """The service's own reason for refusing ``what``, in a message that says what was refused."""
    detail = exc.detail
    reason = detail.get('error') if isinstance(detail, dict) else None
    if exc.status != 400 or not reason:
        return exc
    return ApiError('The service refused %s: %s' % (what, reason), status=exc.status, detail=detail,
                    method=exc.method, url=exc.url)


def remove(api):
    info = license_info(api)
    api.returns(license_info=info)
    if not removable(info):
        return
    api.apply(Plan(info, [Write('DELETE', 'config', expect=(200, 202, 204), before=summary(info), after={})]))
    if not api.check_mode:
        api.returns(license_info=license_info(api))


def install(api):
    params = api.params
    if params['manifest']:
        body, endpoint = {'manifest': read_manifest(params['manifest'])}, 'config'
        what, wanted = 'the subscription manifest %s' % params['manifest'], {'manifest': os.path.basename(params['manifest'])}
    elif params['pool_id']:
        body, endpoint = {'pool_id': params['pool_id']}, 'config/attach'
        what, wanted = 'subscription pool %s' % params['pool_id'], {'pool_id': params['pool_id']}
    else:
        raise ConfigError('state present needs manifest (a file) or pool_id.')
    info = license_info(api)
    api.returns(license_info=info)
    if subscribed(info) and not params['force']:
        return
    if api.check_mode:
        api.apply(Plan(info, [Write('POST', endpoint, body, before=summary(info), after=wanted)]))
        return

    def refused(exc):
        raise refusal(exc, what)

    def installed(_answer):
        # what the service holds now is the diff's after
        after = license_info(api)
        api.returns(license_info=after)
        return summary(after)

    api.apply(Plan(info, [Write('POST', endpoint, body, expect=(200, 201), before=summary(info), after=installed,
                                refused=refused)]))


def run(api):
    if api.params['state'] == 'absent':
        remove(api)
    else:
        install(api)


# One of manifest and pool_id is needed with state present: checked by install(), after the types.
SPEC = ModuleSpec(ARGUMENT_SPEC, mutually_exclusive=[('manifest', 'pool_id')])


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
