"""export and import of Automation Hub's objects where the service has no Hub: AWX 24 (no Hub in its layout) and
the reference service's gateway layout without a Hub behind it (its /api/galaxy/ is not found). Named, the Hub's
kinds fail before anything is read or written, saying why; with every kind at once (on AWX 24), they are left out.

The real Hub's part is tests/hub/tests/test_hub_export.py (make test's hub step); the modules run in this process
(gateway_helpers.run), so the service's request log tells what each wrote."""

from .gateway_helpers import run
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)

NAMESPACE = {'hub_namespaces': [{'name': 'ns', 'natural_key': {'type': 'hub_namespace', 'name': 'ns'}}]}


def test_hub_objects_on_awx_24_fail_when_named_and_are_left_out_of_everything(service):
    named, _ = run(service, 'export', hub_collection_remotes=['all'])
    assert named.get('failed') and 'hub_collection_remotes: Automation Hub' in named['msg'], named
    applied, writes = run(service, 'import', assets=NAMESPACE)
    assert applied.get('failed') and 'assets.hub_namespaces' in applied['msg'] and writes == [], applied
    everything, _ = run(service, 'export', organizations=['Default'], all=True)
    assert not everything.get('failed'), everything.get('msg')
    assert not [key for key in everything['assets'] if key.startswith('hub_')]


def test_hub_objects_behind_a_gateway_without_a_hub_fail_when_named(gateway):
    # (Every kind at once is not exported behind this gateway for another reason: the controller's applications are
    # the gateway's there, and export reads them at the controller, which answers 404.)
    named, _ = run(gateway, 'export', hub_namespaces=['ns'], hub_ee_registries=['all'])
    assert named.get('failed') and 'serves no Automation Hub API at /api/galaxy/' in named['msg'], named
    assert 'hub_namespaces, hub_ee_registries' in named['msg']
    applied, writes = run(gateway, 'import', assets=NAMESPACE)
    assert applied.get('failed') and 'assets.hub_namespaces' in applied['msg'] and writes == [], applied
