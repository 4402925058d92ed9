"""What the tests of the gateway layout share: the service's gateway-layout fixture, and a module run that
returns the writes it sent, read from the service's request log (requests.jsonl), which names the API each
request went to: the gateway's under /api/gateway/v1/, the controller's under the path the controller sees
(/api/v2/, also behind the gateway).

A test module takes the fixtures by importing them: ``from .gateway_helpers import gateway, forget_layouts``.
"""

import uuid

import pytest

from ..module_utils.helpers import connect_as, forget_layouts  # noqa: F401 (the fixture, for the test modules)
from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import run_module

WRITES = ('POST', 'PATCH', 'PUT', 'DELETE')
LOGIN_PATHS = ('/api/login/', '/api/logout/', '/api/gateway/v1/login/', '/api/gateway/v1/logout/')
GW = '/api/gateway/v1/'
CTL = '/api/v2/'


@pytest.fixture(scope='module')
def gateway(gateway_service_factory):
    return gateway_service_factory()    # from the pool of tests/conftest.py


def tag():
    return uuid.uuid4().hex[:8]


def connection(svc):
    return dict(service_url=svc.url, ca_path=str(svc.ca_path), service_username=svc.admin_username,
                service_password=svc.admin_password)


def run(svc, module, check_mode=False, diff=False, **params):
    """The module's result and the writes it sent ((method, path, status), logins left out)."""
    args = dict(connection(svc), **params)
    if diff:
        args['_ansible_diff'] = True
    mark = svc.mark()
    result = run_module(module, args, check_mode=check_mode)
    writes = [(e['method'], e['path'], e['status']) for e in svc.since(mark)
              if e['method'] in WRITES and e['path'] not in LOGIN_PATHS]
    return result, writes


def admin(svc):
    return connect_as(svc, service_auth='basic')
