"""Module_utils in a module zip like Ansible's: compiled at most once, then run
from the bytecode cache.

The zip is built here from the repository's own files, laid out as Ansible lays
out a module's payload, and imported by a fresh Python that counts how often
each file is compiled.
"""

import json
import os
import stat
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
PACKAGE = 'ansible_collections/automation/service/plugins/module_utils'

COUNT_COMPILES = r'''
import builtins, collections, json, sys
compiled = collections.Counter()
real_compile = builtins.compile
def counting_compile(source, filename, *args, **kwargs):
    compiled[str(filename).rsplit('/', 1)[-1]] += 1
    return real_compile(source, filename, *args, **kwargs)
builtins.compile = counting_compile
sys.path.insert(0, sys.argv[1])
from ansible_collections.automation.service.plugins.module_utils import _zip_import
if sys.argv[2] == 'with-finder':
    _zip_import.compile_once()
from ansible_collections.automation.service.plugins.module_utils import _errors
error = _errors.ConfigError('works')
print(json.dumps({'compiled': compiled['_errors.py'], 'file': _errors.__file__, 'message': str(error),
                  'code_file': _errors.ServiceError.__init__.__code__.co_filename,
                  'source': _errors.__loader__.get_source(_errors.__name__) is not None}))
'''


def make_payload(directory):
    os.makedirs(str(directory))
    path = os.path.join(str(directory), 'payload.zip')
    with zipfile.ZipFile(path, 'w') as archive:
        parts = PACKAGE.split('/')
        for depth in range(1, len(parts) + 1):
            archive.writestr('/'.join(parts[:depth]) + '/__init__.py', '')
        for name in ('_zip_import.py', '_private_dir.py', '_errors.py'):
            archive.write(os.path.join(ROOT, 'plugins', 'module_utils', name), PACKAGE + '/' + name)
    return path


def run(payload, cache, mode='with-finder'):
    env = {'PATH': os.environ.get('PATH', ''), 'SERVICE_CACHE_DIR': str(cache)}
    out = subprocess.run([sys.executable, '-c', COUNT_COMPILES, payload, mode],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def entries(cache):
    directory = cache / 'bytecode'
    return sorted(directory.iterdir()) if directory.is_dir() else []


def test_compiled_once_then_run_from_the_cache_under_the_new_path(tmp_path):
    cache = tmp_path / 'cache'
    first = run(make_payload(tmp_path / 'one'), cache)
    assert first['compiled'] == 1
    assert first['message'] == 'works' and first['source']
    stored = entries(cache)
    assert len(stored) == 1
    assert stat.S_IMODE(stored[0].stat().st_mode) == 0o600
    assert stat.S_IMODE((cache / 'bytecode').stat().st_mode) == 0o700

    # Another task: another zip at another path, the same source.
    payload = make_payload(tmp_path / 'two')
    second = run(payload, cache)
    assert second['compiled'] == 0
    assert second['file'] == second['code_file'] == payload + '/' + PACKAGE + '/_errors.py'


@pytest.mark.parametrize('spoil', ['corrupt', 'open to others', 'not code'])
def test_an_entry_that_cannot_be_trusted_is_compiled_again(tmp_path, spoil):
    cache = tmp_path / 'cache'
    payload = make_payload(tmp_path / 'one')
    run(payload, cache)
    entry = entries(cache)[0]
    if spoil == 'corrupt':
        entry.write_bytes(entry.read_bytes()[:20])
    elif spoil == 'open to others':
        entry.chmod(0o644)
    else:
        import marshal
        entry.write_bytes(marshal.dumps('print("not the module")'))
    again = run(payload, cache)
    assert again['compiled'] == 1 and again['message'] == 'works'


def test_an_unusable_cache_directory_only_means_compiling(tmp_path):
    blocker = tmp_path / 'file'
    blocker.write_text('not a directory')
    found = run(make_payload(tmp_path / 'one'), blocker)
    assert found['compiled'] == 1 and found['message'] == 'works'


def test_entries_of_old_versions_are_pruned_when_one_is_written(tmp_path):
    cache = tmp_path / 'cache'
    (cache / 'bytecode').mkdir(parents=True, mode=0o700)
    old = cache / 'bytecode' / ('0' * 40 + '.pyc')
    old.write_bytes(b'x')
    os.utime(old, (0, 0))
    run(make_payload(tmp_path / 'one'), cache)
    assert not old.exists() and len(entries(cache)) == 1


def test_without_the_finder_zipimport_compiles_twice(tmp_path):
    # The cost the finder removes (CPython gh-141276); if a Python fixes it,
    # this test says so.
    assert run(make_payload(tmp_path / 'one'), tmp_path / 'cache', 'without')['compiled'] == 2
