# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The action plugin of every module: runs the module's ``run`` inside the
controller's worker process when the task runs on the controller (an
``async`` task in a process forked from the worker, see ``_async_job``),
otherwise hands the task to the module.

In the controller there is no module packaging and no new interpreter, and
the worker's keep-alive connection serves every item of a loop. The module's
own argument spec is validated with ansible-core's ArgumentSpecValidator and
the result is built as AnsibleModule builds it (``invocation.module_args``,
warnings, secrets masked), so both paths answer alike.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import importlib
import os
import subprocess

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.module_utils.common.parameters import remove_values
from ansible.errors import AnsibleActionFail
from ansible.module_utils.errors import UnsupportedError
from ansible.plugins.action import ActionBase

from ansible_collections.automation.service.plugins.module_utils._api_module import (
    ApiTask, flattened, infinite_ints, loosened, narrow_token_dict_no_log, nested_type_error,
)
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils._loop_reads import for_task
from ansible_collections.automation.service.plugins.plugin_utils import _async_job, _core, _loop_ahead
# What most tasks use besides, loaded here too: Ansible loads this plugin once in the controller's main
# process, and every task's worker is forked from it. A worker that had to load them would compile their
# source again (Ansible's collection loader keeps no bytecode of a collection's code): about 15 ms of a
# resource task's 100 ms of processor time. The other auth methods and the modules themselves are loaded
# by the task that needs them.
from ansible_collections.automation.service.plugins.module_utils import (  # noqa: F401 pylint: disable=unused-import
    _auth_basic, _auth_session, _auth_token, _info, _jobs, _resource, _shared_resources,
)

COLLECTION = 'automation.service'

# One validator per module and process: building one deep-copies the whole
# argument spec, and the items of a loop all validate against the same spec.
_VALIDATORS = {}
# The module of each action name (and collections list) a task gives, once per process.
_MODULES = {}


def validator_for(module, spec):
    validator = _VALIDATORS.get(module)
    if validator is None:
        validator = _VALIDATORS[module] = ArgumentSpecValidator(spec.argument_spec, **spec.spec_kwargs)
    return validator


def module_name(task, module_loader):
    """The collection's module a task runs, resolved from its action as ansible-core resolves a
    module: ``host``, ``automation.service.host``, ``tower_host`` (a redirect) and a module of a
    collection that redirects here all resolve to ``automation.service.host``. (The task's
    ``resolved_action`` names the action plugin, not the module, when one serves the module.)"""
    key = (task.action, tuple(task.collections or ()))
    name = _MODULES.get(key)
    if name is None:
        context = module_loader.find_plugin_with_context(task.action, collection_list=task.collections)
        resolved = context.resolved_fqcn if context.resolved else task.action
        collection, dot, name = resolved.rpartition('.')
        if dot and collection not in (COLLECTION, 'ansible.legacy'):
            raise AnsibleActionFail('%s is not a module of %s (its action plugin serves only those).'
                                    % (resolved, COLLECTION))
        _MODULES[key] = name
    return name


class Prepared:
    """What ``prepare`` made of a task, once per task: either ``result``, the failed result to return now (the
    options do not validate), or the module's task to run: its ``code``, the ``validation`` of its options, and
    ``new_api()``, which gives a new ApiTask of those options each time (an async job, the read-ahead before it and
    a run again each have their own)."""

    __slots__ = ('result', 'code', 'validation', 'params', 'no_log_values', 'check_mode', 'diff', 'environ',
                 'reads_key')

    def __init__(self, result=None, code=None, validation=None, params=None, no_log_values=None, check_mode=False,
                 diff=False, environ=None, reads_key=None):
        self.result = result
        self.code = code
        self.validation = validation
        self.params = params
        self.no_log_values = no_log_values
        self.check_mode = check_mode
        self.diff = diff
        self.environ = environ
        self.reads_key = reads_key

    @property
    def answered(self):
        """Whether there is a result to return now (and no task to run)."""
        return self.result is not None

    def new_api(self):
        """A new ApiTask of the validated options, as if they had just been validated: the task may change the
        set of values it hides (a secret it makes), so each ApiTask has copies of its own."""
        return ApiTask(self.code.SPEC, copy.deepcopy(self.params), check_mode=self.check_mode, diff=self.diff,
                       environ=dict(self.environ), no_log_values=set(self.no_log_values), bounded=True,
                       reads=for_task(self.reads_key), runner=run_command)


