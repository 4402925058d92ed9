"""The resource layer's plan and its one owner of the result, against a fake client that keeps
objects and sub-lists in memory (no service): the order of sub-list requests, the diff (names, not
ids; secrets masked; the same whatever the order of the changes), check mode, and options that a
module reads otherwise than given, which the task's invocation still shows as given."""

import copy

import pytest
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.automation.service.plugins.module_utils._api_module import ApiTask
from ansible_collections.automation.service.plugins.module_utils._outcome import NO_LOG_PLACEHOLDER, Outcome
from ansible_collections.automation.service.plugins.modules import job_template, project, user

from .test_resolve_before_write import OBJECTS, FakeClient

SCHEDULE_RULE = 'DTSTART:20300101T020000Z RRULE:FREQ=DAILY;INTERVAL=1'
GROUPS = [{'id': 7, 'name': 'default'}, {'id': 8, 'name': 'gpu'}, {'id': 10, 'name': 'edge'}]
LABELS = [{'id': 6, 'name': 'l1', 'organization': 1}, {'id': 11, 'name': 'l2', 'organization': 1}]


class GatewayLayout:
    """A platform gateway's layout, whose lists the fake keeps under the endpoints' own names: the modules of
    the gateway alone (authenticators) run on the fake as on a gateway; the others never ask for it."""
    is_gateway = True

    @staticmethod
    def gateway_path(endpoint):
        return endpoint


class SublistClient(FakeClient):
    """FakeClient, with the sub-lists of job template 9 (ids) that POST {"id"} and {"disassociate"} change."""

    def __init__(self, objects, sublists):
        super().__init__(objects)
        self.sublists = copy.deepcopy(sublists)

    @staticmethod
    def settled_layout():
        return GatewayLayout()

    def _object(self, endpoint, item):
        return next(obj for obj in self.objects[endpoint] if obj['id'] == item)

    def iterate(self, path, params=None):
        self.calls.append(('GET', path, dict(params or {})))
        endpoint = path.rsplit('/', 1)[-1]
        return iter([self._object(endpoint, item) for item in self.sublists.get(path, [])])

    def request(self, method, path, params=None, json_body=None, expect=None):
        if method == 'POST' and path in self.sublists:
            self.calls.append((method, path, json_body))
            if json_body.get('disassociate'):
                self.sublists[path].remove(json_body['id'])
            else:
                self.sublists[path].append(json_body['id'])
            return None
        return super().request(method, path, params, json_body, expect)


def objects(**more):
    made = dict(copy.deepcopy(OBJECTS), instance_groups=GROUPS, labels=LABELS,
                workflow_job_templates=[{'id': 12, 'name': 'wf', 'organization': 1}], workflow_job_template_nodes=[],
                # the gateway's routing objects (the fake keeps them under the endpoints' own names: GatewayLayout)
                http_ports=[{'id': 21, 'name': 'p1'}], service_clusters=[{'id': 22, 'name': 'c1'}],
                service_types=[{'id': 23, 'name': 't1'}], authenticators=[{'id': 24, 'name': 'a1'}],
                authenticator_users=[{'id': 31, 'uid': 'u1', 'provider': 'a1'}])
    made.update(more)
    return made


def run(module, params, client, check_mode=False, diff=True):
    validated = ArgumentSpecValidator(module.SPEC.argument_spec).validate(
        dict(params, service_url='https://service.invalid', service_token='t'))
    assert not validated.error_messages, validated.error_messages
    api = ApiTask(module.SPEC, validated.validated_parameters, check_mode=check_mode, diff=diff)
    api._client = client
    return api.execute(module.run), api


