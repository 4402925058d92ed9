"""The real-AWX test bed's command (tests/realawx/realawx), without building it.

The build takes about 13 minutes and root; these tests check what decides
whether a build is reused: the cache key covers the files that decide the
build and nothing else, the install's path follows the cache settings, and a
build without sources stops at once with a message that says what to do. They
need bash, git and coreutils, nothing else.
"""
import gzip
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
BED = ROOT / "tests" / "realawx"
AWX_COMMIT = "94e5795dfc37b95c576d61f3e3b4e936c021548c"
AWX_ARCHIVE = "awx-%s.tar.gz" % AWX_COMMIT[:12]

# The files of the test bed outside the key: the command itself (start, stop,
# reset), the configuration it installs at each start (config/gateway.py: only
# behind a gateway), the documentation, and the command that puts it behind the
# reference gateway.
NOT_IN_KEY = {"realawx", "README.md", "config/uwsgi.ini", "config/uwsgi_params", "config/nginx.conf",
              "config/gateway.py", "gateway"}


def realawx(*args, bed=BED, env=None, check=False):
    environment = {k: v for k, v in os.environ.items() if k not in ("AWX_SOURCES", "AUTOMATION_SERVICE_CACHE")}
    environment.update(env or {})
    return subprocess.run(["bash", str(bed / "realawx"), *args], capture_output=True, text=True,
                          env=environment, check=check, timeout=120)


def key_files():
    match = re.search(r"^KEY_FILES=\(([^)]*)\)", (BED / "realawx").read_text(), re.M)
    assert match, "no KEY_FILES=(...) in realawx"
    return match.group(1).split()


@pytest.fixture
def bed_copy(tmp_path):
    """A copy of tests/realawx to edit."""
    copy = tmp_path / "realawx"
    shutil.copytree(BED, copy)
    return copy


