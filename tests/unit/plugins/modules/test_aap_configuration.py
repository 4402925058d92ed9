"""infra.aap_configuration's controller roles call these modules by their short names with the options
listed in aap_configuration_options.json (read from its roles' tasks): every module they call exists here,
and takes every option they pass, under its name or an alias, so that their task files run unchanged
against this collection."""

import json
import os

import pytest

from .module_runner import argument_spec, module_names

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aap_configuration_options.json')
with open(DATA) as handle:
    CALLS = json.load(handle)['modules']

# Options the roles pass that awx.awx 24.6.1 does not take either, and that the roles leave out unless set.
NOT_TAKEN = {
    ('license', 'eula_accepted'): 'for Tower 3.8 and older; the role passes it only when set (default(omit))',
}


def accepted(spec):
    names = set(spec)
    for option in spec.values():
        names.update(option.get('aliases') or ())
    return names


def test_the_roles_call_modules_this_collection_has():
    assert sorted(set(CALLS) - set(module_names())) == []


@pytest.mark.parametrize('name', sorted(CALLS))
def test_every_option_the_roles_pass_is_taken(name):
    names = accepted(argument_spec(name))
    missing = [option for option in CALLS[name]['options'] if option not in names and (name, option) not in NOT_TAKEN]
    assert missing == [], '%s (used by %s)' % (name, ', '.join(CALLS[name]['roles']))


def test_the_exceptions_are_still_exceptions():
    for name, option in NOT_TAKEN:
        assert option in CALLS[name]['options'] and option not in accepted(argument_spec(name))
