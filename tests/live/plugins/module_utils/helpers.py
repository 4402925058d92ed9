"""Small helpers shared by the auth-layer tests."""

import pytest

from ansible_collections.automation.service.plugins.module_utils import _client
from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._options import resolve


def options_for(service, environ=None, **given):
    """Resolved options for ``service`` with the admin's credentials unless overridden."""
    base = {
        'service_url': service.url,
        'ca_path': service.ca_path,
        'service_username': service.admin_username,
        'service_password': service.admin_password,
    }
    base.update(given)
    return resolve(base, environ=environ if environ is not None else {})


def connect_as(service, **given):
    return connect(options_for(service, **given))


def logins(entries):
    return [e for e in entries if e['method'] == 'POST' and e['path'] == '/api/login/']


def mint_token(service, scope='write'):
    """A personal access token made by a plain request, as the admin."""
    client = connect_as(service, service_auth='basic')
    return client.request('POST', 'tokens', json_body={'description': 'test', 'scope': scope})


@pytest.fixture(autouse=True)
def forget_layouts():
    """Each test starts as a new process would: no service layout found or asked for yet in memory (a test module
    takes it by importing it)."""
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
    yield
    _client._FOUND_LAYOUTS.clear()
    _client._ASKED_LAYOUTS.clear()
