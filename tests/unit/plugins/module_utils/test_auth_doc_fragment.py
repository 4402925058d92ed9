"""The connection options are declared once, in _options.OPTIONS; the auth doc fragment that
documents them is checked against that declaration here."""

import re

import yaml

from ansible_collections.automation.service.plugins.doc_fragments.auth import ModuleDocFragment
from ansible_collections.automation.service.plugins.module_utils._options import AUTH_METHODS, DEFAULTS, OPTIONS

DOCUMENTED = yaml.safe_load(ModuleDocFragment.DOCUMENTATION)['options']
PLUGINS = yaml.safe_load(ModuleDocFragment.PLUGINS)['options']


def text(name):
    return ' '.join(DOCUMENTED[name]['description'])


def shown(value):
    """A default as the fragment writes it: V(true), V(10), V(auto)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_every_option_is_documented_and_nothing_else():
    assert sorted(DOCUMENTED) == sorted(OPTIONS)
    assert set(PLUGINS) <= set(OPTIONS)


def test_type_aliases_and_choices_are_the_declared_ones():
    for name, (kind, aliases, _envs, extra) in OPTIONS.items():
        doc = DOCUMENTED[name]
        assert doc['type'] == kind, name
        assert doc.get('aliases', []) == aliases, name
        assert doc.get('choices') == extra.get('choices'), name
    assert DOCUMENTED['service_auth']['choices'] == list(AUTH_METHODS)


def test_the_environment_variables_named_are_the_declared_ones_in_their_order():
    for name, (_kind, _aliases, envs, _extra) in OPTIONS.items():
        sentence = re.search(r'(?i:environment variables?) ((?:E\([A-Z_]+\)(?:, )?)+)', text(name))
        assert sentence, '%s: no "Environment variable(s) E(...)" sentence' % name
        assert re.findall(r'E\(([A-Z_]+)\)', sentence.group(1)) == envs, name


def test_the_defaults_named_are_the_declared_ones():
    for name, default in DEFAULTS.items():
        value = shown(default)
        assert 'Defaults to V(%s)' % value in text(name) or 'V(%s) (the default)' % value in text(name), name


def test_plugins_read_the_declared_environment_variables():
    for name, (_kind, _aliases, envs, _extra) in OPTIONS.items():
        assert [entry['name'] for entry in PLUGINS.get(name, {}).get('env', [])] == envs, name
