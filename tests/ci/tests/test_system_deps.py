"""The README's `make test` brings everything the suite needs, as CI does.

CI runs `make test` on a fresh clone: `.ci/run` sets CI's environment and checks the
machine, but installs nothing itself, so a CI run passes only when `make test`
(and so `make demo`) would pass on a fresh machine too. The programs from outside the
virtualenv come from `make system-deps` (tests/ci/system-deps.sh), the OIDC test
identity provider's packages from `make idp-packages`.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tests" / "ci" / "system-deps.sh"

# The programs outside the virtualenv that the suite and the demo run, and the Debian
# package of each: pysaml2 in the SAML test identity provider signs with xmlsec1; the
# OIDC test identity provider is a Node.js program whose packages npm installs; the
# docs draw their diagrams with graphviz's dot; the Hub's ah_ee target pushes an image with skopeo.
NEEDED = {"xmlsec1": "xmlsec1", "node": "nodejs", "npm": "npm", "dot": "graphviz", "skopeo": "skopeo"}
# And the files: the LDAP test directory's server (slapd, in /usr/sbin, which a user's PATH may
# not have), and the headers python-ldap (requirements-dev.txt, built from its source) needs.
# The real Automation Hub of the hub step runs Debian's PostgreSQL 15 (tests/hub/hubctl.py).
NEEDED_FILES = {"/usr/sbin/slapd": "slapd", "/usr/sbin/slapadd": "slapd",
                "/usr/include/ldap.h": "libldap-dev", "/usr/include/sasl/sasl.h": "libsasl2-dev",
                "/usr/lib/postgresql/15/bin/initdb": "postgresql-15"}

# Targets that start the test identity providers (svcctl start --with-idp), and those
# that need a program of NEEDED otherwise.
WITH_IDP = ["demo", "test", "pytest", "live", "integration", "matrix", "matrix-ci", "bench"]
SYSTEM_ONLY = ["docs", "hub"]


def commands(path: Path) -> str:
    """The file's text without comments and blank lines."""
    lines = []
    for line in path.read_text().splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if line:
            lines.append(line)
    return "\n".join(lines)


def prerequisites(target: str) -> list:
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line.startswith(target + ":"):
            return line[len(target) + 1:].split("##")[0].split()
    raise AssertionError("no rule for %s in the Makefile" % target)


def script_table() -> dict:
    """program -> Debian package, from the table of tests/ci/system-deps.sh."""
    text = SCRIPT.read_text()
    body = text.split("<<'DEPS'\n", 1)[1].split("\nDEPS\n", 1)[0]
    return {line.split()[0]: line.split()[1] for line in body.splitlines()
            if line.strip() and not line.startswith("#")}


# -- .ci/run and the Makefile


def test_ci_installs_nothing_that_make_test_does_not():
    text = commands(ROOT / ".ci" / "run")
    installs = re.compile(r"\b(apt-get|apt|dpkg|yum|dnf|npm\s+(ci|install|i)|pip3?\s+install|-m\s+pip|curl|wget"
                          r"|ensurepip|pipx)\b")
    assert not installs.findall(text), "install commands in .ci/run: %s" % installs.findall(text)
    makes = re.findall(r"^(?:exec\s+)?make\b(.*)$", text, re.M)
    assert [shlex.split(m) for m in makes] == [["test"]], "make calls in .ci/run: %s" % makes


@pytest.mark.parametrize("target", WITH_IDP)
def test_targets_that_start_the_identity_providers_install_what_they_run(target):
    assert {"venv", "system-deps", "idp-packages"} <= set(prerequisites(target))


@pytest.mark.parametrize("target", SYSTEM_ONLY)
def test_targets_that_run_system_programs_install_them(target):
    assert "system-deps" in prerequisites(target)


def test_idp_packages_come_from_the_lock_file_after_system_deps():
    makefile = (ROOT / "Makefile").read_text()
    rule = re.search(r"^\$\(OIDC_STAMP\):([^\n]*)\n((?:\t[^\n]*\n)+)", makefile, re.M)
    assert rule, "no rule for $(OIDC_STAMP) in the Makefile"
    normal, _, order_only = rule.group(1).partition("|")
    assert "$(OIDC_IDP)/package-lock.json" in normal.split()
    assert "system-deps" in order_only.split()
    assert "npm ci" in rule.group(2)
    assert re.search(r"^OIDC_STAMP := \$\(OIDC_IDP\)/node_modules/", makefile, re.M)
    assert prerequisites("idp-packages") == ["$(OIDC_STAMP)"]


def test_system_deps_covers_every_program_the_suite_runs():
    assert prerequisites("system-deps") == []
    assert "tests/ci/system-deps.sh" in commands(ROOT / "Makefile")
    table = script_table()
    assert {name: table.get(name) for name in NEEDED} == NEEDED
    assert {name: table.get(name) for name in NEEDED_FILES} == NEEDED_FILES


def test_the_virtualenv_is_made_after_system_deps():
    """python-ldap has no wheel: the headers must be there before pip builds it."""
    makefile = (ROOT / "Makefile").read_text()
    rule = re.search(r"^\$\(STAMP\):([^\n]*)$", makefile, re.M)
    assert rule and "system-deps" in rule.group(1).partition("|")[2].split()


# -- what tests/ci/system-deps.sh decides, with stand-ins for id, sudo and apt-get


def stub(path: Path, body: str) -> None:
    path.write_text("#!%s\nimport os, sys\n%s" % (sys.executable, body))
    path.chmod(0o755)


