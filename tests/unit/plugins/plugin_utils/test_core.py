"""plugin_utils/_core against real ansible-core objects: a play loaded from data, its tasks and blocks, a
PlayContext, a connection, the action as the task executor builds it, a validation of an argument spec, a
lookup and an inventory plugin from ansible-core's loaders, and at the end a real ansible-playbook whose task
executor hands a probe action plugin its task, connection and templar. No attribute is mocked: when
ansible-core renames one that _core reads, a test here fails. Run under every ansible-core of the matrix."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import ansible.plugins.loader as plugin_loader
from ansible import constants as C
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.parsing.dataloader import DataLoader
from ansible.playbook.block import Block
from ansible.playbook.play import Play
from ansible.playbook.play_context import PlayContext
from ansible.playbook.task import Task
from ansible.template import Templar
from ansible.vars.manager import VariableManager

import ansible_collections.automation.service as collection
from ansible_collections.automation.service.plugins.plugin_utils import _core
from ansible_collections.automation.service.plugins.plugin_utils._action import ServiceAction

ROOT = os.path.dirname(collection.__file__) if getattr(collection, '__file__', None) else list(collection.__path__)[0]
COLLECTIONS = os.path.dirname(os.path.dirname(os.path.dirname(ROOT)))


@pytest.fixture
def play(tmp_path):
    """A play of two tasks in one block, the second with a ``when``, loaded from its file as ansible-playbook
    loads it (so that its templates are trusted, from ansible-core 2.19)."""
    loader = DataLoader()
    data = [{
        'name': 'adapter', 'hosts': 'localhost', 'gather_facts': False,
        'tasks': [
            {'name': 'first', 'ansible.builtin.debug': {'msg': 'one'}, 'environment': {'PROBE': '{{ probe }}'}},
            {'name': 'second', 'ansible.builtin.debug': {'msg': 'two'}, 'when': 'flag | bool'},
        ],
    }]
    path = tmp_path / 'play.yml'
    path.write_text(json.dumps(data))
    try:
        data = loader.load_from_file(str(path), trusted_as_template=True)   # as the playbook's loader, 2.19 on
    except TypeError:  # before 2.19: every template is trusted
        data = loader.load_from_file(str(path))
    return Play.load(data[0], variable_manager=VariableManager(loader=loader), loader=loader)


def tasks(play):
    """The play's tasks, out of their blocks."""
    return [task for block in play.get_tasks() for task in block]


@pytest.fixture
def action(play):
    """The action of the play's first task, built with the arguments the task executor passes."""
    task = tasks(play)[0].copy()
    play_context = PlayContext(play=play)
    play_context.connection = 'local'
    connection = plugin_loader.connection_loader.get('ansible.builtin.local', play_context)
    loader = DataLoader()
    templar = Templar(loader=loader, variables={'probe': 'templated'})
    return ServiceAction(task=task, connection=connection, play_context=play_context, loader=loader,
                         templar=templar, shared_loader_obj=plugin_loader)


def test_what_the_task_executor_hands_an_action(action):
    task = _core.action_task(action)
    assert isinstance(task, Task) and task.name == 'first'
    connection = _core.action_connection(action)
    assert connection.transport in ('local', 'ansible.builtin.local')
    assert not _core.action_play_context(action).become
    assert _core.action_templar(action).available_variables['probe'] == 'templated'
    assert _core.action_module_loader(action) is plugin_loader.module_loader
    assert _core.action_module_loader(action).find_plugin_with_context('ansible.builtin.ping').resolved
    assert action.in_controller()


def test_the_tasks_environment_is_templated(action):
    assert _core.task_environment(action) == {'PROBE': 'templated'}


def test_no_remote_tmp_to_remove_for_a_local_task(action):
    _core.remove_remote_tmp(action)   # the shell's tmpdir is None: nothing to remove


def test_a_copy_of_a_task_keeps_its_id_and_block(play):
    original = tasks(play)[0]
    copy = original.copy()
    assert _core.task_id(copy) == _core.task_id(original)
    assert _core.task_id(tasks(play)[1]) != _core.task_id(original)
    parent = _core.task_parent(copy)
    assert isinstance(parent, Block) and _core.task_id(original) in [_core.task_id(t) for t in parent.block]
    assert _core.task_parent(Task()) is None


@pytest.mark.parametrize('flag, holds', [(True, True), (False, False)])
def test_when_is_evaluated_for_given_variables(play, flag, holds):
    first, second = tasks(play)
    variables = {'flag': flag}
    templar = Templar(loader=DataLoader(), variables=variables)
    assert _core.when_holds(second, templar, variables) is holds
    assert _core.when_holds(first, templar, variables) is True    # no when


