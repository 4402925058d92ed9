# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Load this collection's module_utils from Ansible's module zip without compiling
them on every task.

A module runs from a zip that Ansible builds for each task, without bytecode,
so each module_utils file it imports is compiled from source every time, and
Python's zipimport compiles it twice: once only to name the file while it
builds the module's spec, then again to run it (CPython gh-141276). The loader
below compiles a file at most once, and keeps the bytecode where Python keeps
it for a file on disk, in a cache: ``bytecode/`` in the collection's cache
directory (0700, files 0600, written atomically). An entry is named by the hash
of the source and the Python bytecode version, so it is never stale; entries
not written for 30 days are removed when a new one is written. When the
directory cannot be used, the file is compiled as before. (It is the
collection's cache, not Python's __pycache__: PYTHONDONTWRITEBYTECODE, which
many container images set, does not turn it off.)

It answers only for this package's modules and only when they come from a zip;
anywhere else (the controller, tests, an unpacked module) it stays out of the way.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import marshal
import os
import sys
import time
import types
import zipimport

from importlib.machinery import ModuleSpec, PathFinder
from importlib.util import MAGIC_NUMBER

from ansible_collections.automation.service.plugins.module_utils._private_dir import (
    NotPrivate, default_directory, private_directory, read_private, write_private,
)

PACKAGE = 'ansible_collections.automation.service.plugins.module_utils.'
MAX_AGE_SECONDS = 30 * 86400
# What bytecode depends on besides the source: the interpreter and its bytecode format.
CODE_VERSION = MAGIC_NUMBER + (sys.implementation.cache_tag or '').encode('ascii')
_DIRECTORY = []  # [the bytecode directory or None], once known

try:
    from _imp import _fix_co_filename
except ImportError:  # pragma: no cover - CPython has it
    def _fix_co_filename(code, path):
        return None


class ZipModuleFinder:
    """A meta path finder for this package's modules in a zip."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if not fullname.startswith(PACKAGE) or not path:
            return None
        importer = sys.path_importer_cache.get(path[0])
        if not isinstance(importer, zipimport.zipimporter):
            return None
        try:
            if importer.is_package(fullname):
                return None
        except zipimport.ZipImportError:
            return None  # (not in the zip: the usual finders say so)
        origin = '%s/%s.py' % (path[0], fullname.rpartition('.')[2])
        spec = ModuleSpec(fullname, ZipModuleLoader(importer, origin), origin=origin)
        spec.has_location = True
        return spec

    @staticmethod
    def invalidate_caches():
        pass


class ZipModuleLoader:
    """Runs one module of the zip from cached bytecode, or compiles it once."""

    def __init__(self, importer, origin):
        self.importer = importer
        self.origin = origin

    def create_module(self, spec):
        return None  # (the default module object)

    def exec_module(self, module):
        exec(self.get_code(module.__name__), module.__dict__)

    def get_source(self, fullname):
        return self.importer.get_source(fullname)

    def get_code(self, fullname):
        source = self.importer.get_data(self.origin).replace(b'\r\n', b'\n').replace(b'\r', b'\n')
        return cached_code(source, self.origin)


def cached_code(source, origin):
    """The code object of ``source`` (named ``origin``), from the cache when it holds it."""
    directory = bytecode_directory()
    digest = hashlib.sha256(CODE_VERSION + source)
    path = os.path.join(directory, digest.hexdigest()[:40] + '.pyc') if directory else None
    if path:
        try:
            data = read_private(path)
            code = marshal.loads(data) if data else None
        except (NotPrivate, ValueError, EOFError, TypeError):
            code = None
        if isinstance(code, types.CodeType):
            _fix_co_filename(code, origin)  # (as Python does for bytecode on disk)
            return code
    code = compile(source, origin, 'exec', dont_inherit=True)
    if path:
        try:
            write_private(path, marshal.dumps(code))
            prune(directory, keep=path)
        except OSError:
            pass
    return code


def bytecode_directory():
    """The cache's bytecode directory, or None when it cannot be used; checked
    once per process, not once per module loaded."""
    if not _DIRECTORY:
        base = default_directory()
        directory = os.path.join(base, 'bytecode')
        try:
            usable = private_directory(base) and private_directory(directory)
        except OSError:
            usable = False
        _DIRECTORY.append(directory if usable else None)
    return _DIRECTORY[0]


def prune(directory, keep):
    """Remove the entries not written for MAX_AGE_SECONDS (another version's)."""
    limit = time.time() - MAX_AGE_SECONDS
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        try:
            if path != keep and os.stat(path).st_mtime < limit:
                os.unlink(path)
        except OSError:
            pass


def compile_once():
    """Put the finder just before the path finder (once): built-in and frozen
    modules keep their precedence."""
    if ZipModuleFinder in sys.meta_path:
        return
    place = sys.meta_path.index(PathFinder) if PathFinder in sys.meta_path else len(sys.meta_path)
    sys.meta_path.insert(place, ZipModuleFinder)
