"""The module_utils compile once, not twice, inside a module zip like Ansible's.

The zip is built here from the repository's own files, laid out as Ansible lays
out a module's payload, and imported by a fresh Python that counts how often
each file is compiled.
"""

import json
import os
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
                  'source': _errors.__loader__.get_source(_errors.__name__) is not None}))
'''


@pytest.fixture(scope='module')
def payload(tmp_path_factory):
    path = tmp_path_factory.mktemp('payload') / 'payload.zip'
    with zipfile.ZipFile(path, 'w') as archive:
        parts = PACKAGE.split('/')
        for depth in range(1, len(parts) + 1):
            archive.writestr('/'.join(parts[:depth]) + '/__init__.py', '')
        for name in ('_zip_import.py', '_errors.py'):
            archive.write(os.path.join(ROOT, 'plugins', 'module_utils', name), PACKAGE + '/' + name)
    return str(path)


def run(payload, mode):
    out = subprocess.run([sys.executable, '-c', COUNT_COMPILES, payload, mode],
                         capture_output=True, text=True, check=True, env={'PATH': os.environ.get('PATH', '')})
    return json.loads(out.stdout)


@pytest.mark.skipif(sys.version_info < (3, 10), reason='zipimport loads by spec from Python 3.10 on')
def test_a_module_util_from_the_zip_is_compiled_once_with_the_finder(payload):
    found = run(payload, 'with-finder')
    assert found['compiled'] == 1
    assert found['file'] == payload + '/' + PACKAGE + '/_errors.py'
    assert found['message'] == 'works' and found['source']


def test_without_the_finder_zipimport_compiles_it_twice(payload):
    # The cost the finder removes (CPython gh-141276); if a Python fixes it,
    # this test says so and the finder can go.
    assert run(payload, 'without')['compiled'] == 2
