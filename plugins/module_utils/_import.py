# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Import: exported data (see ``_assets``) applied to a service, idempotently.

Each object is found by its natural key; a missing one is created, a found one
gets only the fields that differ. Sets in ``related`` gain what they lack and
lose nothing. Check mode reads and reports, and writes nothing.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import secrets
import time

from ansible_collections.automation.service.plugins.module_utils import _jobs, _organization, _team, _user
from ansible_collections.automation.service.plugins.module_utils._api_module import dump_variables, parse_variables
from ansible_collections.automation.service.plugins.module_utils._outcome import NO_LOG_PLACEHOLDER
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._assets import (
    BY_KEY, EDGES, JSON_DATA, KINDS, NODE, NOTIFICATION_SECRETS, NOTIFY, SECRET_DATA, TEXT_DATA, Objects, describe,
    freeze, natural_path,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._hub import secrets_set
from ansible_collections.automation.service.plugins.module_utils._export import (
    APPROVAL_FIELDS, EDA_BY_KEY, EDA_ENDPOINTS, EDA_KINDS, HUB_BY_KEY, HUB_BY_TYPE, HUB_DISTRIBUTIONS, HUB_KINDS,
    HUB_REPOSITORIES, HUB_SHOWN, MAPPING_ID, EdaObjects, HubObjects, data_field, eda_root, hub_behind,
    hub_root, parse_mappings, referred_id, standalone_hub, sublist, yaml,
)
from ansible_collections.automation.service.plugins.module_utils._resource import as_data
from ansible_collections.automation.service.plugins.module_utils._shared_resources import (
    MEMBERSHIP_ROLES, Gateway, Memberships, controller_members, no_copy_yet, on_gateway,
)
from ansible_collections.automation.service.plugins.module_utils._survey import ENCRYPTED, comparable, ensure_survey

FIRST_UPDATE_TIMEOUT = 600    # seconds a new project from source control may take to fetch its playbooks
SECRETS = SECRET_DATA + ('password',)     # fields masked in the diff
NORMALIZE = dict([(field, parse_variables) for field in TEXT_DATA] + [(field, as_data) for field in JSON_DATA])
# Behind a platform gateway, organizations, teams and users are the gateway's (the controller keeps copies): each
# is written as its own module writes it there, and the memberships of organizations and teams are the gateway's
# role assignments.
AT_GATEWAY = {'organization': _organization, 'team': _team, 'user': _user}


def validate(data):
    """Refuse data that is not an export before anything is read or written."""
    if not isinstance(data, dict):
        raise ConfigError('assets must be a dict of lists, as export returns it.')
    known = dict(BY_KEY, **EDA_BY_KEY)
    known.update(HUB_BY_KEY)
    unknown = sorted(key for key in data if key not in known)
    if unknown:
        raise ConfigError('assets has unknown kinds: %s (known: %s).' % (', '.join(unknown), ', '.join(known)))
    for key, assets in data.items():
        if not isinstance(assets, list):
            raise ConfigError('assets.%s must be a list.' % key)
        for index, asset in enumerate(assets):
            natural = asset.get('natural_key') if isinstance(asset, dict) else None
            if not isinstance(natural, dict) or natural.get('type') != known[key].type:
                raise ConfigError('assets.%s[%d] has no natural_key of type %s.' % (key, index, known[key].type))


def kept_secrets(value, have):
    """A secret-bearing dict with its empty secrets left out, and secrets the object has kept as they are."""
    if not isinstance(value, dict):
        return value
    wanted = dict((k, v) for k, v in value.items() if v not in ('', ENCRYPTED))
    if have is None:
        return wanted
    merged = dict(have or {})
    merged.update((k, v) for k, v in wanted.items() if merged.get(k) != ENCRYPTED)
    return merged


def is_approval(value):
    """A node's approval template (created with the node, named by its fields)."""
    return isinstance(value, dict) and value.get('type') == 'workflow_approval_template'


class Importer(Objects):

    def __init__(self, api):
        super(Importer, self).__init__(api)
        self.created = []
        self.updated = []
        self.without_password = []     # the users created without a password (nobody knows theirs)
        self.secrets_needed = {}       # object -> the secrets it was left without
        self._memberships = None

    def hide(self, value, secret):
        if isinstance(value, dict):
            return dict((k, self.hide(v, secret)) for k, v in value.items())
        if secret and isinstance(value, str) and value not in ('', ENCRYPTED):
            self.api.no_log_values.add(value)
            return NO_LOG_PLACEHOLDER
        return value

    def reference(self, value):
        if isinstance(value, dict):
            found = self.find(value)
            return None if found is None else found.get('id')
        return value

    def secret_values(self, found, asset):
        """Keep the secrets given in clear out of every output."""
        values = []
        if found.type == 'credential' and isinstance(asset.get('inputs'), dict):
            kind = self.find(asset.get('credential_type'), required=False) or {}
            fields = ((kind.get('inputs') or {}).get('fields') or []) if kind.get('id') is not None else None
            secret = None if fields is None else set(f.get('id') for f in fields if f.get('secret'))
            values = [v for k, v in asset['inputs'].items() if secret is None or k in secret]
        elif found.type == 'notification_template' and isinstance(asset.get('notification_configuration'), dict):
            secret = NOTIFICATION_SECRETS.get(asset.get('notification_type'), ())
            values = [v for k, v in asset['notification_configuration'].items() if k in secret]
        elif found.type == 'user':
            values = [asset.get('password')]
        self.api.no_log_values.update(v for v in values if isinstance(v, str) and v not in ('', ENCRYPTED))

    def desired(self, found, asset, existing, skip=()):
        self.secret_values(found, asset)
        wanted = dict((field, asset[field]) for field in found.fields if field in asset)
        for field in SECRET_DATA:
            if field in wanted:
                wanted[field] = kept_secrets(wanted[field], None if existing is None else existing.get(field) or {})
        if found.type == 'user' and existing is None and asset.get('password') not in (None, '', ENCRYPTED):
            wanted['password'] = asset['password']
        for field in found.references:
            if field in asset and field not in skip and not is_approval(asset[field]):
                wanted[field] = self.reference(asset[field])
        return wanted

    def apply(self, found, asset, parent=None, skip=()):
        """Create or update the object ``asset`` describes; the object."""
        key = asset.get('natural_key') if isinstance(asset, dict) else None
        if not isinstance(key, dict) or key.get('type') != found.type:
            raise ConfigError('a %s in assets has no natural_key of its type.' % found.type.replace('_', ' '))
        existing = self.find(key, required=False)
        if found.type in AT_GATEWAY and on_gateway(self.api):    # known once the look-up went to the controller
            return self.apply_at_gateway(found, asset, key, existing, skip)
        wanted = self.desired(found, asset, existing, skip)
        approval = asset.get('unified_job_template') if is_approval(asset.get('unified_job_template')) else None
        if parent is not None:
            wanted[parent[0]] = parent[1].get('id')
        label = describe(key)
        api = self.api
        if existing is None:
            if found.type == 'user' and 'password' not in wanted:
                # The service needs a password; nobody knows this one (set one, or log in through SSO).
                wanted['password'] = self.unknown_password(key.get('username'))
            self.created.append(label)
            obj = self.write(label, None, wanted, Write('POST', found.endpoint, self.wire(wanted), expect=(200, 201),
                                                        answer=dict(wanted, id=None, type=found.type)))
        else:
            delta = api.changes(existing, wanted, NORMALIZE)
            obj = existing
            if delta:
                self.updated.append(label)
                obj = self.write(label, dict((k, existing.get(k)) for k in delta), delta,
                                 Write('PATCH', api.detail_path(existing), self.wire(delta), answer=existing))
        if approval is not None:
            self.approval(obj, existing is None, approval, label)
        if found.type == 'project' and existing is None and obj.get('scm_type') and obj.get('id') is not None:
            self.synced(obj)
        self.secrets_left_out(found, asset, label, obj)
        self.remember(key, obj)
        return obj

    def unknown_password(self, username):
        """A password for a user the data gives none (the service needs one): random, known to nobody."""
        password = secrets.token_urlsafe(24)
        self.api.no_log_values.add(password)
        self.api.warn('user %s was created with a random password nobody knows.' % username)
        self.without_password.append(username)
        return password

    def secrets_left_out(self, found, asset, label, obj):
        """Note the secrets the data left out (empty or ``$encrypted$``: an export never holds them) that the
        object has no value for: someone has to give them."""
        if found.type == 'credential':
            kind = self.find(asset.get('credential_type'), required=False) or {}
            fields = (kind.get('inputs') or {}).get('fields') or []
            secret, given, have = [f.get('id') for f in fields if f.get('secret')], asset.get('inputs'), obj.get('inputs')
        elif found.type == 'notification_template':
            secret = NOTIFICATION_SECRETS.get(asset.get('notification_type'), ())
            given, have = asset.get('notification_configuration'), obj.get('notification_configuration')
        else:
            return
        given, have = given if isinstance(given, dict) else {}, have if isinstance(have, dict) else {}
        needed = [field for field in secret if given.get(field) in ('', ENCRYPTED) and have.get(field) in (None, '')]
        if needed:
            self.secrets_needed[label] = needed
        else:
            self.secrets_needed.pop(label, None)

    # -- behind a platform gateway ----------------------------------------------------

    def apply_at_gateway(self, found, asset, key, existing, skip):
        """Create or update an organization, team or user where the platform keeps it, as its module does (the
        gateway's object, then the controller's own fields at its copy); the controller's copy."""
        api, label = self.api, describe(key)
        module = AT_GATEWAY[found.type]
        params = dict((name, spec.get('default')) for name, spec in module.SPEC.argument_spec.items())
        params.update((field, key[field]) for field in found.natural if not isinstance(key.get(field), dict))
        for field in found.fields:
            if field in asset and asset[field] is not None:
                params[field] = asset[field]
        planned = []    # what it refers to that is only planned (check mode)
        for field, value in asset.items():
            if field in found.references and field not in skip and isinstance(value, dict):
                target = self.find(value)
                planned += [value] if target.get('id') is None else []
                params[field] = None if target.get('id') is None else str(target['id'])
        if found.type == 'team':
            organization = self.find(asset.get('organization'))
            planned += [asset.get('organization')] if organization.get('id') is None else []
            params['organization'] = organization.get('name')
        if found.type == 'user':
            if asset.get('password') not in (None, '', ENCRYPTED):
                params['password'] = asset['password']
            elif Gateway(api, 'users', 'username').find(asset['username']) is None:
                params['password'] = self.unknown_password(asset['username'])
        if planned or (api.check_mode and existing is not None and existing.get('id') is None):
            # check mode: what it belongs to is only planned, so it is too
            if existing is None:
                self.created.append(label)
                fields = dict((k, v) for k, v in params.items() if k in found.fields)
                self.write(label, None, fields, Write('POST', api.client.layout.gateway_path(found.type + 's'), fields,
                                                      expect=(201,)))
            self.remember(key, dict(asset, id=None, type=found.type))
            return self.find(key)
        task = api.subtask(module.SPEC, params)
        result = task.execute(module.run)
        if result.get('failed'):
            api.warnings.extend(task.warnings)
            raise ApiError('%s: %s' % (label, result.get('msg')), status=result.get('status'))
        if api.merge(task, under=(label,)):
            (self.created if not result.get('existing') else self.updated).append(label)
        obj = result.get(found.type) or {}
        if api.check_mode and obj.get('id') is None:
            obj = dict(asset, id=None, type=found.type)
        elif not api.check_mode:
            obj = self.lookup(key)      # the controller's copy, as the service reads it
            if obj is None:
                raise no_copy_yet(api, natural_path(key))
        self.remember(key, obj)
        return obj

    def membership(self, user, content, role_field, label):
        """Give ``user`` the membership of the organization or team ``content`` (the controller's copies) at the
        gateway, as a role assignment, and show it in the controller's list of members."""
        api = self.api
        resource_type = content.get('type')
        role = '%s: role %s of %s %s' % (label, role_field[:-len('_role')], resource_type, content.get('name'))
        if user.get('id') is None or content.get('id') is None:     # check mode: one of them is only planned
            self.updated.append(label)
            self.write(role, None, {'role': role_field[:-len('_role')]},
                       Write('POST', api.client.layout.gateway_path('role_user_assignments'), None, expect=(201,)))
            return
        if self._memberships is None:
            self._memberships = Memberships(api)
        memberships = self._memberships
        definition = memberships.definition(MEMBERSHIP_ROLES[resource_type, role_field])
        target, actor = memberships.target(resource_type, content), memberships.actor('user', user)

        def listed(_made=None):
            return controller_members(api, definition['name'], content, user, True)
        if memberships.find('user', definition, actor, target) is not None:
            writes = listed()
            if not writes:
                return
        else:
            writes = [memberships.grant_write('user', definition, actor, target, definition['name'], then=listed)]
        self.updated.append(label)
        self.write(role, None, {'role': definition['name']}, *writes)

    def synced(self, project):
        """Wait for a new project's first update: a template names a playbook only once the project has it."""
        current = (self.api.client.get('projects/%d' % project['id']).get('summary_fields') or {}).get('current_update')
        if current:
            _jobs.wait(self.api.client, current['id'], FIRST_UPDATE_TIMEOUT, 1, kind=_jobs.PROJECT_UPDATE)

    @staticmethod
    def wire(fields):
        return dict((k, dump_variables(v) if k in TEXT_DATA and not isinstance(v, str) else v)
                    for k, v in fields.items())

    def write(self, label, before, after, *writes):
        """Send ``writes`` (in check mode, none), said as the change of ``label`` from ``before`` (None: it is
        new) to ``after``, secrets hidden; what the last one answered (in check mode, its ``answer``)."""
        shown = {
            'before': None if before is None else {label: dict((k, self.hide(v, k in SECRETS)) for k, v in before.items())},
            'after': {label: dict((k, self.hide(v, k in SECRETS)) for k, v in after.items())},
        }
        return self.api.apply(Plan(None, [write.but(makes=True, **(shown if index == 0 else {}))
                                          for index, write in enumerate(writes)]))

    def approval(self, node, new, wanted, label):
        wanted = dict((key, wanted[key]) for key in APPROVAL_FIELDS if wanted.get(key) is not None)
        template = (node.get('summary_fields') or {}).get('unified_job_template') or {}
        if not new and template.get('unified_job_type') == 'workflow_approval':
            have = self.get('workflow_approval_templates/%s' % template['id'])
            delta = dict((k, v) for k, v in wanted.items() if have.get(k) != v)
            if delta:
                self.updated.append(label)
                self.write('%s: approval' % label, dict((k, have.get(k)) for k in delta), delta,
                           Write('PATCH', 'workflow_approval_templates/%s' % have['id'], delta))
            return
        # (a node not made yet, in check mode: the path is never asked for)
        self.write('%s: approval' % label, None, wanted,
                   Write('POST', lambda _made: '%s/%s/create_approval_template' % (NODE.endpoint, node['id']), wanted,
                         expect=(200, 201)))

    # -- related sets --------------------------------------------------------------

    def attach(self, obj, url, keys, label, name):
        """Add to the sub-list ``url`` the objects ``keys`` name that it lacks."""
        have = [] if obj.get('id') is None else [item['id'] for item in self.api.client.iterate(url, {'page_size': 200})]
        missing = []
        for key in keys:
            found = self.find(key)
            if found.get('id') is None or found['id'] not in have:
                missing.append(found)
        if not missing:
            return
        self.updated.append(label)
        # (in check mode, an object not made yet has no id: nothing is sent then)
        self.write('%s: %s' % (label, name), None, {'add': [describe(key) for key in keys]},
                   *[Write('POST', url, lambda _made, found=found: {'id': found['id']}, expect=(204,)) for found in missing])

    def labels(self, obj, url, assets, label):
        have = set() if obj.get('id') is None else set(
            (item['name'], item.get('organization')) for item in self.api.client.iterate(url, {'page_size': 200}))
        for asset in assets:
            organization = self.reference(asset.get('organization'))
            if (asset.get('name'), organization) in have:
                continue
            self.updated.append(label)
            self.write('%s: label %s' % (label, asset.get('name')), None, {'name': asset.get('name')},
                       Write('POST', url, {'name': asset['name'], 'organization': organization}, expect=(200, 201, 204)))

    def roles(self, obj, url, keys, label):
        have = [] if obj.get('id') is None else [item['id'] for item in self.api.client.iterate(url, {'page_size': 200})]
        gateway = on_gateway(self.api)
        for key in keys:
            if not isinstance(key.get('content_object'), dict):
                continue    # a role of the whole service (system administrator, auditor): a user's field
            content = self.find(key.get('content_object'))
            role_field = str(key.get('name')).lower().replace(' ', '_') + '_role'
            kind = key['content_object'].get('type')
            if gateway and obj.get('type') == 'user' and (kind, role_field) in MEMBERSHIP_ROLES:
                self.membership(obj, dict(content, type=kind), role_field, label)
                continue
            roles = (content.get('summary_fields') or {}).get('object_roles') or {}
            role = next((role for role in roles.values() if role.get('name') == key.get('name')), None)
            if role is None and content.get('id') is not None:
                raise ConfigError('%s has no role %r.' % (describe(key.get('content_object')), key.get('name')))
            if role is not None and role['id'] in have:
                continue
            self.updated.append(label)
            self.write('%s: role %s' % (label, describe(key)), None, {'role': key.get('name')},
                       Write('POST', url, lambda _made, role=role: {'id': role['id']}, expect=(204,)))

    def survey(self, found, obj, spec, label):
        have = {} if obj.get('id') is None else (self.get(sublist(obj, found.endpoint, 'survey_spec')) or {})
        hidden = set(item.get('variable') for item in have.get('spec') or [] if item.get('default') == ENCRYPTED)
        questions = [dict(item, default=ENCRYPTED) if item.get('variable') in hidden and item.get('default') == ''
                     else item for item in spec.get('spec') or []]
        wanted = dict(spec, spec=questions)
        if comparable(wanted, have) != have:
            self.updated.append(label)
            ensure_survey(self.api, found.endpoint, obj, obj.get('id') is None, wanted, option='%s: survey_spec' % label)

    def related(self, found, asset):
        obj = self.find(asset['natural_key'])
        label = describe(asset['natural_key'])
        for name, value in sorted((asset.get('related') or {}).items()):
            if not value:
                continue
            url = None if obj.get('id') is None else sublist(obj, found.endpoint, name)
            if name == 'survey_spec':
                self.survey(found, obj, value, label)
            elif name == 'labels':
                self.labels(obj, url, value, label)
            elif name == 'roles':
                self.roles(obj, url, value, label)
            elif name in ('credentials',) + NOTIFY + EDGES:
                self.attach(obj, url, value, label, name)
            elif name == 'schedules':
                for schedule in value:
                    self.apply(BY_KEY['schedules'], schedule, parent=('unified_job_template', obj))
            elif name == 'workflow_nodes':
                for node in value:
                    self.apply(NODE, node, parent=('workflow_job_template', obj))
                for node in value:
                    self.related(NODE, node)
            elif name in found.related:
                raise ConfigError('%s: related %s cannot be imported.' % (label, name))


# -- Event-Driven Ansible -------------------------------------------------------------

EDA_IMPORT_TIMEOUT = 600    # seconds a new EDA project may take to import its rulebooks
EDA_PROJECT_DONE = ('completed', 'failed')
# An activation is edited only while it is disabled and stopped (EDA answers 409 otherwise); these are the states
# it may be in while it runs or is on its way (eda-server's activation view).
EDA_ACTIVATION_BUSY = ('starting', 'stopping', 'deleting', 'running', 'unresponsive', 'workers offline')


def yaml_text(value):
    """Text EDA keeps as YAML (an activation's ``extra_var``), compared as data."""
    if not isinstance(value, str) or yaml is None:
        return value
    try:
        return yaml.safe_load(value)
    except yaml.YAMLError:
        return value


def mapping_key(mapping):
    return tuple(sorted((k, str(v)) for k, v in mapping.items() if k != MAPPING_ID))


class EdaImporter(EdaObjects):
    """EDA's objects of the data applied, each found by its type and name (EDA's names are unique), as the
    controller's are: a missing one created, a found one given the fields that differ. Its writes, and what it
    created, updated and needs, are the controller importer's (``importer``)."""

    def __init__(self, api, root, importer):
        super(EdaImporter, self).__init__(api, root)
        self.importer = importer
        self.by_key = {}
        self.types = {}     # credential type name -> its inputs, from the data or the service

    # -- objects named by natural key ----------------------------------------------

    def find(self, key, required=True):
        if key is None:
            return None
        frozen = freeze(key)
        if self.by_key.get(frozen) is None:
            self.by_key[frozen] = self.lookup(key)
        if self.by_key[frozen] is None and required:
            raise NotFound('%s was not found in Event-Driven Ansible.' % describe(key))
        return self.by_key[frozen]

    def lookup(self, key):
        type_ = key.get('type')
        if type_ not in EDA_ENDPOINTS:
            raise ConfigError('%s cannot be named in Event-Driven Ansible.' % describe(key))
        params = {'name': key.get('name')}
        if type_ == 'eda_rulebook':
            project = self.find(key.get('project'), required=False)
            if project is None:
                return None
            if project.get('id') is None:
                return {'id': None, 'name': key.get('name')}    # check mode: its project is only planned
            params['project_id'] = project['id']
        if type_ == 'eda_controller_token':
            params = {}         # the tokens' list has no filter a source tells of: read it all

        def in_project(obj):
            return type_ != 'eda_rulebook' or referred_id(obj, 'project_id') == params['project_id']

        matches = [obj for obj in self.iterate(EDA_ENDPOINTS[type_], params)
                   if obj.get('name') == key.get('name') and in_project(obj)]
        if len(matches) > 1:
            raise ApiError('More than one object matches %s.' % describe(key))
        return matches[0] if matches else None

    def reference(self, key):
        if key is None:
            return None
        return self.find(key).get('id')

    # -- what a credential needs -----------------------------------------------------

    def type_inputs(self, data, key):
        """The inputs schema of the credential type ``key`` names: the data's, or the service's."""
        name = (key or {}).get('name')
        if name not in self.types:
            given = [asset for asset in data.get('eda_credential_types') or [] if asset.get('name') == name]
            found = None if given else self.find(key, required=False)
            self.types[name] = (given[0] if given else found or {}).get('inputs') or {}
        return self.types[name]

    def blank_required(self, data):
        """The new credentials of the data without a value EDA requires (an export never holds secrets): EDA
        refuses to create them, so the task fails before it writes anything and names them all."""
        missing = []
        for asset in data.get('eda_credentials') or []:
            if self.find(asset['natural_key'], required=False) is not None:
                continue
            schema = self.type_inputs(data, asset.get('credential_type'))
            defaults = dict((f.get('id'), f.get('default')) for f in schema.get('fields') or [])
            inputs = asset.get('inputs') if isinstance(asset.get('inputs'), dict) else {}
            blank = [field for field in schema.get('required') or []
                     if inputs.get(field) in (None, '', ENCRYPTED) and not defaults.get(field)]
            if blank:
                missing.append('%s (inputs %s)' % (describe(asset['natural_key']), ', '.join(blank)))
        if missing:
            raise ConfigError('Event-Driven Ansible creates no credential without the inputs its type requires, and '
                              'the data leaves them out (an export holds no secrets): give them in assets.'
                              'eda_credentials for %s.' % '; '.join(missing))

    def secrets(self, data, asset, obj, label):
        schema = self.type_inputs(data, asset.get('credential_type'))
        secret = [f.get('id') for f in schema.get('fields') or [] if f.get('secret')]
        given = asset.get('inputs') if isinstance(asset.get('inputs'), dict) else {}
        self.api.no_log_values.update(v for k, v in given.items()
                                      if k in secret and isinstance(v, str) and v not in ('', ENCRYPTED))
        have = obj.get('inputs') if isinstance(obj.get('inputs'), dict) else {}
        needed = [field for field in secret if given.get(field) in ('', ENCRYPTED) and have.get(field) in (None, '')]
        if needed:
            self.importer.secrets_needed[label] = needed
        else:
            self.importer.secrets_needed.pop(label, None)

    # -- one object --------------------------------------------------------------------

    def desired(self, found, asset, existing):
        wanted = dict((field, asset[field]) for field in found.fields if field in asset)
        if ENCRYPTED in str(wanted.get('proxy') or '') and existing is None:
            # A project's proxy is read back with its password as $encrypted$: a new project is made without it.
            del wanted['proxy']
        if 'inputs' in wanted:
            wanted['inputs'] = kept_secrets(wanted['inputs'], None if existing is None else existing.get('inputs') or {})
        for field in found.references:
            if data_field(field) in asset:
                wanted[field] = self.reference(asset[data_field(field)])
        for field in found.lists:
            if field in asset:
                wanted[field] = sorted(self.reference(key) for key in asset[field] or [])
        if 'source_mappings' in wanted:
            if yaml is None:
                raise ConfigError('An activation\'s source_mappings are YAML: PyYAML is needed where the task runs.')
            mappings = []
            for mapping in wanted['source_mappings'] or []:
                stream = self.find({'type': 'eda_event_stream', 'name': mapping.get('event_stream_name')})
                mappings.append(dict(mapping, **{MAPPING_ID: stream.get('id')}))
            wanted['source_mappings'] = yaml.safe_dump(mappings, default_flow_style=False) if mappings else ''
        return wanted

    def have(self, found, existing):
        """``existing`` as the fields it is written with, to compare with what the data wants."""
        have = dict(existing)
        for field in found.references:
            have[field] = referred_id(existing, field)
        for field in found.lists:
            have[field] = sorted(item.get('id') if isinstance(item, dict) else item for item in existing.get(field) or [])
        return have

    def delta(self, found, existing, wanted):
        have = self.have(found, existing)
        changed = {}
        for field, want in wanted.items():
            was = have.get(field)
            if field == 'source_mappings':
                same = sorted(map(mapping_key, parse_mappings(want))) == sorted(map(mapping_key, parse_mappings(was)))
            elif field == 'extra_var':
                same = yaml_text(want or '') == yaml_text(was or '')
            elif field == 'inputs':
                same = as_data(want) == as_data(was)
            else:
                same = want == was or (want == '' and was is None)
            if not same:
                changed[field] = want
        return changed

    def apply(self, data, found, asset):
        key = asset['natural_key']
        label = describe(key)
        existing = self.find(key, required=False)
        wanted = self.desired(found, asset, existing)
        importer = self.importer
        if existing is None:
            importer.created.append(label)
            obj = importer.write(label, None, wanted, Write('POST', self.path(found.endpoint), wanted,
                                                            expect=(200, 201), answer=dict(wanted, id=None)))
            if found.type == 'eda_project' and obj.get('id') is not None:
                obj = self.imported(obj, label)
        else:
            delta = self.delta(found, existing, wanted)
            obj = existing
            if delta:
                importer.updated.append(label)
                obj = self.update(found, existing, delta, label) or existing
        if found.type == 'eda_credential':
            self.secrets(data, asset, obj, label)
        elif found.type == 'eda_project' and ENCRYPTED in str(asset.get('proxy') or '') \
                and ENCRYPTED not in str(obj.get('proxy') or ''):
            importer.secrets_needed[label] = ['proxy']
        self.by_key[freeze(key)] = obj
        return obj

    def update(self, found, existing, delta, label):
        importer, path = self.importer, self.path(found.endpoint, existing['id'])
        if found.type != 'eda_rulebook_activation':
            return importer.write(label, dict((k, existing.get(k)) for k in delta), delta,
                                  Write('PATCH', path, delta, answer=existing))
        # An activation is edited only while disabled: disabled first, edited, enabled again if it is to be.
        enable = delta.pop('is_enabled', existing.get('is_enabled'))
        busy = existing.get('is_enabled') or str(existing.get('status') or '').replace('_', ' ') in EDA_ACTIVATION_BUSY
        writes = []
        if delta and busy:
            writes.append(Write('POST', path + 'disable/', {}, expect=(200, 202, 204)))
        if delta:
            writes.append(Write('PATCH', path, delta, answer=existing))
        if enable and (delta or not existing.get('is_enabled')):
            writes.append(Write('POST', path + 'enable/', {}, expect=(200, 202, 204)))
        elif not enable and existing.get('is_enabled') and not delta:
            writes.append(Write('POST', path + 'disable/', {}, expect=(200, 202, 204)))
        after = dict(delta, is_enabled=enable) if enable != existing.get('is_enabled') else delta
        importer.write(label, dict((k, existing.get(k)) for k in after), after, *writes)
        return None if self.api.check_mode else self.get_fresh(path)

    def get_fresh(self, path):
        return self.api.client.get(path)

    def imported(self, project, label):
        """A new project once its rulebooks are imported: the activations that follow name them."""
        path = self.path('projects', project['id'])
        deadline = time.time() + EDA_IMPORT_TIMEOUT
        while str(project.get('import_state')) not in EDA_PROJECT_DONE:
            if time.time() > deadline:
                raise ApiError('%s: its import did not end in %d seconds.' % (label, EDA_IMPORT_TIMEOUT))
            time.sleep(1)
            project = self.get_fresh(path)
        if project.get('import_state') == 'failed':
            raise ApiError('%s: its import failed: %s' % (label, project.get('import_error')))
        return project


def import_eda(api, importer, data):
    asked = [found for found in EDA_KINDS if data.get(found.key)]
    if not asked:
        return
    eda = EdaImporter(api, eda_root(api, required_by=['assets.' + found.key for found in asked]), importer)
    eda.blank_required(data)
    for found in asked:
        for asset in data[found.key]:
            eda.apply(data, found, asset)


# -- Automation Hub --------------------------------------------------------------------------

HUB_TASK_TIMEOUT = 300      # seconds a write the Hub does in the background (Pulp's updates) may take
HUB_TASK_DONE = ('completed', 'skipped')
HUB_TASK_FINAL = ('completed', 'failed', 'canceled', 'skipped')     # pulpcore's TASK_FINAL_STATES


def hub_text(value):
    """Text the Hub keeps without its last line end (a remote's requirements_file, a key), compared as kept."""
    return value.rstrip('\n') if isinstance(value, str) else value


class HubImporter(HubObjects):
    """The Hub's objects of the data applied, each found by its type and name (names are unique in each of its
    lists), as the controller's are: a missing one created, a found one given the fields that differ. Its writes, and
    what it created, updated and needs, are the controller importer's (``importer``)."""

    def __init__(self, api, root, importer, sleep=time.sleep, clock=time.time):
        super(HubImporter, self).__init__(api, root)
        self.importer = importer
        self.by_key = {}
        self.sleep = sleep
        self.clock = clock

    def find(self, key, required=True):
        if key is None:
            return None
        frozen = freeze(key)
        if self.by_key.get(frozen) is None:
            found = HUB_BY_TYPE.get(key.get('type'))
            if found is None:
                raise ConfigError('%s cannot be named in Automation Hub.' % describe(key))
            self.by_key[frozen] = self.named(found, key.get('name'))
        if self.by_key[frozen] is None and required:
            raise NotFound('%s was not found in Automation Hub.' % describe(key))
        return self.by_key[frozen]

    # -- tasks ---------------------------------------------------------------------------

    def settled(self, answer, label):
        """The answer to a write, once the task it started (Pulp's 202 ``{"task": href}``) has ended."""
        if not isinstance(answer, dict) or not answer.get('task'):
            return answer
        deadline = self.clock() + HUB_TASK_TIMEOUT
        while True:
            task = self.api.client.get(answer['task'])
            state = task.get('state')
            if state in HUB_TASK_DONE:
                return answer
            if state in HUB_TASK_FINAL:
                why = (task.get('error') or {}).get('description') or 'no reason given'
                raise ApiError('%s: the Hub\'s task %s %s: %s' % (label, answer['task'], state, why))
            if self.clock() >= deadline:
                raise ApiError('%s: the Hub\'s task %s had not ended after %d seconds (state %s).'
                               % (label, answer['task'], HUB_TASK_TIMEOUT, state))
            self.sleep(1)

    # -- one object ----------------------------------------------------------------------

    def detail(self, found, obj):
        if found.type == 'hub_namespace':
            return '%s%s/' % (self.path(found.endpoint), obj['name'])
        if found.type == 'hub_ee_registry':
            return '%s%s/' % (self.path(found.endpoint), obj['id'])
        return obj['pulp_href']

    def secrets(self, found, asset, existing, label):
        """The hidden fields given in clear to send (set when the object is made, or where it has none yet; a user
        name the Hub shows, where it differs), secrets kept out of every output; the ones left out that the object
        lacks are named in ``secrets_needed``."""
        have = set() if existing is None else secrets_set(existing)
        send, needed = {}, []
        for field in found.hidden:
            value = asset.get(field)
            shown = None if existing is None or field not in HUB_SHOWN else existing.get(field)
            if isinstance(value, str) and value not in ('', ENCRYPTED):
                if field not in HUB_SHOWN:
                    self.api.no_log_values.add(value)
                differs = value != shown if shown not in (None, '') else field not in have
                if differs:
                    send[field] = value
            elif field in asset and field not in have and shown in (None, ''):
                needed.append(field)
        if needed:
            self.importer.secrets_needed[label] = needed
        else:
            self.importer.secrets_needed.pop(label, None)
        return send

    def desired(self, found, asset):
        wanted = dict((field, asset[field]) for field in found.fields if field in asset)
        if found is HUB_REPOSITORIES and 'remote' in asset:
            remote = self.find(asset['remote']) if asset['remote'] else None
            wanted['remote'] = None if remote is None else remote.get('pulp_href')
        return wanted

    def delta(self, existing, wanted):
        """The fields of ``wanted`` that differ from ``existing``'s; one the Hub does not show is not compared (a
        release without it: the 2.6 and 2.7 schemas' remotes have no ``sync_dependencies``, ``headers``...)."""
        changed = {}
        for field, want in wanted.items():
            if field not in existing:
                continue
            was = existing.get(field)
            if field == 'links':
                same = sorted((link.get('name'), link.get('url')) for link in want or []) == sorted(
                    (link.get('name'), link.get('url')) for link in was or [])
            else:
                same = hub_text(want) == hub_text(was) or (want in ('', None, {}) and was in ('', None, {}))
            if not same:
                changed[field] = want
        return changed

    def hidden_shown(self, values):
        return dict((k, self.importer.hide(v, True)) for k, v in values.items())

    def apply(self, found, asset):
        key = asset['natural_key']
        label = describe(key)
        existing = self.find(key, required=False)
        wanted = self.desired(found, asset)
        send = self.secrets(found, asset, existing, label)
        importer = self.importer
        if existing is None:
            importer.created.append(label)
            # What the data has as nothing is left to the Hub's default (Pulp refuses a null for some, headers).
            body = dict(dict((k, v) for k, v in wanted.items() if v is not None), **send)
            obj = importer.write(label, None, dict(wanted, **self.hidden_shown(send)),
                                 Write('POST', self.path(found.endpoint), body, expect=(200, 201, 202),
                                       answer=dict(wanted, pulp_href=None, id=None),
                                       settle=lambda answer: self.settled(answer, label)))
            if isinstance(obj, dict) and obj.get('task'):       # made in the background: read it back
                obj = self.named(found, wanted['name']) or dict(wanted, pulp_href=None, id=None)
        else:
            delta = self.delta(existing, wanted)
            delta.update(send)
            obj = existing
            if delta:
                importer.updated.append(label)
                body = dict(delta)
                if found.update == 'PUT':
                    # The Hub takes a namespace or a registry whole: what it keeps (and secrets left out) stays.
                    body = dict(dict((field, existing.get(field)) for field in found.fields if field in existing),
                                **body)
                    body = dict((k, v) for k, v in body.items() if v is not None or k in delta)
                before = dict((k, None if k in send else existing.get(k)) for k in delta)
                after = dict(delta, **self.hidden_shown(send))
                importer.write(label, before, after,
                               Write(found.update, self.detail(found, existing), body, expect=(200, 202),
                                     answer=existing, settle=lambda answer: self.settled(answer, label)))
                if not self.api.check_mode:
                    obj = self.named(found, existing['name']) or existing
        self.by_key[freeze(key)] = obj
        if found is HUB_REPOSITORIES:
            self.distributions(asset, obj, label)
        return obj

    def distributions(self, asset, repository, label):
        """The distributions of the data that serve the repository: each found by name, made, or given the base
        path and repository it differs in."""
        href = repository.get('pulp_href')
        for wanted in asset.get('distributions') or []:
            name = wanted.get('name')
            if not name:
                raise ConfigError('%s: a distribution in the data has no name.' % label)
            body = {'name': name, 'base_path': wanted.get('base_path') or name, 'repository': href}
            part = '%s: distribution %s' % (label, name)
            matches = [] if href is None and self.api.check_mode else [
                obj for obj in self.iterate(HUB_DISTRIBUTIONS, {'name': name}) if obj.get('name') == name]
            if not matches:
                self.importer.updated.append(label)
                self.importer.write(part, None, {'base_path': body['base_path']},
                                    Write('POST', self.path(HUB_DISTRIBUTIONS), body, expect=(201, 202),
                                          settle=lambda answer: self.settled(answer, part)))
                continue
            have = matches[0]
            delta = dict((k, v) for k, v in body.items() if k != 'name' and have.get(k) != v)
            if delta:
                self.importer.updated.append(label)
                self.importer.write(part, dict((k, have.get(k)) for k in delta), delta,
                                    Write('PATCH', have['pulp_href'], delta, expect=(200, 202),
                                          settle=lambda answer: self.settled(answer, part)))


def import_hub(api, importer, data):
    asked = [found for found in HUB_KINDS if data.get(found.key)]
    if not asked:
        return
    required_by = ['assets.' + found.key for found in asked]
    root = hub_root(api, required_by=required_by)
    hub_behind(api, root, required_by)
    hub = HubImporter(api, root, importer)
    for found in asked:
        for asset in data[found.key]:
            hub.apply(found, asset)


def import_assets(api, data):
    """Apply ``data``; the task returns ``created`` and ``updated`` (and whether it changed anything)."""
    validate(data)
    importer = Importer(api)
    others = [key for key in list(BY_KEY) + list(EDA_BY_KEY) if data.get(key)]
    if others and standalone_hub(api):
        raise ConfigError('assets.%s: the service is a standalone Automation Hub, which has no automation controller '
                          'nor Event-Driven Ansible.' % ', assets.'.join(others))
    for found in KINDS:
        for asset in data.get(found.key) or []:
            importer.apply(found, asset, skip=found.later)
    for found in KINDS:
        if found.later:
            for asset in data.get(found.key) or []:
                importer.apply(found, dict((k, v) for k, v in asset.items() if k in found.later + ('natural_key',)))
    for found in KINDS:
        for asset in data.get(found.key) or []:
            importer.related(found, asset)
    import_eda(api, importer, data)
    import_hub(api, importer, data)
    api.returns(created=importer.created, updated=sorted(set(importer.updated) - set(importer.created)),
                users_without_password=importer.without_password,
                secrets_needed=dict(sorted(importer.secrets_needed.items())))
