"""Make ``ansible_collections.automation.service`` importable for plain pytest.

ansible-test units does this itself; under plain pytest the repository is
linked into a temporary collection tree and that tree goes on sys.path.
"""

import atexit
import os
import shutil
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _ensure_importable():
    try:
        import ansible_collections.automation.service.plugins  # noqa: F401
        return
    except ImportError:
        pass
    tree = tempfile.mkdtemp(prefix='automation-service-collections-')
    # removed at exit: rmtree takes the link away, not the repository it points at
    atexit.register(shutil.rmtree, tree, True)
    namespace = os.path.join(tree, 'ansible_collections', 'automation')
    os.makedirs(namespace)
    os.symlink(ROOT, os.path.join(namespace, 'service'))
    sys.path.insert(0, tree)
    for name in [n for n in sys.modules if n == 'ansible_collections' or n.startswith('ansible_collections.')]:
        del sys.modules[name]


_ensure_importable()


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    """Every test gets its own session cache directory and a clean environment."""
    cache = tmp_path / 'cache'
    monkeypatch.setenv('SERVICE_CACHE_DIR', str(cache))
    for name in list(os.environ):
        if name.startswith(('SERVICE_', 'CONTROLLER_', 'TOWER_')) and name != 'SERVICE_CACHE_DIR':
            monkeypatch.delenv(name, raising=False)
    return cache
