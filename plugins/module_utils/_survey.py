# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The survey of a template (``<template>/survey_spec/``), compared as data.

The service reads the default of a password question back as ``$encrypted$``:
such a default counts as unchanged, and shows masked in the diff.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._outcome import NO_LOG_PLACEHOLDER
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ENCRYPTED = '$encrypted$'


def _questions(spec):
    items = (spec or {}).get('spec') if isinstance(spec, dict) else None
    return items if isinstance(items, list) else []


def _is_password(item):
    return isinstance(item, dict) and item.get('type') == 'password' and item.get('default') not in (None, '')


def comparable(wanted, have):
    """``wanted`` with the password defaults the service hides taken as the hidden value."""
    if not isinstance(wanted, dict):
        return wanted
    hidden = set(item.get('variable') for item in _questions(have)
                 if isinstance(item, dict) and item.get('default') == ENCRYPTED)
    items = [dict(item, default=ENCRYPTED) if _is_password(item) and item.get('variable') in hidden else item
             for item in _questions(wanted)]
    return dict(wanted, spec=items) if 'spec' in wanted else wanted


def masked(spec):
    """``spec`` with its password defaults masked, for the diff."""
    if not isinstance(spec, dict) or 'spec' not in spec:
        return spec
    return dict(spec, spec=[dict(item, default=NO_LOG_PLACEHOLDER) if _is_password(item) else item
                            for item in _questions(spec)])


def hide_password_defaults(api, spec):
    """A password question's default is a secret: never in the task's output."""
    for question in (spec or {}).get('spec') or []:
        if isinstance(question, dict) and question.get('type') == 'password' and question.get('default'):
            api.no_log_values.add(str(question['default']))


def ensure_survey(api, endpoint, obj, new, wanted, option='survey_spec'):
    """Make the survey of ``obj`` (of ``endpoint``) ``wanted``; ``{}`` removes it."""
    if wanted is None:
        return
    hide_password_defaults(api, wanted)
    path = None if obj.get('id') is None else '%s/%s/survey_spec' % (endpoint, obj['id'])
    have = {} if new or path is None else (api.client.get(path) or {})
    if comparable(wanted, have) == have:
        return
    before, after = {} if new else {option: masked(have)}, {option: masked(wanted)}
    if wanted == {}:
        write = Write('DELETE', path, expect=(200, 204), before=before, after=after)
    else:
        write = Write('POST', path, wanted, expect=(200, 201), before=before, after=after)
    api.apply(Plan(obj, [write]))   # path is None only in check mode: an object not made yet
