"""state: enforced for the platform gateway's own objects, against a fake gateway that keeps objects in memory and
answers the OPTIONS of a list: the fields the module sets that the task does not give go back to the defaults the
OPTIONS says, in one PATCH that the diff shows; check mode sends nothing; a second run changes nothing; secrets,
write-only fields, references and required fields are left alone; a field described without a default is named in
one warning; and no OPTIONS is sent without state: enforced, nor more than one a task."""

import copy
from types import SimpleNamespace

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.modules import (
    authenticator, http_port, route, service_cluster, service_key,
)

from .test_plan import SublistClient, objects, run

CLUSTER = {'id': 22, 'name': 'c1', 'service_type': 23, 'auth_type': 'BASIC', 'upstream_hostname': 'up.example.com',
           'dns_discovery_type': 'STRICT_DNS', 'dns_lookup_family': 'V4_ONLY', 'outlier_detection_enabled': True,
           'health_checks_enabled': False}
# What a gateway's OPTIONS of a list says its POST takes (some fields with a default, some without).
DESCRIBED = {
    'service_clusters': {
        'name': {'type': 'string', 'required': True},
        'service_type': {'type': 'id', 'required': True},
        'auth_type': {'type': 'choice', 'required': False, 'default': 'JWT'},
        'upstream_hostname': {'type': 'string', 'required': False},
        'dns_discovery_type': {'type': 'choice', 'required': False, 'default': 'STRICT_DNS'},
        'dns_lookup_family': {'type': 'choice', 'required': False, 'default': 'AUTO'},
        'outlier_detection_enabled': {'type': 'boolean', 'required': False, 'default': False},
        'health_checks_enabled': {'type': 'boolean', 'required': False},
    },
    'service_keys': {
        'name': {'type': 'string', 'required': True},
        'service_cluster': {'type': 'id', 'required': True},
        'is_active': {'type': 'boolean', 'required': False, 'default': True},
        'algorithm': {'type': 'choice', 'required': False, 'default': 'HS256'},
        'secret': {'type': 'string', 'required': False, 'default': ''},
        'secret_length': {'type': 'integer', 'required': False, 'default': 64},
        'mark_previous_inactive': {'type': 'boolean', 'required': False, 'default': False},
    },
    'authenticators': {
        'name': {'type': 'string', 'required': True},
        'enabled': {'type': 'boolean', 'required': False, 'default': False},
        'create_objects': {'type': 'boolean', 'required': False, 'default': True},
        'remove_users': {'type': 'boolean', 'required': False, 'default': True},
        'configuration': {'type': 'json', 'required': False, 'default': {}},
        'order': {'type': 'integer', 'required': False, 'default': 1},
        'auto_migrate_users_to': {'type': 'id', 'required': False, 'default': None},
    },
    'routes': {
        'name': {'type': 'string', 'required': True},
        'request_timeout_seconds': {'type': 'integer', 'required': False},
        'idle_timeout_seconds': {'type': 'integer', 'required': False},
        'node_tags': {'type': 'string', 'required': False, 'default': ''},
    },
    'http_ports': {
        'name': {'type': 'string', 'required': True},
        'number': {'type': 'integer', 'required': True},
    },
}


class GatewayClient(SublistClient):
    """The fake gateway: SublistClient's objects, and the OPTIONS of its lists (``described``)."""

    def __init__(self, objects, described=None):
        super().__init__(objects, {})
        self.described = copy.deepcopy(DESCRIBED if described is None else described)

    def request(self, method, path, params=None, json_body=None, expect=None):
        if method == 'OPTIONS':
            self.calls.append((method, path, None))
            return {'name': path, 'actions': {'POST': copy.deepcopy(self.described.get(path, {}))}}
        return super().request(method, path, params, json_body, expect)

    @property
    def options(self):
        return [call for call in self.calls if call[0] == 'OPTIONS']


def gateway(**more):
    return GatewayClient(objects(service_clusters=[dict(CLUSTER)], **more))


