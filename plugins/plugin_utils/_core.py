# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the collection's plugins read of ansible-core that ansible-core does not publish.

Every attribute or method with a leading underscore of an ansible-core object that a plugin of
the collection reads is read here and nowhere else, so that a rename in a new ansible-core
release breaks one function (and its test, tests/unit/plugins/plugin_utils/test_core.py), not
the plugins. Each function says on which ansible-core releases it was checked; the test runs
against real ansible-core objects under each supported release (2.16 to 2.21).

(The modules' own code, module_utils, runs where the module is packed and cannot import this:
``AnsibleModule._diff`` is read there, in ``_api_module``.)
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


# The action plugin (ActionBase): what the task executor hands every action plugin.

def action_task(action):
    """The task an action plugin runs (``ActionBase._task``). Checked on ansible-core 2.16 to 2.21."""
    return action._task


def action_connection(action):
    """The task's connection (``ActionBase._connection``). Checked on ansible-core 2.16 to 2.21."""
    return action._connection


def action_play_context(action):
    """The task's play context (``ActionBase._play_context``). Checked on ansible-core 2.16 to 2.21."""
    return action._play_context


def action_templar(action):
    """The templar of the task's variables (``ActionBase._templar``). Checked on ansible-core 2.16 to 2.21."""
    return action._templar


def action_module_loader(action):
    """The module loader the worker uses (``ActionBase._shared_loader_obj.module_loader``).
    Checked on ansible-core 2.16 to 2.21."""
    return action._shared_loader_obj.module_loader


def execute_module(action, module_name, module_args, task_vars, wrap_async):
    """Run a module where the task's connection goes, as ``ActionBase._execute_module`` runs it.
    Checked on ansible-core 2.16 to 2.21."""
    return action._execute_module(module_name=module_name, module_args=module_args, task_vars=task_vars,
                                  wrap_async=wrap_async)


def remove_remote_tmp(action):
    """Remove the temporary directory ``execute_module`` left on the target (``ActionBase._remove_tmp_path``
    of ``connection._shell.tmpdir``). Checked on ansible-core 2.16 to 2.21."""
    action._remove_tmp_path(action._connection._shell.tmpdir)


def task_environment(action):
    """The task's ``environment:``, templated (``ActionBase._compute_environment_string``, which fills
    the dict it is given). Checked on ansible-core 2.16 to 2.21."""
    environment = {}
    action._compute_environment_string(environment)
    return environment


# The task.

def task_id(task):
    """The id a task keeps in every copy the worker makes of it for a loop's items (``Task._uuid``).
    Checked on ansible-core 2.16 to 2.21."""
    return task._uuid


def task_parent(task):
    """The block (or include) that holds a task, None for none (``Task._parent``).
    Checked on ansible-core 2.16 to 2.21."""
    return getattr(task, '_parent', None)


def when_holds(task, templar, variables):
    """Whether the task's ``when`` holds for ``variables``: ``Task._resolve_conditional`` from
    ansible-core 2.19 (checked on 2.19 to 2.21), the public ``evaluate_conditional`` before it
    (checked on 2.16 to 2.18)."""
    if not task.when:
        return True
    if hasattr(task, '_resolve_conditional'):
        return bool(task._resolve_conditional(task.when, variables))
    return bool(task.evaluate_conditional(templar, variables))


# The validation of a module's options (ArgumentSpecValidator's ValidationResult).

def no_log_values(validation):
    """The values the validated options mark ``no_log`` (``ValidationResult._no_log_values``).
    Checked on ansible-core 2.16 to 2.21."""
    return validation._no_log_values


def validation_warnings(validation):
    """The warnings of the validation, as dicts with ``option`` and ``alias`` (``ValidationResult._warnings``).
    Checked on ansible-core 2.16 to 2.21."""
    return validation._warnings


def validation_deprecations(validation):
    """The deprecations of the validation (``ValidationResult._deprecations``). Checked on ansible-core 2.16 to 2.21."""
    return validation._deprecations


# Lookup plugins (LookupBase).

def lookup_name(lookup):
    """The name the lookup was loaded as, the key of its configuration (``AnsiblePlugin._load_name``).
    Checked on ansible-core 2.16 to 2.21."""
    return lookup._load_name


def lookup_templar(lookup):
    """The templar the lookup was given, None for none (``LookupBase._templar``).
    Checked on ansible-core 2.16 to 2.21."""
    return lookup._templar


# Inventory plugins (BaseInventoryPlugin): the interface ansible-core's guide to inventory plugins
# describes, with underscores all the same. (Its cache is read through the public ``Cacheable.cache``.)

def inventory_config(inventory, path):
    """The inventory source's configuration file, read and its options set
    (``BaseInventoryPlugin._read_config_data``). Checked on ansible-core 2.16 to 2.21."""
    return inventory._read_config_data(path)


def inventory_variables(inventory):
    """The variables an inventory source's options may read (``BaseInventoryPlugin._vars``, set by ``parse``).
    Checked on ansible-core 2.16 to 2.21."""
    return inventory._vars