def test_what_a_validation_of_options_holds():
    spec = {
        'name': {'type': 'str', 'aliases': ['title'], 'deprecated_aliases': [
            {'name': 'title', 'version': '99.0.0', 'collection_name': 'automation.service'}]},
        'other': {'type': 'str', 'aliases': ['alias']},
        'secret': {'type': 'str', 'no_log': True},
    }
    validation = ArgumentSpecValidator(spec).validate({'title': 'x', 'other': 'a', 'alias': 'b', 'secret': 'hush'})
    assert 'hush' in _core.no_log_values(validation)
    assert [(w['option'], w['alias']) for w in _core.validation_warnings(validation)] == [('other', 'alias')]
    deprecations = [dict(d) for d in _core.validation_deprecations(validation)]
    assert len(deprecations) == 1 and 'title' in deprecations[0]['msg']


def test_a_lookups_name_and_templar():
    loader = DataLoader()
    templar = Templar(loader=loader)
    lookup = plugin_loader.lookup_loader.get('ansible.builtin.url', loader=loader, templar=templar)
    # the name its options are found under, as the collection's lookups find theirs
    assert 'validate_certs' in C.config.get_configuration_definitions('lookup', _core.lookup_name(lookup))
    assert isinstance(_core.lookup_templar(lookup), Templar)


def test_an_inventory_plugins_config_and_variables(tmp_path):
    from ansible.inventory.data import InventoryData
    from ansible.plugins.inventory import BaseInventoryPlugin

    source = tmp_path / 'probe.config.yml'
    source.write_text('plugin: ansible.builtin.constructed\nstrict: true\n')
    plugin = plugin_loader.inventory_loader.get('ansible.builtin.constructed')
    BaseInventoryPlugin.parse(plugin, InventoryData(), DataLoader(), str(source))
    assert isinstance(_core.inventory_variables(plugin), dict)
    config = _core.inventory_config(plugin, str(source))
    assert config['plugin'] == 'ansible.builtin.constructed' and plugin.get_option('strict') is True


PROBE = textwrap.dedent('''
    from ansible.plugins.action import ActionBase
    from ansible_collections.automation.service.plugins.plugin_utils import _core


    class ActionModule(ActionBase):
        def run(self, tmp=None, task_vars=None):
            result = super(ActionModule, self).run(tmp, task_vars)
            task = _core.action_task(self)
            parent = _core.task_parent(task)
            templar = _core.action_templar(self)
            ping = _core.execute_module(self, 'ansible.builtin.ping', {'data': 'probe'}, task_vars, False)
            _core.remove_remote_tmp(self)
            result['probe'] = {
                'action': task.action,
                'in_block': any(_core.task_id(t) == _core.task_id(task) for t in parent.block),
                'transport': _core.action_connection(self).transport,
                'become': bool(_core.action_play_context(self).become),
                'templated': templar.available_variables['word'],
                'holds': _core.when_holds(task, templar, task_vars),
                'ping': _core.action_module_loader(self).find_plugin_with_context('ping').resolved_fqcn,
                'environment': _core.task_environment(self),
                'module': ping.get('ping'),
            }
            return result
''')


def test_a_real_task_executor_hands_its_action_what_core_reads(tmp_path):
    """Through ansible-playbook: the task executor builds the action (and its connection) itself."""
    (tmp_path / 'action_plugins').mkdir()
    (tmp_path / 'action_plugins' / 'core_probe.py').write_text(PROBE)
    playbook = [{
        'hosts': 'localhost', 'connection': 'local', 'gather_facts': False,
        'vars': {'ansible_python_interpreter': sys.executable, 'word': 'templated'},
        'tasks': [{'core_probe': {}, 'register': 'probed', 'when': 'word == "templated"',
                   'environment': {'PROBE': '{{ word }}'}},
                  {'ansible.builtin.copy': {'content': '{{ probed.probe | to_json }}',
                                            'dest': '{{ playbook_dir }}/probe.json'}}],
    }]
    (tmp_path / 'play.yml').write_text(json.dumps(playbook))
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=COLLECTIONS,
               ANSIBLE_ACTION_PLUGINS=str(tmp_path / 'action_plugins'),
               ANSIBLE_LOCALHOST_WARNING='false', ANSIBLE_INVENTORY_UNPARSED_WARNING='false')
    command = [os.path.join(os.path.dirname(sys.executable), 'ansible-playbook'), '-i', 'localhost,', 'play.yml']
    run = subprocess.run(command, cwd=str(tmp_path), env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    probe = json.loads((tmp_path / 'probe.json').read_text())
    assert probe == {
        'action': 'core_probe', 'in_block': True, 'transport': probe['transport'], 'become': False,
        'templated': 'templated', 'holds': True, 'ping': 'ansible.builtin.ping',
        'environment': {'PROBE': 'templated'}, 'module': 'probe',
    }
    assert probe['transport'] in ('local', 'ansible.builtin.local')
