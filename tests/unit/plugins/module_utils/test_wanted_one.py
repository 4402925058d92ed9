"""awx.awx's words for a look-up that did not find exactly one object name the path the request went to."""

from types import SimpleNamespace

from ansible_collections.automation.service.plugins.module_utils._api_module import wanted_one
from ansible_collections.automation.service.plugins.module_utils._client import Layout


def test_the_awx_layouts_path():
    assert wanted_one('inventories', {'name': 'x', 'page_size': 2}, 0, SimpleNamespace(layout=Layout.awx())) == \
        'Request to /api/v2/inventories/?name=x returned 0 items, expected 1'


def test_the_controllers_path_behind_a_gateway():
    client = SimpleNamespace(layout=Layout.platform_gateway())
    assert wanted_one('inventories', {'name': 'x'}, 2, client) == \
        'Request to /api/controller/v2/inventories/?name=x returned 2 items, expected 1'


def test_a_client_without_a_layout_says_awxs_path():
    assert wanted_one('hosts', {}, 0, object()).startswith('Request to /api/v2/hosts/ returned')
