# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Export and import: the service's objects as data, and that data applied to
a service again, idempotently.

The data has the shape ``awx export`` writes and ``awx import`` reads: one
list per kind of object; each object holds its writable fields, the objects
it refers to by natural key (``{"type": "organization", "name": "Default"}``),
the sets it relates to (``related``: credentials, labels, survey, schedules,
workflow nodes, notification templates, roles) and its own ``natural_key``.

Secrets never leave the service: it shows them as ``$encrypted$``, and they
are written as ``""``. On import, an empty or ``$encrypted$`` secret is left
out: a new object is created without it, an existing one keeps its own. A
secret given in clear is set when the object is created; an existing object's
secrets are left alone (the credential module's ``update_secrets`` changes them).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections import namedtuple

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._survey import ENCRYPTED

PROMPTS = ('diff_mode', 'forks', 'job_slice_count', 'job_tags', 'job_type', 'limit', 'scm_branch', 'skip_tags',
           'timeout', 'verbosity')
NOTIFY = ('notification_templates_started', 'notification_templates_success', 'notification_templates_error')


class Kind(namedtuple('Kind', 'key endpoint type natural fields references related later')):
    """One kind of object: its key in the data, endpoint, ``type``, the fields
    of its natural key, its writable fields, its references (field -> type or
    None when it names objects of several types), the sets in ``related`` and
    the references set only once every kind is in place."""


def kind(key, endpoint, type_, natural, fields, references=None, related=(), later=()):
    return Kind(key, endpoint, type_, tuple(natural), tuple(fields), references or {}, tuple(related), tuple(later))


# In the order objects are created: what an object refers to comes before it
# (an organization's default environment is set once environments exist).
KINDS = (
    kind('organizations', 'organizations', 'organization', ['name'], ['name', 'description', 'max_hosts'],
         {'default_environment': 'execution_environment'}, later=['default_environment']),
    kind('users', 'users', 'user', ['username'],
         ['username', 'first_name', 'last_name', 'email', 'is_superuser', 'is_system_auditor'], related=['roles']),
    kind('teams', 'teams', 'team', ['organization', 'name'], ['name', 'description'],
         {'organization': 'organization'}, related=['roles']),
    kind('credential_types', 'credential_types', 'credential_type', ['name', 'kind'],
         ['name', 'description', 'kind', 'inputs', 'injectors']),
    kind('execution_environments', 'execution_environments', 'execution_environment', ['name'],
         ['name', 'description', 'image', 'pull'], {'organization': 'organization'}),
    kind('credentials', 'credentials', 'credential', ['organization', 'name', 'credential_type'],
         ['name', 'description', 'inputs'], {'organization': 'organization', 'credential_type': 'credential_type'}),
    kind('notification_templates', 'notification_templates', 'notification_template', ['organization', 'name'],
         ['name', 'description', 'notification_type', 'notification_configuration', 'messages'],
         {'organization': 'organization'}),
    kind('projects', 'projects', 'project', ['organization', 'name'],
         ['name', 'description', 'local_path', 'scm_type', 'scm_url', 'scm_branch', 'scm_refspec', 'scm_clean',
          'scm_delete_on_update', 'scm_track_submodules', 'scm_update_on_launch', 'scm_update_cache_timeout',
          'allow_override', 'timeout'],
         {'organization': 'organization', 'credential': 'credential', 'default_environment': 'execution_environment',
          'signature_validation_credential': 'credential'}, related=('schedules',) + NOTIFY),
    kind('inventory', 'inventories', 'inventory', ['organization', 'name'],
         ['name', 'description', 'kind', 'host_filter', 'variables', 'prevent_instance_group_fallback'],
         {'organization': 'organization'}, related=['labels']),
    kind('inventory_sources', 'inventory_sources', 'inventory_source', ['inventory', 'name'],
         ['name', 'description', 'source', 'source_path', 'source_vars', 'enabled_var', 'enabled_value',
          'host_filter', 'overwrite', 'overwrite_vars', 'timeout', 'verbosity', 'update_on_launch',
          'update_cache_timeout', 'limit', 'scm_branch'],
         {'inventory': 'inventory', 'source_project': 'project', 'credential': 'credential',
          'execution_environment': 'execution_environment'}, related=('schedules',) + NOTIFY),
    kind('job_templates', 'job_templates', 'job_template', ['organization', 'name'],
         ['name', 'description', 'job_type', 'playbook', 'scm_branch', 'forks', 'limit', 'verbosity', 'extra_vars',
          'job_tags', 'skip_tags', 'start_at_task', 'timeout', 'use_fact_cache', 'host_config_key',
          'ask_scm_branch_on_launch', 'ask_diff_mode_on_launch', 'ask_variables_on_launch', 'ask_limit_on_launch',
          'ask_tags_on_launch', 'ask_skip_tags_on_launch', 'ask_job_type_on_launch', 'ask_verbosity_on_launch',
          'ask_inventory_on_launch', 'ask_credential_on_launch', 'ask_execution_environment_on_launch',
          'ask_labels_on_launch', 'ask_forks_on_launch', 'ask_job_slice_count_on_launch', 'ask_timeout_on_launch',
          'ask_instance_groups_on_launch', 'survey_enabled', 'become_enabled', 'diff_mode', 'allow_simultaneous',
          'job_slice_count', 'webhook_service', 'prevent_instance_group_fallback', 'force_handlers'],
         {'inventory': 'inventory', 'project': 'project', 'execution_environment': 'execution_environment',
          'webhook_credential': 'credential'},
         related=('credentials', 'labels', 'survey_spec', 'schedules') + NOTIFY),
    kind('workflow_job_templates', 'workflow_job_templates', 'workflow_job_template', ['organization', 'name'],
         ['name', 'description', 'extra_vars', 'survey_enabled', 'allow_simultaneous', 'ask_variables_on_launch',
          'limit', 'scm_branch', 'ask_inventory_on_launch', 'ask_scm_branch_on_launch', 'ask_limit_on_launch',
          'webhook_service', 'ask_labels_on_launch', 'ask_skip_tags_on_launch', 'ask_tags_on_launch', 'skip_tags',
          'job_tags'],
         {'organization': 'organization', 'inventory': 'inventory', 'webhook_credential': 'credential'},
         related=('workflow_nodes', 'labels', 'survey_spec', 'schedules') + NOTIFY),
    kind('applications', 'applications', 'o_auth2_application', ['organization', 'name'],
         ['name', 'description', 'client_type', 'redirect_uris', 'authorization_grant_type', 'skip_authorization'],
         {'organization': 'organization'}),
    kind('schedules', 'schedules', 'schedule', ['unified_job_template', 'name'],
         ('name', 'description', 'rrule', 'enabled', 'extra_data') + PROMPTS,
         {'unified_job_template': None, 'inventory': 'inventory', 'execution_environment': 'execution_environment'}),
)
# Objects that are only ever exported inside another's ``related``.
NODE = kind('workflow_nodes', 'workflow_job_template_nodes', 'workflow_job_template_node',
            ['workflow_job_template', 'identifier'], ('identifier', 'all_parents_must_converge', 'extra_data') + PROMPTS,
            {'unified_job_template': None, 'inventory': 'inventory', 'execution_environment': 'execution_environment'},
            related=('success_nodes', 'failure_nodes', 'always_nodes', 'credentials'))
LABEL = kind('labels', 'labels', 'label', ['organization', 'name'], ['name'], {'organization': 'organization'})
NATURAL = dict((k.type, k) for k in KINDS + (NODE, LABEL))
NATURAL['role'] = kind('roles', 'roles', 'role', ['name'], [])
BY_KEY = dict((k.key, k) for k in KINDS)
# Fields the service keeps as JSON text (compared as data), and fields holding secrets.
TEXT_DATA = ('variables', 'extra_vars', 'source_vars')
JSON_DATA = ('inputs', 'injectors', 'notification_configuration', 'messages', 'extra_data')
SECRET_DATA = ('inputs', 'notification_configuration')
EDGES = ('success_nodes', 'failure_nodes', 'always_nodes')
# The settings of each notification type that the service keeps secret (its OPTIONS).
NOTIFICATION_SECRETS = {
    'awssns': ('aws_secret_access_key', 'aws_session_token'), 'email': ('password',), 'grafana': ('grafana_key',),
    'irc': ('password',), 'pagerduty': ('token',), 'slack': ('token',), 'twilio': ('account_token',),
    'webhook': ('password',),
}


def blank_secrets(value):
    """``value`` with every ``$encrypted$`` in it written as ``""``."""
    if value == ENCRYPTED:
        return ''
    if isinstance(value, dict):
        return dict((k, blank_secrets(v)) for k, v in value.items())
    if isinstance(value, list):
        return [blank_secrets(v) for v in value]
    return value


def freeze(key):
    """A natural key as something hashable."""
    if isinstance(key, dict):
        return frozenset((k, freeze(v)) for k, v in key.items())
    return key


def natural_path(key):
    """The values of a natural key joined by ``/``, its references' in place."""
    parts = []
    for field in NATURAL.get(key.get('type'), LABEL).natural + ('content_object',):
        value = key.get(field)
        if isinstance(value, dict):
            parts.append(natural_path(value))
        elif value is not None:
            parts.append(str(value))
    return '/'.join(parts)


def describe(key):
    """``{"type": "team", "organization": {...}, "name": "Ops"}`` -> ``team Default/Ops``."""
    if not isinstance(key, dict):
        return str(key)
    return '%s %s' % (str(key.get('type', 'object')).replace('_', ' '), natural_path(key))


class Objects:
    """Reads of one run, each made once: objects by URL and by natural key."""

    def __init__(self, api):
        self.api = api
        self.by_url = {}
        self.by_key = {}

    def get(self, url):
        if url not in self.by_url:
            self.by_url[url] = self.api.client.get(url)
        return self.by_url[url]

    # -- natural keys of objects read from the service -----------------------------

    def natural_key(self, obj):
        found = NATURAL.get(obj.get('type'))
        if found is None:
            return None
        key = {'type': obj['type']}
        if found.type == 'role':
            return self.role_key(obj)
        for field in found.natural:
            value = obj.get(field)
            if field in found.references or field in ('organization', 'workflow_job_template'):
                value = self.reference_key(obj, field)
            key[field] = value
        return key

    def reference_key(self, obj, field):
        if obj.get(field) is None:
            return None
        url = (obj.get('related') or {}).get(field)
        return None if url is None else self.natural_key(self.get(url))

    def role_key(self, role):
        summary = role.get('summary_fields') or {}
        key = {'type': 'role', 'name': role.get('name')}
        for field, url in sorted((role.get('related') or {}).items()):
            if field not in ('users', 'teams', 'parents', 'children') and isinstance(url, str):
                if summary.get('resource_id') is None:
                    break
                key['content_object'] = self.natural_key(self.get(url))
                break
        return key

    # -- objects named by natural key ----------------------------------------------

    def find(self, key, required=True):
        """The object ``key`` names (None when there is none and ``required`` is false;
        an object only planned, in check mode, has the id None)."""
        if key is None:
            return None
        frozen = freeze(key)
        if self.by_key.get(frozen) is None:
            self.by_key[frozen] = self.lookup(key)
        if self.by_key[frozen] is None and required:
            raise NotFound('%s was not found.' % describe(key))
        return self.by_key[frozen]

    def lookup(self, key):
        found = NATURAL.get(key.get('type'))
        if found is None or found.type == 'role':
            raise ConfigError('%s cannot be named by a natural key.' % describe(key))
        filters, references = {}, {}
        for field in found.natural:
            value = key.get(field)
            if isinstance(value, dict):
                parent = self.find(value, required=False)
                if parent is None or parent.get('id') is None:
                    return None     # its parent is missing, or only planned
                references[field] = parent['id']
            elif field in found.references or field in ('organization', 'workflow_job_template'):
                references[field] = value
            else:
                filters[field] = value
        candidates = self.api.client.iterate(found.endpoint, dict(filters, page_size=200))
        matches = [obj for obj in candidates if all(obj.get(field) == value for field, value in references.items())]
        if len(matches) > 1:
            raise ApiError('More than one object matches %s.' % describe(key))
        return matches[0] if matches else None

    def remember(self, key, obj):
        self.by_key[freeze(key)] = obj
