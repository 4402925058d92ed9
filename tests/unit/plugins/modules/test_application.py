"""The application module on both layouts, against a fake client that keeps applications and
organizations in memory (no service): behind a platform gateway every request goes to the gateway's
API (its applications, its organizations, whose ids are not the controller's), on AWX 24 to the
controller's; the client secret is returned once, never in the diff; check mode writes nothing."""

import copy
import json

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.modules import application

WRITES = ('POST', 'PATCH', 'DELETE')
SECRET = 'the-new-client-secret-0123456789'
GATEWAY = '/api/gateway/v1/'


class FakeClient:
    """Lists by endpoint (``applications`` on AWX 24, ``/api/gateway/v1/applications/`` behind a gateway);
    filters on plain fields, ``or__`` pairs and ``organization__name``. A service hides a client secret
    it has shown once as ``hidden``."""

    def __init__(self, layout, objects, hidden):
        self.layout = layout
        self.layout_found = True
        self.objects = copy.deepcopy(objects)
        self.hidden = hidden
        self.calls = []
        self.next_id = 40

    @property
    def writes(self):
        return [call for call in self.calls if call[0] in WRITES]

    def settled_layout(self):
        return self.layout

    def orgs(self):
        return self.layout.gateway_path('organizations') if self.layout.is_gateway else 'organizations'

    def apps(self):
        return self.layout.gateway_path('applications') if self.layout.is_gateway else 'applications'

    def _matches(self, obj, key, value):
        if key == 'organization__name':
            return any(org['name'] == value and org['id'] == obj.get('organization') for org in self.objects[self.orgs()])
        return str(obj.get(key)) == str(value)

    def shown(self, obj):
        obj = dict(obj)
        if obj.get('client_type') == 'confidential':
            obj['client_secret'] = self.hidden
        return obj

    def _detail(self, path):
        for endpoint, objects in self.objects.items():
            for obj in objects:
                if obj.get('url') == path:
                    return endpoint, obj
        raise NotFound('%s not found' % path, status=404)

    def get(self, path, params=None):
        self.calls.append(('GET', path, dict(params or {})))
        if path not in self.objects:
            return self.shown(self._detail(path)[1])
        filters = dict((k, v) for k, v in (params or {}).items() if k != 'page_size')
        either = dict((k[len('or__'):], v) for k, v in filters.items() if k.startswith('or__'))
        plain = dict((k, v) for k, v in filters.items() if not k.startswith('or__'))
        results = [self.shown(obj) for obj in self.objects[path]
                   if all(self._matches(obj, k, v) for k, v in plain.items())
                   and (not either or any(self._matches(obj, k, v) for k, v in either.items()))]
        return {'count': len(results), 'results': results, 'next': None}

    def request(self, method, path, params=None, json_body=None, expect=None):
        self.calls.append((method, path, json_body))
        if method == 'POST':
            self.next_id += 1
            prefix = self.layout.gateway if self.layout.is_gateway else '/api/v2/'
            made = dict(json_body, id=self.next_id, url='%sapplications/%d/' % (prefix, self.next_id),
                        client_id='client-%d' % self.next_id)
            self.objects[path].append(made)
            answer = dict(made)
            if made.get('client_type') == 'confidential':
                answer['client_secret'] = SECRET
            return answer
        endpoint, obj = self._detail(path)
        if method == 'PATCH':
            obj.update(json_body)
            return self.shown(obj)
        if method == 'DELETE':
            self.objects[endpoint].remove(obj)
        return None


def gateway_client():
    """A gateway whose Default organization is its 7 (the controller's copy of it is 1)."""
    layout = Layout.platform_gateway()
    return FakeClient(layout, {
        GATEWAY + 'organizations/': [{'id': 7, 'name': 'Default'}, {'id': 1, 'name': 'Other'}],
        GATEWAY + 'applications/': [{'id': 3, 'name': 'portal', 'organization': 7, 'url': GATEWAY + 'applications/3/',
                                     'client_id': 'client-3', 'client_type': 'confidential',
                                     'authorization_grant_type': 'authorization-code', 'redirect_uris': 'https://a/cb',
                                     'skip_authorization': False, 'description': ''}],
    }, hidden='$encrypted$')


def awx_client():
    return FakeClient(Layout.awx(), {
        'organizations': [{'id': 1, 'name': 'Default'}],
        'applications': [],
    }, hidden='************')


def run(params, client, check_mode=False, diff=True):
    validated = ArgumentSpecValidator(application.SPEC.argument_spec).validate(
        dict(params, service_url='https://service.invalid', service_token='t'))
    assert not validated.error_messages, validated.error_messages
    api = ApiTask(application.SPEC, validated.validated_parameters, check_mode=check_mode, diff=diff)
    api._client = client
    return api.execute(application.run)


NEW = dict(name='cli', organization='Default', client_type='confidential', authorization_grant_type='password',
           description='a tool')


def test_behind_a_gateway_a_new_application_is_made_at_the_gateway_in_its_organization():
    client = gateway_client()
    result = run(NEW, client)
    assert not result.get('failed'), result
    assert result['changed']
    assert client.writes == [('POST', GATEWAY + 'applications/', {
        'name': 'cli', 'organization': 7, 'client_type': 'confidential', 'authorization_grant_type': 'password',
        'description': 'a tool'})]
    # Nothing goes to the controller's API.
    assert all(call[1].startswith(GATEWAY) for call in client.calls), client.calls
    assert result['id'] == 41 and result['client_id'] == 'client-41'
    assert result['client_secret'] == SECRET
    assert result['diff']['after']['organization'] == 7
    assert SECRET not in json.dumps(result['diff']) and SECRET not in json.dumps(result['end_state'])


