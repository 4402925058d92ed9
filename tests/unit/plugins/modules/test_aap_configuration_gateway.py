"""infra.aap_configuration's gateway roles call ansible.platform's modules with the options listed in
aap_configuration_gateway_options.json (read from its roles' tasks): every module they call that this collection
has takes every option they pass (ansible.platform's connection options among them), under its name or an alias,
so that with make compat's ansible.platform (which redirects to this collection) their task files run unchanged.

The modules this collection does not have yet are listed in NOT_BUILT, and the options it does not take yet in
NOT_TAKEN, each with its reason: both lists fail when one of their entries is no longer true, so they only shrink.
"""

import json
import os

import pytest

from .module_runner import argument_spec, module_names

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'aap_configuration_gateway_options.json')
with open(DATA) as handle:
    CALLS = json.load(handle)['modules']

# ansible.platform's modules that the gateway roles call and this collection does not have yet (none now).
NOT_BUILT = {}

# Options the roles pass that this collection's module of the same name does not take yet (none now).
NOT_TAKEN = {}


def accepted(spec):
    names = set(spec)
    for option in spec.values():
        names.update(option.get('aliases') or ())
    return names


def test_the_roles_call_modules_this_collection_has_or_that_are_listed_as_not_built():
    assert sorted(set(CALLS) - set(module_names()) - set(NOT_BUILT)) == []


def test_a_module_listed_as_not_built_is_still_missing():
    # When it is built, take it off NOT_BUILT: the option test then checks it too.
    for name, role in NOT_BUILT.items():
        assert name in CALLS and role in CALLS[name]['roles']
        assert name not in module_names()


@pytest.mark.parametrize('name', sorted(set(CALLS) - set(NOT_BUILT)))
def test_every_option_the_roles_pass_is_taken(name):
    names = accepted(argument_spec(name))
    missing = [option for option in CALLS[name]['options'] if option not in names and (name, option) not in NOT_TAKEN]
    assert missing == [], '%s (used by %s)' % (name, ', '.join(CALLS[name]['roles']))


def test_the_roles_pass_ansible_platform_s_connection_options():
    # The roles' own words for the connection: every module call passes them, and every one is taken.
    connection = {'gateway_hostname', 'gateway_username', 'gateway_password', 'gateway_token',
                  'gateway_request_timeout', 'gateway_validate_certs'}
    for name, call in CALLS.items():
        assert connection <= set(call['options']), name


def test_the_exceptions_are_still_exceptions():
    for name, option in NOT_TAKEN:
        assert option in CALLS[name]['options'] and option not in accepted(argument_spec(name)), (name, option)
