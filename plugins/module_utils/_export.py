# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Export: the objects asked for, as the data ``_import`` applies (see ``_assets``)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._assets import (
    BY_KEY, EDGES, KINDS, LABEL, NODE, NOTIFY, Objects, blank_secrets,
)
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound

APPROVAL_FIELDS = ('name', 'description', 'timeout')


def sublist(obj, endpoint, name):
    return (obj.get('related') or {}).get(name) or '%s/%s/%s' % (endpoint, obj['id'], name)


class Exporter(Objects):

    def listed(self, found, names):
        """The objects of ``found`` named in ``names`` (by name or id), every one when ``names`` is empty."""
        client = self.api.client
        if not names:
            return list(client.iterate(found.endpoint, {'page_size': 200, 'order_by': 'id'}))
        objects, seen = [], set()
        for name in names:
            if is_id(name):
                matches = list(client.iterate(found.endpoint, {'id': int(name)}))
            else:
                field = 'username' if found.type == 'user' else 'name'
                matches = list(client.iterate(found.endpoint, {field: name, 'page_size': 200, 'order_by': 'id'}))
            if not matches:
                raise NotFound('%s %r was not found.' % (found.type.replace('_', ' '), name))
            objects.extend(obj for obj in matches if obj['id'] not in seen)
            seen.update(obj['id'] for obj in matches)
        return objects

    def asset(self, found, obj, endpoint=None):
        """``obj`` as data; None for an object the service manages itself."""
        if obj.get('managed') or obj.get('managed_by_tower'):
            return None
        data = dict((field, obj[field]) for field in found.fields if field in obj)
        for field in found.references:
            if field in obj:
                data[field] = self.reference_key(obj, field)
        related = {}
        for name in found.related:
            value = self.related(found, obj, name, endpoint or found.endpoint)
            if value:
                related[name] = value
        if related:
            data['related'] = related
        data['natural_key'] = self.natural_key(obj)
        if found is NODE:
            template = (obj.get('summary_fields') or {}).get('unified_job_template') or {}
            if template.get('unified_job_type') == 'workflow_approval':
                approval = self.get('workflow_approval_templates/%s' % template['id'])
                data['unified_job_template'] = dict(((key, approval.get(key)) for key in APPROVAL_FIELDS),
                                                    type='workflow_approval_template')
        return blank_secrets(data)

    def related(self, found, obj, name, endpoint):
        url = sublist(obj, endpoint, name)
        if name == 'survey_spec':
            spec = self.get(url)
            return spec if isinstance(spec, dict) and spec.get('spec') else None
        items = list(self.api.client.iterate(url, {'page_size': 200, 'order_by': 'id'}))
        if name == 'schedules':
            return [self.asset(BY_KEY['schedules'], item) for item in items]
        if name == 'workflow_nodes':
            return [self.asset(NODE, item) for item in items]
        if name == 'labels':
            return [self.asset(LABEL, item) for item in items]
        if name == 'roles':
            keys = (self.role_key(item) for item in items)
            return [key for key in keys if 'content_object' in key]
        if name in ('credentials',) + NOTIFY + EDGES:
            return [self.natural_key(item) for item in items]
        return None


def export_assets(api, selection):
    """The data of the objects ``selection`` names: kind key -> names or ids, ``[]`` for every object of the kind."""
    exporter = Exporter(api)
    data = {}
    for found in KINDS:
        names = selection.get(found.key)
        if names is None:
            continue
        assets = (exporter.asset(found, obj) for obj in exporter.listed(found, names))
        data[found.key] = [asset for asset in assets if asset is not None]
    return data
