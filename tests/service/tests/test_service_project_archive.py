"""An archive project's update (scm_type "archive"), as the real service's project_update.yml
runs it (read in AWX 24.6.1's source): get_url downloads scm_url into the project's
.archive/, project_archive unpacks it leaving out a single root directory, and the update's
revision is the archive's SHA-1. The download and the unpacking are tested here on their own,
with real archives and a file:// mirror (REFSVC_URL_MIRRORS points public URLs at local
copies, as git's url.insteadOf does for git projects); tests/ci/tests/test_sample_projects.py
runs a whole archive update through the service, of the Demo Project's archive."""
import hashlib
import io
import json
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from refsvc.updates import runner  # noqa: E402


class Said:
    def __init__(self):
        self.lines = []

    def say(self, text):
        self.lines.append(text)


def tar_gz(path, files):
    with tarfile.open(path, "w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def test_a_public_url_is_fetched_from_its_mirror_and_named_as_get_url_names_it(tmp_path, monkeypatch):
    mirror = tmp_path / "mirror" / "org" / "repo" / "archive" / "refs" / "tags"
    mirror.mkdir(parents=True)
    tar_gz(mirror / "1.0.0.tar.gz", {"repo-1.0.0/site.yml": "- hosts: all\n"})
    monkeypatch.setenv("REFSVC_URL_MIRRORS", json.dumps({"https://example.com/": "file://%s/mirror/" % tmp_path}))
    into = tmp_path / "into"
    into.mkdir()
    fetched = runner.fetch(Said(), "https://example.com/org/repo/archive/refs/tags/1.0.0.tar.gz", into)
    assert fetched == into / "1.0.0.tar.gz"
    assert fetched.read_bytes() == (mirror / "1.0.0.tar.gz").read_bytes()


def test_a_url_without_mirror_that_cannot_be_fetched_fails_the_update(tmp_path, monkeypatch):
    monkeypatch.setenv("REFSVC_URL_MIRRORS", json.dumps({"https://example.com/": "file://%s/none/" % tmp_path}))
    with pytest.raises(runner.UpdateFailed, match="Request failed"):
        runner.fetch(Said(), "https://example.com/missing.tar.gz", tmp_path)


def test_a_single_root_directory_is_left_out_and_the_revision_is_the_sha1(tmp_path, monkeypatch):
    archive = tmp_path / "project-1.0.0.tar.gz"
    tar_gz(archive, {"project-1.0.0/site.yml": "- hosts: all\n", "project-1.0.0/roles/r/tasks/main.yml": "[]\n"})
    monkeypatch.setenv("REFSVC_URL_MIRRORS", json.dumps({"https://example.com/": "file://%s/" % tmp_path}))

    class Project:
        scm_url = "https://example.com/project-1.0.0.tar.gz"

    staging = tmp_path / "staging"
    revision = runner.check_out_archive(Said(), Project(), staging)
    assert revision == hashlib.sha1(archive.read_bytes()).hexdigest()
    assert (staging / "site.yml").read_text() == "- hosts: all\n"
    assert (staging / "roles" / "r" / "tasks" / "main.yml").exists()
    assert (staging / ".archive" / "project-1.0.0.tar.gz").exists()


def test_a_zip_with_several_roots_is_unpacked_as_it_is(tmp_path):
    archive = tmp_path / "flat.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("site.yml", "- hosts: all\n")
        z.writestr("other/x.yml", "[]\n")
    into = tmp_path / "into"
    into.mkdir()
    runner.unpack(archive, into)
    assert sorted(p.name for p in into.iterdir()) == ["other", "site.yml"]


def test_what_is_no_archive_fails_with_the_real_service_s_words(tmp_path):
    bogus = tmp_path / "index.html"
    bogus.write_text("<html></html>")
    into = tmp_path / "into"
    into.mkdir()
    with pytest.raises(runner.UpdateFailed, match="is not a valid archive"):
        runner.unpack(bogus, into)


def test_a_tar_member_outside_the_project_refuses_the_archive(tmp_path):
    """With tarfile's "data" filter where Python has it (3.11.4 and later), with the service's own check of the
    members before: nothing is written outside the project."""
    archive = tmp_path / "evil.tar.gz"
    tar_gz(archive, {"project/site.yml": "- hosts: all\n", "../../escaped.txt": "out\n"})
    into = tmp_path / "deep" / "into"
    into.mkdir(parents=True)
    with pytest.raises(runner.UpdateFailed):
        runner.unpack(archive, into)
    assert not list(tmp_path.rglob("escaped.txt"))
