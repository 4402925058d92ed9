"""eda_rulebook_activation, eda_rulebook_activation_copy, eda_rulebook_activation_info and eda_event_stream(_info)
against the reference service's gateway layout: an activation made with its event stream mapped to the rulebook's
source runs (as the reference service simulates it) and is unchanged the second time; a change to it while enabled
fails before any write (the service refuses it); disabled, it is changed and enabled again; restart; the copy is
made once, disabled; the event stream is left alone the second time; the info modules keep the exact name; on a
2.6 gateway, the fields EDA 2.6 has not are not compared."""

import time

import pytest

from .gateway_helpers import gateway, run, tag  # noqa: F401 (the fixture)

EDA = '/api/eda/v1/'
SAMPLE = 'https://github.com/ansible/eda-sample-project'


@pytest.fixture(scope='module')
def made(gateway):
    """A project of the sample rulebooks, a decision environment and an event stream, named after one tag."""
    name = tag()
    run(gateway, 'eda_project', name='rb %s' % name, url=SAMPLE, organization_name='Default', interval=0.2)
    run(gateway, 'eda_decision_environment', name='de %s' % name, image_url='quay.io/ansible/ansible-rulebook:main',
        organization_name='Default')
    run(gateway, 'eda_credential', name='hmac %s' % name, credential_type_name='HMAC Event Stream',
        organization_name='Default', inputs={'secret': 'not-so-secret-%s' % name})
    stream, _writes = run(gateway, 'eda_event_stream', name='stream %s' % name, credential_name='hmac %s' % name,
                          organization_name='Default', forward_events=True)
    assert stream['changed'] is True and stream['event_stream']['test_mode'] is False, stream
    return name


def activation(made, **more):
    """The options of an activation of hello_webhook.yml, of what ``made`` made."""
    return dict(dict(name='hello %s' % made, project_name='rb %s' % made, rulebook_name='hello_webhook.yml',
                     decision_environment_name='de %s' % made, organization_name='Default'), **more)


def test_an_activation_listening_to_an_event_stream_then_changed_while_disabled(gateway, made):
    options = activation(made, event_streams=[{'event_stream': 'stream %s' % made, 'source_name': 'incoming'}],
                         extra_vars='greeting: hello')
    result, writes = run(gateway, 'eda_rulebook_activation', diff=True, **options)
    assert result['changed'] is True, result
    assert [w[:2] for w in writes] == [('POST', EDA + 'activations/')]
    body = result['rulebook_activation']
    assert body['is_enabled'] is True and 'incoming' in body['source_mappings']
    assert result['diff']['after']['source_mappings'][0]['event_stream_name'] == 'stream %s' % made

    again, writes = run(gateway, 'eda_rulebook_activation', **dict(options, extra_vars='{"greeting": "hello"}'))
    assert again['changed'] is False and writes == []

    refused, writes = run(gateway, 'eda_rulebook_activation', **dict(options, log_level='debug'))
    assert refused['failed'] is True and 'state=disabled' in refused['msg'] and writes == []

    off, writes = run(gateway, 'eda_rulebook_activation', **dict(options, state='disabled'))
    assert off['changed'] is True
    assert [w[:2] for w in writes] == [('POST', EDA + 'activations/%d/disable/' % result['id'])]
    changed, writes = run(gateway, 'eda_rulebook_activation', diff=True, **dict(options, log_level='debug'))
    assert changed['changed'] is True and [w[:2] for w in writes] == [('PATCH', EDA + 'activations/%d/' % result['id'])]
    assert changed['rulebook_activation']['log_level'] == 'debug'
    assert changed['diff']['after'] == {'log_level': 'debug', 'is_enabled': True}
    assert run(gateway, 'eda_rulebook_activation', **dict(options, log_level='debug'))[0]['changed'] is False

    restarted, writes = run(gateway, 'eda_rulebook_activation', name=options['name'], restart=True)
    assert restarted['changed'] is True and [w[:2] for w in writes] == [
        ('POST', EDA + 'activations/%d/restart/' % result['id'])]
    for _wait in range(50):       # the reference service starts the new run in a thread, as EDA's workers do
        found, _writes = run(gateway, 'eda_rulebook_activation_info', name=options['name'])
        (listed,) = found['activations']
        if listed['restart_count']:
            break
        time.sleep(0.1)
    assert listed['id'] == result['id'] and listed['restart_count'] == 1

    gone, writes = run(gateway, 'eda_rulebook_activation', name=options['name'], state='absent')
    assert gone['changed'] is True and [w[:2] for w in writes] == [('DELETE', EDA + 'activations/%d/' % result['id'])]


