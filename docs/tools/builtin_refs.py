"""Define the labels of ansible.builtin plugin pages that the generated RST refers to.

    python docs/tools/builtin_refs.py RST_DIR >> RST_DIR/ansible_references.rst

The plugin pages refer to ansible-core's plugins by label
(``ansible_collections.ansible.builtin.debug_module``); an online build resolves
them through intersphinx. This prints one RST section per such label that no
page defines, each linking the published page, so the offline build resolves them.
"""

from __future__ import annotations

import os
import re
import sys

REF = re.compile(r':ref:`(?:[^`<]*<)?(ansible_collections\.ansible\.builtin\.(\w+?)_(\w+))>?`')
LABEL = re.compile(r'^\.\. _([^:]+):\s*$', re.M)
ENVREF = re.compile(r':envvar:`([A-Z0-9_\\]+)`')
ENVVAR = re.compile(r'^\s*\.\. envvar:: ([A-Z0-9_\\]+)\s*$', re.M)
CONFIG_URL = 'https://docs.ansible.com/ansible/latest/reference_appendices/config.html'
URL = 'https://docs.ansible.com/ansible/latest/collections/ansible/builtin/%s_%s.html'


def main():
    root = sys.argv[1]
    refs, defined, envrefs, envdefined = {}, set(), set(), set()
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            if name.endswith('.rst'):
                with open(os.path.join(dirpath, name), encoding='utf-8') as f:
                    text = f.read()
                defined.update(LABEL.findall(text))
                envrefs.update(name.replace('\\', '') for name in ENVREF.findall(text))
                envdefined.update(name.replace('\\', '') for name in ENVVAR.findall(text))
                for label, plugin, kind in REF.findall(text):
                    refs[label] = (plugin, kind)
    for label in sorted(set(refs) - defined):
        plugin, kind = refs[label]
        title = 'ansible.builtin.%s %s' % (plugin, kind)
        print('\n.. _%s:\n\n%s\n%s\n\nSee `%s <%s>`__ in the Ansible documentation.'
              % (label, title, '-' * len(title), title, URL % (plugin, kind)))
    # ansible-core's environment variables that options of ours take from its
    # fragments (the inventory cache's), which no generated page defines.
    missing = sorted(envrefs - envdefined)
    if missing:
        print('\nansible-core environment variables\n----------------------------------\n')
        for name in missing:
            print('.. envvar:: %s\n\n   An ansible-core setting: see `Ansible configuration settings <%s>`__.\n'
                  % (name, CONFIG_URL))
    return 0


if __name__ == '__main__':
    sys.exit(main())
