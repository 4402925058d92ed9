"""Where Event-Driven Ansible's API is (the Layout's ``eda``): behind a gateway at /api/eda/v1/, or where the gateway's
GET /api/ names it; kept in and read back from the session cache, an entry kept before it had EDA's root read as
a 2.5-2.7 gateway serves it; none on AWX. And _eda's reading of a reference, as an id or a nested object."""

from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.module_utils._eda import referred_id


def test_a_gateway_serves_eda_at_api_eda_v1_and_awx_has_none():
    gateway = Layout.from_root({'apis': {'gateway': '/api/gateway/', 'controller': '/api/controller/'}})
    assert gateway.eda == '/api/eda/v1/'
    assert gateway.eda_path('decision-environments') == '/api/eda/v1/decision-environments/'
    assert gateway.eda_path('users/me/awx-tokens') == '/api/eda/v1/users/me/awx-tokens/'
    named = Layout.from_root({'apis': {'gateway': '/api/gateway/', 'controller': '/api/controller/', 'eda': '/x/eda/'}})
    assert named.eda_path('projects') == '/x/eda/v1/projects/'
    awx = Layout.from_root({'current_version': '/api/v2/'})
    assert awx.eda is None and awx.eda_path('projects') is None


def test_the_cache_keeps_edas_root_and_an_older_entry_reads_as_the_default():
    entry = Layout.platform_gateway(eda='/x/eda/v1/').as_entry()
    assert Layout.from_entry(entry).eda == '/x/eda/v1/'
    older = dict(entry)
    del older['eda']
    assert Layout.from_entry(older).eda == '/api/eda/v1/'
    # a layout whose EDA moved is another layout (the client asks again on a 404)
    assert Layout.platform_gateway(eda='/x/eda/v1/').key != Layout.platform_gateway().key


def test_a_reference_reads_as_its_id_whether_listed_or_nested():
    assert referred_id({'organization_id': 3}, 'organization_id') == 3
    assert referred_id({'organization': {'id': 4, 'name': 'Default'}}, 'organization_id') == 4
    assert referred_id({'eda_credential': None}, 'eda_credential_id') is None
    assert referred_id({'source_credential': 9}, 'source_credential_id') == 9
    assert referred_id(None, 'organization_id') is None


def test_an_eda_object_is_written_at_its_id_whatever_its_url_says():
    from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask, ModuleSpec
    api = ApiTask(ModuleSpec({}), {})
    # a project's url is its git repository, an event stream's its webhook: neither is where the object is
    project = {'id': 4, 'url': 'https://github.com/example/rulebooks.git'}
    assert api.detail_path(project, '/api/eda/v1/projects/') == '/api/eda/v1/projects/4/'
    # the controller's objects are where their url says
    assert api.detail_path({'id': 4, 'url': '/api/v2/hosts/4/'}, 'hosts') == '/api/v2/hosts/4/'
    assert api.detail_path({'id': 4}, 'hosts') == 'hosts/4'