def test_the_copy_is_made_once_and_disabled(gateway, made):
    options = activation(made, name='source %s' % made, state='disabled')
    source, _writes = run(gateway, 'eda_rulebook_activation', **options)
    assert source['changed'] is True and source['rulebook_activation']['is_enabled'] is False
    copy, writes = run(gateway, 'eda_rulebook_activation_copy', name='copy %s' % made, copy_from='source %s' % made)
    assert copy['changed'] is True
    assert [w[:2] for w in writes] == [('POST', EDA + 'activations/%d/copy/' % source['id'])]
    assert copy['rulebook_activation']['is_enabled'] is False and copy['id'] != source['id']
    again, writes = run(gateway, 'eda_rulebook_activation_copy', name='copy %s' % made, copy_from='source %s' % made)
    assert again['changed'] is False and again['id'] == copy['id'] and writes == []
    missing, writes = run(gateway, 'eda_rulebook_activation_copy', name='copy 2 %s' % made, copy_from='none %s' % made)
    assert missing['failed'] is True and "Unable to access 'id' of the activation to copy from." in missing['msg'] and writes == []
    restart, writes = run(gateway, 'eda_rulebook_activation', name='copy %s' % made, restart=True)
    assert restart['failed'] is True and writes[0][2] >= 400          # the service restarts no disabled activation


def test_the_event_stream_is_unchanged_the_second_time_and_read_by_its_exact_name(gateway, made):
    options = dict(name='stream %s' % made, credential_name='hmac %s' % made, organization_name='Default',
                   forward_events=True)
    again, writes = run(gateway, 'eda_event_stream', **options)
    assert again['changed'] is False and writes == []
    found, _writes = run(gateway, 'eda_event_stream_info', name='stream %s' % made)
    (stream,) = found['event_streams']
    assert stream['id'] == again['id'] and stream['url'].endswith('/api/eda/v1/external_event_stream/%s/post/'
                                                                   % stream['uuid'])
    checked, writes = run(gateway, 'eda_event_stream', check_mode=True, **dict(options, headers='X-Event'))
    assert checked['changed'] is True and writes == []


@pytest.fixture(scope='module')
def gateway_2_6(gateway_service_factory):
    return gateway_service_factory(GATEWAY_RELEASE=2.6)     # the pool's instance test_gateway_routing_schema_live uses


def test_on_a_2_6_gateway_the_fields_eda_2_6_has_not_are_not_compared(gateway_2_6):
    made = tag()
    project = dict(name='rb %s' % made, url=SAMPLE, organization_name='Default', interval=0.2)
    assert run(gateway_2_6, 'eda_project', **project)[0]['changed'] is True
    again, writes = run(gateway_2_6, 'eda_project', **project)
    assert again['changed'] is False and writes == [] and 'update_revision_on_launch' not in again['project']
    run(gateway_2_6, 'eda_decision_environment', name='de %s' % made, image_url='quay.io/ansible/ansible-rulebook:main',
        organization_name='Default')
    options = activation(made)
    assert run(gateway_2_6, 'eda_rulebook_activation', **options)[0]['changed'] is True
    again, writes = run(gateway_2_6, 'eda_rulebook_activation', **options)
    assert again['changed'] is False and writes == []
    asked, writes = run(gateway_2_6, 'eda_rulebook_activation', **dict(options, enable_persistence=True))
    assert asked['changed'] is False and writes == [] and 'has no enable_persistence' in str(asked['warnings'])
