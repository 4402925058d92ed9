"""export and import of Event-Driven Ansible's objects, against the reference service in the platform gateway's
layout (EDA at /api/eda/v1/ behind it): what is exported (references by natural key, secrets left out, EDA's own
types and credentials never), an import of the same data changing nothing, deleted objects made again, a
credential whose required secret the data leaves out refused before anything is written, and AWX 24 (no EDA).

The modules run in this process (gateway_helpers.run), so the service's request log tells what each wrote."""

import json
import uuid
from urllib.parse import quote

import pytest

from .gateway_helpers import run, tag
from .gateway_helpers import forget_layouts, gateway  # noqa: F401 (fixtures)

EDA = '/api/eda/v1/'


def eda_request(svc, method, endpoint, data=None, expect=(200, 201, 204)):
    status, body = svc.admin_request(method, EDA + endpoint, data)
    assert status in expect, (method, endpoint, status, body)
    return body


def eda_find(svc, endpoint, name):
    found = [obj for obj in eda_request(svc, 'GET', '%s?name=%s&page_size=100' % (endpoint, quote(name)))['results']
             if obj['name'] == name]
    return found[0] if found else None


@pytest.fixture(scope='module')
def made(gateway):
    """EDA's objects of one test module: a custom credential type with a required secret, credentials of it and of
    EDA's Container Registry type, a decision environment pulling with the registry credential."""
    prefix = 'exp-' + tag()
    secret = uuid.uuid4().hex
    organization = eda_request(gateway, 'GET', 'organizations/?name=Default')['results'][0]['id']
    kind = eda_request(gateway, 'POST', 'credential-types/', {
        'name': prefix + '-type', 'description': 'an API key',
        'inputs': {'fields': [{'id': 'api_key', 'label': 'API key', 'type': 'string', 'secret': True},
                              {'id': 'region', 'label': 'Region', 'type': 'string'}],
                   'required': ['api_key']},
        'injectors': {'extra_vars': {'api_key': '{{ api_key }}'}}})
    key = eda_request(gateway, 'POST', 'eda-credentials/', {
        'name': prefix + '-key', 'credential_type_id': kind['id'], 'organization_id': organization,
        'inputs': {'api_key': secret, 'region': 'north'}})
    registry_type = eda_find(gateway, 'credential-types/', 'Container Registry')
    registry = eda_request(gateway, 'POST', 'eda-credentials/', {
        'name': prefix + '-registry', 'credential_type_id': registry_type['id'], 'organization_id': organization,
        'inputs': {'host': 'quay.io', 'username': 'puller', 'password': secret}})
    environment = eda_request(gateway, 'POST', 'decision-environments/', {
        'name': prefix + '-de', 'image_url': 'quay.io/ansible/ansible-rulebook:main', 'organization_id': organization,
        'eda_credential_id': registry['id'], 'pull_policy': 'missing'})
    return dict(prefix=prefix, secret=secret, type=kind, key=key, registry=registry, environment=environment)


def names(prefix, *suffixes):
    return [prefix + suffix for suffix in suffixes]


