"""The public sample repositories on a machine that cannot reach GitHub
(tests/service/sample_repos.py): the reference service's Demo Project is checked out
from the mirror made of AWX_SAMPLE_REPOS's bundles, so that its playbooks are listed
as on a real install; without bundles and without GitHub, the service still starts.

GitHub is blocked as on such a machine: a git configuration whose url.insteadOf sends
https://github.com/ to a port that refuses. The bundles are made here from small
repositories of the same names (a mirror takes any bundle)."""
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parents[3]
SVCCTL = REPO / "tests" / "service" / "svcctl"
SAMPLE_REPOS = REPO / "tests" / "service" / "sample_repos.py"
REFUSED = "https://127.0.0.1:9"


def git(*args, cwd=None):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@localhost", *args], cwd=cwd, check=True,
                   capture_output=True)


def make_bundle(folder: Path, name: str, files: dict) -> None:
    tree = folder / "src" / name
    tree.mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=tree)
    for path, text in files.items():
        (tree / path).write_text(text)
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", "sample", cwd=tree)
    git("tag", "1.0.0", cwd=tree)
    git("bundle", "create", str(folder / (name + ".bundle")), "--all", cwd=tree)


@pytest.fixture
def offline(tmp_path):
    """The environment of a machine with no cache and no GitHub."""
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text('[url "%s/"]\n\tinsteadOf = https://github.com/\n' % REFUSED)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_CONFIG", "AWX_SAMPLE_REPOS", "SERVICE_"))}
    env.update({"AUTOMATION_SERVICE_CACHE": str(tmp_path / "cache"), "GIT_CONFIG_GLOBAL": str(gitconfig),
                "SAMPLE_REPOS_GIT_URL": REFUSED, "REFSVC_PASSWORD_ITERATIONS": "1000"})
    return env


@pytest.fixture
def bundles(tmp_path):
    folder = tmp_path / "bundles"
    folder.mkdir()
    make_bundle(folder, "ansible-tower-samples", {"hello_world.yml": "- hosts: all\n  tasks: []\n", "README.md": "x\n"})
    make_bundle(folder, "test-playbooks", {"debug.yml": "- hosts: all\n  tasks: []\n"})
    return folder


def start(directory: Path, env: dict):
    result = subprocess.run([sys.executable, str(SVCCTL), "start", "--dir", str(directory)], env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    exports = dict(line[len("export "):].split("=", 1) for line in result.stdout.splitlines() if line.startswith("export "))
    return {k: shlex.split(v)[0] for k, v in exports.items()}, result.stderr


def demo_playbooks(exports: dict) -> list:
    session = requests.Session()
    session.trust_env = False
    session.verify = exports["SERVICE_CA_PATH"]
    session.auth = (exports["SERVICE_ADMIN_USERNAME"], exports["SERVICE_ADMIN_PASSWORD"])
    url = exports["SERVICE_URL"] + "/api/v2/projects/"
    project = session.get(url, params={"name": "Demo Project"}).json()["results"][0]
    return session.get("%s%d/playbooks/" % (url, project["id"])).json()


def test_demo_project_is_checked_out_from_the_bundles(tmp_path, offline, bundles):
    env = dict(offline, AWX_SAMPLE_REPOS=str(bundles))
    try:
        exports, stderr = start(tmp_path / "svc", env)
        assert "sample repositories: ansible-tower-samples, test-playbooks made from AWX_SAMPLE_REPOS=%s" % bundles in stderr
        assert demo_playbooks(exports) == ["hello_world.yml"]
    finally:
        subprocess.run([sys.executable, str(SVCCTL), "stop", "--dir", str(tmp_path / "svc")], env=env, check=False,
                       capture_output=True, timeout=60)
    # The mirrors stay in the cache; the next one to ask takes them as they are.
    result = subprocess.run([sys.executable, str(SAMPLE_REPOS)], env=dict(offline), capture_output=True, text=True,
                            check=True)
    assert "sample repositories: cached" in result.stderr
    exported = dict(line[len("export "):].split("=", 1) for line in result.stdout.splitlines())
    assert json.loads(shlex.split(exported["REFSVC_URL_MIRRORS"])[0]) == {
        "https://github.com/": "file://%s/sample-repos/archives/" % offline["AUTOMATION_SERVICE_CACHE"]}
    assert (Path(offline["AUTOMATION_SERVICE_CACHE"]) / "sample-repos" / "archives" / "ansible" / "test-playbooks"
            / "archive" / "refs" / "tags" / "1.0.0.tar.gz").is_file()


def test_without_bundles_or_github_the_service_starts_without_the_demo_checkout(tmp_path, offline):
    try:
        exports, stderr = start(tmp_path / "svc", offline)
        assert "sample repositories: not available" in stderr
        assert demo_playbooks(exports) == []
    finally:
        subprocess.run([sys.executable, str(SVCCTL), "stop", "--dir", str(tmp_path / "svc")], env=offline, check=False,
                       capture_output=True, timeout=60)


def test_the_suites_need_them_and_say_how(offline, tmp_path):
    result = subprocess.run([sys.executable, str(SAMPLE_REPOS)], env=offline, capture_output=True, text=True, check=False)
    assert result.returncode == 1 and result.stdout == ""
    assert "set AWX_SAMPLE_REPOS to a folder of git bundles" in result.stderr
    result = subprocess.run([sys.executable, str(SAMPLE_REPOS)], env=dict(offline, AWX_SAMPLE_REPOS=str(tmp_path)),
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1 and "no ansible-tower-samples.bundle in AWX_SAMPLE_REPOS=%s" % tmp_path in result.stderr
