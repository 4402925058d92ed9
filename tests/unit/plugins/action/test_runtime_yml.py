"""meta/runtime.yml against the one list it is made from: the modules (plugins/modules/*.py) and awx.awx's old
module names (recorded from awx.awx itself in tests/live/compat_names.json). Every module is in each action group
(the group ``hub`` holds the Automation Hub modules alone, those whose documentation extends automation.service.hub:
they take ansible.hub's connection options, which no other module takes) and has its action routed to the one action plugin (controller_meta, whose plugin carries its name, excepted);
every old name redirects to the module awx.awx sends it to; nothing else is there. Adding a module means one line
in each of the action group and plugin_routing.modules: this test names what is missing or stale."""

import ast
import json
import os

import yaml

import ansible_collections.automation.service as collection

ROOT = os.path.dirname(collection.__file__) if getattr(collection, '__file__', None) else list(collection.__path__)[0]
COLLECTION = 'automation.service'
ACTION_PLUGIN = COLLECTION + '.controller_meta'
GROUPS = ('api', 'controller', 'gateway', 'eda')
# ansible.hub's group: the modules that document its connection options
HUB_GROUP = 'hub'
HUB_FRAGMENT = COLLECTION + '.hub'
# awx.awx's old names that do not name their module after ``tower_`` (awx.awx's own meta/runtime.yml).
RENAMED = {'tower_meta': 'controller_meta', 'tower_notification': 'notification_template'}


def plugins(kind):
    folder = os.path.join(ROOT, 'plugins', kind)
    return sorted(name[:-3] for name in os.listdir(folder) if name.endswith('.py') and not name.startswith('_'))


def old_names():
    """awx.awx's tower_* module names (tests/live/compat_names.json; ansible-test's copy has it too)."""
    with open(os.path.join(ROOT, 'tests', 'live', 'compat_names.json')) as handle:
        return sorted(name for name in json.load(handle)['awx.awx']['modules'] if name.startswith('tower_'))


def hub_modules():
    """The modules whose documentation extends the Hub's doc fragment, in order."""
    found = []
    for name in plugins('modules'):
        with open(os.path.join(ROOT, 'plugins', 'modules', name + '.py')) as handle:
            tree = ast.parse(handle.read())
        assigned = [node for node in tree.body if isinstance(node, ast.Assign)]
        doc = next(yaml.safe_load(node.value.value) for node in assigned
                   if getattr(node.targets[0], 'id', None) == 'DOCUMENTATION')
        if HUB_FRAGMENT in (doc.get('extends_documentation_fragment') or []):
            found.append(name)
    return found


def runtime():
    with open(os.path.join(ROOT, 'meta', 'runtime.yml')) as handle:
        return yaml.safe_load(handle)


def expected_module_routing():
    routing = dict((name, {'action_plugin': ACTION_PLUGIN}) for name in plugins('modules') if name != 'controller_meta')
    for old in old_names():
        routing[old] = {'redirect': '%s.%s' % (COLLECTION, RENAMED.get(old, old[len('tower_'):]))}
    return routing


def drift(expected, found):
    """What is missing from ``found``, stale in it, or different, by name."""
    return {
        'missing': sorted(set(expected) - set(found)),
        'stale': sorted(set(found) - set(expected)),
        'different': sorted(name for name in set(expected) & set(found) if expected[name] != found[name]),
    }


NO_DRIFT = {'missing': [], 'stale': [], 'different': []}


def test_every_action_group_is_every_module_once():
    groups = runtime()['action_groups']
    modules = plugins('modules')
    assert sorted(groups) == sorted(GROUPS + (HUB_GROUP,))
    for group in GROUPS:
        assert sorted(set(modules) - set(groups[group])) == [], 'missing in action_groups.%s' % group
        assert sorted(set(groups[group]) - set(modules)) == [], 'stale in action_groups.%s' % group
        assert groups[group] == modules, 'action_groups.%s: each module once, in order' % group


def test_the_hub_group_is_every_hub_module_once():
    hubs = hub_modules()
    assert 'ah_namespace' in hubs and 'controller_meta' not in hubs
    assert runtime()['action_groups'][HUB_GROUP] == hubs, 'action_groups.hub: the Hub modules, each once, in order'


def test_every_module_and_old_name_is_routed_and_nothing_else():
    assert drift(expected_module_routing(), runtime()['plugin_routing']['modules']) == NO_DRIFT


def test_every_old_name_redirects_to_a_module():
    modules = set(plugins('modules'))
    targets = set(RENAMED.get(old, old[len('tower_'):]) for old in old_names())
    assert sorted(targets - modules) == []


def test_the_other_redirects_reach_a_plugin():
    routing = runtime()['plugin_routing']
    for kind in ('inventory', 'lookup'):
        names = plugins(kind)
        for old, entry in routing[kind].items():
            collection_name, _dot, name = entry['redirect'].rpartition('.')
            assert collection_name == COLLECTION and name in names, (kind, old)
    assert sorted(routing) == ['inventory', 'lookup', 'modules']


def test_only_the_one_action_plugin():
    assert plugins('action') == ['controller_meta']


def test_drift_is_named():
    """The check itself: a module missing, a stale entry and a changed one are each named."""
    expected = {'a': {'action_plugin': ACTION_PLUGIN}, 'b': {'action_plugin': ACTION_PLUGIN}}
    found = {'a': {'redirect': 'x.y.a'}, 'c': {'action_plugin': ACTION_PLUGIN}}
    assert drift(expected, found) == {'missing': ['b'], 'stale': ['c'], 'different': ['a']}
