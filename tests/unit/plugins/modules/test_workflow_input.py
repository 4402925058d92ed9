"""The workflow modules' inputs that fail before any request: pure, no service needed."""

from ansible_collections.automation.service.plugins.module_utils._api_module import flattened, nested_type_error
from ansible_collections.automation.service.plugins.module_utils._outcome import NO_LOG_PLACEHOLDER
from ansible_collections.automation.service.plugins.module_utils._survey import comparable, masked

from .module_runner import run_module

CONNECTION = {'service_url': 'https://127.0.0.1:9', 'request_retries': 0, 'request_timeout': 1}
SPEC = {
    'plain': {'type': 'str'},
    'approval': {'type': 'dict', 'options': {'name': {'type': 'str'}}},
    'nodes': {'type': 'list', 'elements': 'dict', 'options': {
        'identifier': {'type': 'str'},
        'runs': {'type': 'dict', 'options': {'name': {'type': 'str'}}},
    }},
}


def test_flattened_drops_only_the_sub_options():
    flat = flattened(SPEC)
    assert flat['approval'] == {'type': 'dict'}
    assert flat['nodes'] == {'type': 'list', 'elements': 'dict'}
    assert flat['plain'] == {'type': 'str'}
    assert 'options' in SPEC['approval']  # the spec given is left as it was


def test_nested_type_error_names_the_first_bad_value():
    assert nested_type_error(SPEC, {'approval': 5}) == 'value of approval must be a dict, not int.'
    assert nested_type_error(SPEC, {'nodes': [{'identifier': 'a'}, 7]}) == 'value of nodes[1] must be a dict, not int.'
    assert (nested_type_error(SPEC, {'nodes': [{'identifier': 'a', 'runs': True}]})
            == 'value of nodes[0].runs must be a dict, not bool.')
    assert nested_type_error(SPEC, {'approval': {'name': 'x'}, 'nodes': [{'runs': 'name=x'}]}) is None


def test_a_node_option_that_is_not_a_dict_fails_cleanly():
    result = run_module('workflow_job_template', dict(CONNECTION, name='w', workflow_nodes=[{'identifier': 'a',
                                                                                               'unified_job_template': 3}]))
    assert result['failed'] and result['msg'] == 'value of workflow_nodes[0].unified_job_template must be a dict, not int.'
    result = run_module('workflow_job_template_node', dict(CONNECTION, identifier='a', workflow_job_template='w',
                                                           approval_node=5))
    assert result['failed'] and 'approval_node' in result['msg']


def test_a_present_node_needs_something_to_run_or_link():
    result = run_module('workflow_job_template_node', dict(CONNECTION, identifier='a', workflow_job_template='1',
                                                           limit='web'))
    assert result['failed'] and result['msg'].startswith('state is present but any of the following are missing')


def test_survey_password_defaults_read_back_hidden_count_as_unchanged():
    wanted = {'name': 's', 'description': '', 'spec': [
        {'variable': 'pw', 'type': 'password', 'default': 'secret'},
        {'variable': 'v', 'type': 'text', 'default': 'x'}]}
    held = {'name': 's', 'description': '', 'spec': [
        {'variable': 'pw', 'type': 'password', 'default': '$encrypted$'},
        {'variable': 'v', 'type': 'text', 'default': 'x'}]}
    assert comparable(wanted, held) == held
    assert comparable(wanted, {}) == wanted  # nothing held yet: the secret counts
    assert masked(wanted)['spec'][0]['default'] == NO_LOG_PLACEHOLDER
    assert masked(wanted)['spec'][1]['default'] == 'x'
    assert wanted['spec'][0]['default'] == 'secret'  # the spec given is left as it was
