"""A setting the service keeps as it was (defined in one of its settings files) is no change."""

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.modules import settings


class Client:
    """The settings endpoint of a service where ``fixed`` settings cannot change."""

    def __init__(self, values, fixed=()):
        self.values, self.fixed, self.calls = dict(values), set(fixed), []

    def get(self, path, params=None):
        self.calls.append(('GET', path))
        return dict(self.values)

    def request(self, method, path, json_body=None, expect=None, params=None):
        self.calls.append((method, path, json_body))
        self.values.update((k, v) for k, v in json_body.items() if k not in self.fixed)
        return dict(self.values)


def run(client, diff=False, **params):
    args = dict(name=None, value=None, settings=None, update_secrets=True)
    args.update(params)
    task = ApiTask(settings.SPEC, args, diff=diff)
    task._client = client
    return task.execute(settings.run)


def test_a_setting_defined_in_a_file_is_no_change_and_warns():
    client = Client({'AWX_ISOLATION_BASE_PATH': '/var/tmp', 'AWX_ISOLATION_SHOW_PATHS': []},
                    fixed=['AWX_ISOLATION_BASE_PATH'])
    result = run(client, diff=True, name='AWX_ISOLATION_BASE_PATH', value='/tmp')
    assert result['changed'] is False
    assert result['value'] == '/var/tmp'
    assert result['new_values'] == {} and 'diff' not in result
    assert 'AWX_ISOLATION_BASE_PATH as it was' in result['warnings'][0]


def test_only_the_kept_setting_is_left_out_of_the_change():
    client = Client({'AWX_ISOLATION_BASE_PATH': '/var/tmp', 'AWX_ISOLATION_SHOW_PATHS': []},
                    fixed=['AWX_ISOLATION_BASE_PATH'])
    result = run(client, diff=True, settings={'AWX_ISOLATION_BASE_PATH': '/tmp', 'AWX_ISOLATION_SHOW_PATHS': ['/srv']})
    assert result['changed'] is True
    assert result['new_values'] == {'AWX_ISOLATION_SHOW_PATHS': ['/srv']}
    assert result['diff'] == {'before': {'AWX_ISOLATION_SHOW_PATHS': []}, 'after': {'AWX_ISOLATION_SHOW_PATHS': ['/srv']}}
    assert len(result['warnings']) == 1


def test_a_setting_that_changes_warns_not():
    client = Client({'AWX_ISOLATION_BASE_PATH': '/var/tmp'})
    result = run(client, name='AWX_ISOLATION_BASE_PATH', value='/tmp')
    assert result['changed'] is True and result['value'] == '/tmp' and 'warnings' not in result


def test_no_value_for_a_setting_the_service_keeps_fails_as_awx_awx_words_it():
    """awx.awx's settings target: a value omitted (``default(omit)``) must fail with 'Unable to update settings',
    also where the service ignores the null (a setting defined in a settings file, as on the real AWX test bed)."""
    client = Client({'AWX_ISOLATION_BASE_PATH': '/var/tmp'}, fixed=['AWX_ISOLATION_BASE_PATH'])
    result = run(client, name='AWX_ISOLATION_BASE_PATH')
    assert result['failed'] is True and result['changed'] is False
    assert result['msg'].startswith('Unable to update settings: AWX_ISOLATION_BASE_PATH was given no value')
    assert client.calls[-1] == ('PATCH', 'settings/all', {'AWX_ISOLATION_BASE_PATH': None})
