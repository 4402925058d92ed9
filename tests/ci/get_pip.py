#!/usr/bin/env python3
"""Offline stand-in for the pip bootstrap script (get-pip.py) that ansible-test uses.

ansible-test creates its sanity-test virtual environments with ``python -m venv
--without-pip`` and then puts pip into them by running a ``get-pip.py`` script.
It looks for that script in ``~/.ansible/test/cache/get_pip_<version>.py`` and
downloads it from ci-files.testing.ansible.com only when it is missing there.

This file takes its place:

* ``get_pip.py --install [--python PY]`` copies this file to the cache path for
  the pip version that the ansible-test of PY (default: this interpreter) asks
  for, unless a script is already there.
* Run by ansible-test as ``PY get_pip_X.py [pip options] pip==X [--no-setuptools]
  [--no-wheel]``, it installs pip from the wheel that ships with Python
  (``ensurepip``, no network), then installs the requested packages
  (``pip==X``) with that pip from the package index, and removes setuptools and
  wheel when asked to, as get-pip.py does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

MARKER = 'automation.service offline pip bootstrap'  # identifies a copy of this file


def install(python: str) -> int:
    """Copy this script to the place ansible-test looks for the bootstrap."""
    code = (
        'import sys\n'
        'from types import SimpleNamespace\n'
        'from ansible_test._internal.python_requirements import get_venv_packages\n'
        "version = '%d.%d' % sys.version_info[:2]\n"
        "print(get_venv_packages(SimpleNamespace(version=version))['pip'])\n"
    )
    version = subprocess.run([python, '-c', code], check=True, capture_output=True, text=True).stdout.strip()
    cache = os.path.expanduser('~/.ansible/test/cache/get_pip_%s.py' % version.replace('.', '_'))
    if os.path.exists(cache):
        with open(cache, encoding='utf-8', errors='replace') as f:
            ours = MARKER in f.read()
        if not ours:
            print('pip %s bootstrap already cached: %s' % (version, cache), file=sys.stderr)
            return 0
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    shutil.copyfile(os.path.abspath(__file__), cache)
    print('pip %s bootstrap (offline stand-in) installed: %s' % (version, cache), file=sys.stderr)
    return 0


def bootstrap(argv: list[str]) -> int:
    """Do what get-pip.py does, without downloading it."""
    flags = {'--no-setuptools', '--no-wheel', '--no-pip'}
    options = [a for a in argv if a not in flags]

    subprocess.run([sys.executable, '-m', 'ensurepip', '--upgrade', '--default-pip'], check=True,
                   stdout=subprocess.DEVNULL)

    if any(not a.startswith('-') for a in options):
        subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet'] + options, check=True)

    remove = [name for flag, name in (('--no-setuptools', 'setuptools'), ('--no-wheel', 'wheel')) if flag in argv]
    if remove:
        subprocess.run([sys.executable, '-m', 'pip', 'uninstall', '--yes', '--quiet', '--disable-pip-version-check']
                       + remove, check=False, stderr=subprocess.DEVNULL)
    return 0


def main() -> int:
    argv = sys.argv[1:]
    if argv and argv[0] == '--install':
        python = argv[2] if len(argv) > 2 and argv[1] == '--python' else sys.executable
        return install(python)
    return bootstrap(argv)


if __name__ == '__main__':
    sys.exit(main())
