"""A fake Event-Driven Ansible behind a fake gateway, for the unit tests of the eda_* modules (no service).

It keeps objects in memory per EDA endpoint and answers as EDA's server does where the modules depend on it
(eda-2.7.json and the server's filters, pagination and serializers): a list's ``?name=`` keeps the names that start
with the one given, whatever the case; its pages are ``page`` and ``page_size`` with ``next`` the path of the next
one; a list shows references as ``<x>_id`` (``organization_id``), a detail nests them (``organization``) where
``NESTED`` says so; objects have no ``url``; secrets of ``SECRET_INPUTS`` read back as ``$encrypted$``."""

import copy

from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, NotFound

ROOT = '/api/eda/v1/'
WRITES = ('POST', 'PUT', 'PATCH', 'DELETE')
# endpoint -> (field written, field a detail reads it back as)
NESTED = {
    'decision-environments': {'organization_id': 'organization', 'eda_credential_id': 'eda_credential'},
    'eda-credentials': {'organization_id': 'organization', 'credential_type_id': 'credential_type'},
}
# the endpoint whose objects a nested reference names
REFERRED = {'organization_id': 'organizations', 'eda_credential_id': 'eda-credentials',
            'credential_type_id': 'credential-types'}
# endpoint -> the field its ?name= filter reads (EDA's users are filtered by username)
NAME_FIELD = {'users': 'username', 'users/me/awx-tokens': 'name'}


def objects(**more):
    made = {
        'organizations': [{'id': 1, 'name': 'Default'}, {'id': 2, 'name': 'Dev'}],
        'credential-types': [
            {'id': 5, 'name': 'Container Registry', 'kind': 'registry', 'namespace': 'registry', 'managed': True,
             'inputs': {'fields': [{'id': 'host', 'type': 'string'}, {'id': 'username', 'type': 'string'},
                                   {'id': 'password', 'type': 'string', 'secret': True},
                                   {'id': 'verify_ssl', 'type': 'boolean', 'default': True}]}, 'injectors': {}},
        ],
        'eda-credentials': [],
        'decision-environments': [],
    }
    made.update(copy.deepcopy(more))
    return made


