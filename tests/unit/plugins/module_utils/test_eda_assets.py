# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Event-Driven Ansible's objects in export and import's data: their kinds in order, references read either way
EDA returns them, an activation's source mappings kept without ids. (Exported and imported for real against the
reference gateway in tests/live/plugins/modules/test_export_eda_live.py.)"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._export import (
    EDA_BY_KEY, EDA_ENDPOINTS, EDA_KINDS, data_field, parse_mappings, referred_id,
)
from ansible_collections.automation.service.plugins.module_utils._import import mapping_key, validate, yaml_text


def test_eda_kinds_come_after_what_they_refer_to():
    order = [kind.type for kind in EDA_KINDS]
    named_only = ('organization', 'eda_rulebook', 'eda_controller_token')
    for position, kind in enumerate(EDA_KINDS):
        for target in list(kind.references.values()) + list(kind.lists.values()):
            assert target in EDA_ENDPOINTS, (kind.key, target)
            assert target in named_only or order.index(target) < position, (kind.key, target)
    assert sorted(EDA_BY_KEY) == ['eda_credential_types', 'eda_credentials', 'eda_decision_environments',
                                  'eda_event_streams', 'eda_projects', 'eda_rulebook_activations']


def test_a_reference_is_read_as_an_id_or_as_the_nested_object():
    assert referred_id({'organization_id': 3}, 'organization_id') == 3
    assert referred_id({'organization': {'id': 4, 'name': 'Default'}}, 'organization_id') == 4
    assert referred_id({'eda_credential': None, 'eda_credential_id': None}, 'eda_credential_id') is None
    assert referred_id({'rulebook': '7'}, 'rulebook_id') == 7
    assert data_field('decision_environment_id') == 'decision_environment' and data_field('inputs') == 'inputs'


def test_source_mappings_compare_without_the_event_stream_ids():
    text = '- event_stream_id: 5\n  event_stream_name: hooks\n  source_name: webhook\n  rulebook_hash: abc\n'
    mappings = parse_mappings(text)
    assert mappings == [{'event_stream_id': 5, 'event_stream_name': 'hooks', 'source_name': 'webhook',
                         'rulebook_hash': 'abc'}]
    moved = dict(mappings[0], event_stream_id=9)
    assert mapping_key(moved) == mapping_key(mappings[0])
    assert mapping_key(dict(moved, event_stream_name='other')) != mapping_key(mappings[0])
    assert parse_mappings('') == [] and parse_mappings(None) == [] and parse_mappings('just text') == []
    assert yaml_text('a: 1\n') == yaml_text('{"a": 1}') and yaml_text('a: [') == 'a: ['


@pytest.mark.parametrize('data, message', [
    ({'eda_projects': [{'name': 'x', 'natural_key': {'type': 'project', 'name': 'x'}}]},
     r'assets.eda_projects\[0\] has no natural_key of type eda_project'),
    ({'eda_jobs': []}, 'unknown kinds: eda_jobs'),
])
def test_eda_data_that_is_not_an_export_is_refused(data, message):
    with pytest.raises(ConfigError, match=message):
        validate(data)


def test_eda_data_of_an_export_is_taken():
    validate({'eda_projects': [{'name': 'x', 'natural_key': {'type': 'eda_project', 'name': 'x'}}],
              'organizations': []})
