"""Automation Hub in the core: ansible.hub's connection options (mapped onto the shared ones, for Hub modules only,
documented in the doc fragment hub), where the Hub's API is (the Layout's ``hub``), galaxy-ng's errors, and
_hub's helpers (placing, pages, the task waiter, HubResource's writes). No Hub here: the clients are fakes (the
integration targets ah_namespace and ah_token run against a real one)."""

import re

import pytest
import yaml

from ansible_collections.automation.service.plugins.doc_fragments.hub import ModuleDocFragment
from ansible_collections.automation.service.plugins.module_utils import _hub
from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._auth_token import token_value
from ansible_collections.automation.service.plugins.module_utils._client import (
    Layout, error_detail, hub_refusal, hub_root, served_by_hub,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, NotFound
from ansible_collections.automation.service.plugins.module_utils._options import (
    HUB_ALIASES, HUB_ENVIRONMENT, HUB_OPTIONS, hub_argument_spec, module_argument_spec, resolve,
)

DOCUMENTED = yaml.safe_load(ModuleDocFragment.DOCUMENTATION)['options']
HUB_GIVEN = dict((name, None) for name in hub_argument_spec())   # a Hub module's options, none given


# -- the options ---------------------------------------------------------------------------------------------------

def test_a_hub_module_takes_ansible_hubs_options_and_no_other_module_does():
    spec = hub_argument_spec()
    assert spec['ah_host']['aliases'] == ['ah_hostname']
    assert spec['ah_password']['no_log'] and spec['ah_token']['no_log'] and spec['ah_token']['type'] == 'raw'
    assert 'ah_verify_ssl' in spec['validate_certs']['aliases']
    shared = module_argument_spec()
    assert not [name for name in shared if name.startswith('ah_')]
    assert 'ah_verify_ssl' not in shared['validate_certs']['aliases']


def test_the_fragment_documents_each_hub_option_as_declared():
    assert sorted(DOCUMENTED) == sorted(list(HUB_OPTIONS) + list(HUB_ALIASES))
    for name, (kind, aliases, envs, _shared, _extra) in HUB_OPTIONS.items():
        assert DOCUMENTED[name]['type'] == kind, name
        assert DOCUMENTED[name].get('aliases', []) == aliases, name
        assert re.findall(r'E\(([A-Z_]+)\)', ' '.join(DOCUMENTED[name]['description']))[0] == envs[0], name
    assert DOCUMENTED['validate_certs']['aliases'] == hub_argument_spec()['validate_certs']['aliases']
    text = ' '.join(DOCUMENTED['validate_certs']['description'])
    assert 'E(%s)' % HUB_ENVIRONMENT['validate_certs'][0] in text


def test_ah_names_given_win_over_the_shared_ones_and_their_environment_over_the_shared_environment():
    environ = {'AH_HOST': 'hub.env.example.com', 'SERVICE_URL': 'svc.env.example.com', 'AH_USERNAME': 'env-user',
               'AH_VERIFY_SSL': 'no', 'GALAXY_API_PATH_PREFIX': 'automation-hub', 'AH_REQUEST_TIMEOUT': '33'}
    given = dict(HUB_GIVEN, ah_host='hub.task.example.com', service_url='svc.task.example.com', ah_password='pw')
    options = resolve(given, environ)
    assert options['service_url'] == 'hub.task.example.com'
    assert options['service_username'] == 'env-user' and options['service_password'] == 'pw'
    assert options['validate_certs'] is False and options['request_timeout'] == 33.0
    assert options['ah_path_prefix'] == 'automation-hub'
    # the shared name given in the task beats the AH_ environment
    shared = resolve(dict(HUB_GIVEN, service_url='svc.task.example.com'), environ)
    assert shared['service_url'] == 'svc.task.example.com'
    # nothing in the task: AH_HOST before SERVICE_URL
    assert resolve(dict(HUB_GIVEN), environ)['service_url'] == 'hub.env.example.com'
    assert resolve(dict(HUB_GIVEN), {})['ah_path_prefix'] == 'galaxy'


def test_a_controller_module_never_reads_ansible_hubs_environment():
    environ = {'AH_HOST': 'hub.example.com', 'AH_API_TOKEN': 'secret', 'AH_VERIFY_SSL': 'no'}
    options = resolve({}, environ)
    assert options['service_url'] is None and options['service_token'] is None
    assert options['validate_certs'] is True and 'ah_path_prefix' not in options


def test_ah_token_as_a_dict_gives_its_token_and_is_worded_as_ansible_hub_words_it():
    options = resolve(dict(HUB_GIVEN, ah_token={'token': 'abc'}), {})
    assert options['service_token'] == {'token': 'abc'} and options['token_option'] == 'ah_token'
    assert token_value(options['service_token'], options['token_option']) == 'abc'
    with pytest.raises(ConfigError) as failed:
        token_value({'id': 1}, 'ah_token')
    assert str(failed.value) == 'The provided dict in ah_token did not properly contain the token entry'
    with pytest.raises(ConfigError) as failed:
        token_value(3, 'ah_token')
    assert str(failed.value) == 'The provided ah_token type was not valid (int). Valid options are str or dict.'


def test_on_a_standalone_hub_auto_is_basic_and_a_session_asked_for_is_refused():
    from ansible_collections.automation.service.plugins.module_utils._authenticator import hub_auth
    standalone, gateway = FakeClient(Layout.standalone_hub('/api/galaxy/')), FakeClient(Layout.platform_gateway())
    password = resolve(dict(HUB_GIVEN, ah_host='https://hub.example.com', ah_username='u', ah_password='p'), {})
    assert hub_auth(standalone, password, None).name == 'basic'
    assert hub_auth(gateway, password, None) is None    # the gateway's session login
    assert hub_auth(standalone, dict(password, service_token='t'), None) is None
    for asked in (dict(password, service_auth='session'), dict(password, service_session_id='s'),
                  dict(password, service_sso_backend='keycloak')):
        with pytest.raises(ConfigError) as failed:
            hub_auth(standalone, asked, None)
        assert 'not available on a standalone Automation Hub' in str(failed.value)
    assert standalone.sent == []


# -- where the Hub is ------------------------------------------------------------------------------------------------

def test_the_hub_root_behind_a_gateway_on_a_standalone_hub_and_none_on_awx():
    gateway = Layout.from_root({'apis': {'gateway': '/api/gateway/', 'controller': '/api/controller/'}})
    assert gateway.hub == '/api/galaxy/' and gateway.hub_path('v3/namespaces') == '/api/galaxy/v3/namespaces/'
    listed = Layout.from_root({'apis': {'gateway': '/api/gateway/', 'controller': '/api/controller/',
                                        'galaxy': '/x/galaxy'}})
    assert listed.hub == '/x/galaxy/'
    awx = Layout.from_root({'current_version': '/api/v2/'})
    assert awx.hub is None and awx.hub_path('v3/') is None
    assert hub_root('galaxy') == '/api/galaxy/' and hub_root('automation-hub') == '/api/automation-hub/'
    assert hub_root('/api/custom/') == '/api/custom/' and hub_root('api/custom') == '/api/custom/'


def test_the_session_cache_keeps_the_hubs_root():
    standalone = Layout.standalone_hub('/api/automation-hub/')
    again = Layout.from_entry(standalone.as_entry())
    assert again.is_standalone_hub and again.hub == '/api/automation-hub/' and again.key == standalone.key
    assert not again.is_gateway
    older = Layout.platform_gateway().as_entry()
    del older['hub']
    assert Layout.from_entry(older).hub == '/api/galaxy/'
    assert Layout.standalone_hub('/api/a/').key != Layout.standalone_hub('/api/b/').key


def test_galaxy_ngs_errors_are_worded_and_its_refusals_told():
    body = {'errors': [{'status': '400', 'code': 'invalid', 'title': 'Invalid input.',
                        'detail': 'Name can only contain lower case letters, underscores and numbers',
                        'source': {'parameter': 'name'}}]}
    assert error_detail(body) == 'name: Name can only contain lower case letters, underscores and numbers'
    refused = {'errors': [{'status': '403', 'code': 'authentication_failed',
                           'title': 'Incorrect authentication credentials.', 'detail': 'Invalid token.'}]}
    assert error_detail(refused) == 'Invalid token.' and hub_refusal(refused) == 'authentication_failed'
    assert hub_refusal({'errors': [{'code': 'permission_denied'}]}) is None
    assert error_detail({'name': ['This field is required.']}) == 'name: This field is required.'   # Pulp's


class Answer:
    def __init__(self, content_type, body):
        self.headers = {'Content-Type': content_type}
        self.body = body

    def json(self):
        return self.body


def test_a_404_in_galaxy_ngs_form_is_the_hubs_and_asks_for_no_new_layout():
    assert served_by_hub(Answer('application/json', {'errors': [{'status': '404', 'code': 'not_found'}]}))
    assert not served_by_hub(Answer('application/json', {'detail': 'Not found.'}))
    assert not served_by_hub(Answer('text/html; charset=utf-8', None))


class Answered:
    def __init__(self, status, body):
        self.status = status
        self.body = body

    def json(self):
        return self.body


@pytest.mark.parametrize('root, hub, found', [
    # galaxy-ng 4.9.2: a 404 at /api/, its refusal at its root
    (None, Answered(403, {'errors': [{'status': '403', 'code': 'not_authenticated'}]}), 'hub'),
    (None, Answered(200, {'available_versions': {'v3': 'v3/', 'pulp-v3': 'pulp/api/v3/'}}), 'hub'),
    (None, Answered(404, None), 'awx'),                  # neither: AWX's layout, as before (not kept)
    ({'current_version': '/api/v2/', 'available_versions': {'v2': '/api/v2/'}}, Answered(404, None), 'awx'),
    ({'apis': {'gateway': '/api/gateway/', 'controller': '/api/controller/'}}, None, 'gateway'),
])
def test_a_hub_modules_client_tells_a_standalone_hub_awx_and_a_gateway_apart(root, hub, found):
    from ansible_collections.automation.service.plugins.module_utils._client import Client
    client = Client({'service_url': 'https://hub-%s.example.com' % found, 'ah_path_prefix': 'galaxy'})
    asked = []

    def anonymous_json(path):
        asked.append(path)
        if path == '/api/':
            return Answered(200 if root else 404, root), root
        return hub, hub.body if hub.status == 200 else None

    client.anonymous_json = anonymous_json
    layout = client.discover()
    assert layout.name == found
    assert (layout.hub == '/api/galaxy/') == (found != 'awx')
    # the Hub's root is asked only when /api/ is neither AWX's nor a gateway's
    assert asked == (['/api/'] if root else ['/api/', '/api/galaxy/'])


# -- _hub's helpers ----------------------------------------------------------------------------------------------------

class FakeClient:
    """Answers GETs from ``pages`` (path -> answer, or a list of answers in turn) and records what is sent."""

    def __init__(self, layout, pages=None):
        self.layout = layout
        self.pages = dict(pages or {})
        self.sent = []
        self.base_url = 'https://hub.example.com'

    def settled_layout(self):
        return self.layout

    def get(self, path, params=None):
        self.sent.append(('GET', path, params))
        answer = self.pages.get(path)
        if isinstance(answer, list):
            answer = answer.pop(0)
        if answer is None:
            raise NotFound('GET %s answered 404' % path, status=404)
        return answer

    def request(self, method, path, params=None, json_body=None, expect=(200,)):
        self.sent.append((method, path, json_body))
        return dict(json_body or {}, id=4)


def task(client, params=None, check_mode=False):
    return ApiTask(_hub.hub_spec({}), dict(HUB_GIVEN, **(params or {})), check_mode=check_mode, client=client)


def test_a_hub_module_on_awx_fails_before_anything_is_sent():
    client = FakeClient(Layout.awx())
    with pytest.raises(ConfigError) as failed:
        _hub.place(task(client), 'v3/namespaces/', 'ah_namespace')
    assert 'automation.service.ah_namespace needs Automation Hub' in str(failed.value)
    assert client.sent == []


def test_paths_are_placed_under_the_hubs_root_for_each_family():
    api = task(FakeClient(Layout.standalone_hub('/api/galaxy/')))
    assert _hub.place(api, _hub.V3 + 'namespaces', 'm') == '/api/galaxy/v3/namespaces/'
    assert _hub.place(api, _hub.UI + 'users/?username=x', 'm') == '/api/galaxy/_ui/v1/users/?username=x'
    assert _hub.place(api, _hub.PULP + 'tasks/', 'm') == '/api/galaxy/pulp/api/v3/tasks/'
    assert _hub.place(api, '/api/galaxy/v3/', 'm') == '/api/galaxy/v3/'
    href = 'https://hub.example.com/api/galaxy/pulp/api/v3/tasks/1/'
    assert _hub.href_path(href) == '/api/galaxy/pulp/api/v3/tasks/1/'
    assert _hub.task_path(api, 'abc-1', 'm') == '/api/galaxy/pulp/api/v3/tasks/abc-1/'


def test_both_kinds_of_pages_are_read_whole_and_names_compared_exactly():
    client = FakeClient(Layout.standalone_hub('/api/galaxy/'), {
        '/api/galaxy/_ui/v1/users/': {'meta': {'count': 2}, 'links': {'next': '/next/'},
                                      'data': [{'username': 'Core'}]},
        '/next/': {'meta': {'count': 2}, 'links': {'next': None}, 'data': [{'username': 'core'}]},
        '/api/galaxy/pulp/api/v3/remotes/': {'count': 1, 'next': None, 'results': [{'name': 'r'}]},
    })
    api = task(client)
    found = _hub.find(api, '/api/galaxy/_ui/v1/users/', 'core', name_field='username')
    assert found == {'username': 'core'}
    assert client.sent[0][2] == {'username': 'core', 'limit': _hub.PAGE_SIZE}
    assert [obj['name'] for obj in _hub.objects(api, '/api/galaxy/pulp/api/v3/remotes/')] == ['r']
    with pytest.raises(NotFound):
        _hub.find(api, '/api/galaxy/pulp/api/v3/remotes/', 'other', required=True)


def test_a_task_is_waited_for_until_it_ends_and_its_failure_says_why():
    path = '/api/galaxy/pulp/api/v3/tasks/1/'
    slept = []
    client = FakeClient(Layout.standalone_hub('/api/galaxy/'), {path: [
        {'state': 'waiting'}, {'state': 'running'}, {'state': 'completed', 'created_resources': ['/x/']}]})
    done = _hub.wait_for_task(task(client), path, 'm', timeout=60, interval=2, sleep=slept.append,
                              clock=lambda: 0)
    assert done['created_resources'] == ['/x/'] and slept == [2, 2]
    client.pages[path] = {'state': 'failed', 'error': {'description': 'the remote answered 404'}}
    with pytest.raises(_hub.TaskFailed) as failed:
        _hub.wait_for_task(task(client), path, 'm', sleep=slept.append, clock=lambda: 0)
    assert 'failed: the remote answered 404' in str(failed.value) and failed.value.task['state'] == 'failed'
    client.pages[path] = {'state': 'running'}
    clock = iter([0, 5, 11, 11])
    with pytest.raises(_hub.TaskFailed) as failed:
        _hub.wait_for_task(task(client), path, 'm', timeout=10, interval=5, sleep=slept.append,
                           clock=lambda: next(clock))
    assert 'had not ended after 10 seconds (state running)' in str(failed.value)


def test_a_404_not_the_hubs_asks_whether_a_hub_is_there_at_all():
    class Sent:
        status = 404

    client = FakeClient(Layout.platform_gateway())
    client.send = lambda method, path, **kwargs: client.sent.append((method, path, None)) or Sent()
    with pytest.raises(ConfigError) as failed:
        _hub.get_or_none(task(client), '/api/galaxy/v3/namespaces/x/', 'ah_namespace')
    assert 'serves no Hub API at /api/galaxy/' in str(failed.value)
    assert client.sent[-1] == ('GET', '/api/galaxy/', None)
    hubs = FakeClient(Layout.standalone_hub('/api/galaxy/'))

    def hubs_404(path, params=None):
        raise NotFound('404', status=404, detail={'errors': [{'status': '404', 'code': 'not_found'}]})

    hubs.get = hubs_404
    assert _hub.get_or_none(task(hubs), '/api/galaxy/v3/namespaces/x/', 'ah_namespace') is None


def test_a_resource_updated_with_put_sends_its_name_at_its_old_names_url():
    resource = _hub.HubResource('v3/namespaces/', 'namespace', 'namespace', 'ah_namespace', lookup='url',
                                detail='name', update_method='PUT', fields=('company',))
    client = FakeClient(Layout.standalone_hub('/api/galaxy/'), {
        '/api/galaxy/v3/namespaces/old/': {'id': 4, 'name': 'old', 'company': 'A'}})
    api = task(client, {'name': 'old', 'new_name': 'new', 'company': 'B', 'state': 'present'}, check_mode=True)
    placed = resource.placed(api)
    plan = placed.plan(api)
    assert [(w.method, w.path, w.body) for w in plan.writes] == [
        ('PUT', '/api/galaxy/v3/namespaces/old/', {'name': 'new', 'company': 'B'})]
    unchanged = task(client, {'name': 'old', 'company': 'A', 'state': 'present'})
    assert placed.plan(unchanged).writes == []


def test_a_pulp_object_without_an_id_is_updated_and_deleted_at_its_pulp_href():
    resource = _hub.HubResource(_hub.PULP + 'roles/', 'role', 'role', 'ah_role', detail='pulp_href',
                                fields=('description',))
    href = '/api/galaxy/pulp/api/v3/roles/0190a1b2-0000-7000-8000-000000000001/'
    client = FakeClient(Layout.standalone_hub('/api/galaxy/'), {
        '/api/galaxy/pulp/api/v3/roles/': {'count': 1, 'next': None, 'results': [
            {'pulp_href': href, 'name': 'team.probe', 'description': 'old'}]}})
    placed = resource.placed(task(client, {'name': 'team.probe', 'state': 'present'}))
    api = task(client, {'name': 'team.probe', 'description': 'new', 'state': 'present'}, check_mode=True)
    assert [(w.method, w.path, w.body) for w in placed.plan(api).writes] == [('PATCH', href, {'description': 'new'})]
    gone = task(client, {'name': 'team.probe', 'state': 'absent'}, check_mode=True)
    assert [(w.method, w.path) for w in placed.plan(gone).writes] == [('DELETE', href)]


def test_a_task_that_reaches_no_hub_has_a_client_that_looks_for_none(tmp_path):
    # export and import take ansible.hub's options; asked nothing of a Hub, their client is a controller module's
    given = dict(HUB_GIVEN, service_url='https://awx.example.com', service_username='admin', service_password='pw',
                 service_auth='basic', session_cache=False)
    environ = {'SERVICE_CACHE_DIR': str(tmp_path)}
    hub_task = ApiTask(_hub.hub_spec({}), dict(given), environ=environ)
    assert hub_task.client.hub_root == '/api/galaxy/'
    no_hub = ApiTask(_hub.hub_spec({}), dict(given), environ=environ)
    no_hub.reaches_no_hub()
    assert no_hub.client.hub_root is None
    # a service named with ansible.hub's options is meant to be a Hub: it is looked for
    named = ApiTask(_hub.hub_spec({}), dict(given, ah_host='https://hub.example.com'), environ=environ)
    named.reaches_no_hub()
    assert named.client.hub_root == '/api/galaxy/'