# The diff of the reset: the fields the task asks for, as everywhere (the name), with those that go back to their
# defaults (dns_discovery_type was at its default already).
RESET_DIFF = {
    'before': {'name': 'c1', 'auth_type': 'BASIC', 'dns_discovery_type': 'STRICT_DNS', 'dns_lookup_family': 'V4_ONLY',
               'outlier_detection_enabled': True},
    'after': {'name': 'c1', 'auth_type': 'JWT', 'dns_discovery_type': 'STRICT_DNS', 'dns_lookup_family': 'AUTO',
              'outlier_detection_enabled': False}}
NOT_RESET = ('state=enforced left upstream_hostname, health_checks_enabled of service cluster c1 as they are: the '
             'OPTIONS of service_clusters gives no default for them.')


def test_enforced_puts_the_fields_not_given_back_at_the_defaults_the_options_says():
    client = gateway()
    result, api = run(service_cluster, dict(name='c1', state='enforced'), client)
    assert not result.get('failed'), result
    assert client.options == [('OPTIONS', 'service_clusters', None)]
    # one PATCH, of the fields that differ from their defaults; dns_discovery_type is at its default already
    assert client.writes == [('PATCH', 'service_clusters/22',
                              {'auth_type': 'JWT', 'dns_lookup_family': 'AUTO', 'outlier_detection_enabled': False})]
    assert result['changed']
    assert result['diff'] == RESET_DIFF
    # the service type (a reference, required) is left as it is; the fields without a default are named, once
    stored = client.objects['service_clusters'][0]
    assert stored['service_type'] == 23 and stored['upstream_hostname'] == 'up.example.com'
    assert api.warnings == [NOT_RESET]


def test_a_field_given_is_kept_and_the_others_go_back():
    client = gateway()
    result, _api = run(service_cluster, dict(name='c1', state='enforced', auth_type='TOKEN'), client)
    assert client.writes == [('PATCH', 'service_clusters/22',
                              {'auth_type': 'TOKEN', 'dns_lookup_family': 'AUTO', 'outlier_detection_enabled': False})]
    assert result['diff']['after'] == dict(RESET_DIFF['after'], auth_type='TOKEN')


def test_check_mode_shows_the_resets_and_sends_no_write():
    client = gateway()
    result, _api = run(service_cluster, dict(name='c1', state='enforced'), client, check_mode=True)
    assert client.writes == []
    assert client.objects['service_clusters'][0] == CLUSTER
    assert result['changed']
    assert result['diff'] == RESET_DIFF
    assert result['service_cluster']['auth_type'] == 'JWT'


def test_a_second_run_changes_nothing():
    client = gateway()
    first, _api = run(service_cluster, dict(name='c1', state='enforced'), client)
    assert first['changed']
    del client.calls[:]
    second, api = run(service_cluster, dict(name='c1', state='enforced'), client)
    assert not second['changed'] and 'diff' not in second
    assert client.writes == [] and len(client.options) == 1
    assert api.warnings == [NOT_RESET]


def test_present_sends_no_options_and_leaves_the_fields_not_given():
    client = gateway()
    result, api = run(service_cluster, dict(name='c1', state='present'), client)
    assert client.options == [] and client.writes == []
    assert not result['changed'] and api.warnings == []


def test_secrets_write_only_fields_and_references_are_never_reset():
    key = {'id': 31, 'name': 'k1', 'service_cluster': 22, 'is_active': False, 'algorithm': 'HS384',
           'secret': '$encrypted$'}
    client = gateway(service_keys=[key])
    result, api = run(service_key, dict(name='k1', state='enforced'), client)
    assert not result.get('failed'), result
    # secret (a secret), secret_length and mark_previous_inactive (sent only to create), service_cluster (a
    # reference) are not sent, whatever defaults the OPTIONS gives them
    assert client.writes == [('PATCH', 'service_keys/31', {'is_active': True, 'algorithm': 'HS256'})]
    assert result['diff'] == {'before': {'name': 'k1', 'is_active': False, 'algorithm': 'HS384'},
                              'after': {'name': 'k1', 'is_active': True, 'algorithm': 'HS256'}}
    assert api.warnings == []