def test_an_ordered_sublist_keeps_what_is_in_place_and_puts_the_rest_back_in_order():
    client = SublistClient(objects(), {'job_templates/9/instance_groups': [7, 8, 10]})
    result, _api = run(job_template, dict(name='deploy', instance_groups=['default', 'edge', 'gpu']), client)
    assert not result.get('failed'), result
    path = 'job_templates/9/instance_groups'
    assert client.writes == [('POST', path, {'id': 8, 'disassociate': True}),
                             ('POST', path, {'id': 10, 'disassociate': True}),
                             ('POST', path, {'id': 10}), ('POST', path, {'id': 8})]
    assert client.sublists[path] == [7, 10, 8]
    # The diff names the groups, in their order.
    assert result['diff'] == {'before': {'instance_groups': ['default', 'gpu', 'edge']},
                              'after': {'instance_groups': ['default', 'edge', 'gpu']}}
    assert result['changed']


def test_an_unordered_sublist_adds_and_removes_only_the_difference_and_diffs_sorted_names():
    client = SublistClient(objects(), {'job_templates/9/labels': [6]})
    result, _api = run(job_template, dict(name='deploy', labels=['l2', 'l1']), client)
    assert client.writes == [('POST', 'job_templates/9/labels', {'id': 11})]
    assert result['diff'] == {'before': {'labels': ['l1']}, 'after': {'labels': ['l1', 'l2']}}


def test_a_sublist_already_right_is_one_read_and_no_change():
    client = SublistClient(objects(), {'job_templates/9/instance_groups': [8, 7]})
    result, _api = run(job_template, dict(name='deploy', instance_groups=['gpu', 'default']), client)
    assert client.writes == [] and not result['changed'] and 'diff' not in result


def test_check_mode_plans_the_same_change_and_sends_no_write():
    client = SublistClient(objects(), {'job_templates/9/instance_groups': [7, 8, 10]})
    result, _api = run(job_template, dict(name='deploy', description='new', instance_groups=['edge']), client,
                       check_mode=True)
    assert client.writes == []
    assert result['changed']
    assert result['diff'] == {
        'before': {'name': 'deploy', 'description': 'first', 'instance_groups': ['default', 'gpu', 'edge']},
        'after': {'name': 'deploy', 'description': 'new', 'instance_groups': ['edge']}}
    assert result['end_state']['description'] == 'new' and result['existing']['description'] == 'first'


def test_a_bad_name_in_a_list_fails_before_any_write_even_after_a_field_change():
    client = SublistClient(objects(), {'job_templates/9/instance_groups': [7]})
    result, _api = run(job_template, dict(name='deploy', description='new', instance_groups=['default', 'nope']),
                       client)
    assert result['failed'] and 'nope' in result['msg'] and not result['changed']
    assert client.writes == []


def test_a_new_users_password_is_masked_in_the_diff_and_left_out_of_the_result():
    client = SublistClient(objects(users=[]), {})
    result, api = run(user, dict(username='ann', password='s3cret-value', email='ann@example.com'), client,
                      check_mode=True)
    assert not result.get('failed'), result
    assert result['diff']['after']['password'] == NO_LOG_PLACEHOLDER
    assert 'password' not in result['user']
    assert result['end_state']['password'] == NO_LOG_PLACEHOLDER
    assert 's3cret-value' not in repr(result)
    assert client.writes == []


def test_options_read_otherwise_than_given_leave_the_given_ones_alone():
    """project reads scm_type manual as '' and job_template reads credential into credentials; the
    options as given (what the task's invocation shows) stay as they were."""
    client = SublistClient(objects(projects=[]), {})
    given = dict(name='local', organization='Default', scm_type='manual', local_path='here')
    _result, api = run(project, given, client, check_mode=True)
    assert api.given['scm_type'] == 'manual' and api.params['scm_type'] == ''
    assert api.params['local_path'] == 'here'
    client = SublistClient(objects(), {'job_templates/9/credentials': []})
    _result, api = run(job_template, dict(name='deploy', credential='machine'), client, check_mode=True)
    assert api.given['credentials'] is None and api.params['credentials'] == ['machine']
    with pytest.raises(TypeError):
        api.params['name'] = 'other'    # a module cannot write the options
    with pytest.raises(TypeError):
        api.result['changed'] = False   # nor the result


