# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shared body of the ``*_info`` modules: filtered reads that return lists."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec, is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError


def object_id(name, value):
    """The option ``name`` as an object id (a positive integer, or its digits), or
    None when not given; a clear error for anything else (floats such as inf included).
    The option is declared raw: ansible-core's int check crashes on inf."""
    if value is None:
        return None
    if is_id(value) and int(value) > 0:
        return int(value)
    if isinstance(value, float) and value.is_integer() and value > 0:
        return int(value)
    raise ConfigError('%s must be an object id (a positive integer), not %r.' % (name, value))


COMMON_SPEC = dict(
    id=dict(type='raw'),
    query=dict(type='dict'),
)
PAGE_SIZE = 200


def related_filter(field, value):
    """Filter on a related object given by id or by name (``inventory`` or ``inventory__name``)."""
    if value is None:
        return {}
    return {field: int(value)} if is_id(value) else {field + '__name': value}


def wire_value(value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (list, tuple)):
        return ','.join(str(item) for item in value)
    return value


def info_spec(resource, result_key, argument_spec):
    """The ModuleSpec of an info module: its own options plus ``id`` and ``query``."""
    spec = dict(COMMON_SPEC)
    spec.update(argument_spec)
    return ModuleSpec(spec, resource=resource, result_key=result_key)


def read_all(api, filters):
    """Every object of the module's resource matching ``filters`` (the query of
    its own options) merged with ``id`` and ``query``; every page is read."""
    params = api.params
    query = dict((key, wire_value(value)) for key, value in (params['query'] or {}).items())
    query.update(filters)
    if params['id'] is not None:
        query['id'] = object_id('id', params['id'])
    query.setdefault('page_size', PAGE_SIZE)
    api.returns(**{api.result_key: list(api.client.iterate(api.resource, params=query))})
