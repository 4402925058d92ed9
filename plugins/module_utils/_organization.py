# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The organization module's options and declaration, shared with import (which writes organizations
where the service keeps them, behind a platform gateway too)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._resource import CUSTOM_VIRTUALENV, STATE_EXISTS
from ansible_collections.automation.service.plugins.module_utils._shared_resources import SharedResource

ARGUMENT_SPEC = dict(
    custom_virtualenv=CUSTOM_VIRTUALENV,
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    default_environment=dict(type='str'),
    max_hosts=dict(type='int'),
    galaxy_credentials=dict(type='list', elements='str'),
    instance_groups=dict(type='list', elements='str'),
    state=STATE_EXISTS,
)
NOTIFICATIONS = ('notification_templates_started', 'notification_templates_success', 'notification_templates_error',
                 'notification_templates_approvals')
ARGUMENT_SPEC.update((option, dict(type='list', elements='str')) for option in NOTIFICATIONS)
ASSOCIATIONS = {'galaxy_credentials': ('galaxy_credentials', 'credentials'),
                'instance_groups': ('instance_groups', 'instance_groups')}
ASSOCIATIONS.update((option, (option, 'notification_templates')) for option in NOTIFICATIONS)

# Behind a platform gateway, the name and description are the gateway's; the rest is the controller's. A
# controller whose copy keeps a description of its own (AWX 24.6.1's) is given it too.
RESOURCE = SharedResource(
    'organizations', 'organization', 'organization',
    shared=('description',),
    apart=('description',),
    fields=('description', 'max_hosts'),
    references={'default_environment': 'execution_environments'},
    associations=ASSOCIATIONS,
    ordered=('galaxy_credentials', 'instance_groups'),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run
