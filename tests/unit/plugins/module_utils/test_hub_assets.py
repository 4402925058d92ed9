# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Automation Hub's objects in export and import's data: their kinds in order, the fields the Hub never shows
written as "" where it has them, what import compares as the Hub keeps it. (Exported and imported for real against
galaxy-ng in tests/hub/tests/test_hub_export.py.)"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._export import (
    HUB_BY_KEY, HUB_BY_TYPE, HUB_KINDS, HubExporter,
)
from ansible_collections.automation.service.plugins.module_utils._hub import secrets_set as hub_hidden_set
from ansible_collections.automation.service.plugins.module_utils._import import HubImporter, hub_text, validate


def test_hub_kinds_are_four_and_a_repository_comes_after_the_remote_it_names():
    assert [kind.key for kind in HUB_KINDS] == ['hub_namespaces', 'hub_collection_remotes',
                                                'hub_collection_repositories', 'hub_ee_registries']
    assert sorted(HUB_BY_TYPE) == sorted(kind.type for kind in HUB_KINDS) and len(HUB_BY_KEY) == 4
    # Secrets are never among the fields written as read: only as hidden fields, exported as "".
    for kind in HUB_KINDS:
        assert not set(kind.fields) & {'password', 'token', 'proxy_password', 'client_key'}, kind.key
        assert 'name' in kind.fields and kind.update in ('PUT', 'PATCH')
    assert set(HUB_BY_KEY['hub_collection_remotes'].hidden) >= {'password', 'token', 'proxy_password', 'client_key'}
    assert set(HUB_BY_KEY['hub_ee_registries'].hidden) >= {'password', 'proxy_password', 'client_key'}


def test_the_hidden_fields_set_are_read_either_way_the_hub_lists_them():
    pulp = {'hidden_fields': [{'name': 'password', 'is_set': True}, {'name': 'token', 'is_set': False}]}
    galaxy = {'write_only_fields': [{'name': 'client_key', 'is_set': False}, {'name': 'password', 'is_set': True},
                                    {'name': 'proxy_password', 'is_set': True}]}
    assert hub_hidden_set(pulp) == {'password'}
    assert hub_hidden_set(galaxy) == {'password', 'proxy_password'}
    assert hub_hidden_set({'name': 'x'}) == set()


def test_an_exported_remote_holds_its_secrets_as_empty_strings_and_a_repository_its_remote_by_name():
    exporter = HubExporter(api=None, root='/api/galaxy/')
    remote = {'pulp_href': '/api/galaxy/pulp/api/v3/remotes/ansible/collection/1/', 'name': 'up', 'url': 'https://x/',
              'rate_limit': 8, 'pulp_created': 'today',
              'hidden_fields': [{'name': 'password', 'is_set': True}, {'name': 'token', 'is_set': False}]}
    data = exporter.asset(HUB_BY_KEY['hub_collection_remotes'], remote)
    assert data == {'name': 'up', 'url': 'https://x/', 'rate_limit': 8, 'password': '',
                    'natural_key': {'type': 'hub_collection_remote', 'name': 'up'}}
    # A Hub that shows the user name (the 2.7 schema's remotes; galaxy-ng's write_only_fields) has it exported.
    shown = dict(remote, username='puller', hidden_fields=None, write_only_fields=[{'name': 'password', 'is_set': True}])
    assert exporter.asset(HUB_BY_KEY['hub_collection_remotes'], shown)['username'] == 'puller'
    exporter.served = {'/r/1/': [{'name': 'b', 'base_path': 'b-path', 'repository': '/r/1/'},
                                 {'name': 'a', 'base_path': 'a', 'repository': '/r/1/'}]}
    repository = {'pulp_href': '/r/1/', 'name': 'mine', 'description': None, 'retain_repo_versions': 1,
                  'private': False, 'pulp_labels': {}, 'remote': remote['pulp_href'], 'versions_href': '/r/1/v/'}
    data = exporter.asset(HUB_BY_KEY['hub_collection_repositories'], repository)
    assert data['remote'] == {'type': 'hub_collection_remote', 'name': 'up'}
    assert data['distributions'] == [{'name': 'a', 'base_path': 'a'}, {'name': 'b', 'base_path': 'b-path'}]
    assert 'versions_href' not in data and 'pulp_href' not in data
    data = exporter.asset(HUB_BY_KEY['hub_collection_repositories'], dict(repository, remote=None, pulp_href='/r/2/'))
    assert data['remote'] is None and data['distributions'] == []


