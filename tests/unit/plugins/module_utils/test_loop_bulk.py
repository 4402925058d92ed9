"""The rule of hosts created by a loop in bulk (_loop_bulk): which items a batch may take, and what a refusal
names. The requests themselves are counted on the reference service (tests/live/test_loop_bulk.py)."""

import pytest

from ansible_collections.automation.service.plugins.module_utils import _loop_bulk


def host(**options):
    params = {'name': 'web01', 'inventory': 'Production', 'state': 'present', 'new_name': None,
              'description': None, 'enabled': None, 'variables': None}
    params.update(options)
    return params


@pytest.mark.parametrize('options', [
    {}, {'state': 'exists'}, {'description': 'x', 'enabled': False, 'variables': {'a': 1}}, {'inventory': '12'},
    {'name': 'web01.example.com'},
])
def test_a_plain_create_may_go_into_a_batch(options):
    assert _loop_bulk.eligible(host(**options)) is None


@pytest.mark.parametrize('options, why', [
    ({'state': 'absent'}, 'state absent'),
    ({'new_name': 'web02'}, 'new_name given'),
    ({'name': '42'}, 'a name the service reads otherwise'),          # digits also name an id
    ({'name': 'web01:2222'}, 'a name the service reads otherwise'),  # the service splits host:port
    ({'name': 'web01++Production++Default'}, 'a name the service reads otherwise'),
    ({'name': ' web01'}, 'no plain name'),
    ({'name': ''}, 'no plain name'),
    ({'inventory': ''}, 'no plain inventory'),
    ({'inventory': 'Production++Default'}, 'no plain inventory'),
    ({'variables': 'a: 1'}, 'variables not a mapping'),
])
def test_anything_else_is_left_to_the_items_own_write(options, why):
    assert _loop_bulk.eligible(host(**options)) == why


def test_batches_keep_the_order():
    assert _loop_bulk.batches(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert _loop_bulk.batches([], 3) == []


def test_a_refusal_names_its_items_by_index():
    # DRF as the reference service runs it: a dict keyed by index
    detail = {'hosts': {'4': {'name': ['Ensure this field has no more than 512 characters.']}}}
    named, whole = _loop_bulk.refused_items(detail, 10)
    assert named == {4: {'name': ['Ensure this field has no more than 512 characters.']}} and whole is None
    assert _loop_bulk.reason(named[4]) == 'name: Ensure this field has no more than 512 characters.'
    # AWX 24.6.1's DRF: a list with an entry per item, empty for the items without error
    named, whole = _loop_bulk.refused_items({'hosts': [{}, {'name': ['bad']}, {}]}, 3)
    assert named == {1: {'name': ['bad']}} and whole is None


def test_a_refusal_of_the_whole_batch_names_no_item():
    named, whole = _loop_bulk.refused_items({'non_field_errors': ['Number of hosts exceeds system setting '
                                                                  'BULK_HOST_MAX_CREATE']}, 10)
    assert named == {} and 'BULK_HOST_MAX_CREATE' in _loop_bulk.reason(whole)
    named, whole = _loop_bulk.refused_items({'detail': 'You have already reached the maximum number of 5 hosts'}, 3)
    assert named == {} and 'maximum number' in _loop_bulk.reason(whole)
    named, whole = _loop_bulk.refused_items(['Hostnames must be unique'], 3)
    assert named == {} and whole == ['Hostnames must be unique']
    # an index past the batch is not one of its items
    named, whole = _loop_bulk.refused_items({'hosts': {'12': {'name': ['bad']}}}, 3)
    assert named == {}


def test_each_name_is_reported_by_one_item_only():
    bulk = _loop_bulk.LoopBulk()
    bulk.made['web01'] = {'id': 1, 'name': 'web01'}
    assert bulk.take('web01') == {'id': 1, 'name': 'web01'}
    assert bulk.take('web01') is None       # a later item of the same name finds it, unchanged
    assert bulk.take('web02') is None
