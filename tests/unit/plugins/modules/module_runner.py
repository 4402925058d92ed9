"""Run a module's ``main()`` in this process with given parameters and return
its JSON result, the way Ansible would run it, without a playbook."""

import contextlib
import importlib
import io
import json
import os

from ansible.module_utils import basic
from ansible.module_utils.common import warnings

try:
    from ansible.module_utils import _internal as module_internal     # ansible-core 2.19 and later
except ImportError:
    module_internal = None

MODULES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))), 'plugins', 'modules')


def module_names():
    return sorted(name[:-3] for name in os.listdir(MODULES_DIR) if name.endswith('.py') and name != '__init__.py')


def load(name):
    return importlib.import_module('ansible_collections.automation.service.plugins.modules.%s' % name)


class _Captured(Exception):
    pass


def argument_spec(name):
    """The full argument spec a module builds (its own options and the shared ones)."""
    captured = {}
    original = basic.AnsibleModule.__init__

    def capture(self, argument_spec=None, **kwargs):
        captured.update(argument_spec or {})
        raise _Captured()

    basic.AnsibleModule.__init__ = capture
    try:
        load(name).main()
    except _Captured:
        pass
    finally:
        basic.AnsibleModule.__init__ = original
    return captured


def run_module(name, params, check_mode=False, diff=False):
    """Return the module's result dict; an unexpected exception propagates."""
    args = dict(params)
    args['_ansible_check_mode'] = check_mode
    args.setdefault('_ansible_diff', diff)
    args['_ansible_remote_tmp'] = '/tmp'
    # A module is a process of its own: it starts with no warnings or deprecations of an earlier module's, and its
    # warnings go into its result even where the test process has loaded Ansible's controller code (which makes
    # ansible-core 2.19 and later show module_utils' warnings on the controller's display instead).
    for collected in ('_global_warnings', '_global_deprecations'):
        getattr(warnings, collected).clear()
    was_controller = getattr(module_internal, 'is_controller', None)
    if was_controller is not None:
        module_internal.is_controller = False
    basic._ANSIBLE_ARGS = json.dumps({'ANSIBLE_MODULE_ARGS': args}).encode('utf-8')
    basic._ANSIBLE_PROFILE = 'legacy'
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            load(name).main()
    except SystemExit:
        pass
    finally:
        basic._ANSIBLE_ARGS = None
        basic._ANSIBLE_PROFILE = None
        if was_controller is not None:
            module_internal.is_controller = was_controller
    text = out.getvalue().strip().splitlines()
    if not text:
        raise AssertionError('module %s printed nothing' % name)
    return json.loads(text[-1])
