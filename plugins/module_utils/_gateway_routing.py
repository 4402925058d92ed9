# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The platform gateway's routing objects: its HTTP ports, service types, service clusters and their nodes and
keys, the services (API routes), routes and UI plugin routes it forwards, and the CA certificates it trusts.

Each is named by ``name`` (or an id) at ``/api/gateway/v1/<kind>/``, and refers to the others by id (given by
name or id). A module declares a ``GatewayResource`` of its kind, as a controller module declares a
``Resource``; on AWX 24, which has no gateway, the task fails before anything is read or written."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._resource import ENCRYPTED, Resource, is_set

# option -> the kind of object it names
REFERENCES = {
    'http_port': 'http_ports',
    'service_cluster': 'service_clusters',
    'service_type': 'service_types',
}


# The options routes, services and UI plugin routes share (doc fragment gateway_routing.traffic): where the gateway
# sends the traffic; and those of routes and services only (gateway_routing.forwarded).
TRAFFIC = dict(
    http_port=dict(type='str'),
    service_cluster=dict(type='str'),
    is_service_https=dict(type='bool', default=False),
    service_port=dict(type='int'),
    node_tags=dict(type='str'),
    request_timeout_seconds=dict(type='int'),
    idle_timeout_seconds=dict(type='int'),
)
# The fields of TRAFFIC the gateway has from Automation Platform 2.7 (its published API schema), sent as given.
TIMEOUTS = ('request_timeout_seconds', 'idle_timeout_seconds')
SINCE_2_7 = dict((key, '2.7') for key in TIMEOUTS)
FORWARDED = dict(
    service_path=dict(type='str'),
    enable_gateway_auth=dict(type='bool'),
    is_internal_route=dict(type='bool'),
    enable_mtls=dict(type='bool'),
)


class GatewayResource(Resource):
    """A Resource of the gateway's own API (``service='gateway'``), with fields that are sent to create an object
    and never compared (``write_only``: a length, a one-off instruction). ``references`` may be given as the
    options of ``REFERENCES`` they are. ``since``: fields a gateway has from a release on (field -> release): one
    given is checked to be taken (the object shows it; for a new one, the OPTIONS of the list says its POST takes
    it), else the task fails before anything is written."""

    def __init__(self, *args, **kwargs):
        self.write_only = tuple(kwargs.pop('write_only', ()))
        self.since = dict(kwargs.pop('since', {}))
        references = kwargs.get('references')
        if isinstance(references, (tuple, list)):
            kwargs['references'] = dict((option, REFERENCES[option]) for option in references)
        kwargs.setdefault('service', 'gateway')
        super(GatewayResource, self).__init__(*args, **kwargs)

    def desired(self, api, existing):
        wanted = super(GatewayResource, self).desired(api, existing)
        if existing is None:
            wanted.update((key, api.params[key]) for key in self.write_only if api.params.get(key) is not None)
        self.check_taken(api, existing, [key for key in sorted(self.since) if key in wanted])
        return wanted

    def check_taken(self, api, existing, given):
        """Fail when the gateway does not take the fields ``given`` (of ``since``)."""
        if not given:
            return
        taken = set(existing if existing is not None else self.described(api))
        missing = [key for key in given if key not in taken]
        if missing:
            raise ConfigError('This platform gateway has no %s (Automation Platform %s and later have): %s %s was '
                              'not written.' % (' and '.join(missing), max(self.since[key] for key in missing),
                                                self.label, api.params[self.name]))

    def never_reset(self):
        # a field sent only to create the object is not the object's to go back to a default
        return super(GatewayResource, self).never_reset() | set(self.write_only)

    def plan_object(self, api, existing, desired, lists):
        plan = super(GatewayResource, self).plan_object(api, existing, desired, lists)
        for write in plan.writes:
            # the would-be object (check mode) shows its secrets as the gateway does
            if isinstance(write.answer, dict):
                write.answer = dict(write.answer, **dict((key, ENCRYPTED) for key in self.secret
                                                         if is_set(write.answer.get(key))))
        return plan
