"""awx.awx's results on the reference service are kept under a key (tests/awx_suite/run.py
--awx-cache) that changes with whatever decides them: the reference service's code, the runner and
its table, awx.awx's build and the plays' Python; not with the reference service's own tests or its prose."""
import importlib.util
from pathlib import Path

import pytest

RUN_PY = Path(__file__).resolve().parents[2] / "awx_suite" / "run.py"


@pytest.fixture
def runner(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("awx_suite_run", RUN_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for path, text in {"tests/service/refsvc/views.py": "a = 1\n", "tests/service/tests/test_x.py": "t = 1\n",
                       "tests/awx_suite/run.py": "r\n", "tests/awx_suite/run.sh": "s\n",
                       "tests/awx_suite/targets.yml": "targets: {}\n"}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "HERE", tmp_path / "tests" / "awx_suite")
    return module


def test_the_key_follows_the_service_and_the_runner_only(runner, tmp_path):
    collection = tmp_path / "awx"
    key = runner.awx_results_key(collection)
    assert key == runner.awx_results_key(collection)
    (tmp_path / "tests/service/tests/test_x.py").write_text("t = 2\n")
    (tmp_path / "tests/service/README.md").write_text("what it is\n")
    assert runner.awx_results_key(collection) == key
    (tmp_path / "tests/service/refsvc/views.py").write_text("a = 2\n")
    changed = runner.awx_results_key(collection)
    assert changed != key
    (tmp_path / "tests/awx_suite/targets.yml").write_text("targets: {x: {}}\n")
    assert runner.awx_results_key(collection) not in (key, changed)
    assert runner.awx_results_key(tmp_path / "another-build") != runner.awx_results_key(collection)
