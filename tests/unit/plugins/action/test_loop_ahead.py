"""What the look-ahead of a loop's items (plugin_utils/_loop_ahead) takes as safe: the variables of an item as
Ansible sets them, omit, and the templates that name what changes from item to item. The look-ahead itself runs
under real ansible-playbook against the reference service (tests/live/test_loop_bulk.py), on every ansible-core
of the matrix."""

from types import SimpleNamespace

import pytest

from ansible_collections.automation.service.plugins.plugin_utils import _loop_ahead


def control(**fields):
    values = dict(loop_var='item', index_var=None, extended=False, extended_allitems=True)
    values.update(fields)
    return SimpleNamespace(**values)


def test_an_items_variables_are_set_as_ansible_sets_them():
    items = ['a', 'b', 'c']
    variables = _loop_ahead.loop_vars({'x': 1}, control(loop_var='host', index_var='i', extended=True), items, 1)
    assert variables['host'] == 'b' and variables['i'] == 1 and variables['x'] == 1
    assert variables['ansible_loop_var'] == 'host' and variables['ansible_index_var'] == 'i'
    assert variables['ansible_loop'] == {'index': 2, 'index0': 1, 'first': False, 'last': False, 'length': 3,
                                         'revindex': 2, 'revindex0': 1, 'allitems': items, 'nextitem': 'c',
                                         'previtem': 'a'}
    last = _loop_ahead.loop_vars({}, control(extended=True, extended_allitems=False), items, 2)['ansible_loop']
    assert 'nextitem' not in last and 'allitems' not in last and last['last']
    assert 'ansible_loop' not in _loop_ahead.loop_vars({}, control(), items, 0)


def test_omit_leaves_out_what_it_stands_for():
    omit = '__omit_place_holder__abc'
    args = {'name': 'a', 'description': omit, 'variables': {'k': omit, 'j': 1}}
    assert _loop_ahead.without_omit(args, omit) == {'name': 'a', 'variables': {'j': 1}}
    assert _loop_ahead.without_omit(args, None) is args


@pytest.mark.parametrize('args, when, varies', [
    ({'name': '{{ item }}', 'description': 'made by {{ item }}'}, [], False),   # text around templates
    ({'name': '{{ item }}', 'description': '{{ made.results | length }}'}, [], True),
    ({'name': '{{ item }}'}, ['made is defined'], True),
    ({'name': '{{ item }}'}, ["item != 'made'"], True),         # a bare when: every word counts
    ({'name': '{{ _task.loop_result }}'}, [], True),
    ({'name': '{{ made_here }}'}, [], False),                  # another name
])
def test_templates_that_name_what_changes_between_items(args, when, varies):
    assert _loop_ahead.names_what_varies(args, [], when, ['made', '_task']) is varies


def test_the_task_as_the_play_holds_it():
    original = SimpleNamespace(_uuid='u1')
    other = SimpleNamespace(_uuid='u2')
    block = SimpleNamespace(block=[other, original], rescue=[], always=None)
    copy = SimpleNamespace(_uuid='u1', _parent=block)
    assert _loop_ahead.original_task(copy) is original
    with pytest.raises(_loop_ahead.Unsure):
        _loop_ahead.original_task(SimpleNamespace(_uuid='u3', _parent=block))


@pytest.mark.parametrize('loop, args, when, runs', [
    ('{{ names }}', {'name': '{{ item }}'}, [], False),
    ("{{ query('inventory_hostnames', 'all') }}", {'name': '{{ item }}'}, [], True),
    ("{{ lookup('pipe', 'ls') | split }}", {'name': '{{ item }}'}, [], True),
    ('{{ names }}', {'name': '{{ item }}', 'variables': {'pw': "{{ lookup('password', '/dev/null') }}"}}, [], True),
    ('{{ names }}', {'name': '{{ item }}'}, ["q('env', 'X')"], True),
    ('{{ names }}', {'name': '{{ item }}', 'description': 'a lookup(of words) in text'}, [], False),
])
def test_templates_that_would_run_a_lookup_again(loop, args, when, runs):
    assert _loop_ahead.runs_a_lookup(loop, args, [], when) is runs
