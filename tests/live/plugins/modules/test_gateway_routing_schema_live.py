"""The routing modules as the platform's published gateway schemas have their objects (tests/schema): the 2.7
timeouts of routes, services and UI plugin routes, refused before anything is written by a gateway standing for
2.6 (svcctl --set GATEWAY_RELEASE=2.6), which lacks them; a CA certificate's ``related_id_reference`` (once
``remote_id``) and the ``sha256`` the platform requires; a service key's ``secret``, which the gateway makes and
the module never sends. Against the reference service's gateway layout."""

import hashlib
import json
import os
import ssl
import uuid

import pytest

from .gateway_helpers import GW, admin, run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)



def collection_root():
    here = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(here, 'galaxy.yml')):
        here = os.path.dirname(here)
    return here


CA_PEM_FILE = os.path.join(collection_root(), 'tests', 'integration', 'targets', 'gateway_routing', 'files', 'ca.pem')


@pytest.fixture(scope='module')
def older(gateway_service_factory):
    """A gateway standing for Automation Platform 2.6."""
    return gateway_service_factory(GATEWAY_RELEASE=2.6)


def plumbing(svc):
    """An HTTP port and a service cluster to route to (made through the API, not the modules under test)."""
    client = admin(svc)
    kind = client.request('POST', GW + 'service_types/', json_body={
        'name': 'rs-type-' + tag(), 'ping_url': '/api/ping/', 'login_path': '/api/login/', 'logout_path': '/api/logout/',
        'service_index_path': '/api/'})
    port = client.request('POST', GW + 'http_ports/', json_body={'name': 'rs-port-' + tag(),
                                                                  'number': 20000 + uuid.uuid4().int % 20000})
    cluster = client.request('POST', GW + 'service_clusters/', json_body={'name': 'rs-cluster-' + tag(),
                                                                           'service_type': kind['id']})
    return port, cluster


def route_params(port, cluster, **more):
    name = 'rs-route-' + tag()
    return dict(name=name, http_port=port['name'], service_cluster=cluster['name'], gateway_path='/%s/' % name,
                service_path='/', service_port=8080, **more)


def test_a_route_keeps_its_2_7_timeouts(gateway):
    port, cluster = plumbing(gateway)
    params = route_params(port, cluster, request_timeout_seconds=120, idle_timeout_seconds=60)
    made, writes = run(gateway, 'route', **params)
    assert made['changed'] and not made.get('failed'), made
    assert made['route']['request_timeout_seconds'] == 120 and made['route']['effective_timeout_seconds'] == '120'
    assert made['route']['idle_timeout_seconds'] == 60
    again, writes = run(gateway, 'route', **params)
    assert not again['changed'] and writes == [], again
    longer, writes = run(gateway, 'route', diff=True, **dict(params, request_timeout_seconds=300))
    assert longer['changed'] and longer['route']['effective_timeout_seconds'] == '300', longer
    assert (longer['diff']['before']['request_timeout_seconds'], longer['diff']['after']['request_timeout_seconds']) == \
        (120, 300)
    # below the proxy's global request_timeout (30): the gateway refuses it, with its words
    short, writes = run(gateway, 'route', **dict(params, request_timeout_seconds=5))
    assert short.get('failed') and 'request_timeout_seconds' in short['msg'] and writes[-1][2] == 400, short


@pytest.mark.parametrize('module', ['route', 'service', 'ui_plugin_route'])
def test_a_gateway_without_the_timeouts_fails_before_writing(older, module):
    port, cluster = plumbing(older)
    params = route_params(port, cluster)
    if module != 'route':
        del params['gateway_path']
    if module == 'service':
        params['api_slug'] = 'api-' + tag()     # required of a service
    if module == 'ui_plugin_route':
        del params['service_path']
        params['ui_plugin_path'] = 'plugin-' + tag()
    asked, writes = run(older, module, request_timeout_seconds=60, **params)
    assert asked.get('failed') and writes == [], asked
    assert 'has no request_timeout_seconds (Automation Platform 2.7 and later have)' in asked['msg'], asked['msg']
    # made without them, then asked again with one: still refused, read from the object itself
    made, writes = run(older, module, **params)
    assert made['changed'] and not made.get('failed') and 'request_timeout_seconds' not in made[module], made
    asked, writes = run(older, module, idle_timeout_seconds=60, **params)
    assert asked.get('failed') and writes == [] and 'has no idle_timeout_seconds' in asked['msg'], asked


def test_a_ca_certificate_has_its_related_id_reference_and_the_sha256_of_its_certificate(gateway):
    with open(CA_PEM_FILE) as handle:
        pem = handle.read()
    expected = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem.strip())).hexdigest()
    name = 'rs-ca-' + tag()
    made, writes = run(gateway, 'ca_certificate', name=name, pem_data=pem, remote_id='ref-1')
    assert made['changed'] and not made.get('failed'), made.get('msg')
    assert made['ca_certificate']['related_id_reference'] == 'ref-1'
    assert made['ca_certificate']['sha256'] == expected
    again, writes = run(gateway, 'ca_certificate', name=name, pem_data=pem, related_id_reference='ref-1')
    assert not again['changed'] and writes == [], again
    bad, writes = run(gateway, 'ca_certificate', name='rs-ca-' + tag(), pem_data='no certificate here')
    assert bad.get('failed') and writes == [] and 'holds no PEM certificate' in bad['msg'], bad


def test_a_service_key_secret_is_never_sent(gateway):
    _port, cluster = plumbing(gateway)
    secret = 'rs-secret-' + tag()
    made, writes = run(gateway, 'service_key', name='rs-key-' + tag(), service_cluster=cluster['name'], secret=secret)
    assert made['changed'] and not made.get('failed'), made
    assert 'secret is not sent' in json.dumps(made.get('warnings', [])), made
    assert secret not in repr(made)