def run_command(args, environ):
    """A command a task runs on the controller (ansible-galaxy for ah_build): no shell, no input, its output kept;
    (rc, stdout, stderr) as text, as AnsibleModule.run_command gives them on the module's host."""
    process = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ,
                             check=False, universal_newlines=True, errors='surrogateescape')
    return process.returncode, process.stdout, process.stderr


class ServiceAction(ActionBase):
    """The action of every module of the collection (meta/runtime.yml routes each module's action
    here): the module is the one the task names. Nothing is kept on the action between its methods:
    what ``run`` computes is handed on as arguments."""

    _supports_check_mode = True
    _supports_async = True

    @property
    def module(self):
        return module_name(_core.action_task(self), _core.action_module_loader(self))

    def in_controller(self):
        """The task runs here: a local connection and no become (an async task
        runs in a job forked from this worker)."""
        return (getattr(_core.action_connection(self), 'transport', None) in ('local', 'ansible.builtin.local')
                and not _core.action_play_context(self).become)

    def run(self, tmp=None, task_vars=None):
        result = super(ServiceAction, self).run(tmp, task_vars)
        del tmp  # tmp no longer has any effect
        task = _core.action_task(self)
        code = self.code()
        args, ignored = code.SPEC.without_unknown(task.args)
        if self.in_controller():
            host_name = (task_vars or {}).get('inventory_hostname')
            if task.async_val:
                result.update(self.start_job(code, args, host_name))
            else:
                result.update(self.run_here(code, args, host_name, task_vars))
        else:
            wrap_async = task.async_val and not _core.action_connection(self).has_native_async
            result.update(_core.execute_module(self, '%s.%s' % (COLLECTION, self.module), args, task_vars,
                                               wrap_async))
            if not wrap_async:
                _core.remove_remote_tmp(self)
        if ignored:
            result['warnings'] = ['Ignored keys that are not options of %s (as awx.awx ignores them): %s.'
                                  % (self.module, ', '.join(ignored))] + list(result.get('warnings') or [])
        return self.finish(code, result)

    def start_job(self, code, args, host_name):
        """The answer of Ansible's async wrapper, the module's logic running on in
        a job forked from this worker. The options are checked here first: the
        job of a task that cannot run has its failed result at once."""
        async_dir = os.path.expanduser(self.get_shell_option('async_dir', default='~/.ansible_async'))
        prepared = self.prepare(code, args, host_name)
        if prepared.answered:
            return _async_job.start(lambda: prepared.result, async_dir, 0)
        api = prepared.new_api()
        self.read_ahead(prepared)
        return _async_job.start(lambda: self.execute_in_job(prepared, api), async_dir,
                                int(_core.action_task(self).async_val))

    @staticmethod
    def read_ahead(prepared):
        """Before a job is forked: count the look-up by name it will make, and read the list of its
        scope here when that pays (see _loop_reads), so that this job and the next ones inherit it. The
        worker's own task (and client) are not the job's. Whatever fails here, the job meets and says."""
        resource = getattr(prepared.code, 'RESOURCE', None)
        read_ahead = getattr(resource, 'read_ahead', None)
        if read_ahead is None:
            return
        api = prepared.new_api()
        try:
            api.execute(read_ahead)
        except Exception:  # the job meets it again, and says it
            pass

    def execute_in_job(self, prepared, api):
        """``execute`` in an async job. An object the task names that is not there yet, while jobs of the
        same loop started before this one still run, may be one of theirs: once they have ended, the task
        runs once more, from the service (a loop's items come in order; an unhurried loop would have found
        it). Only a task that sent no write: every name is resolved before the first write."""
        if api.reads is not None:
            api.reads.counting = False  # the worker counted this job's look-ups (read_ahead)
        result = self.execute(prepared, api)
        wrote = result.get('changed') or api.writes_sent
        if isinstance(api.error, NotFound) and not wrote and _async_job.earlier_jobs_finish():
            result = self.execute(prepared, prepared.new_api())
        return result

    @staticmethod
    def finish(code, result):
        """A result that holds a secret just minted (the module's ``SPEC.result_is_secret`` says so) is
        hidden from every display, as ``no_log`` would hide it; the registered variable keeps it."""
        is_secret = code.SPEC.result_is_secret
        if is_secret is not None and is_secret(result):
            result['_ansible_no_log'] = True
        return result

    def code(self):
        return importlib.import_module('ansible_collections.%s.plugins.modules.%s' % (COLLECTION, self.module))

    def task_environment(self):
        """The controller's environment with the task's ``environment:`` on top,
        what a module started here would see."""
        task_env = _core.task_environment(self)
        environ = dict(os.environ)
        environ.update((str(k), str(v)) for k, v in task_env.items() if v is not None)
        return environ

    def run_here(self, code, args, host_name, task_vars):
        prepared = self.prepare(code, args, host_name)
        if prepared.answered:
            return prepared.result
        api = prepared.new_api()
        if self.may_create_ahead(code):
            api.ahead = lambda: self.following(code, task_vars)
        return self.execute(prepared, api)

    def may_create_ahead(self, code):
        """A loop's item of a resource the service creates in bulk, not in check mode: its first item whose object
        is missing may create the next items' in bulk (see _loop_bulk)."""
        resource = getattr(code, 'RESOURCE', None)
        task = _core.action_task(self)
        return (getattr(resource, 'bulk', None) is not None and task.loop is not None and not task.loop_with
                and not task.check_mode and not task.async_val)

    def following(self, code, task_vars):
        """The validated options of the items of this loop that will run after this one (see _loop_ahead); the
        items whose options do not validate are left out (they fail on their own turn). None when unsure."""
        items = _loop_ahead.following(self, task_vars)
        if items is None:
            return None
        spec = code.SPEC
        validated = []
        for args in items:
            args, ignored = spec.without_unknown(args)
            validation = validator_for(self.module, spec).validate(dict(args))
            if not validation.error_messages:
                validated.append(validation.validated_parameters)
        return validated

    def prepare(self, code, args, host_name):
        """What ``execute`` needs (the module's code, the validation, the task's options), or the failed
        result when the options do not validate: see Prepared. Once per task."""
        spec = code.SPEC
        args = dict(args)
        task = _core.action_task(self)
        try:
            validation = validator_for(self.module, spec).validate(args)
        except OverflowError:
            loose = ArgumentSpecValidator(loosened(spec.argument_spec), **spec.spec_kwargs).validate(args)
            return Prepared(result=self.failed(infinite_ints(spec.argument_spec, loose.validated_parameters), loose))
        except TypeError:  # a dict option with sub-options given something else
            loose = ArgumentSpecValidator(flattened(spec.argument_spec), **spec.spec_kwargs).validate(args)
            message = loose.errors.msg if loose.error_messages else None
            return Prepared(result=self.failed(message or nested_type_error(spec.argument_spec,
                                                                            loose.validated_parameters)
                                               or 'an option has a wrong type.', loose))
        if validation.error_messages:
            message = validation.errors.msg
            if isinstance(validation.errors[0], UnsupportedError):
                message = 'Unsupported parameters for (%s) module: %s' % (task.action, message)
            return Prepared(result=self.failed(message, validation))
        params = validation.validated_parameters
        no_log_values = set(_core.no_log_values(validation))
        narrow_token_dict_no_log(params, no_log_values)
        return Prepared(code=code, validation=validation, params=params, no_log_values=no_log_values,
                        check_mode=bool(task.check_mode), diff=bool(task.diff), environ=self.task_environment(),
                        reads_key=(_core.task_id(task), host_name))

    @staticmethod
    def execute(prepared, api):
        """The module's ``run`` and the result as AnsibleModule builds it."""
        validation = prepared.validation
        result = api.execute(prepared.code.run)
        warnings = ['Both option %s and its alias %s are set.' % (w['option'], w['alias'])
                    for w in _core.validation_warnings(validation)] + result.pop('warnings', [])
        if warnings:
            result['warnings'] = warnings
        deprecations = _core.validation_deprecations(validation)
        if deprecations:
            result['deprecations'] = [dict(d) for d in deprecations]
        result['invocation'] = {'module_args': api.given}   # as given, whatever the module reads
        return remove_values(result, api.no_log_values)

    @staticmethod
    def failed(message, validation):
        result = {'failed': True, 'msg': message, 'invocation': {'module_args': validation.validated_parameters}}
        return remove_values(result, _core.no_log_values(validation))
