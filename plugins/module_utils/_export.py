# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Export: the objects asked for, as the data ``_import`` applies (see ``_assets``).

Event-Driven Ansible's objects (behind a platform gateway, at ``/api/eda/v1/``) are exported here too, each kind
under its own key (``eda_projects``...; see ``EDA_KINDS``). EDA's ways differ from the controller's, as its
published schema (eda-2.7.json) and its server's source say them: its names are unique in the whole service
(its models' ``name`` is unique), so an object's natural key is its type and name; it writes a reference as an
``<x>_id`` field and reads it back either as that id (its lists) or as the nested object ``<x>``; its ``?name=``
filter is not exact; its objects have no ``related`` links. An EDA object's data holds its writable fields, its
references by natural key under the reference's name without ``_id`` (``organization``, ``eda_credential``...),
and its ``natural_key``. Secrets, shown as ``$encrypted$``, are written as ``""``, as the controller's are.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections import namedtuple

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._assets import (
    BY_KEY, EDGES, KINDS, LABEL, NODE, NOTIFY, Objects, blank_secrets,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._hub import secrets_set

try:
    import yaml
except ImportError:     # pragma: no cover (ansible-core needs PyYAML)
    yaml = None

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


# -- Event-Driven Ansible -------------------------------------------------------------


class EdaKind(namedtuple('EdaKind', 'key endpoint type fields references lists')):
    """One kind of EDA object: its key in the data, its endpoint under EDA's root, its ``type`` in natural keys,
    its writable fields, its references (the field it is written with -> the type it names) and its lists of
    references (field -> type)."""


def eda_kind(key, endpoint, type_, fields, references=None, lists=None):
    return EdaKind(key, endpoint, type_, tuple(fields), references or {}, lists or {})


# In the order they are created: what an object refers to comes before it. The fields are those EDA takes when it
# creates each (eda-2.7.json: CredentialTypeCreate, EdaCredentialCreate, DecisionEnvironmentCreate,
# ProjectCreateRequest, EventStreamIn, ActivationCreate); a field the service does not return is left out.
EDA_KINDS = (
    eda_kind('eda_credential_types', 'credential-types', 'eda_credential_type',
             ['name', 'description', 'inputs', 'injectors']),
    eda_kind('eda_credentials', 'eda-credentials', 'eda_credential', ['name', 'description', 'inputs'],
             {'organization_id': 'organization', 'credential_type_id': 'eda_credential_type'}),
    eda_kind('eda_decision_environments', 'decision-environments', 'eda_decision_environment',
             ['name', 'description', 'image_url', 'pull_policy'],
             {'organization_id': 'organization', 'eda_credential_id': 'eda_credential'}),
    eda_kind('eda_projects', 'projects', 'eda_project',
             ['name', 'description', 'url', 'proxy', 'scm_type', 'scm_branch', 'scm_refspec', 'verify_ssl',
              'update_revision_on_launch', 'scm_update_cache_timeout'],
             {'organization_id': 'organization', 'eda_credential_id': 'eda_credential',
              'signature_validation_credential_id': 'eda_credential'}),
    eda_kind('eda_event_streams', 'event-streams', 'eda_event_stream',
             ['name', 'test_mode', 'additional_data_headers', 'uuid'],
             {'organization_id': 'organization', 'eda_credential_id': 'eda_credential'}),
    eda_kind('eda_rulebook_activations', 'activations', 'eda_rulebook_activation',
             ['name', 'description', 'is_enabled', 'restart_on_project_update', 'extra_var', 'restart_policy',
              'log_level', 'k8s_service_name', 'skip_audit_events', 'enable_persistence', 'source_mappings'],
             {'organization_id': 'organization', 'decision_environment_id': 'eda_decision_environment',
              'rulebook_id': 'eda_rulebook', 'awx_token_id': 'eda_controller_token',
              'rule_engine_credential_id': 'eda_credential'},
             {'eda_credentials': 'eda_credential'}),
)
EDA_BY_KEY = dict((k.key, k) for k in EDA_KINDS)
# Where the objects a reference names are, and the objects only ever named (never exported themselves).
EDA_ENDPOINTS = dict([(k.type, k.endpoint) for k in EDA_KINDS] + [
    ('organization', 'organizations'), ('eda_rulebook', 'rulebooks'), ('eda_controller_token', 'users/me/awx-tokens'),
])
# A source mapping of an activation (the event stream that stands for a source of its rulebook) names the event
# stream by id and by name; the data keeps the name only (ids differ from service to service).
MAPPING_ID = 'event_stream_id'


def data_field(field):
    """The key of a reference in the data: the field it is written with, without ``_id``."""
    return field[:-3] if field.endswith('_id') else field


def referred_id(obj, field):
    """The id ``obj`` refers to by ``field`` (``organization_id``): the id itself, as EDA's lists read it, or the
    nested object (``organization``), as its details do; None when it refers to none."""
    if obj.get(field) is not None:
        return obj[field]
    nested = obj.get(data_field(field))
    if isinstance(nested, dict):
        return nested.get('id')
    return int(nested) if is_id(nested) else None


def eda_root(api, required_by=None):
    """EDA's API root (``/api/eda/v1/``) where the service has one, behind a platform gateway; else None, or a
    ConfigError naming ``required_by`` (the options that ask for EDA's objects)."""
    layout = api.client.layout
    root = getattr(layout, 'eda', None) if layout.is_gateway else None
    if root is None and required_by:
        raise ConfigError('%s: Event-Driven Ansible is served only behind a platform gateway (Automation Platform '
                          '2.5 to 2.7); this service has none.' % ', '.join(required_by))
    return root


def parse_mappings(text):
    """An activation's source mappings (YAML text) as a list of dicts."""
    if not text:
        return []
    if isinstance(text, list):
        return text
    if yaml is None:
        raise ConfigError('An activation\'s source_mappings are YAML: PyYAML is needed where the task runs.')
    value = yaml.safe_load(text)
    return value if isinstance(value, list) else []


class EdaObjects:
    """Reads of EDA's objects in one run, each made once: by path, and natural keys of referred objects."""

    def __init__(self, api, root):
        self.api = api
        self.root = root
        self.by_path = {}

    def path(self, endpoint, obj_id=None):
        return '%s%s/' % (self.root, endpoint) if obj_id is None else '%s%s/%s/' % (self.root, endpoint, obj_id)

    def get(self, path):
        if path not in self.by_path:
            self.by_path[path] = self.api.client.get(path)
        return self.by_path[path]

    def iterate(self, endpoint, params=None):
        return self.api.client.iterate(self.path(endpoint), dict(params or {}, page_size=200))

    def key_of(self, type_, obj_id):
        """The natural key of the object of ``type_`` whose id is ``obj_id``."""
        if obj_id is None:
            return None
        try:
            obj = self.get(self.path(EDA_ENDPOINTS[type_], obj_id))
        except (ApiError, NotFound) as exc:
            if type_ != 'eda_controller_token':
                raise
            # A controller token is only ever seen by its owner: another user's cannot be named.
            self.api.warn('the controller token %s of an activation is not the exporting user\'s; it is left out '
                          '(%s).' % (obj_id, exc))
            return None
        key = {'type': type_, 'name': obj.get('name')}
        if type_ == 'eda_rulebook':
            key = {'type': type_, 'project': self.key_of('eda_project', referred_id(obj, 'project_id')),
                   'name': obj.get('name')}
        return key


class EdaExporter(EdaObjects):

    def listed(self, found, names):
        if not names:
            return list(self.iterate(found.endpoint))
        objects, seen = [], set()
        for name in names:
            # EDA's name filter is not exact: the names are compared after it; digits no object is named are an id.
            matches = [obj for obj in self.iterate(found.endpoint, {'name': name}) if to_text(obj.get('name')) == name]
            if not matches and is_id(name):
                try:
                    matches = [self.get(self.path(found.endpoint, int(name)))]
                except NotFound:
                    matches = []
                except ApiError as exc:
                    if getattr(exc, 'status', None) != 404:
                        raise
                    matches = []
            if not matches:
                raise NotFound('%s %r was not found.' % (found.type.replace('_', ' '), name))
            objects.extend(obj for obj in matches if obj['id'] not in seen)
            seen.update(obj['id'] for obj in matches)
        return objects

    def asset(self, found, obj):
        """``obj`` as data; None for an object EDA manages itself (its own credential types and credentials)."""
        if obj.get('managed'):
            return None
        data = dict((field, obj[field]) for field in found.fields if field in obj)
        if 'source_mappings' in data:
            data['source_mappings'] = [dict((k, v) for k, v in mapping.items() if k != MAPPING_ID)
                                       for mapping in parse_mappings(data['source_mappings'])]
        for field, type_ in found.references.items():
            if field in obj or data_field(field) in obj:
                data[data_field(field)] = self.key_of(type_, referred_id(obj, field))
        for field, type_ in found.lists.items():
            if field in obj:
                data[field] = [{'type': type_, 'name': item.get('name')} if isinstance(item, dict)
                               else self.key_of(type_, item) for item in obj[field] or []]
        data['natural_key'] = {'type': found.type, 'name': obj['name']}
        return blank_secrets(data)


def eda_answers(api, root):
    """Whether EDA answers behind this gateway (a platform may be deployed without it: its paths are not found)."""
    try:
        api.client.get('%scredential-types/' % root, params={'page_size': 1})
    except NotFound:
        return False
    except ApiError as exc:
        if getattr(exc, 'status', None) == 404:
            return False
        raise
    return True


def export_assets(api, selection, eda_optional=False):
    """The data of the objects ``selection`` names: kind key -> names or ids, ``[]`` for every object of the kind.
    EDA's kinds are read where the service has EDA, the Hub's where it has a Hub; on one without it, they fail the
    task, or with ``eda_optional`` (every kind asked for at once) are left out. A standalone Hub has only the Hub's
    kinds: the others fail the task there, or are left out likewise."""
    data = {}
    hub_only = standalone_hub(api)
    others = [found.key for found in KINDS + EDA_KINDS if selection.get(found.key) is not None]
    if hub_only and others and not eda_optional:
        raise ConfigError('%s: the service is a standalone Automation Hub, which has no automation controller nor '
                          'Event-Driven Ansible.' % ', '.join(others))
    if not hub_only:
        data.update(export_platform(api, selection, eda_optional))
    data.update(export_hub(api, selection, optional=eda_optional))
    return data


def export_platform(api, selection, eda_optional=False):
    """The controller's and EDA's objects ``selection`` names (see export_assets)."""
    exporter = Exporter(api)
    data = {}
    for found in KINDS:
        names = selection.get(found.key)
        if names is None:
            continue
        assets = (exporter.asset(found, obj) for obj in exporter.listed(found, names))
        data[found.key] = [asset for asset in assets if asset is not None]
    asked = [found for found in EDA_KINDS if selection.get(found.key) is not None]
    if not asked:
        return data
    root = eda_root(api, required_by=None if eda_optional else [found.key for found in asked])
    if root is None or (eda_optional and not eda_answers(api, root)):
        return data
    eda = EdaExporter(api, root)
    for found in asked:
        assets = (eda.asset(found, obj) for obj in eda.listed(found, selection[found.key]))
        data[found.key] = [asset for asset in assets if asset is not None]
    return data


# -- Automation Hub ------------------------------------------------------------------------


class HubKind(namedtuple('HubKind', 'key endpoint type fields hidden update')):
    """One kind of the Hub's objects: its key in the data, its list under the Hub's API root, its ``type`` in
    natural keys, the fields it is written with, the fields the Hub never shows (a secret, or Pulp's credentials:
    each is read back only as set or not) and how a found one is updated (``PUT``, the whole object, or ``PATCH``)."""


# In the order they are created: a repository names its remote. The fields are those galaxy-ng 4.9.2 takes and
# shows (its NamespaceSerializer and ContainerRegistryRemoteSerializer, pulp_ansible's CollectionRemoteSerializer
# and AnsibleRepositorySerializer), and that hub-2.7.json lists for the same objects.
HUB_KINDS = (
    HubKind('hub_namespaces', 'v3/namespaces/', 'hub_namespace',
            ('name', 'company', 'email', 'avatar_url', 'description', 'links', 'resources'), (), 'PUT'),
    HubKind('hub_collection_remotes', 'pulp/api/v3/remotes/ansible/collection/', 'hub_collection_remote',
            ('name', 'url', 'auth_url', 'policy', 'requirements_file', 'tls_validation', 'ca_cert', 'client_cert',
             'proxy_url', 'download_concurrency', 'max_retries', 'rate_limit', 'signed_only', 'sync_dependencies',
             'total_timeout', 'connect_timeout', 'sock_connect_timeout', 'sock_read_timeout', 'headers',
             'pulp_labels'),
            ('username', 'password', 'token', 'proxy_username', 'proxy_password', 'client_key'), 'PATCH'),
    HubKind('hub_collection_repositories', 'pulp/api/v3/repositories/ansible/ansible/', 'hub_collection_repository',
            ('name', 'description', 'retain_repo_versions', 'private', 'pulp_labels', 'gpgkey'), (), 'PATCH'),
    HubKind('hub_ee_registries', '_ui/v1/execution-environments/registries/', 'hub_ee_registry',
            ('name', 'url', 'policy', 'tls_validation', 'ca_cert', 'client_cert', 'proxy_url', 'download_concurrency',
             'rate_limit'),
            ('username', 'password', 'proxy_username', 'proxy_password', 'client_key'), 'PUT'),
)
HUB_BY_KEY = dict((k.key, k) for k in HUB_KINDS)
# The hidden fields that are no secret, which a Hub may show (see HubExporter.asset)
HUB_SHOWN = ('username', 'proxy_username')
HUB_BY_TYPE = dict((k.type, k) for k in HUB_KINDS)
HUB_REMOTES = HUB_BY_KEY['hub_collection_remotes']
HUB_REPOSITORIES = HUB_BY_KEY['hub_collection_repositories']
# Where a collection repository is served: its distributions (each with its own name and base path).
HUB_DISTRIBUTIONS = 'pulp/api/v3/distributions/ansible/ansible/'


def hub_layout(api):
    """The layout of this task's service, settled (behind a gateway, on a standalone Hub or AWX)."""
    client = api.client
    settle = getattr(client, 'settled_layout', None)
    return settle() if settle is not None else client.layout


def hub_root(api, required_by=None):
    """The Hub's API root (``/api/galaxy/``) where the service has one: behind a platform gateway, or a standalone
    Hub; else None, or a ConfigError naming ``required_by`` (the options that ask for the Hub's objects)."""
    root = getattr(hub_layout(api), 'hub', None)
    if not root and required_by:
        raise ConfigError('%s: Automation Hub is served behind a platform gateway (Automation Platform 2.5 to 2.7) '
                          'or on its own (ah_host); this service has none.' % ', '.join(required_by))
    return root or None


def standalone_hub(api):
    """Whether this task's service is a Hub on its own (no gateway, no controller). A client that looks for no Hub
    (the task asks nothing of one) is not asked: it could not find one."""
    if getattr(api.client, 'hub_root', None) is None:
        return False
    return bool(getattr(hub_layout(api), 'is_standalone_hub', False))


def hub_answers(api, root):
    """Whether the Hub answers at ``root`` (a platform may be deployed without it: its paths are not found)."""
    try:
        api.client.get(root)
    except NotFound:
        return False
    except ApiError as exc:
        if getattr(exc, 'status', None) == 404:
            return False
        raise
    return True


def hub_behind(api, root, required_by=None):
    """Whether the Hub answers at ``root``: a standalone Hub does; a platform gateway may be deployed without one
    (its ``/api/galaxy/`` is not found). Where it does not, a ConfigError naming ``required_by``, or False."""
    if standalone_hub(api) or hub_answers(api, root):
        return True
    if required_by:
        raise ConfigError('%s: the service at %s serves no Automation Hub API at %s (it answered 404).'
                          % (', '.join(required_by), api.client.base_url, root))
    return False


class HubObjects:
    """Reads of the Hub's objects in one run: pages of its lists (galaxy's ``data`` and Pulp's ``results``), the
    natural keys of what they refer to."""

    def __init__(self, api, root):
        self.api = api
        self.root = root
        self.names = {}      # pulp_href -> name, of the remotes read

    def path(self, endpoint):
        return self.root + endpoint

    def iterate(self, endpoint, params=None):
        """Every object of a list, every page read (``limit``/``offset``: the Hub's lists take both)."""
        page = self.api.client.get(self.path(endpoint), params=dict(params or {}, limit=100))
        while True:
            items = page.get('data') if isinstance(page.get('data'), list) else page.get('results')
            if not isinstance(items, list):
                raise ApiError('The Hub answered a list with something else: %s' % (to_text(page)[:200],))
            yield from items
            links = page.get('links') if isinstance(page.get('links'), dict) else page
            following = links.get('next')
            if not following:
                return
            page = self.api.client.get(following)

    def named(self, found, name):
        """The object of ``found``'s kind named ``name`` exactly; None when there is none."""
        if found.type == 'hub_namespace':
            try:
                return self.api.client.get('%s%s/' % (self.path(found.endpoint), name))
            except NotFound:
                return None
        matches = [obj for obj in self.iterate(found.endpoint, {'name': name}) if to_text(obj.get('name')) == name]
        if len(matches) > 1:
            raise ApiError('More than one %s is named %r.' % (found.type.replace('_', ' '), name))
        return matches[0] if matches else None

    def remote_name(self, href):
        if not href:
            return None
        if href not in self.names:
            obj = self.api.client.get(href)
            self.names[href] = obj.get('name')
        return self.names[href]


class HubExporter(HubObjects):

    def __init__(self, api, root):
        super(HubExporter, self).__init__(api, root)
        self.served = None      # repository href -> its distributions

    def listed(self, found, names):
        if not names:
            objects = list(self.iterate(found.endpoint))
            if found.type == 'hub_namespace':
                # The list shows a namespace without its links and resources: each is read whole.
                objects = [self.named(found, obj['name']) or obj for obj in objects]
            return objects
        objects = []
        for name in names:
            obj = self.named(found, name)
            if obj is None:
                raise NotFound('%s %r was not found.' % (found.type.replace('_', ' '), name))
            if all(obj.get('name') != have.get('name') for have in objects):
                objects.append(obj)
        return objects

    def distributions(self, repository):
        if self.served is None:
            self.served = {}
            for obj in self.iterate(HUB_DISTRIBUTIONS):
                self.served.setdefault(obj.get('repository'), []).append(obj)
        return [{'name': obj.get('name'), 'base_path': obj.get('base_path')}
                for obj in sorted(self.served.get(repository) or [], key=lambda item: item.get('name'))]

    def asset(self, found, obj):
        data = dict((field, obj[field]) for field in found.fields if field in obj)
        # A secret the Hub keeps is written as "" (an export never holds one); one it lacks is left out. A user name
        # the Hub shows (the 2.6 and 2.7 schemas' remotes do; galaxy-ng 4.9's Pulp hides it) is kept as shown.
        hidden = secrets_set(obj)
        for field in found.hidden:
            if field in HUB_SHOWN and obj.get(field) not in (None, ''):
                data[field] = obj[field]
            elif field in hidden:
                data[field] = ''
        if found is HUB_REPOSITORIES:
            name = self.remote_name(obj.get('remote'))
            data['remote'] = None if name is None else {'type': HUB_REMOTES.type, 'name': name}
            data['distributions'] = self.distributions(obj.get('pulp_href'))
        elif found is HUB_REMOTES and obj.get('pulp_href'):
            self.names[obj['pulp_href']] = obj.get('name')
        data['natural_key'] = {'type': found.type, 'name': obj['name']}
        return data


def export_hub(api, selection, optional=False):
    """The Hub's objects ``selection`` names (kind key -> names, ``[]`` for all), by kind key; {} where the service
    has no Hub and ``optional`` (every kind asked for at once), a ConfigError where it has none and they were named."""
    asked = [found for found in HUB_KINDS if selection.get(found.key) is not None]
    if not asked:
        return {}
    root = hub_root(api, required_by=None if optional else [found.key for found in asked])
    if root is None or not hub_behind(api, root, None if optional else [found.key for found in asked]):
        return {}
    hub = HubExporter(api, root)
    data = {}
    for found in asked:
        data[found.key] = [hub.asset(found, obj) for obj in hub.listed(found, selection[found.key])]
    return data
