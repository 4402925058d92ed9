"""What a failed task returns when the service refused a request."""

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask, ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, NotFound


def failed_with(exc, **params):
    def run(api):
        raise exc
    return ApiTask(ModuleSpec({}), dict(params)).execute(run)


def test_the_services_answer_is_returned_as_response():
    body = {'module_name': ['"Does not exist" is not a valid choice.']}
    result = failed_with(ApiError('POST .../ad_hoc_commands/ answered 400: ...', status=400, detail=body))
    assert result['failed'] and result['status'] == 400
    assert result['response'] == {'status_code': 400, 'json': body}


def test_no_response_without_an_answer_of_the_service():
    assert 'response' not in failed_with(NotFound('user bob was not found.'))
    assert 'response' not in failed_with(ApiError('GET x answered 502: non-JSON answer', status=502, detail=None))


def test_copied_is_returned_with_copy_from():
    def run(api):
        api.returns(copied_from=4)
    assert ApiTask(ModuleSpec({}), {'copy_from': 'a', 'state': 'present'}).execute(run)['copied'] is True
    assert ApiTask(ModuleSpec({}), {'copy_from': 'a'}).execute(lambda api: None)['copied'] is False
    assert 'copied' not in ApiTask(ModuleSpec({}), {'copy_from': 'a', 'state': 'absent'}).execute(lambda api: None)
    assert 'copied' not in ApiTask(ModuleSpec({}), {}).execute(lambda api: None)
