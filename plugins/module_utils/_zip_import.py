# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Compile each of this collection's module_utils once inside Ansible's module zip.

A module runs from a zip that Ansible builds for every task, without bytecode,
so every module_utils file it imports is compiled from source on every task.
Python's zipimport compiles each one twice: once only to name the file while it
builds the module's spec, then again to run it (CPython gh-141276). The finder
below builds the spec itself, naming the file from the package's path, and
leaves loading to zipimport, which then compiles once. It answers only for
this package's modules and only when they come from a zip; anywhere else
(the controller, tests, an unpacked module) it stays out of the way.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import sys
import zipimport

from importlib.machinery import ModuleSpec, PathFinder

PACKAGE = 'ansible_collections.automation.service.plugins.module_utils.'


class CompileOnceFinder:
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
        spec = ModuleSpec(fullname, importer, origin='%s/%s.py' % (path[0], fullname.rpartition('.')[2]))
        spec.has_location = True
        return spec

    @staticmethod
    def invalidate_caches():
        pass


def compile_once():
    """Put the finder just before the path finder (once): built-in and frozen
    modules keep their precedence. zipimport loads by spec from Python 3.10 on."""
    if not hasattr(zipimport.zipimporter, 'exec_module') or CompileOnceFinder in sys.meta_path:
        return
    place = sys.meta_path.index(PathFinder) if PathFinder in sys.meta_path else len(sys.meta_path)
    sys.meta_path.insert(place, CompileOnceFinder)
