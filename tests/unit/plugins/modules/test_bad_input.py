"""Bad input without a service: every module given an infinity for a whole-number option ends
in a fail_json that names the option, not a traceback. Generated parameters against a
reference service: tests/live/plugins/modules/test_bad_input_live.py."""

import pytest

from .module_runner import argument_spec, module_names, run_module


def clean(result):
    """A clean end: success, or a failure with a message and no traceback."""
    assert isinstance(result, dict)
    if result.get('failed'):
        message = result.get('msg')
        assert isinstance(message, str) and message.strip(), result
        assert 'Traceback' not in message, message
    assert 'exception' not in result or 'requests' in result.get('msg', ''), result


def plain_value(option):
    """A valid value for ``option``: its first choice, 1, a list of one dict of its required
    sub-options, an empty dict, or a text (one that no message holds: a required secret's value
    is masked wherever it appears)."""
    if option.get('choices'):
        return option['choices'][0]
    if option.get('type') == 'int':
        return 1
    if option.get('options'):
        item = dict((key, plain_value(sub)) for key, sub in option['options'].items() if sub.get('required'))
        return [item] if option.get('type') == 'list' else item
    if option.get('type') == 'dict':
        return {}
    return 'plain-text-value'


@pytest.mark.parametrize('name', module_names())
def test_whole_number_options_refuse_an_infinity_cleanly(name):
    # ansible-core's own int check raises OverflowError on inf; the module must
    # still end in a fail_json that names the option.
    spec = argument_spec(name)
    whole = sorted(key for key, value in spec.items() if value.get('type') == 'int')
    assert 'request_retries' in whole
    required = dict((key, plain_value(value)) for key, value in spec.items() if value.get('required'))
    for key in whole:
        for value in (float('inf'), float('-inf')):
            result = run_module(name, dict(required, **{key: value}))
            clean(result)
            assert result.get('failed') and key in result['msg'], (key, result)
