"""export and import of Event-Driven Ansible's objects, against the reference service in the platform gateway's
layout (EDA at /api/eda/v1/ behind it): what is exported (references by natural key, secrets left out, EDA's own
types and credentials never; an activation's rulebook by project and name, its event streams by name), an import
of the same data changing nothing, an activation enabled and edited (disabled first, as EDA requires), deleted
objects made again (a project imported before the activation that names its rulebook), a credential whose required
secret the data leaves out refused before anything is written, and AWX 24 (no EDA).

The modules run in this process (gateway_helpers.run), so the service's request log tells what each wrote."""

import json
import time
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
    # A project of the sample repository the reference service clones in place of the public one, an event stream,
    # and a disabled activation of the project's webhook rulebook whose one source the event stream stands for.
    project = eda_request(gateway, 'POST', 'projects/', {
        'name': prefix + '-project', 'url': 'https://github.com/ansible/eda-sample-project',
        'organization_id': organization, 'description': 'rulebooks'})
    project = imported(gateway, project)
    basic = eda_find(gateway, 'credential-types/', 'Basic Event Stream')
    sender = eda_request(gateway, 'POST', 'eda-credentials/', {
        'name': prefix + '-sender', 'credential_type_id': basic['id'], 'organization_id': organization,
        'inputs': {'username': 'sender', 'password': secret}})
    stream = eda_request(gateway, 'POST', 'event-streams/', {
        'name': prefix + '-stream', 'eda_credential_id': sender['id'], 'organization_id': organization})
    rulebook = [rulebook for rulebook in eda_request(gateway, 'GET', 'rulebooks/?project_id=%d' % project['id'])['results']
                if rulebook['name'] == 'hello_webhook.yml'][0]
    source = eda_request(gateway, 'GET', 'rulebooks/%d/sources/' % rulebook['id'])['results'][0]
    mappings = '- event_stream_id: %d\n  event_stream_name: %s\n  rulebook_hash: %s\n  source_name: %s\n' % (
        stream['id'], stream['name'], source['rulebook_hash'], source['name'])
    activation = eda_request(gateway, 'POST', 'activations/', {
        'name': prefix + '-activation', 'rulebook_id': rulebook['id'], 'decision_environment_id': environment['id'],
        'organization_id': organization, 'is_enabled': False, 'eda_credentials': [key['id']],
        'extra_var': 'threshold: 3\n', 'source_mappings': mappings, 'log_level': 'info'})
    return dict(prefix=prefix, secret=secret, type=kind, key=key, registry=registry, environment=environment,
                project=project, sender=sender, stream=stream, rulebook=rulebook, source=source, activation=activation)


def imported(svc, project):
    """The project once EDA's import of it ended."""
    for _ in range(120):
        if project['import_state'] in ('completed', 'failed'):
            break
        time.sleep(0.5)
        project = eda_request(svc, 'GET', 'projects/%d/' % project['id'])
    assert project['import_state'] == 'completed', project
    return project


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


