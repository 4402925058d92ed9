#!/usr/bin/env python3
"""Build the tree that ansible-test works on.

ansible-test wants the collection at ``ansible_collections/<namespace>/<name>/``.
This copies the collection's files there, fresh on every run, and prints the path.

The tree gets a git repository of its own (no commits), because ansible-test
lists the files to test with git when it finds a repository above the tree.

The files are those git knows (tracked, plus untracked files that are not
ignored, so that work in progress is tested too), minus the ``build_ignore``
patterns of ``galaxy.yml``: ansible-test checks what ``ansible-galaxy
collection build`` would ship. Without git, the working tree is walked instead.

Usage: mktree.py [--root REPO] [--dest DIR]
  --dest defaults to REPO/.run/ansible-test; the tree goes in DEST/ansible_collections/
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import shutil
import subprocess
import sys

import yaml

# Always left out, like ansible-galaxy's own defaults.
DEFAULT_IGNORE = [
    '.git',
    '*.pyc',
    '*.retry',
    '__pycache__',
    'tests/output',
    '*.tar.gz',
]


def list_files(root: str) -> list[str]:
    """Return the repository's files, relative to root."""
    try:
        out = subprocess.run(
            ['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
            cwd=root, check=True, capture_output=True,
        ).stdout.decode()
        files = [f for f in out.split('\0') if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in ('.git', '.venv', '.run')]
            for name in filenames:
                files.append(os.path.relpath(os.path.join(dirpath, name), root))
    # Deleted but still tracked files are skipped; so are symlinks to directories.
    return sorted({f for f in files if os.path.isfile(os.path.join(root, f))})


def ignored(path: str, patterns: list[str]) -> bool:
    """True when the path, or one of the directories holding it, matches a pattern."""
    parts = path.split('/')
    for i in range(1, len(parts) + 1):
        prefix = '/'.join(parts[:i])
        if any(fnmatch.fnmatch(prefix, p.rstrip('/')) for p in patterns):
            return True
    return False


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--root', default=os.path.dirname(os.path.dirname(here)))
    parser.add_argument('--dest', default=None)
    args = parser.parse_args()

    root = os.path.abspath(args.root)
    with open(os.path.join(root, 'galaxy.yml'), encoding='utf-8') as f:
        galaxy = yaml.safe_load(f)
    patterns = DEFAULT_IGNORE + list(galaxy.get('build_ignore') or [])

    dest_base = os.path.abspath(args.dest or os.path.join(root, '.run', 'ansible-test'))
    tree = os.path.join(dest_base, 'ansible_collections', galaxy['namespace'], galaxy['name'])
    if os.path.commonpath([root, tree]) == root and not ignored(os.path.relpath(tree, root), patterns):
        print(f'refusing to build the tree inside the collection: {tree}', file=sys.stderr)
        return 2

    if os.path.exists(tree):
        shutil.rmtree(tree)
    os.makedirs(tree)

    count = 0
    for rel in list_files(root):
        if ignored(rel, patterns):
            continue
        src = os.path.join(root, rel)
        dst = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
        count += 1

    # ansible-test looks for the version control root upwards from the tree, and
    # would find this repository, where .run is ignored: give the tree its own.
    subprocess.run(['git', 'init', '-q', tree], check=True)
    with open(os.path.join(tree, '.git', 'info', 'exclude'), 'a', encoding='utf-8') as f:
        f.write('/tests/output/\n__pycache__/\n*.pyc\n')

    print(f'{count} files copied to {tree}', file=sys.stderr)
    print(tree)
    return 0


if __name__ == '__main__':
    sys.exit(main())
