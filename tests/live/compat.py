#!/usr/bin/env python
"""Generate the redirect collections awx.awx, ansible.controller, ansible.platform, ansible.eda and ansible.hub (make compat).

Each is a galaxy.yml, a README.md and a meta/runtime.yml whose plugin_routing sends every module, lookup and
inventory plugin of the collection it stands for to automation.service's plugin of the same
name, where this collection has one: a plugin file of its own or a name its meta/runtime.yml routes. ansible.eda's
names clash with the controller's (credential, project, user...), so an entry of compat_names.json may give a
``prefix`` its names take here (ansible.eda's ``credential`` is ``automation.service.eda_credential``) and the
names it ``renamed`` itself (its ``activation`` is its ``rulebook_activation``: the redirect goes straight to ours and
keeps ansible.eda's deprecation). ansible.hub's names clash with none here and take no prefix. The names each
collection has, and its action groups, are recorded in compat_names.json beside this file (awx.awx 24.6.1;
ansible.platform 2.6.20250924; ansible.eda 2.13.0; ansible.hub 1.0.0); a name this collection lacks gets no redirect,
so a task naming it fails as it would with neither installed.
The collections are never published: they are made so that roles which name those collections (as
infra.aap_configuration's do) run against automation.service unchanged.

    python tests/live/compat.py [--dest .run/compat]    # make compat; the live test test_compat.py imports it
"""

