"""What the ah_ee_* modules read from their options and from the Hub's answers without asking the Hub
(plugins/module_utils/_hub_ee.py); the modules against a real Hub are the ah_ee integration target."""

import pytest

from ansible_collections.automation.service.plugins.module_utils import _hub_ee
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.tests.unit.plugins.modules.module_runner import run_module


@pytest.mark.parametrize('given, expected', [
    ('platform/ee-custom:2.0.0-15', ('platform/ee-custom', '2.0.0-15')),
    ('platform/ee-custom', ('platform/ee-custom', 'latest')),
    ('ee-custom:1.0', ('ee-custom', '1.0')),
    ('a.b/c-d:v1.2-3', ('a.b/c-d', 'v1.2-3')),
])
def test_an_image_is_its_repository_and_a_tag_latest_when_none_is_given(given, expected):
    assert _hub_ee.split_image(given) == expected


def test_a_write_only_field_is_set_only_as_the_registry_says():
    registry = {'write_only_fields': [{'name': 'username', 'is_set': True}, {'name': 'password', 'is_set': False}]}
    assert _hub_ee.is_set(registry, 'username')
    assert not _hub_ee.is_set(registry, 'password')
    assert not _hub_ee.is_set(registry, 'proxy_password')
    assert not _hub_ee.is_set(None, 'username')


@pytest.mark.parametrize('given, expected', [('8', 8), (' 12 ', 12), ('', None), (None, None)])
def test_ansible_hubs_text_numbers_are_sent_as_numbers(given, expected):
    assert _hub_ee.whole_number('rate_limit', given) == expected


def test_a_rate_that_is_no_number_fails_before_any_request():
    with pytest.raises(ConfigError, match='rate_limit must be a whole number'):
        _hub_ee.whole_number('rate_limit', 'fast')


def test_certificates_compare_without_surrounding_white_space():
    pem = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'
    assert _hub_ee.registry_compared('ca_cert', pem + '\n') == _hub_ee.registry_compared('ca_cert', pem)
    assert _hub_ee.registry_compared('ca_cert', '') is None
    assert _hub_ee.registry_compared('proxy_url', '') is None


def test_the_push_repository_of_a_container_repository_is_under_the_same_pulp_root():
    repository = {
        'pulp_href': '/api/galaxy/pulp/api/v3/distributions/container/container/0192/',
        'pulp': {'repository': {'id': '0191', 'pulp_type': 'container.container-push'}},
    }
    expected = '/api/galaxy/pulp/api/v3/repositories/container/container-push/0191/'
    assert _hub_ee.push_repository_href(repository) == expected


@pytest.mark.parametrize('module', ['ah_ee_registry_sync', 'ah_ee_registry_index', 'ah_ee_repository_sync'])
def test_an_interval_that_cannot_be_waited_by_fails_before_any_request(module):
    # no Hub is named: the task would fail to connect had it tried
    result = run_module(module, {'name': 'anything', 'interval': 0})
    assert result.get('failed')
    assert result['msg'] == 'interval must be a number of seconds more than 0.'


def test_a_registry_without_a_url_fails_in_ansible_hubs_words_before_any_request():
    result = run_module('ah_ee_registry', {'name': 'anything'})
    assert result.get('failed')
    assert result['msg'] == 'state is present but all of the following are missing: url'
