"""feature_flag: a run-time flag toggled at the gateway (PATCH of its value), idempotent, check mode and diff."""

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.modules import feature_flag

FLAGS = '/api/gateway/v1/feature_flags/'


class Client:
    def __init__(self, layout=None, runtime=True):
        self.layout = layout or Layout.platform_gateway()
        self.base_url = 'https://aap.example.test'
        self.runtime = runtime
        self.flags = [
            {'id': 1, 'name': 'FEATURE_RUN_ENABLED', 'condition': 'boolean', 'value': 'False', 'toggle_type': 'run-time',
             'state': False, 'url': FLAGS + '1/'},
            {'id': 2, 'name': 'FEATURE_INSTALL_ENABLED', 'condition': 'boolean', 'value': 'False',
             'toggle_type': 'install-time', 'state': False, 'url': FLAGS + '2/'},
        ]
        self.calls = []

    def settled_layout(self):
        return self.layout

    def get(self, path, params=None):
        self.calls.append(('GET', path))
        if path == '/api/gateway/v1/settings/all/':
            return {'RUNTIME_FEATURE_FLAGS': self.runtime}
        found = [dict(f) for f in self.flags if f['name'] == (params or {}).get('name')]
        return {'count': len(found), 'results': found}

    def request(self, method, path, json_body=None, expect=None, params=None):
        self.calls.append((method, path, json_body))
        flag = next(f for f in self.flags if f['url'] == path)
        flag.update(json_body, state=json_body['value'] == 'True')
        return dict(flag)


def run(client, check=False, diff=False, **params):
    args = dict(name='FEATURE_RUN_ENABLED', value=None, state='present')
    args.update(params)
    task = ApiTask(feature_flag.SPEC, args, check_mode=check, diff=diff)
    task._client = client
    return task.execute(feature_flag.run)


def writes(client):
    return [call for call in client.calls if call[0] != 'GET']


def test_a_run_time_flag_is_toggled_once():
    client = Client()
    result = run(client, diff=True, value=True)
    assert result['changed'] is True and result['value'] == 'True' and result['feature_flag']['state'] is True
    assert result['diff'] == {'before': {'value': 'False'}, 'after': {'value': 'True'}}
    assert writes(client) == [('PATCH', FLAGS + '1/', {'value': 'True'})]
    again = run(client, value='true')
    assert again['changed'] is False and len(writes(client)) == 1


def test_check_mode_writes_nothing():
    client = Client()
    result = run(client, check=True, diff=True, value='TRUE')
    assert result['changed'] is True and result['value'] == 'True' and writes(client) == []


def test_reading_only():
    client = Client()
    result = run(client, state='exists', value=True)
    assert result['changed'] is False and result['value'] == 'False' and writes(client) == []
    missing = run(client, name='FEATURE_NONE_ENABLED', state='exists')
    assert missing['failed'] is True and 'does not exist' in missing['msg']


def test_what_cannot_be_toggled_fails_before_writing():
    client = Client()
    result = run(client, name='FEATURE_INSTALL_ENABLED', value=True)
    assert result['failed'] is True and 'install-time' in result['msg']
    assert run(client, name='FEATURE_INSTALL_ENABLED', value=False)['changed'] is False     # no change asked
    assert 'boolean' in run(client, value='maybe')['msg']
    assert 'cannot be deleted' in run(client, state='absent')['msg']
    off = Client(runtime=False)
    result = run(off, value=True)
    assert result['failed'] is True and 'RUNTIME_FEATURE_FLAGS' in result['msg']
    assert writes(client) == [] and writes(off) == []


def test_awx_has_no_feature_flags():
    client = Client(layout=Layout.awx())
    result = run(client, value=True)
    assert result['failed'] is True and 'needs an Automation Platform gateway' in result['msg']
    assert client.calls == []