import argparse
import json
import os
import shutil
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
# The collection's root: the repository, or the copy ansible-test units runs in (tests/live is tests/unit/live there).
ROOT = next(path for path in (os.path.dirname(os.path.dirname(HERE)), os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
            if os.path.isfile(os.path.join(path, 'galaxy.yml')))
NAMES = os.path.join(HERE, 'compat_names.json')
TARGET = 'automation.service'
KINDS = ('modules', 'lookup', 'inventory')

# Names this collection has under the same name but for another object: no redirect, so that a role does not
# change the wrong thing without a word. (None today: ansible.platform's settings, the gateway's, are written at the
# gateway by automation.service.settings, which writes each setting where the platform keeps it.)
NOT_REDIRECTED = {}


def load_names():
    with open(NAMES) as handle:
        names = json.load(handle)
    for collection, entry in names.items():
        if 'same_as' in entry:
            names[collection] = dict(names[entry['same_as']], source=names[entry['same_as']]['source'])
    return names


def ours():
    """The plugin names of automation.service, by kind: its files and the names its runtime.yml routes."""
    with open(os.path.join(ROOT, 'meta', 'runtime.yml')) as handle:
        routing = (yaml.safe_load(handle) or {}).get('plugin_routing') or {}
    have = {}
    for kind in KINDS:
        folder = os.path.join(ROOT, 'plugins', kind)
        files = set(name[:-3] for name in os.listdir(folder) if name.endswith('.py') and name != '__init__.py')
        have[kind] = files | set(routing.get(kind) or {})
    return have


def galaxy():
    with open(os.path.join(ROOT, 'galaxy.yml')) as handle:
        return yaml.safe_load(handle)


def target(entry, name):
    """The name here of the plugin ``name`` of the collection ``entry`` describes."""
    renamed = (entry.get('renamed') or {}).get(name) or {}
    return entry.get('prefix', '') + renamed.get('name', name)


def plan(names, have):
    """{collection: (runtime.yml data, {(kind, name): reason not redirected})}"""
    result = {}
    for collection, entry in sorted(names.items()):
        skipped = dict(NOT_REDIRECTED.get(collection, {}))
        routing = dict((kind, {}) for kind in KINDS)
        for kind in KINDS:
            for name in entry[kind]:
                if (kind, name) in skipped:
                    continue
                ours_ = target(entry, name)
                if ours_ not in have[kind]:
                    skipped[(kind, name)] = '%s has no %s plugin %s' % (TARGET, kind.rstrip('s'), ours_)
                    continue
                routing[kind][name] = {'redirect': '%s.%s' % (TARGET, ours_)}
                renamed = (entry.get('renamed') or {}).get(name)
                if renamed:
                    # As the collection itself says when the old name is used (our words, its version).
                    routing[kind][name]['deprecation'] = {
                        'removal_version': renamed['removal_version'],
                        'warning_text': '%s has been renamed to %s; name that one in your tasks.'
                                        % (name, renamed['name'])}
                # No action redirect: the module it goes to takes its action plugin from automation.service's own
                # routing (action_plugin). A redirect to that plugin would make it the task's action, and
                # ansible-core 2.19 and later look module_defaults up by the action's name: group/<collection>.<group>
                # would then reach none of these modules.
        redirected = set(routing['modules'])
        groups = dict((group, [name for name in members if name in redirected])
                      for group, members in entry['action_groups'].items())
        runtime = {
            'requires_ansible': '>=2.16.0',
            'action_groups': groups,
            'plugin_routing': dict((kind, routes) for kind, routes in routing.items() if routes),
        }
        result[collection] = (runtime, skipped)
    return result


def readme(collection, entry, skipped):
    prefix = entry.get('prefix')
    lines = [
        '# %s (redirects to %s)' % (collection, TARGET),
        '',
        'Generated by `make compat` (tests/live/compat.py); never published. Its meta/runtime.yml sends every '
        'module, lookup and inventory plugin of %s (names as in %s) to %s\'s plugin of the same name%s.'
        % (collection, entry['source'], TARGET, ' with the prefix `%s`' % prefix if prefix else ''),
        '',
    ]
    for name, renamed in sorted((entry.get('renamed') or {}).items()):
        lines.append('`%s` (%s\'s old name of `%s`) goes to `%s.%s`, with its deprecation.'
                     % (name, collection, renamed['name'], TARGET, target(entry, name)))
        lines.append('')
    if entry.get('note'):
        lines.extend([entry['note'], ''])
    if skipped:
        lines.append('Not redirected (a task naming one fails: no such plugin):')
        lines.append('')
        lines.extend('- %s `%s`: %s' % (kind, name, reason) for (kind, name), reason in sorted(skipped.items()))
        lines.append('')
    return '\n'.join(lines)


def write(dest, names=None):
    names = names or load_names()
    version = galaxy()['version']
    made = plan(names, ours())
    for collection, (runtime, skipped) in made.items():
        namespace, name = collection.split('.')
        path = os.path.join(dest, 'ansible_collections', namespace, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        os.makedirs(os.path.join(path, 'meta'))
        info = {
            'namespace': namespace, 'name': name, 'version': version, 'readme': 'README.md',
            'authors': ['automation.service contributors'], 'license': ['GPL-3.0-or-later'],
            'description': 'Redirects to %s (generated by make compat; never published)' % TARGET,
            'dependencies': {}, 'repository': galaxy().get('repository'),
        }
        with open(os.path.join(path, 'galaxy.yml'), 'w') as handle:
            yaml.safe_dump(info, handle, default_flow_style=False, sort_keys=False)
        with open(os.path.join(path, 'meta', 'runtime.yml'), 'w') as handle:
            handle.write('---\n')
            yaml.safe_dump(runtime, handle, default_flow_style=False, sort_keys=True)
        with open(os.path.join(path, 'README.md'), 'w') as handle:
            handle.write(readme(collection, names[collection], skipped))
    return made


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--dest', default=os.path.join(ROOT, '.run', 'compat'))
    args = parser.parse_args(argv)
    made = write(args.dest)
    for collection, (runtime, skipped) in sorted(made.items()):
        counts = ', '.join('%d %s' % (len(runtime['plugin_routing'].get(kind, {})), kind) for kind in KINDS)
        print('%s: %s redirected; not: %s' % (collection, counts,
                                            ', '.join('%s %s' % key for key in sorted(skipped)) or 'none'))
    print('ANSIBLE_COLLECTIONS_PATH=%s:<the path that holds automation.service>' % os.path.abspath(args.dest))
    return 0


if __name__ == '__main__':
    sys.exit(main())
