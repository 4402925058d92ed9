"""Behind a platform gateway: a setting the gateway holds is written there (PUT), every other one at the
controller (PATCH), and the task says where it wrote."""

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._client import Layout
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError
from ansible_collections.automation.service.plugins.modules import settings

GATEWAY_PATH = '/api/gateway/v1/settings/all/'
SECRET = 'Not-4-display-5521'


class Client:
    """The controller's settings (``settings/all``) and the gateway's (GATEWAY_PATH); ``refuse``: the names a
    place answers 400 to."""

    def __init__(self, controller, gateway, refuse=()):
        self.layout = Layout.platform_gateway()
        self.places = {'settings/all': dict(controller), GATEWAY_PATH: dict(gateway)}
        self.refuse, self.calls = set(refuse), []

    def get(self, path, params=None):
        self.calls.append(('GET', path))
        return dict((k, '$encrypted$' if 'PASSWORD' in k and v else v) for k, v in self.places[path].items())

    def request(self, method, path, json_body=None, expect=None, params=None):
        self.calls.append((method, path, json_body))
        if self.refuse & set(json_body):
            raise ApiError('%s %s answered 400: %s' % (method, path, ', '.join(sorted(self.refuse & set(json_body)))),
                           status=400, method=method, url=path)
        self.places[path].update(json_body)
        return self.get(path)


def run(client, check=False, diff=False, **params):
    args = dict(name=None, value=None, settings=None, update_secrets=True)
    args.update(params)
    task = ApiTask(settings.SPEC, args, check_mode=check, diff=diff)
    task._client = client
    return task.execute(settings.run)


def both():
    return Client({'MAX_UI_JOB_EVENTS': 4000, 'SESSION_COOKIE_AGE': 1800},
                  {'password_min_length': 0, 'SESSION_COOKIE_AGE': 1800, 'REDHAT_PASSWORD': ''})


def test_each_setting_goes_where_it_is_kept():
    client = both()
    result = run(client, diff=True, settings={'password_min_length': 12, 'MAX_UI_JOB_EVENTS': 5000})
    assert result['changed'] is True
    assert result['written_at'] == ['gateway', 'controller']
    writes = [call for call in client.calls if call[0] != 'GET']
    assert writes == [('PUT', GATEWAY_PATH, {'password_min_length': 12}), ('PATCH', 'settings/all', {'MAX_UI_JOB_EVENTS': 5000})]
    assert result['current_values'] == {'password_min_length': 12, 'MAX_UI_JOB_EVENTS': 5000}
    assert result['diff']['after'] == {'password_min_length': 12, 'MAX_UI_JOB_EVENTS': 5000}
    again = run(client, settings={'password_min_length': 12, 'MAX_UI_JOB_EVENTS': 5000})
    assert again['changed'] is False and again['written_at'] == []


def test_a_name_both_have_is_the_gateways():
    client = both()
    result = run(client, name='SESSION_COOKIE_AGE', value='3600')
    assert result['changed'] is True and result['value'] == 3600 and result['written_at'] == ['gateway']
    assert client.places['settings/all']['SESSION_COOKIE_AGE'] == 1800


def test_a_name_neither_has_fails_before_writing():
    client = both()
    result = run(client, settings={'password_min_length': 12, 'NO_SUCH_SETTING': 1})
    assert result['failed'] is True and result['changed'] is False
    assert result['msg'].startswith('The service has no setting NO_SUCH_SETTING.')
    assert 'Neither the platform gateway nor the controller' in result['msg']
    assert all(call[0] == 'GET' for call in client.calls)


def test_check_mode_writes_nothing():
    client = both()
    result = run(client, check=True, diff=True, settings={'password_min_length': 12, 'MAX_UI_JOB_EVENTS': 5000})
    assert result['changed'] is True and result['written_at'] == ['gateway', 'controller']
    assert all(call[0] == 'GET' for call in client.calls)
    assert result['current_values'] == {'password_min_length': 12, 'MAX_UI_JOB_EVENTS': 5000}


def test_a_gateway_secret_is_masked():
    client = both()
    result = run(client, diff=True, settings={'REDHAT_PASSWORD': SECRET})
    assert result['changed'] is True and SECRET not in str(result)
    assert result['diff']['after'] == {'REDHAT_PASSWORD': 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'}
    again = run(client, diff=True, settings={'REDHAT_PASSWORD': SECRET})
    assert again['changed'] is False and again['secrets_sent'] == ['REDHAT_PASSWORD'] and SECRET not in str(again)


def test_the_controllers_refusal_says_what_the_gateway_took():
    client = Client({'MAX_UI_JOB_EVENTS': 4000}, {'password_min_length': 0}, refuse=['MAX_UI_JOB_EVENTS'])
    result = run(client, settings={'password_min_length': 12, 'MAX_UI_JOB_EVENTS': 1})
    assert result['failed'] is True and result['changed'] is True
    assert result['msg'].startswith('Unable to update settings: PATCH settings/all answered 400: MAX_UI_JOB_EVENTS')
    assert 'password_min_length were written at the platform gateway' in result['msg']
    assert result['written_at'] == ['gateway']


def test_the_gateways_refusal_writes_nothing_at_the_controller():
    client = Client({'MAX_UI_JOB_EVENTS': 4000}, {'password_min_length': 0}, refuse=['password_min_length'])
    result = run(client, settings={'password_min_length': 1000, 'MAX_UI_JOB_EVENTS': 5000})
    assert result['failed'] is True and result['changed'] is False
    assert result['msg'].startswith('Unable to update settings (the platform gateway): PUT')
    assert client.places['settings/all']['MAX_UI_JOB_EVENTS'] == 4000
