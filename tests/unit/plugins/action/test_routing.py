"""How ansible-core finds the action of a module of the collection: every module is served by the
one action plugin (meta/runtime.yml routes each: test_runtime_yml.py), and the shared base is already
loaded in the play's own process when the first worker is forked (so a play's separate tasks do not
each import ``requests`` and the collection's module_utils again). Run in a new interpreter, with
ansible-core's own plugin loaders."""

import os
import subprocess
import sys

import yaml

import ansible_collections.automation.service as collection

ROOT = os.path.dirname(collection.__file__) if getattr(collection, '__file__', None) else list(collection.__path__)[0]
COLLECTIONS = os.path.dirname(os.path.dirname(os.path.dirname(ROOT)))
BASE = 'ansible_collections.automation.service.plugins.plugin_utils._action'

LOOKUP = '''
import json, sys
from ansible.plugins.loader import action_loader, init_plugin_loader, module_loader
init_plugin_loader([sys.argv[1]])
before = sys.argv[3] in sys.modules
# what the play's strategy asks of every task before it forks the task's worker
action_loader.get(sys.argv[2], class_only=True)
after = sys.argv[3] in sys.modules
# what the worker asks to find the task's action plugin
context = module_loader.find_plugin_with_context(sys.argv[2])
print(json.dumps({"before": before, "after": after, "action_plugin": context.action_plugin,
                  "module": context.resolved_fqcn}))
'''


def lookup(action):
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=COLLECTIONS)
    out = subprocess.run([sys.executable, '-c', LOOKUP, COLLECTIONS, action, BASE],
                         env=env, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return yaml.safe_load(out.strip().splitlines()[-1])


def test_the_play_loads_the_shared_base_before_it_forks_a_worker():
    found = lookup('automation.service.organization')
    assert found == {
        'before': False, 'after': True,
        'action_plugin': 'automation.service.controller_meta', 'module': 'automation.service.organization',
    }
