"""The sample projects of the reference service (tests/service/sample_projects.py): git
repositories made at start from the collection's own files, the same revision on every
machine, and the public URLs the real service shows cloned from them.

The service is started here as on a machine that cannot reach GitHub: its git
configuration sends https://github.com/ to a port that refuses. Its Demo Project keeps the
URL of the real service, is checked out, updates, and its template's job prints the
greeting; an archive project of GitHub's archive of the tag downloads the local archive."""
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tarfile
import types
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]
SERVICE = REPO / "tests" / "service"
SVCCTL = SERVICE / "svcctl"
DEMO_URL = "https://github.com/ansible/ansible-tower-samples"
ARCHIVE_URL = DEMO_URL + "/archive/refs/tags/1.0.0.tar.gz"
REFUSED = "https://127.0.0.1:9"

sys.path[:0] = [str(SERVICE), str(SERVICE / "tests")]

import sample_projects  # noqa: E402
from service_api import call, created, unique, wait_until  # noqa: E402


def git(repository, *args):
    return subprocess.run(["git", "--git-dir", str(repository), *args], check=True, capture_output=True,
                          text=True).stdout


def files_of(folder: Path) -> list:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


@pytest.fixture
def clean_git(monkeypatch):
    for name in list(os.environ):
        if name.startswith("GIT_") or name == "REFSVC_URL_MIRRORS":
            monkeypatch.delenv(name)


# ---------------------------------------------------------------- the repositories

def test_the_demo_project_is_one_of_them():
    assert "ansible-tower-samples" in sample_projects.names()
    assert sample_projects.public_url("ansible-tower-samples") == DEMO_URL