class FakeEda:
    """The fake client: ``calls`` are (method, path, params or body)."""

    def __init__(self, objects, layout=None, page_size_cap=None):
        self.objects = copy.deepcopy(objects)
        self.calls = []
        self.next_id = 100
        self.layout = layout or Layout.platform_gateway()
        self.base_url = 'https://service.invalid'
        self.page_size_cap = page_size_cap   # a smaller largest page, to make a list take pages
        self.test_refusal = None             # what a test/ answers with a 400, when it fails
        self.tokens = {}                     # controller token id -> its value, as EDA keeps it
        self.refuse_whole_lists = False      # a list read without a name filter answers 403

    def settled_layout(self):
        return self.layout

    def url(self, path, params=None):
        return self.base_url + path

    @property
    def writes(self):
        return [call for call in self.calls if call[0] in WRITES]

    @staticmethod
    def split(path):
        """(endpoint, id or None, action or None) of an EDA path."""
        assert path.startswith(ROOT), path
        parts = path[len(ROOT):].strip('/').split('/')
        if parts[:2] == ['users', 'me']:
            parts = ['users/me/awx-tokens'] + parts[3:]
        endpoint = parts[0]
        found = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        action = parts[2] if len(parts) > 2 else None
        return endpoint, found, action

    def _stored(self, endpoint, found):
        for obj in self.objects.get(endpoint, []):
            if obj['id'] == found:
                return obj
        raise NotFound('%s%s/%s/ answered 404: Not found.' % (ROOT, endpoint, found), status=404)

    def shown(self, endpoint, obj, detail):
        """An object as EDA shows it: secrets as $encrypted$; in a detail, references nested."""
        shown = copy.deepcopy(obj)
        if isinstance(shown.get('inputs'), dict) and endpoint == 'eda-credentials':
            secrets = self.secret_inputs(obj)
            shown['inputs'] = dict((k, '$encrypted$' if k in secrets and v not in ('', None) else v)
                                   for k, v in shown['inputs'].items())
        nested = NESTED.get(endpoint, {}) if detail or endpoint == 'eda-credentials' else {}
        for field, name in nested.items():
            ref = shown.pop(field, None)
            shown[name] = None if ref is None else dict(
                (k, v) for k, v in self._stored(REFERRED[field], ref).items() if k in ('id', 'name'))
        return shown

    def fill_defaults(self, credential):
        # EDA's server fills in an input not given whose field has a (set) default
        kind = self._stored('credential-types', credential['credential_type_id'])
        for field in (kind.get('inputs') or {}).get('fields', []):
            if credential['inputs'].get(field['id']) is None and field.get('default'):
                credential['inputs'][field['id']] = field['default']

    def secret_inputs(self, credential):
        kind = self._stored('credential-types', credential['credential_type_id'])
        return set(f['id'] for f in (kind.get('inputs') or {}).get('fields', []) if f.get('secret'))

    def get(self, path, params=None):
        self.calls.append(('GET', path, dict(params or {})))
        path, _, query = path.partition('?')
        params = dict(params or {})
        if query:
            params.update(item.split('=', 1) for item in query.split('&'))
        endpoint, found, _action = self.split(path)
        if found is not None:
            return self.shown(endpoint, self._stored(endpoint, found), detail=True)
        if self.refuse_whole_lists and 'name' not in params:
            raise ApiError('GET %s answered 403: not allowed.' % path, status=403)
        name_field = NAME_FIELD.get(endpoint, 'name')
        results = list(self.objects.get(endpoint, []))
        for key, value in params.items():
            if key in ('page', 'page_size'):
                continue
            if key == 'search':
                results = [o for o in results if str(value).lower() in (str(o.get('name', '')) + ' ' +
                                                                         str(o.get('description', ''))).lower()]
            elif key == 'name':
                results = [o for o in results if str(o.get(name_field, '')).lower().startswith(str(value).lower())]
            else:
                results = [o for o in results if str(o.get(key)) == str(value)]
        size = int(params.get('page_size', 20))
        if self.page_size_cap:
            size = min(size, self.page_size_cap)
        page = int(params.get('page', 1))
        chunk = results[(page - 1) * size:page * size]
        following = None
        if page * size < len(results):
            rest = sorted((k, v) for k, v in params.items() if k != 'page')
            following = path + '?' + '&'.join('%s=%s' % item for item in rest + [('page', page + 1)])
        return {'count': len(results), 'next': following, 'previous': None, 'page': page, 'page_size': size,
                'results': [self.shown(endpoint, o, detail=False) for o in chunk]}

    def iterate(self, path, params=None):
        page = self.get(path, params)
        while True:
            for obj in page['results']:
                yield obj
            if not page['next']:
                return
            page = self.get(page['next'])

    def request(self, method, path, params=None, json_body=None, expect=None):
        if method == 'GET':
            return self.get(path, params)
        self.calls.append((method, path, copy.deepcopy(json_body)))
        endpoint, found, action = self.split(path)
        if method == 'POST' and action == 'test':
            self._stored(endpoint, found)
            if self.test_refusal is not None:
                raise ApiError('POST %s answered 400' % path, status=400, detail=self.test_refusal)
            return {'success': True, 'message': 'tested'}
        if method == 'POST' and action == 'copy':
            made = dict(copy.deepcopy(self._stored(endpoint, found)), id=self._new_id(), name=json_body['name'])
            self.objects[endpoint].append(made)
            return self.shown(endpoint, made, detail=False)
        if method == 'POST':
            body = dict(json_body)
            if 'name' in body and any(o.get('name') == body['name'] for o in self.objects.get(endpoint, [])):
                raise ApiError('POST %s answered 400: name: already exists.' % path, status=400,
                               detail={'name': ['already exists.']})
            made = dict(body, id=self._new_id())
            if endpoint == 'credential-types':     # as EDA's server makes a type: a field without a type is a string
                made['inputs'] = dict(made.get('inputs') or {}, fields=[dict(f, type=f.get('type', 'string')) for f in
                                                                        (made.get('inputs') or {}).get('fields', [])])
            if endpoint == 'users/me/awx-tokens':
                del made['token']       # never shown again
                self.tokens[made['id']] = body['token']
            if endpoint == 'eda-credentials':
                self.fill_defaults(made)
            self.objects.setdefault(endpoint, []).append(made)
            return self.shown(endpoint, made, detail=False)
        obj = self._stored(endpoint, found)
        if method == 'PATCH':
            for key, value in json_body.items():
                if key == 'inputs':
                    old = obj.get('inputs') or {}
                    value = dict((k, old.get(k) if v == '$encrypted$' else v) for k, v in value.items())
                obj[key] = value
            if endpoint == 'eda-credentials':
                self.fill_defaults(obj)
            return self.shown(endpoint, obj, detail=False)
        if method == 'DELETE':
            self.objects[endpoint].remove(obj)
            return None
        raise AssertionError('not faked: %s %s' % (method, path))

    def _new_id(self):
        self.next_id += 1
        return self.next_id

