# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where every module starts: the zip loader first, then ApiModule and its helpers.

This file stays small on purpose: a module's first module_util is compiled from
the zip on every task (twice, CPython gh-141276); every one imported after
compile_once() is run from cached bytecode (see _zip_import).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._zip_import import compile_once

compile_once()

from ansible_collections.automation.service.plugins.module_utils._api_base import (  # noqa: E402
    ApiModule, dump_variables, is_id, parse_variables, require_present_fields,
)

__all__ = ['ApiModule', 'dump_variables', 'is_id', 'parse_variables', 'require_present_fields']