def test_eda_objects_export_with_natural_keys_and_import_again_as_they_were(gateway, made):
    prefix, default = made['prefix'], {'type': 'organization', 'name': 'Default'}
    result, writes = run(gateway, 'export', eda_credential_types=[prefix + '-type'],
                         eda_credentials=names(prefix, '-key', '-registry'), eda_decision_environments=['all'])
    assert not result.get('failed') and not result['changed'] and writes == [], result
    assets = result['assets']
    assert sorted(assets) == ['eda_credential_types', 'eda_credentials', 'eda_decision_environments']
    assert made['secret'] not in json.dumps(result)
    kind = assets['eda_credential_types'][0]
    assert kind['natural_key'] == {'type': 'eda_credential_type', 'name': prefix + '-type'}
    assert kind['inputs'] == made['type']['inputs'] and kind['injectors'] == made['type']['injectors']
    key, registry = sorted(assets['eda_credentials'], key=lambda asset: asset['name'])
    assert key['natural_key'] == {'type': 'eda_credential', 'name': prefix + '-key'}
    assert key['credential_type'] == {'type': 'eda_credential_type', 'name': prefix + '-type'}
    assert key['organization'] == default and key['inputs'] == {'api_key': '', 'region': 'north'}
    assert registry['credential_type'] == {'type': 'eda_credential_type', 'name': 'Container Registry'}
    assert registry['inputs']['password'] == '' and registry['inputs']['username'] == 'puller'
    environment = next(asset for asset in assets['eda_decision_environments'] if asset['name'] == prefix + '-de')
    assert environment == {
        'name': prefix + '-de', 'description': '', 'image_url': 'quay.io/ansible/ansible-rulebook:main',
        'pull_policy': 'missing', 'organization': default,
        'eda_credential': {'type': 'eda_credential', 'name': prefix + '-registry'},
        'natural_key': {'type': 'eda_decision_environment', 'name': prefix + '-de'}}

    # Every credential type and credential: EDA's own never (its managed types, Container Registry among them).
    everything, _ = run(gateway, 'export', eda_credential_types=['all'], eda_credentials=['all'])
    exported_types = [asset['name'] for asset in everything['assets']['eda_credential_types']]
    assert prefix + '-type' in exported_types and 'Container Registry' not in exported_types

    # The same data again: nothing to write; the secrets the data leaves out are the credentials' own.
    data = dict(assets, eda_decision_environments=[environment])
    again, writes = run(gateway, 'import', assets=data)
    assert not again.get('failed') and not again['changed'] and writes == [], (again, writes)
    assert again['created'] == [] and again['updated'] == [] and again['secrets_needed'] == {}

    # A field changed in the data: only that field is written, the secrets kept.
    data['eda_credentials'] = [dict(key, inputs={'api_key': '', 'region': 'south'}), registry]
    changed, writes = run(gateway, 'import', assets=data, diff=True)
    assert changed['changed'] and changed['updated'] == ['eda credential %s-key' % prefix], changed
    assert writes == [('PATCH', '%seda-credentials/%d/' % (EDA, made['key']['id']), 200)]
    assert eda_find(gateway, 'eda-credentials/', prefix + '-key')['inputs'] == {'api_key': '$encrypted$',
                                                                               'region': 'south'}
    assert made['secret'] not in json.dumps(changed)


def test_deleted_eda_objects_are_made_again_and_a_missing_required_secret_is_refused_first(gateway, made):
    prefix = made['prefix']
    exported, _ = run(gateway, 'export', eda_credentials=names(prefix, '-key', '-registry'),
                      eda_decision_environments=[prefix + '-de'])
    data = exported['assets']
    eda_request(gateway, 'DELETE', 'decision-environments/%d/' % made['environment']['id'])
    eda_request(gateway, 'DELETE', 'eda-credentials/%d/' % made['key']['id'])

    # The key's type requires api_key, which the export left out: refused before anything is written.
    refused, writes = run(gateway, 'import', assets=data)
    assert refused.get('failed') and writes == [], refused
    assert 'eda credential %s-key (inputs api_key)' % prefix in refused['msg'], refused['msg']
    assert eda_find(gateway, 'decision-environments/', prefix + '-de') is None

    # Given in the data: the plan in check mode writes nothing, then both are made, the secret never shown.
    secret = uuid.uuid4().hex
    key = next(asset for asset in data['eda_credentials'] if asset['name'] == prefix + '-key')
    key['inputs'] = dict(key['inputs'], api_key=secret)
    planned, writes = run(gateway, 'import', assets=data, check_mode=True)
    assert planned['changed'] and writes == [], planned
    assert sorted(planned['created']) == ['eda credential %s-key' % prefix, 'eda decision environment %s-de' % prefix]
    imported, writes = run(gateway, 'import', assets=data, diff=True)
    assert imported['changed'] and sorted(imported['created']) == sorted(planned['created']), imported
    assert [(method, path) for method, path, _ in writes] == [('POST', EDA + 'eda-credentials/'),
                                                             ('POST', EDA + 'decision-environments/')]
    assert secret not in json.dumps(imported) and imported['secrets_needed'] == {}
    environment = eda_find(gateway, 'decision-environments/', prefix + '-de')
    assert environment['eda_credential_id'] == made['registry']['id'] and environment['pull_policy'] == 'missing'
    # (EDA reads the secret back masked; the credential holds the one given)
    assert eda_find(gateway, 'eda-credentials/', prefix + '-key')['inputs']['api_key'] == '$encrypted$'

    again, writes = run(gateway, 'import', assets=data)
    assert not again['changed'] and writes == [], (again, writes)


def test_eda_objects_on_awx_24_fail_when_named_and_are_left_out_of_everything(service):
    named, _ = run(service, 'export', eda_projects=['all'])
    assert named.get('failed') and 'only behind a platform gateway' in named['msg'], named
    applied, writes = run(service, 'import', assets={'eda_projects': [
        {'name': 'p', 'natural_key': {'type': 'eda_project', 'name': 'p'}}]})
    assert applied.get('failed') and 'assets.eda_projects' in applied['msg'] and writes == [], applied
    everything, _ = run(service, 'export', organizations=['Default'], all=True)
    assert not everything.get('failed') and not [key for key in everything['assets'] if key.startswith('eda_')]
