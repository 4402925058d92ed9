# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The data of export and import: secrets blanked and kept, natural keys named, bad data refused."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.automation.service.plugins.module_utils._assets import (
    BY_KEY, KINDS, blank_secrets, describe, freeze,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._import import kept_secrets, validate

ORG = {'type': 'organization', 'name': 'Ops'}


def test_every_encrypted_value_is_written_empty_at_any_depth():
    data = {'inputs': {'password': '$encrypted$', 'username': 'u'},
            'spec': [{'default': '$encrypted$'}, {'default': 'blue'}]}
    assert blank_secrets(data) == {'inputs': {'password': '', 'username': 'u'},
                                   'spec': [{'default': ''}, {'default': 'blue'}]}


def test_a_new_object_is_created_without_its_empty_secrets():
    assert kept_secrets({'username': 'u', 'password': '', 'key': '$encrypted$'}, None) == {'username': 'u'}


def test_an_existing_object_keeps_its_secrets_and_gets_the_other_fields():
    have = {'username': 'old', 'password': '$encrypted$'}
    assert kept_secrets({'username': 'new', 'password': 'clear'}, have) == {'username': 'new', 'password': '$encrypted$'}
    assert kept_secrets({'username': 'old', 'password': ''}, have) == have


def test_a_natural_key_names_its_references_in_place():
    key = {'type': 'credential', 'name': 'Deploy', 'organization': ORG,
           'credential_type': {'type': 'credential_type', 'name': 'Machine', 'kind': 'ssh'}}
    assert describe(key) == 'credential Ops/Deploy/Machine/ssh'
    assert freeze(key) == freeze(dict(reversed(list(key.items()))))


def test_kinds_come_after_what_they_refer_to():
    order = [kind.type for kind in KINDS]
    for position, kind in enumerate(KINDS):
        for field, target in kind.references.items():
            if target is not None and field not in kind.later:
                assert order.index(target) < position, (kind.key, field)


@pytest.mark.parametrize('data, message', [
    ([], 'assets must be a dict'),
    ({'jobs': []}, 'unknown kinds: jobs'),
    ({'teams': {}}, 'assets.teams must be a list'),
    ({'teams': [{'name': 'x'}]}, r'assets.teams\[0\] has no natural_key of type team'),
    ({'teams': [{'name': 'x', 'natural_key': ORG}]}, r'assets.teams\[0\] has no natural_key of type team'),
])
def test_data_that_is_not_an_export_is_refused(data, message):
    with pytest.raises(ConfigError, match=message):
        validate(data)


def test_every_kind_is_known_by_its_key():
    assert sorted(BY_KEY) == sorted(kind.key for kind in KINDS)
