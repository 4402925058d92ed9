"""tests/ci/pythons.sh --which: the interpreter a version name means, for the virtualenvs
(tests/ci/cached-venv.sh) and ansible-test alike: never a pyenv shim, never a virtual
environment's link (its base interpreter instead), and a clear failure when there is none."""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tests" / "ci" / "pythons.sh"
VERSION = "%d.%d" % sys.version_info[:2]
BASE = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
BASH = shutil.which("bash")


def which(version, path, pyenv_root):
    env = dict(os.environ, PATH=os.pathsep.join(str(p) for p in path), PYENV_ROOT=str(pyenv_root))
    return subprocess.run([BASH, str(SCRIPT), "--which", version], env=env, capture_output=True, text=True,
                          timeout=60)


def test_a_shim_and_a_virtualenv_first_on_path_give_way_to_the_interpreter_itself(tmp_path):
    shims = tmp_path / "pyenv" / "shims"
    shims.mkdir(parents=True)
    shim = shims / ("python" + VERSION)
    shim.write_text("#!/bin/sh\necho 'pyenv: version not installed' >&2\nexit 127\n")
    shim.chmod(0o755)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(str(env_dir))
    interpreter_dir = tmp_path / "bin"
    interpreter_dir.mkdir()
    (interpreter_dir / ("python" + VERSION)).symlink_to(BASE)

    found = which(VERSION, [shims, env_dir / "bin", interpreter_dir, "/usr/bin", "/bin"], tmp_path / "pyenv")
    assert found.returncode == 0, found.stderr
    chosen = found.stdout.strip()
    assert chosen == BASE
    assert not chosen.startswith(str(tmp_path))


def test_pyenv_builds_are_found_when_path_has_none(tmp_path):
    pyenv_bin = tmp_path / "pyenv" / "versions" / (VERSION + ".99") / "bin"
    pyenv_bin.mkdir(parents=True)
    (pyenv_bin / ("python" + VERSION)).symlink_to(BASE)
    # PATH has the shell's programs and no interpreter of this version
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in ("ls", "sort", "dirname", "cat"):
        (tools / tool).symlink_to(shutil.which(tool))
    found = which(VERSION, [tools], tmp_path / "pyenv")
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == BASE


def test_a_version_the_machine_lacks_fails(tmp_path):
    found = which("3.1", ["/usr/bin", "/bin"], tmp_path / "no-pyenv")
    assert found.returncode != 0
    assert found.stdout == ""
