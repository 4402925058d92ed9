"""state: enforced against the reference service's gateway layout: an object made with fields away from their
defaults goes back to the defaults the list's OPTIONS says, check mode first writing nothing, a second run changing
nothing; the fields the OPTIONS lists without a default are left as they are and named in one warning; one OPTIONS a
task, and none without enforced.

The reference gateway's OPTIONS gives a ``default`` for its choice fields only (a service cluster's auth_type,
dns_discovery_type and dns_lookup_family, a service key's algorithm); its other fields, whose model has defaults
too, are described without one, which is the warning's path."""

import json

from .gateway_helpers import GW, admin, run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)

# What the reference gateway's OPTIONS of service_clusters/ describes without a default, among the module's fields.
CLUSTER_NOT_RESET = ('upstream_hostname', 'outlier_detection_enabled', 'health_checks_enabled',
                     'outlier_detection_consecutive_5xx', 'outlier_detection_interval_seconds',
                     'outlier_detection_base_ejection_time_seconds', 'outlier_detection_max_ejection_percent',
                     'health_check_timeout_seconds', 'health_check_interval_seconds',
                     'health_check_unhealthy_threshold', 'health_check_healthy_threshold', 'healthy_panic_threshold')


def options_sent(svc, mark):
    return [(e['method'], e['path']) for e in svc.since(mark) if e['method'] == 'OPTIONS']


def warnings(result, name):
    """The task's warnings of state=enforced about ``name`` (a result's warnings are texts, or summaries whose event
    has the text; those of earlier runs in this process may be there too)."""
    said = [(w.get('event') or w).get('msg') if isinstance(w, dict) else w for w in result.get('warnings', [])]
    return [w for w in said if str(w).startswith('state=enforced left ') and ' %s as ' % name in str(w)]


def service_type(client):
    return client.request('POST', GW + 'service_types/', json_body={'name': 'enf-type-' + tag(), 'ping_url': '/p/'})


def drifted_cluster(client):
    """A service cluster whose choice fields are away from their defaults (and an upstream host name set)."""
    return client.request('POST', GW + 'service_clusters/', json_body={
        'name': 'enf-cluster-' + tag(), 'service_type': service_type(client)['id'], 'auth_type': 'BASIC',
        'dns_discovery_type': 'LOGICAL_DNS', 'dns_lookup_family': 'V4_ONLY', 'upstream_hostname': 'up.example.com',
        'outlier_detection_consecutive_5xx': 7})


def test_the_reference_gateways_options_gives_defaults_for_its_choice_fields(gateway):
    described = admin(gateway).request('OPTIONS', GW + 'service_clusters/')['actions']['POST']
    assert dict((key, about['default']) for key, about in described.items() if 'default' in about) == {
        'auth_type': 'JWT', 'dns_discovery_type': 'STRICT_DNS', 'dns_lookup_family': 'AUTO'}


def test_enforced_puts_a_cluster_back_at_the_defaults(gateway):
    client = admin(gateway)
    cluster = drifted_cluster(client)
    name = cluster['name']
    path = GW + 'service_clusters/%d/' % cluster['id']

    # check mode: the resets said, nothing written
    mark = gateway.mark()
    checked, writes = run(gateway, 'service_cluster', check_mode=True, diff=True, name=name, state='enforced')
    assert checked['changed'] and not checked.get('failed') and writes == [], checked
    assert options_sent(gateway, mark) == [('OPTIONS', GW + 'service_clusters/')]
    assert checked['diff']['before'] == {'name': name, 'auth_type': 'BASIC', 'dns_discovery_type': 'LOGICAL_DNS',
                                         'dns_lookup_family': 'V4_ONLY'}
    assert checked['diff']['after'] == {'name': name, 'auth_type': 'JWT', 'dns_discovery_type': 'STRICT_DNS',
                                        'dns_lookup_family': 'AUTO'}
    assert client.request('GET', path)['auth_type'] == 'BASIC'

    # the run: one PATCH, the fields back at their defaults; those without a default kept, and named once
    mark = gateway.mark()
    done, writes = run(gateway, 'service_cluster', diff=True, name=name, state='enforced')
    assert done['changed'] and writes == [('PATCH', path, 200)], done
    assert len(options_sent(gateway, mark)) == 1
    assert done['diff'] == checked['diff']
    now = client.request('GET', path)
    assert (now['auth_type'], now['dns_discovery_type'], now['dns_lookup_family']) == ('JWT', 'STRICT_DNS', 'AUTO')
    assert now['upstream_hostname'] == 'up.example.com' and now['outlier_detection_consecutive_5xx'] == 7
    assert now['service_type'] == cluster['service_type']
    warned = warnings(done, name)
    assert len(warned) == 1 and ', '.join(CLUSTER_NOT_RESET) in warned[0], done.get('warnings')

    # again: nothing to change
    again, writes = run(gateway, 'service_cluster', name=name, state='enforced')
    assert not again['changed'] and writes == [], again

    # present leaves the fields not given, and reads no OPTIONS
    client.request('PATCH', path, json_body={'auth_type': 'TOKEN'})
    mark = gateway.mark()
    kept, writes = run(gateway, 'service_cluster', name=name)
    assert not kept['changed'] and writes == [] and options_sent(gateway, mark) == [], kept
    assert client.request('GET', path)['auth_type'] == 'TOKEN'


def test_enforced_resets_a_keys_algorithm_and_never_sends_its_secret(gateway):
    client = admin(gateway)
    cluster = drifted_cluster(client)
    key = client.request('POST', GW + 'service_keys/', json_body={
        'name': 'enf-key-' + tag(), 'service_cluster': cluster['id'], 'algorithm': 'HS384', 'secret_length': 80,
        'mark_previous_inactive': False})
    path = GW + 'service_keys/%d/' % key['id']
    mark = gateway.mark()
    done, writes = run(gateway, 'service_key', diff=True, name=key['name'], state='enforced')
    assert done['changed'] and writes == [('PATCH', path, 200)], done
    sent = [e for e in gateway.since(mark) if e['method'] == 'PATCH']
    body = json.dumps(sent)
    assert 'secret' not in body and 'mark_previous_inactive' not in body
    assert (done['diff']['before']['algorithm'], done['diff']['after']['algorithm']) == ('HS384', 'HS256')
    assert client.request('GET', path)['algorithm'] == 'HS256'
    # is_active: described without a default
    assert any('is_active' in w for w in warnings(done, key['name'])), done
    again, writes = run(gateway, 'service_key', name=key['name'], state='enforced')
    assert not again['changed'] and writes == [], again


def test_fields_without_a_default_are_left_as_they_are_and_said(gateway):
    client = admin(gateway)
    kind = client.request('POST', GW + 'service_types/', json_body={
        'name': 'enf-type-' + tag(), 'ping_url': '/api/ping/', 'login_path': '/api/login/'})
    checked, writes = run(gateway, 'service_type', check_mode=True, name=kind['name'], state='enforced')
    assert not checked['changed'] and writes == [], checked
    done, writes = run(gateway, 'service_type', name=kind['name'], state='enforced')
    assert not done['changed'] and writes == [], done
    warned = warnings(done, kind['name'])
    assert warned == ['state=enforced left ping_url, login_path, logout_path, service_index_path of service type %s '
                      'as they are: the OPTIONS of %sservice_types/ gives no default for them.' % (kind['name'], GW)]
    now = client.request('GET', GW + 'service_types/%d/' % kind['id'])
    assert (now['ping_url'], now['login_path']) == ('/api/ping/', '/api/login/')