@pytest.fixture
def short_tmp():
    """A short temporary directory: the install's sockets must fit in 107 bytes."""
    path = Path(tempfile.mkdtemp(prefix="ra"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


# -- usage


@pytest.mark.parametrize("args", [[], ["nonsense"], ["start", "--bogus"]])
def test_usage_without_a_known_command(args):
    result = realawx(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    for command in ("build", "start", "stop", "reset", "status", "path"):
        assert re.search(r"^%s " % command, result.stderr, re.M), command


def test_start_without_a_build_says_how_to_build(short_tmp):
    result = realawx("start", env={"AUTOMATION_SERVICE_CACHE": str(short_tmp)})
    assert result.returncode == 1
    assert result.stdout == ""
    assert "realawx build" in result.stderr and "make real-service" in result.stderr


# -- the cache key and path


def test_key_is_12_hex_of_a_sha256_over_the_key_files():
    key = realawx("key", check=True).stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{12}", key)
    listing = "".join("%s  %s\n" % (hashlib.sha256((BED / name).read_bytes()).hexdigest(), name)
                      for name in key_files())
    assert key == hashlib.sha256(listing.encode()).hexdigest()[:12]


def test_every_file_of_the_bed_is_either_in_the_key_or_known_to_be_outside():
    files = {str(path.relative_to(BED)) for path in BED.rglob("*") if path.is_file()
             and "__pycache__" not in path.parts}
    assert set(key_files()) == {"build.sh", "config/settings.py"}
    assert files == set(key_files()) | NOT_IN_KEY


@pytest.mark.parametrize("name", ["build.sh", "config/settings.py"])
def test_a_build_file_changes_the_key(bed_copy, name):
    before = realawx("key", bed=bed_copy, check=True).stdout
    with open(bed_copy / name, "a") as handle:
        handle.write("\n# changed\n")
    assert realawx("key", bed=bed_copy, check=True).stdout != before


@pytest.mark.parametrize("name", sorted(NOT_IN_KEY))
def test_start_logic_does_not_change_the_key(bed_copy, name):
    before = realawx("key", bed=bed_copy, check=True).stdout
    assert before == realawx("key", check=True).stdout
    with open(bed_copy / name, "a") as handle:
        handle.write("\n# changed\n")
    assert realawx("key", bed=bed_copy, check=True).stdout == before


def test_path_follows_the_cache_settings(tmp_path):
    key = realawx("key", check=True).stdout.strip()
    name = "awx-24.6.1-%s" % key
    explicit = realawx("path", env={"AUTOMATION_SERVICE_CACHE": str(tmp_path / "c")}, check=True).stdout
    assert explicit == "%s\n" % (tmp_path / "c" / name)
    xdg = realawx("path", env={"XDG_CACHE_HOME": str(tmp_path / "x")}, check=True).stdout
    assert xdg == "%s\n" % (tmp_path / "x" / "automation-service" / name)
    home = {"HOME": str(tmp_path / "h"), "XDG_CACHE_HOME": ""}
    assert realawx("path", env=home, check=True).stdout == "%s\n" % (tmp_path / "h" / ".cache" / "automation-service" / name)


def test_an_instance_has_its_own_directories_beside_the_first(tmp_path):
    cache = {"AUTOMATION_SERVICE_CACHE": str(tmp_path / "c")}
    install = realawx("path", env=cache, check=True).stdout.strip()
    assert realawx("path", "--run", env=cache, check=True).stdout.strip() == install + "/run"
    assert realawx("path", "--conf", env=cache, check=True).stdout.strip() == install + "/etc/conf.d"
    assert realawx("path", "--logs", env=cache, check=True).stdout.strip() == install + "/logs"
    second = dict(cache, REALAWX_INSTANCE="gateway")
    # the same install (one build), its own run and settings directories
    assert realawx("path", env=second, check=True).stdout.strip() == install
    assert realawx("path", "--run", env=second, check=True).stdout.strip() == install + "/run-gateway"
    assert realawx("path", "--conf", env=second, check=True).stdout.strip() == install + "/etc/conf.d-gateway"
    refused = realawx("path", env=dict(cache, REALAWX_INSTANCE="../x"))
    assert refused.returncode == 1 and "lower-case letters and digits" in refused.stderr
    build = realawx("build", env=second)
    assert build.returncode == 1 and "without REALAWX_INSTANCE" in build.stderr


def test_a_relative_cache_root_is_refused():
    result = realawx("path", env={"AUTOMATION_SERVICE_CACHE": "relative/cache"})
    assert result.returncode == 1
    assert "absolute" in result.stderr


# -- sources


def build_without(short_tmp, sources=None):
    env = {"AUTOMATION_SERVICE_CACHE": str(short_tmp / "cache"), "REALAWX_GIT_URL": "file:///nonexistent"}
    if sources is not None:
        env["AWX_SOURCES"] = str(sources)
    return realawx("build", env=env)


def test_no_sources_and_no_github_names_awx_sources(short_tmp):
    result = build_without(short_tmp)
    assert result.returncode == 1
    assert "AWX_SOURCES" in result.stderr
    assert AWX_ARCHIVE in result.stderr
    assert result.stdout == ""


def test_an_archive_missing_from_awx_sources_is_named(short_tmp):
    (short_tmp / "sources").mkdir()
    result = build_without(short_tmp, short_tmp / "sources")
    assert result.returncode == 1
    assert "no %s in AWX_SOURCES=%s" % (AWX_ARCHIVE, short_tmp / "sources") in result.stderr


def test_awx_sources_must_be_a_directory(short_tmp):
    result = build_without(short_tmp, short_tmp / "missing")
    assert result.returncode == 1
    assert "AWX_SOURCES=%s is not a directory" % (short_tmp / "missing") in result.stderr


def git_archive(directory: Path) -> bytes:
    """A git archive (with its commit id) of a one-file repository."""
    def run(*args):
        return subprocess.run(["git", "-C", str(directory), *args], check=True, capture_output=True)

    directory.mkdir()
    (directory / "README").write_text("not AWX\n")
    run("init", "-q")
    run("add", "README")
    run("-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-q", "-m", "x")
    return run("archive", "--format=tar.gz", "--prefix=awx/", "HEAD").stdout


def test_an_archive_with_another_checksum_is_refused(short_tmp):
    sources = short_tmp / "sources"
    sources.mkdir()
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb") as handle:
        handle.write(b"\0" * 1024)
    (sources / AWX_ARCHIVE).write_bytes(buffer.getvalue())
    (sources / "SHA256SUMS").write_text("%s  %s\n" % ("0" * 64, AWX_ARCHIVE))
    result = build_without(short_tmp, sources)
    assert result.returncode == 1
    assert "but SHA256SUMS says %s" % ("0" * 64) in result.stderr


def test_an_archive_of_another_commit_is_refused(short_tmp):
    sources = short_tmp / "sources"
    sources.mkdir()
    archive = git_archive(short_tmp / "repo")
    (sources / AWX_ARCHIVE).write_bytes(archive)
    (sources / "SHA256SUMS").write_text("%s  %s\n" % (hashlib.sha256(archive).hexdigest(), AWX_ARCHIVE))
    result = build_without(short_tmp, sources)
    assert result.returncode == 1
    assert re.search(r"%s was made from commit [0-9a-f]{40}, not %s" % (re.escape(AWX_ARCHIVE), AWX_COMMIT),
                     result.stderr)


# -- what start prints


@pytest.mark.parametrize("value", ["https://127.0.0.1:18143", "/root/.cache/a b/ca.pem", "admin",
                                   "Ab-_9xYz", "it's", "", "$HOME", "a\"b"])
def test_export_lines_quote_as_svcctl_does(value):
    script = '. "$1"; quote "$2"'
    result = subprocess.run(["bash", "-c", script, "_", str(BED / "realawx"), value],
                            capture_output=True, text=True, check=True)
    assert result.stdout == shlex.quote(value) + "\n"
    assert shlex.split(result.stdout) == [value]


def test_exports_are_those_of_svcctl():
    svcctl = re.findall(r'print\("export (SERVICE_\w+)=', (ROOT / "tests" / "service" / "svcctl").read_text())
    ours = re.findall(r'echo "export (SERVICE_\w+)=', (BED / "realawx").read_text())
    # (SERVICE_LAYOUT only in the reference service's gateway layout, which AWX 24 is not)
    assert svcctl == ["SERVICE_URL", "SERVICE_CA_PATH", "SERVICE_ADMIN_USERNAME", "SERVICE_ADMIN_PASSWORD",
                      "SERVICE_LAYOUT"]
    assert ours == svcctl[:4]


# -- the Makefile and what ships


def test_make_targets_run_realawx():
    makefile = (ROOT / "Makefile").read_text()
    for target, command in [("real-service", "build"), ("real-service-start", "start"),
                            ("real-service-stop", "stop"), ("real-service-reset", "reset")]:
        rule = re.search(r"^%s:[^\n]*## [^\n]+\n\t@\$\(REALAWX\) %s\b" % (target, command), makefile, re.M)
        assert rule, "no documented rule %s running realawx %s" % (target, command)
    clean = re.search(r"^clean:.*?(?=^\S|\Z)", makefile, re.M | re.S).group(0)
    for word in ("REALAWX", "realawx", "AUTOMATION_SERVICE_CACHE", ".cache"):
        assert word not in clean


def test_the_bed_does_not_ship():
    assert "tests/realawx" in yaml.safe_load((ROOT / "galaxy.yml").read_text())["build_ignore"]
