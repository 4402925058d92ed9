# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The platform gateway's routing objects: its HTTP ports, service types, service clusters and their nodes and
keys, the services (API routes), routes and UI plugin routes it forwards, and the CA certificates it trusts.

Each is named by ``name`` (or an id) at ``/api/gateway/v1/<kind>/``, and refers to the others by id (given by
name or id). A module declares a ``Routing`` and runs it; on AWX 24, which has no gateway, the task fails before
anything is read or written."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._gateway_authentication import gateway_endpoint, run_named
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
)
FORWARDED = dict(
    service_path=dict(type='str'),
    enable_gateway_auth=dict(type='bool'),
    is_internal_route=dict(type='bool'),
    enable_mtls=dict(type='bool'),
)


class GatewayResource(Resource):
    """A Resource with fields that are sent to create an object and never compared (``write_only``: a secret the
    gateway reads back as $encrypted$ and does not let change, a length, a one-off instruction)."""

    def __init__(self, *args, **kwargs):
        self.write_only = tuple(kwargs.pop('write_only', ()))
        super(GatewayResource, self).__init__(*args, **kwargs)

    def desired(self, api, existing):
        wanted = super(GatewayResource, self).desired(api, existing)
        if existing is None:
            wanted.update((key, api.params[key]) for key in self.write_only if api.params.get(key) is not None)
        return wanted

    def plan_object(self, api, existing, desired, lists):
        plan = super(GatewayResource, self).plan_object(api, existing, desired, lists)
        for write in plan.writes:
            # the would-be object (check mode) shows its secrets as the gateway does
            if isinstance(write.answer, dict):
                write.answer = dict(write.answer, **dict((key, ENCRYPTED) for key in self.secret
                                                         if is_set(write.answer.get(key))))
        return plan


class Routing:
    """What a routing module manages: its kind (the endpoint's last segment), result key and label, the options
    sent as given, those that name another routing object (``REFERENCES``), and those needed to create one."""

    def __init__(self, kind, result_key, label, fields=(), references=(), required_on_create=(), write_only=(),
                 secret=(), compared_as=None):
        self.kind = kind
        self.result_key = result_key
        self.label = label
        self.fields = tuple(fields)
        self.references = tuple(references)
        self.required_on_create = tuple(required_on_create)
        self.write_only = tuple(write_only)
        self.secret = tuple(secret)
        self.compared_as = compared_as

    def declared(self, path_of):
        """The Resource, with ``path_of(kind)`` the path of each kind of object."""
        return GatewayResource(
            path_of(self.kind), self.result_key, self.label,
            fields=self.fields,
            references=dict((option, path_of(REFERENCES[option])) for option in self.references),
            required_on_create=self.required_on_create,
            write_only=self.write_only,
            secret=self.secret,
            compared_as=self.compared_as,
        )

    def spec(self, argument_spec, **spec_kwargs):
        # The declaration as documented (the gateway's paths are settled per task, from the service's layout).
        return self.declared(lambda kind: kind).spec(argument_spec, **spec_kwargs)

    def run(self, api):
        """Make the object match, at the gateway's paths (a ConfigError on AWX 24)."""
        run_named(api, self.declared(lambda kind: gateway_endpoint(api, kind, self.result_key)))
