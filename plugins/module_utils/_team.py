# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The team module's options and declaration, shared with import (which writes teams where the service
keeps them, behind a platform gateway too)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource
from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    Gateway, SharedResource, on_gateway,
)

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    organization=dict(type='str', required=True),
    new_organization=dict(type='str'),
    state=STATE_EXISTS,
)


class Team(SharedResource):
    """A team, which ansible.platform's new_organization moves to another organization: the organization is a field
    the gateway shares with the controller's copy, so behind a gateway it is written there."""

    def run(self, api):
        moved = api.params.get('new_organization')
        if moved not in (None, '') and moved != api.params['organization'] and api.params.get('state') != 'absent':
            if Resource.find(self, api) is None:
                # Moved by an earlier run (or not made yet): the team is looked for, or made, where it moves to.
                with api.reading(organization=moved):
                    return SharedResource.run(self, api)
        return SharedResource.run(self, api)

    def desired(self, api, existing):
        wanted = SharedResource.desired(self, api, existing)
        moved = api.params.get('new_organization')
        if moved in (None, '') or moved == api.params['organization']:
            return wanted
        if not on_gateway(api):
            wanted['organization'] = self.reference_id(api, existing, 'organization', 'organizations', moved)
            return wanted
        name = moved
        if is_id(moved) or '++' in str(moved):
            named = api.lookup('organizations', moved)     # an id names the controller's, whose name the gateway's has
            name = None if named is None else named['name']
        found = Gateway(api, 'organizations').find(name)
        if found is None:
            raise NotFound('new organization %r was not found at the platform gateway (%s, by name).'
                           % (moved, api.client.layout.gateway_path('organizations')), total_results=0)
        wanted['organization'] = found['id']
        return wanted


# Behind a platform gateway, every field of a team is the gateway's (its organization: the gateway's of that name);
# a controller whose copy keeps a description of its own (AWX 24.6.1's) is given it too.
RESOURCE = Team(
    'teams', 'team', 'team',
    shared=('description', 'organization'),
    apart=('description',),
    scope={'organization': 'organizations'},
    fields=('description',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run