def test_projects_event_streams_and_activations_export_and_are_made_again_where_they_were(gateway, made):
    prefix, default = made['prefix'], {'type': 'organization', 'name': 'Default'}
    project_key = {'type': 'eda_project', 'name': prefix + '-project'}
    exported, writes = run(gateway, 'export', eda_projects=[prefix + '-project'], eda_event_streams=[prefix + '-stream'],
                           eda_rulebook_activations=[str(made['activation']['id'])],
                           eda_credentials=names(prefix, '-key', '-sender'))
    assert not exported.get('failed') and writes == [], exported
    assets = exported['assets']
    assert made['secret'] not in json.dumps(exported)
    project = assets['eda_projects'][0]
    assert project['natural_key'] == project_key and project['organization'] == default
    assert project['url'] == 'https://github.com/ansible/eda-sample-project' and project['description'] == 'rulebooks'
    stream = assets['eda_event_streams'][0]
    assert stream['uuid'] == made['stream']['uuid'] and stream['organization'] == default
    assert stream['eda_credential'] == {'type': 'eda_credential', 'name': prefix + '-sender'}
    activation = assets['eda_rulebook_activations'][0]
    assert activation['natural_key'] == {'type': 'eda_rulebook_activation', 'name': prefix + '-activation'}
    assert activation['rulebook'] == {'type': 'eda_rulebook', 'project': project_key, 'name': 'hello_webhook.yml'}
    assert activation['decision_environment'] == {'type': 'eda_decision_environment', 'name': prefix + '-de'}
    assert activation['eda_credentials'] == [{'type': 'eda_credential', 'name': prefix + '-key'}]
    assert activation['awx_token'] is None and activation['is_enabled'] is False and activation['log_level'] == 'info'
    # the event stream by name only: its id is the service's
    assert activation['source_mappings'] == [{'event_stream_name': prefix + '-stream', 'source_name': 'incoming',
                                              'rulebook_hash': made['source']['rulebook_hash']}]

    same, writes = run(gateway, 'import', assets=assets)
    assert not same['changed'] and writes == [], (same, writes)

    # Enabled through the data: the one write that enables it; then a field changed while it runs: disabled,
    # edited and enabled again (EDA edits only a disabled activation).
    path = '%sactivations/%d/' % (EDA, made['activation']['id'])
    enabled = dict(assets, eda_rulebook_activations=[dict(activation, is_enabled=True)])
    result, writes = run(gateway, 'import', assets=enabled)
    assert result['changed'] and result['updated'] == ['eda rulebook activation %s-activation' % prefix], result
    assert [(method, path_) for method, path_, _ in writes] == [('POST', path + 'enable/')]
    edited = dict(assets, eda_rulebook_activations=[dict(activation, is_enabled=True, extra_var='threshold: 5\n')])
    result, writes = run(gateway, 'import', assets=edited, diff=True)
    assert [(method, path_) for method, path_, _ in writes] == [
        ('POST', path + 'disable/'), ('PATCH', path), ('POST', path + 'enable/')], (result, writes)
    now = eda_request(gateway, 'GET', 'activations/%d/' % made['activation']['id'])
    assert now['is_enabled'] is True and 'threshold: 5' in now['extra_var']
    again, writes = run(gateway, 'import', assets=edited)
    assert not again['changed'] and writes == [], (again, writes)

    # Deleted, then made again from the data: the project imported before the activation names its rulebook, the
    # event stream with its uuid (senders keep their URL), the activation's source mapped to the new stream.
    eda_request(gateway, 'POST', 'activations/%d/disable/' % made['activation']['id'])
    eda_request(gateway, 'DELETE', 'activations/%d/' % made['activation']['id'])
    eda_request(gateway, 'DELETE', 'event-streams/%d/' % made['stream']['id'])
    eda_request(gateway, 'DELETE', 'projects/%d/' % made['project']['id'])
    planned, writes = run(gateway, 'import', assets=assets, check_mode=True)
    assert planned['changed'] and writes == [], planned
    result, writes = run(gateway, 'import', assets=assets)
    assert not result.get('failed'), result
    assert sorted(result['created']) == sorted(planned['created']) == sorted([
        'eda project %s-project' % prefix, 'eda event stream %s-stream' % prefix,
        'eda rulebook activation %s-activation' % prefix])
    assert [(method, path_) for method, path_, _ in writes] == [
        ('POST', EDA + 'projects/'), ('POST', EDA + 'event-streams/'), ('POST', EDA + 'activations/')]
    stream = eda_find(gateway, 'event-streams/', prefix + '-stream')
    assert stream['uuid'] == made['stream']['uuid'] and stream['id'] != made['stream']['id']
    new = eda_find(gateway, 'activations/', prefix + '-activation')
    assert new['is_enabled'] is False and new['rulebook_name'] == 'hello_webhook.yml'
    assert 'event_stream_id: %d' % stream['id'] in new['source_mappings']
    assert eda_find(gateway, 'projects/', prefix + '-project')['import_state'] == 'completed'
    again, writes = run(gateway, 'import', assets=assets)
    assert not again['changed'] and writes == [], (again, writes)


def test_deleted_eda_objects_are_made_again_and_a_missing_required_secret_is_refused_first(gateway, made):
    prefix = made['prefix']
    exported, _ = run(gateway, 'export', eda_credentials=names(prefix, '-key', '-registry'),
                      eda_decision_environments=[prefix + '-de'])
    data = exported['assets']
    activation = eda_find(gateway, 'activations/', prefix + '-activation')    # it names both: it goes first
    if activation is not None:
        eda_request(gateway, 'POST', 'activations/%d/disable/' % activation['id'])
        eda_request(gateway, 'DELETE', 'activations/%d/' % activation['id'])
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

