"""The access modules' own reading of their options, without a Hub: ah_role's permissions (ansible.hub's short names,
the Hub's own, ``*``), and group_roles' diff of a group's roles. What the Hub does with them is the hub_access
integration target's (tests/integration/targets/hub_access), on the real Hub."""

import pytest

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._hub_access import (
    SHORT_PERMISSIONS, GroupRoles, group_names, permissions,
)


def test_short_names_and_the_hubs_own_are_one_sorted_set():
    assert permissions(['view_user', 'galaxy.view_user', 'change_task', 'ansible.view_collectionremote']) == [
        'ansible.view_collectionremote', 'core.change_task', 'galaxy.view_user']
    assert permissions(['push_container']) == ['container.namespace_push_containerdistribution']
    assert permissions([]) == []


def test_every_short_name_stands_for_a_hub_name_and_star_for_all_of_them():
    # ansible.hub 1.0.0's ah_role names 40 permissions
    assert len(SHORT_PERMISSIONS) == 40
    assert all(name.split('.')[0] in ('galaxy', 'ansible', 'container', 'core') for name in SHORT_PERMISSIONS.values())
    every = permissions(['*'])
    assert every == sorted(set(SHORT_PERMISSIONS.values())) == permissions(['all', 'view_user'])


def test_an_unknown_short_name_fails_in_ansible_hubs_words():
    with pytest.raises(ConfigError) as failed:
        permissions(['view_user', 'see_everything'])
    assert str(failed.value) == 'Unknown perm (see_everything) defined'


def test_a_users_groups_compare_by_name_whatever_their_order():
    assert group_names([{'id': 2, 'name': 'b'}, {'id': 1, 'name': 'a'}]) == group_names([{'name': 'a'}, {'name': 'b'}])
    assert group_names(None) == []


def test_a_groups_roles_are_said_by_role_and_by_the_name_of_the_object_they_are_on():
    href = '/api/galaxy/pulp/api/v3/pulp_ansible/namespaces/2/'
    said = GroupRoles.described([{'role': 'galaxy.collection_namespace_owner', 'content_object': href},
                                 {'role': 'galaxy.collection_admin', 'content_object': None},
                                 {'role': 'galaxy.collection_namespace_owner', 'content_object': '/elsewhere/'}],
                                {href: 'acme'})
    assert said == ['galaxy.collection_admin', 'galaxy.collection_namespace_owner on /elsewhere/',
                    'galaxy.collection_namespace_owner on acme']