def test_each_folder_is_one_commit_of_its_files_tagged_with_its_archive(tmp_path, clean_git):
    env = sample_projects.ensure(tmp_path)
    for name in sample_projects.names():
        repository = tmp_path / "sample-projects" / (name + ".git")
        head = git(repository, "rev-parse", "HEAD").strip()
        assert git(repository, "rev-parse", "refs/heads/main", "refs/tags/1.0.0^{commit}").split() == [head, head]
        assert git(repository, "rev-list", "--count", "HEAD").strip() == "1"
        branches = git(repository, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/").split("\n")
        assert sorted(filter(None, branches)) == sorted("%s %s" % (branch, head) for branch in
                                                        ("main",) + sample_projects.BRANCHES.get(name, ()))
        folder = sample_projects.SOURCES / name
        assert sorted(git(repository, "ls-tree", "-r", "--name-only", "HEAD").split()) == files_of(folder)
        archive = tmp_path / "sample-projects" / "archives" / name / "archive" / "refs" / "tags" / "1.0.0.tar.gz"
        with tarfile.open(archive) as opened:
            members = {m.name: opened.extractfile(m).read() for m in opened.getmembers() if m.isfile()}
        assert members == {"%s-1.0.0/%s" % (name, path): (folder / path).read_bytes() for path in files_of(folder)}
    keys = {env["GIT_CONFIG_VALUE_%d" % n]: env["GIT_CONFIG_KEY_%d" % n] for n in range(int(env["GIT_CONFIG_COUNT"]))}
    local = (tmp_path / "sample-projects" / "ansible-tower-samples.git").as_uri()
    assert keys[DEMO_URL] == keys[DEMO_URL + ".git"] == "url.%s.insteadOf" % local
    assert json.loads(env["REFSVC_URL_MIRRORS"])[DEMO_URL + "/archive/"] == \
        (tmp_path / "sample-projects" / "archives" / "ansible-tower-samples" / "archive").as_uri() + "/"


def test_the_revision_is_the_same_whatever_the_users_git_and_environment(tmp_path, clean_git, monkeypatch):
    sample_projects.ensure(tmp_path / "plain")
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text("[user]\n\tname = someone\n\temail = someone@example.com\n"
                         "[init]\n\tdefaultBranch = trunk\n[commit]\n\tgpgsign = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "someone else")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2001-02-03T04:05:06+0000")
    sample_projects.ensure(tmp_path / "other")
    sample_projects.ensure(tmp_path / "other")  # again, over the first ones
    for name in sample_projects.names():
        revisions = {git(tmp_path / where / "sample-projects" / (name + ".git"), "rev-parse", "main").strip()
                     for where in ("plain", "other")}
        assert len(revisions) == 1
        archives = {(tmp_path / where / "sample-projects" / "archives" / name / "archive" / "refs" / "tags"
                     / "1.0.0.tar.gz").read_bytes() for where in ("plain", "other")}
        assert len(archives) == 1


def test_the_callers_git_configuration_and_mirrors_come_first(tmp_path, clean_git, monkeypatch):
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("REFSVC_URL_MIRRORS", json.dumps({DEMO_URL + "/archive/": "file:///elsewhere/"}))
    env = sample_projects.ensure(tmp_path)
    assert int(env["GIT_CONFIG_COUNT"]) == 1 + 2 * len(sample_projects.names())
    assert "GIT_CONFIG_KEY_0" not in env and env["GIT_CONFIG_VALUE_1"] == sample_projects.public_url(sample_projects.names()[0])
    assert json.loads(env["REFSVC_URL_MIRRORS"])[DEMO_URL + "/archive/"] == "file:///elsewhere/"


def test_the_demo_playbook_greets_every_host():
    plays = yaml.safe_load((sample_projects.SOURCES / "ansible-tower-samples" / "hello_world.yml").read_text())
    assert [play["hosts"] for play in plays] == ["all"]
    assert [task["ansible.builtin.debug"] for task in plays[0]["tasks"]] == [{"msg": "Hello World!"}]


# ---------------------------------------------------------------- the service

@pytest.fixture(scope="module")
def offline_service(tmp_path_factory):
    """A service started where GitHub cannot be reached, and the revision of the Demo Project's
    repository made on its own."""
    tmp = tmp_path_factory.mktemp("samples")
    gitconfig = tmp / "gitconfig"
    gitconfig.write_text('[url "%s/"]\n\tinsteadOf = https://github.com/\n' % REFUSED)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "SERVICE_", "REFSVC_URL_MIRRORS"))}
    env.update({"GIT_CONFIG_GLOBAL": str(gitconfig), "REFSVC_PASSWORD_ITERATIONS": "1000"})
    directory = tmp / "svc"
    result = subprocess.run([sys.executable, str(SVCCTL), "start", "--dir", str(directory)], env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    try:
        assert result.returncode == 0, result.stderr
        exports = {}
        for line in result.stdout.splitlines():
            if line.startswith("export "):
                name, value = line[len("export "):].split("=", 1)
                exports[name] = shlex.split(value)[0]
        revision = git(directory / "sample-projects" / "ansible-tower-samples.git", "rev-parse", "HEAD").strip()
        yield types.SimpleNamespace(url=exports["SERVICE_URL"], ca_path=exports["SERVICE_CA_PATH"],
                                    admin_username=exports["SERVICE_ADMIN_USERNAME"],
                                    admin_password=exports["SERVICE_ADMIN_PASSWORD"],
                                    directory=directory, revision=revision)
    finally:
        subprocess.run([sys.executable, str(SVCCTL), "stop", "--dir", str(directory)], env=env, check=False,
                       capture_output=True, timeout=60)


def one(service, path):
    answer = call(service, "GET", path).json()
    assert answer["count"] == 1, answer
    return answer["results"][0]


def test_the_demo_project_keeps_its_public_url_and_is_checked_out(offline_service, tmp_path, clean_git):
    project = one(offline_service, "projects/?name=Demo+Project")
    assert (project["scm_type"], project["scm_url"]) == ("git", DEMO_URL)
    assert call(offline_service, "GET", "projects/%d/playbooks/" % project["id"]).json() == ["hello_world.yml"]
    # The revision every machine makes of the same files.
    sample_projects.ensure(tmp_path)
    assert git(tmp_path / "sample-projects" / "ansible-tower-samples.git", "rev-parse", "HEAD").strip() == \
        offline_service.revision


def test_the_demo_project_updates_from_its_repository(offline_service):
    project = one(offline_service, "projects/?name=Demo+Project")
    answer = call(offline_service, "POST", "projects/%d/update/" % project["id"])
    assert answer.status_code == 202, answer.text
    update = wait_until(offline_service, "project_updates/%d/" % answer.json()["id"])
    assert update["status"] == "successful", update.get("result_traceback") or update
    assert update["scm_revision"] == offline_service.revision
    project = call(offline_service, "GET", "projects/%d/" % project["id"]).json()
    assert (project["scm_url"], project["scm_revision"]) == (DEMO_URL, offline_service.revision)


def test_the_demo_job_template_prints_the_greeting(offline_service):
    template = one(offline_service, "job_templates/?name=Demo+Job+Template")
    answer = call(offline_service, "POST", "job_templates/%d/launch/" % template["id"])
    assert answer.status_code == 201, answer.text
    job = wait_until(offline_service, "jobs/%d/" % answer.json()["id"], seconds=180)
    stdout = call(offline_service, "GET", "jobs/%d/stdout/?format=txt" % job["id"]).text
    assert job["status"] == "successful", stdout
    assert '"msg": "Hello World!"' in stdout


def test_an_archive_of_the_tag_is_downloaded_from_the_local_archive(offline_service):
    project = created(offline_service, "projects/", name=unique("archive"), organization=1, scm_type="archive",
                      scm_url=ARCHIVE_URL)
    update = wait_until(offline_service, "project_updates/%d/" % project["summary_fields"]["current_update"]["id"])
    assert update["status"] == "successful", update
    local = (offline_service.directory / "sample-projects" / "archives" / "ansible-tower-samples" / "archive" / "refs"
             / "tags" / "1.0.0.tar.gz")
    assert update["scm_revision"] == hashlib.sha1(local.read_bytes()).hexdigest()
    assert call(offline_service, "GET", "projects/%d/playbooks/" % project["id"]).json() == ["hello_world.yml"]
    call(offline_service, "DELETE", "projects/%d/" % project["id"])