def test_an_authenticators_configuration_type_and_references_are_left_alone():
    local = 'ansible_base.authentication.authenticator_plugins.local'
    found = {'id': 24, 'name': 'a1', 'type': local, 'slug': 'a1', 'enabled': True, 'create_objects': True,
             'remove_users': True, 'order': 5, 'configuration': {}, 'auto_migrate_users_to': 24}
    client = gateway(authenticators=[found])
    result, api = run(authenticator, dict(name='a1', state='enforced'), client)
    assert not result.get('failed'), result
    assert client.writes == [('PATCH', 'authenticators/24', {'enabled': False, 'order': 1})]
    assert result['diff'] == {'before': {'enabled': True, 'order': 5}, 'after': {'enabled': False, 'order': 1}}
    stored = client.objects['authenticators'][0]
    assert stored['auto_migrate_users_to'] == 24 and stored['type'] == local
    assert api.warnings == []


def test_a_new_object_gets_the_gateways_defaults_without_an_options_request():
    client = gateway()
    result, _api = run(http_port, dict(name='p9', number=9443, state='enforced'), client)
    assert result['changed'] and client.options == []
    assert client.writes == [('POST', 'http_ports', {'name': 'p9', 'number': 9443, 'use_https': False,
                                                     'is_api_port': False})]


def test_one_options_request_a_task_shared_with_the_release_check():
    client = gateway()
    params = dict(name='r1', state='enforced', http_port='p1', service_cluster='c1', gateway_path='/r1/',
                  service_path='/', service_port=8080, node_tags='edge', request_timeout_seconds=30)
    result, _api = run(route, params, client)
    assert not result.get('failed'), result
    # a new route: the release check reads the OPTIONS (the gateway takes the timeouts); nothing more is read
    assert client.options == [('OPTIONS', 'routes', None)]
    del client.calls[:]
    # the route made: its own fields say the gateway takes the timeouts; enforced reads the OPTIONS, once
    result, api = run(route, dict(name='r1', state='enforced'), client)
    assert client.options == [('OPTIONS', 'routes', None)]
    # node_tags (not given) has a default in the OPTIONS; the timeouts have none, and are kept
    assert result['changed'] and client.writes == [('PATCH', 'routes/101', {'node_tags': ''})]
    assert client.objects['routes'][0]['request_timeout_seconds'] == 30
    assert api.warnings == ['state=enforced left request_timeout_seconds, idle_timeout_seconds of route r1 as they '
                            'are: the OPTIONS of routes gives no default for them.']


def test_a_list_the_options_does_not_describe_leaves_everything_and_says_so():
    client = GatewayClient(objects(service_clusters=[dict(CLUSTER)]), described={})
    result, api = run(service_cluster, dict(name='c1', state='enforced'), client)
    assert client.writes == [] and not result['changed']
    assert len(api.warnings) == 1 and api.warnings[0].startswith('state=enforced left auth_type, upstream_hostname, ')
    assert 'outlier_detection_enabled' in api.warnings[0] and 'service_type' not in api.warnings[0]


def test_a_declared_secret_or_write_only_field_is_never_reset_even_when_the_module_sets_it():
    # a declaration that sends its secret and a write-only field as fields: enforced still leaves them
    declared = GatewayResource('service_keys', 'service_key', 'service key',
                               fields=('is_active', 'algorithm', 'secret', 'secret_length'),
                               references=('service_cluster',), write_only=('secret_length',), secret=('secret',))
    module = SimpleNamespace(SPEC=declared.spec(dict(service_key.ARGUMENT_SPEC)), run=declared.run)
    key = {'id': 31, 'name': 'k1', 'service_cluster': 22, 'is_active': True, 'algorithm': 'HS384',
           'secret': '$encrypted$', 'secret_length': 80}
    client = gateway(service_keys=[key])
    result, api = run(module, dict(name='k1', state='enforced'), client)
    assert not result.get('failed'), result
    assert client.writes == [('PATCH', 'service_keys/31', {'algorithm': 'HS256'})]
    assert api.warnings == []