def test_behind_a_gateway_an_organization_id_is_the_gateways():
    client = gateway_client()
    result = run(dict(NEW, organization='1'), client)
    assert not result.get('failed'), result
    assert client.writes[0][2]['organization'] == 1
    assert client.objects[GATEWAY + 'applications/'][-1]['organization'] == 1


def test_behind_a_gateway_an_application_is_changed_and_deleted_where_the_gateway_keeps_it():
    client = gateway_client()
    same = dict(name='portal', organization='Default', redirect_uris=['https://a/cb'], skip_authorization=False)
    unchanged = run(same, client)
    assert not unchanged['changed'] and client.writes == []
    assert unchanged['id'] == 3 and unchanged['client_id'] == 'client-3'
    assert 'client_secret' not in unchanged

    changed = run(dict(same, new_name='portal2', skip_authorization=True), client)
    assert changed['changed'] and 'client_secret' not in changed
    assert client.writes == [('PATCH', GATEWAY + 'applications/3/', {'name': 'portal2', 'skip_authorization': True})]
    assert changed['diff'] == {'before': {'name': 'portal', 'skip_authorization': False, 'redirect_uris': 'https://a/cb'},
                               'after': {'name': 'portal2', 'skip_authorization': True, 'redirect_uris': 'https://a/cb'}}

    deleted = run(dict(name='portal2', organization='Default', state='absent'), client)
    assert deleted['changed'] and deleted['id'] == 3
    assert client.writes[-1] == ('DELETE', GATEWAY + 'applications/3/', None)
    assert client.objects[GATEWAY + 'applications/'] == []
    again = run(dict(name='portal2', organization='Default', state='absent'), client)
    assert not again['changed'] and len(client.writes) == 2


def test_behind_a_gateway_check_mode_writes_nothing():
    client = gateway_client()
    created = run(NEW, client, check_mode=True)
    changed = run(dict(name='portal', organization='Default', skip_authorization=True), client, check_mode=True)
    deleted = run(dict(name='portal', organization='Default', state='absent'), client, check_mode=True)
    assert created['changed'] and changed['changed'] and deleted['changed']
    assert 'client_secret' not in created and 'client_id' not in created
    assert changed['application']['skip_authorization'] is True
    assert client.writes == []


def test_on_awx_24_the_application_is_the_controllers():
    client = awx_client()
    result = run(NEW, client)
    assert not result.get('failed'), result
    assert client.writes == [('POST', 'applications', {
        'name': 'cli', 'organization': 1, 'client_type': 'confidential', 'authorization_grant_type': 'password',
        'description': 'a tool'})]
    assert not any(call[1].startswith(GATEWAY) for call in client.calls)
    assert result['client_secret'] == SECRET
    again = run(NEW, client)
    assert not again['changed'] and 'client_secret' not in again and again['client_id'] == 'client-41'


def test_behind_a_gateway_ansible_platform_s_fields_are_sent_and_compared():
    client = gateway_client()
    client.objects[GATEWAY + 'users/'] = [{'id': 5, 'username': 'owner'}]
    made = run(dict(NEW, algorithm='RS256', post_logout_redirect_uris=['https://a/out', 'https://b/out'],
                    app_url='https://a', user='owner'), client)
    assert not made.get('failed'), made
    assert client.writes[-1] == ('POST', GATEWAY + 'applications/', {
        'name': 'cli', 'organization': 7, 'client_type': 'confidential', 'authorization_grant_type': 'password',
        'description': 'a tool', 'algorithm': 'RS256', 'app_url': 'https://a',
        'post_logout_redirect_uris': 'https://a/out https://b/out', 'user': 5})
    same = run(dict(name='cli', organization='Default', algorithm='RS256', user='5',
                    post_logout_redirect_uris=['https://a/out', 'https://b/out']), client)
    assert not same['changed'] and len(client.writes) == 1, client.writes
    other = run(dict(name='cli', organization='Default', user='nobody'), client)
    assert other.get('failed') and 'nobody' in other['msg'] and len(client.writes) == 1
    client.objects[GATEWAY + 'users/'].append({'id': 6, 'username': 'nobody'})
    other = run(dict(name='cli', organization='Default', user='nobody'), client)
    assert other['changed'] and client.writes[-1] == ('PATCH', GATEWAY + 'applications/41/', {'user': 6}), client.writes


def test_new_organization_moves_the_application():
    client = gateway_client()
    moved = run(dict(name='portal', organization='Default', new_organization='Other'), client)
    assert moved['changed'] and client.writes == [('PATCH', GATEWAY + 'applications/3/', {'organization': 1})]
    again = run(dict(name='portal', organization='Other', new_organization='Other'), client)
    assert not again['changed'] and len(client.writes) == 1
    # The same task again: the application is found where it was moved to, and left there.
    rerun = run(dict(name='portal', organization='Default', new_organization='Other'), client)
    assert not rerun['changed'] and rerun['id'] == 3 and len(client.writes) == 1
    # One found nowhere is made in the organization it moves to.
    made = run(dict(NEW, new_organization='Other'), client)
    assert made['changed'] and client.writes[-1][0] == 'POST' and client.writes[-1][2]['organization'] == 1
    awx = awx_client()
    awx.objects['organizations'].append({'id': 2, 'name': 'Other'})
    run(NEW, awx)
    moved = run(dict(name='cli', organization='Default', new_organization='Other'), awx)
    assert moved['changed'] and awx.writes[-1] == ('PATCH', '/api/v2/applications/41/', {'organization': 2})


def test_on_awx_24_the_gateway_s_fields_fail_before_any_request():
    client = awx_client()
    result = run(dict(NEW, algorithm='RS256', app_url='https://a'), client)
    assert result.get('failed') and 'algorithm, app_url' in result['msg'] and 'gateway' in result['msg']
    assert client.calls == []