def test_the_diff_merges_field_by_field_whatever_the_order_of_the_changes():
    def outcome(order):
        made = Outcome(diff_mode=True)
        for before, after in order:
            made.change(before, after, secret=('token', 'inputs.password'))
        return made.result()

    changes = [({'description': 'a'}, {'description': 'b'}),
               ({}, {'labels': ['x']}),
               ({'inputs': {'password': 'old', 'user': 'u'}}, {'inputs': {'password': 'new', 'user': 'v'}}),
               ({'token': 't1'}, {'token': 't2'})]
    first, second = outcome(changes), outcome(list(reversed(changes)))
    assert first == second
    assert first['diff']['after'] == {'description': 'b', 'labels': ['x'], 'token': NO_LOG_PLACEHOLDER,
                                      'inputs': {'password': NO_LOG_PLACEHOLDER, 'user': 'v'}}
    assert first['changed'] is True
    quiet = Outcome(diff_mode=False)
    quiet.change({'a': 1}, {'a': 2})
    assert quiet.result() == {'changed': True}
    with pytest.raises(ValueError):
        quiet.returns(changed=False)


def resource_modules():
    """(module name, module) for every module declared with a Resource."""
    import importlib
    from .module_runner import module_names
    found = []
    for name in module_names():
        module = importlib.import_module('ansible_collections.automation.service.plugins.modules.%s' % name)
        if getattr(module, 'RESOURCE', None) is not None and hasattr(module, 'run'):
            found.append((name, module))
    return found


# What a module needs besides its required options to get as far as its references.
EXTRA = {'schedule': {'unified_job_template': 'deploy', 'rrule': SCHEDULE_RULE},
         'workflow_job_template_node': {'unified_job_template': 'deploy', 'workflow_job_template': 'wf',
                                        'identifier': 'it-node'}}
# The object a module names when it makes none (an authenticator user is moved, never created): one that is there.
NAMED = {'authenticator_user': '31'}


def bad_reference_cases():
    cases = []
    for name, module in resource_modules():
        spec = module.SPEC.argument_spec
        required = dict((key, 'no-such-required') for key, option in spec.items()
                        if option.get('required') and option.get('type', 'str') == 'str')
        resource = module.RESOURCE
        good = {}   # what creating the object needs, named rightly
        for key in resource.required_on_create:
            if key in resource.references or key in resource.scope:
                endpoint = resource.references.get(key) or resource.scope[key]
                good[key] = objects()[endpoint][0]['name']
            elif spec[key].get('type') == 'int':
                good[key] = 8443
            else:
                good[key] = (spec[key].get('choices') or ['given'])[-1]
        for option in sorted(resource.references):
            if spec.get(option, {}).get('type', 'str') not in ('str', 'raw'):
                continue
            params = dict(required, **good)
            params.update(EXTRA.get(name, {}))
            params.update({resource.name: NAMED.get(name, 'it-new-object'), option: 'no-such-' + option})
            cases.append(pytest.param(module, params, option, id='%s-%s' % (name, option)))
    return cases


@pytest.mark.parametrize('module, params, option', bad_reference_cases())
def test_a_bad_reference_fails_clearly_and_writes_nothing(module, params, option):
    validated = ArgumentSpecValidator(module.SPEC.argument_spec, **module.SPEC.spec_kwargs).validate(
        dict(params, service_url='https://service.invalid', service_token='t'))
    assert not validated.error_messages, validated.error_messages
    client = SublistClient(objects(), {})
    api = ApiTask(module.SPEC, validated.validated_parameters)
    api._client = client
    result = api.execute(module.run)
    assert result.get('failed') and not result['changed'], result
    assert 'no-such-' in result['msg'] and ('not found' in result['msg'] or 'returned 0 items' in result['msg']
                                            or 'Could not find' in result['msg'] or 'Unable to find' in result['msg']), \
        result['msg']
    assert client.writes == []


def test_bad_references_are_tried_in_most_resource_modules():
    assert len(set(case.values[0] for case in bad_reference_cases())) >= 10