def test_import_compares_as_the_hub_keeps_it():
    importer = HubImporter(api=None, root='/api/galaxy/', importer=None)
    # The Hub keeps a requirements file without its last line end; links in any order; nothing and empty alike.
    assert hub_text('collections:\n  - a.b\n') == 'collections:\n  - a.b'
    have = {'requirements_file': 'collections:\n  - a.b', 'links': [{'name': 'a', 'url': 'u'}, {'name': 'b', 'url': 'v'}],
            'description': None, 'pulp_labels': {}, 'rate_limit': 8}
    wanted = {'requirements_file': 'collections:\n  - a.b\n', 'links': [{'name': 'b', 'url': 'v'}, {'name': 'a', 'url': 'u'}],
              'description': '', 'pulp_labels': {}, 'rate_limit': 8}
    assert importer.delta(have, wanted) == {}
    assert importer.delta(have, dict(wanted, rate_limit=5, links=[])) == {'rate_limit': 5, 'links': []}
    # A field the Hub does not show (a release without it) is not compared.
    assert importer.delta(have, dict(wanted, sync_dependencies=False)) == {}


class Api:
    def __init__(self):
        self.no_log_values = set()


class Importer:
    def __init__(self):
        self.secrets_needed = {}


def test_a_secret_is_sent_where_the_hub_has_none_and_a_user_name_where_it_shows_another():
    # Objects as the Hub reads them, without a Hub: a 2.7 Hub's remote (its published schema shows the user name,
    # galaxy-ng 4.9.2's hides it) cannot be had here. galaxy-ng 4.9.2's own is tested in tests/hub/tests.
    api, importer = Api(), Importer()
    hub = HubImporter(api=api, root='/api/galaxy/', importer=importer)
    remotes = HUB_BY_KEY['hub_collection_remotes']
    unset = {'name': 'up', 'hidden_fields': [{'name': 'password', 'is_set': False}, {'name': 'username', 'is_set': False}]}
    given = {'name': 'up', 'password': 's3cret', 'username': 'puller', 'token': ''}
    assert hub.secrets(remotes, given, unset, 'remote up') == {'password': 's3cret', 'username': 'puller'}
    assert importer.secrets_needed == {'remote up': ['token']} and api.no_log_values == {'s3cret'}
    # set already (galaxy-ng 4.9 says only that): not sent again; nothing needed when the data gives it
    both_set = {'name': 'up', 'hidden_fields': [{'name': 'password', 'is_set': True}, {'name': 'username', 'is_set': True},
                                                {'name': 'token', 'is_set': True}]}
    assert hub.secrets(remotes, given, both_set, 'remote up') == {} and importer.secrets_needed == {}
    # a Hub that shows the user name (the 2.7 schema's remotes): sent only when it differs
    shown = {'name': 'up', 'username': 'puller', 'write_only_fields': [{'name': 'password', 'is_set': True}]}
    assert hub.secrets(remotes, dict(given, token='t'), shown, 'remote up') == {'token': 't'}
    assert hub.secrets(remotes, dict(given, token='t', username='other'), shown, 'remote up') == {
        'token': 't', 'username': 'other'}
    # a new object: every secret given is sent, every one left out is needed
    assert hub.secrets(remotes, {'name': 'up', 'password': '', 'username': ''}, None, 'remote up') == {}
    assert importer.secrets_needed == {'remote up': ['username', 'password']}


@pytest.mark.parametrize('data, message', [
    ({'hub_namespaces': [{'name': 'x', 'natural_key': {'type': 'namespace', 'name': 'x'}}]},
     r'assets.hub_namespaces\[0\] has no natural_key of type hub_namespace'),
    ({'hub_collections': []}, 'unknown kinds: hub_collections'),
])
def test_hub_data_that_is_not_an_export_is_refused(data, message):
    with pytest.raises(ConfigError, match=message):
        validate(data)


def test_hub_data_of_an_export_is_taken():
    validate({'hub_ee_registries': [{'name': 'x', 'natural_key': {'type': 'hub_ee_registry', 'name': 'x'}}],
              'hub_namespaces': []})
