#!/usr/bin/env python3
"""Local mirrors of the public sample repositories that services and tests clone.

The reference service's "Demo Project" and awx.awx's integration targets name
https://github.com/ansible/ansible-tower-samples and .../test-playbooks. The
services clone local mirrors of them instead, through git's ``url.insteadOf`` given
to the service's processes only (``GIT_CONFIG_COUNT``, ``GIT_CONFIG_KEY_<n>``...), so that the
service and the modules still see the public URLs. GitHub's archives of their tags
are made from the mirrors too (``REFSVC_URL_MIRRORS`` points the reference
service's archive projects at them).

The mirrors are made once, in the machine's cache
(``AUTOMATION_SERVICE_CACHE``, default ``~/.cache/automation-service``), under
``sample-repos/``, from the first source that has them:

1. ``AWX_SAMPLE_REPOS``: a folder of git bundles, ``<name>.bundle``;
2. GitHub (``SAMPLE_REPOS_GIT_URL``, default https://github.com).

    sample_repos.py [--optional]    # makes them; prints the shell export lines

``--optional``: when no source has them, say so and print nothing (a service then
starts without them, as on a real install that cannot reach GitHub), instead of
failing. The first line on stderr says where the mirrors came from.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

REPOS = ("ansible-tower-samples", "test-playbooks")
PUBLIC = "https://github.com/ansible/"


class Unavailable(Exception):
    """No source of a sample repository could be reached."""


def cache_root() -> Path:
    root = os.environ.get("AUTOMATION_SERVICE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "automation-service")
    return Path(root)


def git(*args: str, cwd: Path | None = None) -> str:
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    result = subprocess.run(["git", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=300, check=False)
    if result.returncode:
        raise Unavailable("git %s: %s" % (" ".join(args[:2]), (result.stderr or result.stdout).strip()[-300:]))
    return result.stdout


def origin() -> str:
    """Where missing mirrors are made from."""
    if os.environ.get("AWX_SAMPLE_REPOS"):
        return "AWX_SAMPLE_REPOS=" + os.environ["AWX_SAMPLE_REPOS"]
    return os.environ.get("SAMPLE_REPOS_GIT_URL", "https://github.com").rstrip("/")


def source_of(repo: str) -> str:
    bundles = os.environ.get("AWX_SAMPLE_REPOS")
    if bundles:
        bundle = Path(bundles) / (repo + ".bundle")
        if not bundle.is_file():
            raise Unavailable("no %s in AWX_SAMPLE_REPOS=%s" % (bundle.name, bundles))
        return str(bundle)
    return "%s/ansible/%s" % (origin(), repo)


def make_mirror(mirror: Path, repo: str) -> None:
    partial = mirror.with_name(mirror.name + ".tmp")
    shutil.rmtree(partial, ignore_errors=True)
    git("clone", "-q", "--mirror", source_of(repo), str(partial))
    # awx.awx's project target checks out test-playbooks' branch empty_branch; the bundles hold
    # main and the tags only. Where it is missing, it is made at the head's commit: the target
    # checks out the branch and never reads what is in it.
    if repo == "test-playbooks":
        try:
            git("rev-parse", "-q", "--verify", "refs/heads/empty_branch", cwd=partial)
        except Unavailable:
            git("update-ref", "refs/heads/empty_branch", git("rev-parse", "HEAD", cwd=partial).strip(), cwd=partial)
    partial.rename(mirror)


def make_archives(mirror: Path, repo: str, archives: Path) -> None:
    """GitHub's archive of each tag, at the path GitHub serves it from."""
    for tag in git("tag", cwd=mirror).split():
        archive = archives / "ansible" / repo / "archive" / "refs" / "tags" / (tag + ".tar.gz")
        if archive.is_file():
            continue
        archive.parent.mkdir(parents=True, exist_ok=True)
        partial = archive.with_name(archive.name + ".tmp")
        git("archive", "--format=tar.gz", "--prefix=%s-%s/" % (repo, tag), "-o", str(partial), tag, cwd=mirror)
        partial.rename(archive)


def ensure() -> tuple[dict, str]:
    """Make the mirrors when missing; the environment that points a service at them, and where
    they came from."""
    root = cache_root() / "sample-repos"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = []
        for repo in REPOS:
            mirror = root / (repo + ".git")
            if not mirror.is_dir():
                make_mirror(mirror, repo)
                made.append(repo)
            make_archives(mirror, repo, root / "archives")
    where = ("%s made from %s" % (", ".join(made), origin())) if made else "cached"
    # git's configuration from the environment adds to the user's own (GIT_CONFIG_GLOBAL would
    # replace it); of two url.<base>.insteadOf that match, the longer wins.
    env = {"GIT_CONFIG_COUNT": str(2 * len(REPOS))}
    for number, (repo, suffix) in enumerate((repo, suffix) for repo in REPOS for suffix in ("", ".git")):
        env["GIT_CONFIG_KEY_%d" % number] = "url.file://%s.insteadOf" % (root / (repo + ".git"))
        env["GIT_CONFIG_VALUE_%d" % number] = PUBLIC + repo + suffix
    env.update({
        "REFSVC_URL_MIRRORS": json.dumps({"https://github.com/": "file://%s/" % (root / "archives")}),
    })
    return env, "sample repositories: %s (%s)" % (where, root)


def environment(optional: bool = False, log=None) -> dict:
    """What ``ensure`` gives; with ``optional``, an empty environment when no source answers."""
    log = log or (lambda line: print(line, file=sys.stderr))
    try:
        env, where = ensure()
    except (Unavailable, OSError, subprocess.SubprocessError) as exc:
        if not optional:
            raise
        log("sample repositories: not available (%s); their projects cannot be checked out" % exc)
        return {}
    log(where)
    return env


def main(argv: list[str]) -> int:
    optional = "--optional" in argv
    try:
        env = environment(optional)
    except (Unavailable, OSError, subprocess.SubprocessError) as exc:
        print("sample repositories: %s; without network access, set AWX_SAMPLE_REPOS to a folder of git "
              "bundles (%s)" % (exc, ", ".join(r + ".bundle" for r in REPOS)), file=sys.stderr)
        return 1
    for name, value in env.items():
        print("export %s=%s" % (name, shlex.quote(value)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