@pytest.fixture
def machine(tmp_path):
    """A PATH of stand-ins: `id -u` prints $UID_; sudo (with -n) runs its command when
    $SUDO_ is "nopasswd" and else fails as when it asks for a password; apt-get logs its
    arguments and installs stand-ins of the programs of the packages it is given.
    Returns run(present, uid, sudo, apt): sudo None or apt None leave that program out."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    for tool in ("bash", "env", "true"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    stub(bin_dir / "id", 'print(os.environ["UID_"] if sys.argv[1:] == ["-u"] else "uid=%s" % os.environ["UID_"])\n')
    sudo_stub = ('args = sys.argv[1:]\n'
                 'if os.environ.get("SUDO_") != "nopasswd" or args[:1] != ["-n"]:\n'
                 '    sys.exit("sudo: a password is required")\n'
                 'if args[1:] != ["true"]:\n'
                 '    with open(%r, "a") as f: f.write("sudo ")\n'
                 'os.execvp(args[1], args[1:])\n' % str(log))
    programs = {package: name for name, package in NEEDED.items()}
    apt_get = ('with open(%r, "a") as f: f.write(" ".join(sys.argv[1:]) + " DEBIAN_FRONTEND=%%s\\n"'
               ' %% os.environ.get("DEBIAN_FRONTEND"))\n'
               'programs = %r\n'
               'if "install" in sys.argv and os.environ.get("APT_") != "broken":\n'
               '    for package in sys.argv[sys.argv.index("install") + 1:]:\n'
               '        if package in programs:\n'
               '            path = os.path.join(%r, programs[package])\n'
               '            open(path, "w").write("#!/bin/sh\\n")\n'
               '            os.chmod(path, 0o755)\n' % (str(log), programs, str(bin_dir)))

    def run(present=(), uid=1000, sudo=None, apt="ok", via_make=False):
        for name in present:
            stub(bin_dir / name, "")
        if sudo:
            stub(bin_dir / "sudo", sudo_stub)
        if apt:
            stub(bin_dir / "apt-get", apt_get)
        env = {"PATH": str(bin_dir), "UID_": str(uid), "SUDO_": sudo or "", "APT_": apt or "", "HOME": str(tmp_path)}
        if via_make:
            command = [shutil.which("make"), "-s", "--no-print-directory", "-C", str(ROOT), "system-deps"]
        else:
            command = [str(bin_dir / "bash"), str(SCRIPT)]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        result.apt = log.read_text().splitlines() if log.exists() else []
        result.installed = sorted(p.name for p in bin_dir.iterdir() if p.name in NEEDED)
        return result

    return run


def test_nothing_is_done_when_every_program_is_there(machine):
    result = machine(present=NEEDED, uid=1000)
    assert (result.returncode, result.stdout, result.stderr, result.apt) == (0, "", "", [])


def test_when_sudo_asks_for_a_password_it_stops_with_the_line_to_run(machine):
    result = machine(present=["node", "npm", "skopeo"], uid=1000, sudo="password")
    assert result.returncode == 2
    assert "    sudo apt-get update && sudo apt-get install -y -q --no-install-recommends xmlsec1 graphviz\n" \
        in result.stderr
    assert "not found: xmlsec1 dot" in result.stderr
    assert result.apt == []


def test_without_root_or_sudo_it_stops_with_the_line_to_run_as_root(machine):
    result = machine(present=["xmlsec1", "dot", "skopeo"], uid=1000)
    assert result.returncode == 2
    assert "not root, and no sudo" in result.stderr
    assert "\n    apt-get update && apt-get install -y -q --no-install-recommends nodejs npm\n" in result.stderr
    assert result.apt == []


def test_make_system_deps_runs_it(machine):
    result = machine(present=["node", "npm", "dot", "skopeo"], uid=1000, sudo="password", via_make=True)
    assert result.returncode != 0
    assert "sudo apt-get install -y -q --no-install-recommends xmlsec1\n" in result.stderr
    assert result.apt == []


def test_as_root_it_installs_the_missing_packages(machine):
    result = machine(present=["npm", "skopeo"], uid=0)
    assert result.returncode == 0, result.stderr
    assert result.apt == [
        "update -q DEBIAN_FRONTEND=None",
        "install -y -q --no-install-recommends xmlsec1 nodejs graphviz DEBIAN_FRONTEND=noninteractive",
    ]
    assert result.installed == sorted(NEEDED)


def test_with_password_less_sudo_it_installs_through_sudo(machine):
    result = machine(present=["xmlsec1", "dot", "skopeo"], uid=1000, sudo="nopasswd")
    assert result.returncode == 0, result.stderr
    assert result.apt == [
        "sudo update -q DEBIAN_FRONTEND=None",
        "sudo install -y -q --no-install-recommends nodejs npm DEBIAN_FRONTEND=noninteractive",
    ]


def test_an_install_that_leaves_a_program_missing_fails(machine):
    result = machine(present=["xmlsec1", "node", "npm", "skopeo"], uid=0, apt="broken")
    assert result.returncode == 1
    assert "still not found after the install: dot" in result.stderr


def test_without_apt_get_it_names_what_is_missing(machine):
    result = machine(present=["xmlsec1", "node", "npm", "skopeo"], uid=0, apt=None)
    assert result.returncode == 2
    assert "no apt-get here; install the packages that provide dot" in result.stderr
