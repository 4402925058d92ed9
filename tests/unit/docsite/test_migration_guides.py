"""The migration guide from ansible.platform (docs/docsite/rst/guide_migrate_from_platform.rst) has a row for
every module and lookup of the ansible.platform release it compares with, and each row names a module or
plugin this collection has.

ansible.platform's names are those recorded in tests/live/compat_names.json (ansible.platform 2.6.20250924),
the list the redirect collections of `make compat` are made from (tests/ci/units.sh copies that file for
ansible-test units)."""

import json
import os
import re

import pytest
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
# The collection's root: the repository, or the copy ansible-test units runs in (the folder with galaxy.yml).
ROOT = HERE
while not os.path.isfile(os.path.join(ROOT, 'galaxy.yml')):
    ROOT = os.path.dirname(ROOT)
GUIDES = os.path.join(ROOT, 'docs', 'docsite', 'rst')
PLATFORM_GUIDE = os.path.join(GUIDES, 'guide_migrate_from_platform.rst')
NAMES = os.path.join(ROOT, 'tests', 'live', 'compat_names.json')
RELEASE = '2.6.20250924'
COMMIT = '7ea604569395a5b8e89097ffd5dcc94c4f16ecaa'


def platform_names():
    with open(NAMES) as handle:
        return json.load(handle)['ansible.platform']


def table_rows(path):
    """The rows of the first list-table of an RST page, each a list of its cells' text."""
    with open(path) as handle:
        lines = handle.read().split('\n')
    start = next(index for index, line in enumerate(lines) if line.strip() == '.. list-table::')
    rows, cell = [], None
    for line in lines[start + 1:]:
        if line and not line.startswith(' '):
            break  # the table ends at the next unindented line
        match = re.match(r'^   (\*| ) - (.*)$', line)
        if match:
            if match.group(1) == '*':
                rows.append([])
            cell = [match.group(2)]
            rows[-1].append(cell)
        elif cell is not None and line.startswith('       '):
            cell.append(line.strip())
    return [[' '.join(cell) for cell in row] for row in rows]


def ours(kind):
    """The names of this collection's plugins of one kind: its files and the names meta/runtime.yml routes."""
    folder = os.path.join(ROOT, 'plugins', kind)
    names = set(name[:-3] for name in os.listdir(folder) if name.endswith('.py') and name != '__init__.py')
    with open(os.path.join(ROOT, 'meta', 'runtime.yml')) as handle:
        routing = (yaml.safe_load(handle) or {}).get('plugin_routing') or {}
    return names | set(routing.get(kind) or {})


ROWS = table_rows(PLATFORM_GUIDE)


def row_of(first_cell):
    found = [row for row in ROWS if row[0] == first_cell]
    assert len(found) == 1, '%s: %d rows whose first column is %s, expected 1' % (PLATFORM_GUIDE, len(found), first_cell)
    return found[0]


def test_the_recorded_names_are_those_of_the_release_the_guide_names():
    entry = platform_names()
    assert RELEASE in entry['source'] and COMMIT in entry['source']
    with open(PLATFORM_GUIDE) as handle:
        text = handle.read()
    assert RELEASE in text and COMMIT in text


def test_the_table_has_three_columns():
    assert ROWS and all(len(row) == 3 for row in ROWS), [row for row in ROWS if len(row) != 3]
    assert ROWS[0] == ['ansible.platform', 'automation.service', 'Differences']


@pytest.mark.parametrize('name', platform_names()['modules'])
def test_every_module_of_ansible_platform_has_a_row_naming_a_module_of_ours(name):
    row = row_of('``ansible.platform.%s``' % name)
    named = re.findall(r'``automation\.service\.(\w+)``', row[1])
    assert named, 'the row of ansible.platform.%s names no module of ours: %r' % (name, row[1])
    missing = [module for module in named if not os.path.isfile(os.path.join(ROOT, 'plugins', 'modules', module + '.py'))]
    assert not missing, 'the row of ansible.platform.%s names modules that do not exist: %s' % (name, missing)
    assert row[2].strip(), 'the row of ansible.platform.%s says nothing of the differences' % name


@pytest.mark.parametrize('name', platform_names()['lookup'])
def test_every_lookup_of_ansible_platform_has_a_row_naming_a_lookup_of_ours(name):
    row = row_of('``ansible.platform.%s`` lookup' % name)
    named = re.findall(r'``automation\.service\.(\w+)``', row[1])
    assert named and set(named) <= ours('lookup'), row[1]
    assert name in ours('lookup'), 'meta/runtime.yml does not route %s' % name


def test_the_action_group_has_a_row_and_exists():
    with open(os.path.join(ROOT, 'meta', 'runtime.yml')) as handle:
        groups = yaml.safe_load(handle)['action_groups']
    for group in platform_names()['action_groups']:
        row = row_of('``module_defaults: group/ansible.platform.%s``' % group)
        assert '``module_defaults: group/automation.service.%s``' % group in row[1]
        assert set(platform_names()['action_groups'][group]) <= set(groups[group])


def test_every_module_named_in_the_table_exists():
    modules = set(name[:-3] for name in os.listdir(os.path.join(ROOT, 'plugins', 'modules')))
    for row in ROWS[1:]:
        if 'lookup' in row[1] or 'module_defaults' in row[1]:
            continue
        for module in re.findall(r'``automation\.service\.(\w+)``', row[1]):
            assert module in modules, row


@pytest.mark.parametrize('page', ['guide_migrate_from_platform', 'guide_migrate_from_controller'])
def test_the_guide_is_in_the_guides_list_and_linked_from_the_awx_guide(page):
    with open(os.path.join(ROOT, 'docs', 'docsite', 'extra-docs.yml')) as handle:
        sections = yaml.safe_load(handle)['sections']
    assert page in [entry for section in sections for entry in section['toctree']]
    with open(os.path.join(GUIDES, 'guide_migrate_from_awx.rst')) as handle:
        assert 'ansible_collections.automation.service.docsite.%s>' % page in handle.read()
