#!/usr/bin/env python3
"""The git repositories behind the reference service's sample projects, made from this
collection's own files.

Each folder of ``sample_projects/`` holds the files of one project, and its name is the
name of the public repository the real service shows for it: the "Demo Project" of a new
install has the URL https://github.com/ansible/ansible-tower-samples, and its files here
are ``sample_projects/ansible-tower-samples/``. At start, ``svcctl`` makes each folder a
bare git repository in the service's directory (``sample-projects/<name>.git``), with one
commit of a fixed author, committer and date, so that its revision is the same on every
machine and at every start, tagged ``1.0.0``.

The service keeps the public URLs; its processes clone the local repositories instead,
through git's ``url.<repository>.insteadOf`` given in their environment only
(``GIT_CONFIG_COUNT``, ``GIT_CONFIG_KEY_<n>``, ``GIT_CONFIG_VALUE_<n>``, which add to the
user's own git configuration; of two rewrites that match a URL, git takes the longer).
GitHub's archives of the tags (``<url>/archive/refs/tags/<tag>.tar.gz``) are made beside
them, and ``REFSVC_URL_MIRRORS`` points an archive project's download at them.

    sample_projects.py DIRECTORY    # makes them in DIRECTORY; prints the shell export lines
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

SOURCES = Path(__file__).resolve().parent / "sample_projects"
PUBLIC = "https://github.com/ansible/"
TAG = "1.0.0"
# The one commit of every repository: the same author, committer, date and message, so that
# the same files give the same revision.
IDENTITY = {
    "GIT_AUTHOR_NAME": "Automation Service Samples",
    "GIT_AUTHOR_EMAIL": "samples@automation-service.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "Automation Service Samples",
    "GIT_COMMITTER_EMAIL": "samples@automation-service.invalid",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+0000",
}
MESSAGE = "Sample project"
# Branches of a public repository, besides main, that the tests name (each at the one commit): ansible.eda's project
# target imports github.com/ansible/eda-sample-project at the branch stable-1.1 and expects the import to complete.
BRANCHES = {"eda-sample-project": ("stable-1.1",)}


class SampleError(Exception):
    """A sample repository could not be made."""


def names() -> list:
    """The sample projects, by the name of their public repository."""
    return sorted(entry.name for entry in SOURCES.iterdir() if entry.is_dir() and not entry.name.startswith("."))


def public_url(name: str) -> str:
    return PUBLIC + name


def git(*args: str, git_dir: Path, work_tree: Path | None = None) -> str:
    # Only what is given here: neither the user's git configuration (a signing key, hooks,
    # another default branch) nor an identity or a date of the environment reaches the commit.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(IDENTITY, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_DIR=str(git_dir), LC_ALL="C")
    if work_tree is not None:
        env["GIT_WORK_TREE"] = str(work_tree)
    result = subprocess.run(["git", *args], cwd=work_tree, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=120, check=False)
    if result.returncode:
        raise SampleError("git %s: %s" % (" ".join(args[:2]), (result.stderr or result.stdout).strip()[-300:]))
    return result.stdout


def make_repository(name: str, repository: Path) -> str:
    """``sample_projects/<name>`` as the bare repository ``repository``: one commit on main,
    tagged TAG, and the branches of BRANCHES at it. Returns the commit."""
    shutil.rmtree(repository, ignore_errors=True)
    repository.parent.mkdir(parents=True, exist_ok=True)
    git("init", "-q", "--bare", "--template=", "-b", "main", git_dir=repository)
    git("add", "-A", git_dir=repository, work_tree=SOURCES / name)
    git("commit", "-q", "--no-verify", "-m", MESSAGE, git_dir=repository, work_tree=SOURCES / name)
    git("tag", TAG, git_dir=repository)
    for branch in BRANCHES.get(name, ()):
        git("branch", branch, git_dir=repository)
    # The index was only the way to the commit: a clone reads the objects and the refs.
    (repository / "index").unlink()
    return git("rev-parse", "HEAD", git_dir=repository).strip()


def make_archive(name: str, repository: Path, archives: Path) -> Path:
    """GitHub's archive of the tag, at the path under ``archives`` that GitHub serves it from."""
    archive = archives / name / "archive" / "refs" / "tags" / (TAG + ".tar.gz")
    archive.parent.mkdir(parents=True, exist_ok=True)
    git("archive", "--format=tar.gz", "--prefix=%s-%s/" % (name, TAG), "-o", str(archive), TAG, git_dir=repository)
    return archive


def ensure(directory: Path) -> dict:
    """Make every sample repository, and its archive, in ``directory``; the environment that
    sends the service's clones and downloads of the public URLs to them."""
    directory = Path(directory).resolve()
    root = directory / "sample-projects"
    shutil.rmtree(root / "archives", ignore_errors=True)
    rewrites = []
    mirrors = {}
    for name in names():
        repository = root / (name + ".git")
        make_repository(name, repository)
        make_archive(name, repository, root / "archives")
        rewrites += [("url.%s.insteadOf" % repository.as_uri(), public_url(name) + suffix) for suffix in ("", ".git")]
        mirrors[public_url(name) + "/archive/"] = (root / "archives" / name / "archive").as_uri() + "/"
    return environment(rewrites, mirrors)


def environment(rewrites: list, mirrors: dict) -> dict:
    """The rewrites after the ones the environment has already (GIT_CONFIG_COUNT), and the
    archive mirrors under the ones it has already (REFSVC_URL_MIRRORS: those win)."""
    count = int(os.environ.get("GIT_CONFIG_COUNT") or 0)
    env = {"GIT_CONFIG_COUNT": str(count + len(rewrites))}
    for number, (key, value) in enumerate(rewrites, start=count):
        env["GIT_CONFIG_KEY_%d" % number] = key
        env["GIT_CONFIG_VALUE_%d" % number] = value
    env["REFSVC_URL_MIRRORS"] = json.dumps(dict(mirrors, **json.loads(os.environ.get("REFSVC_URL_MIRRORS") or "{}")))
    return env


def main(argv: list) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    try:
        env = ensure(Path(argv[0]))
    except (SampleError, OSError, subprocess.SubprocessError) as exc:
        print("sample projects: %s" % exc, file=sys.stderr)
        return 1
    for name, value in env.items():
        print("export %s=%s" % (name, shlex.quote(value)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
