#!/usr/bin/env bash
# The programs outside the virtualenv that the tests and the demo need, from
# Debian's packages. Installs the packages of the ones missing from PATH when it
# can: as root, or through sudo when sudo asks for no password. Otherwise it
# stops at once (exit 2) and prints the apt-get line to run.
#
#   tests/ci/system-deps.sh          # make system-deps
#
# Nothing is done when every program is there, however it was installed.
# Each line below the loop: program, Debian package, what needs it. A "program" that
# starts with / is a file instead (a library's header that a Python package builds
# against): it is there or its package is installed.
set -euo pipefail

present() {
    case $1 in
        /*) [ -e "$1" ] ;;
        *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

missing=() packages=()
while read -r program package _; do
    case $program in ''|'#'*) continue ;; esac
    present "$program" && continue
    missing+=("$program")
    case " ${packages[*]} " in *" $package "*) ;; *) packages+=("$package") ;; esac
done <<'DEPS'
xmlsec1  xmlsec1   the SAML test identity provider signs with it (pysaml2)
node     nodejs    the OIDC test identity provider (tests/idp/oidc/server.mjs)
npm      npm       installs the OIDC identity provider's packages (npm ci)
dot      graphviz  the docs' sequence diagrams (sphinx.ext.graphviz)
/usr/sbin/slapd           slapd         the LDAP test directory (tests/idp/idpctl.py starts an instance of its own)
/usr/sbin/slapadd         slapd         seeds that directory's database before it starts
/usr/include/ldap.h       libldap-dev   python-ldap (requirements-dev.txt) builds against it: PyPI has no wheel
/usr/include/sasl/sasl.h  libsasl2-dev  python-ldap builds against it too
skopeo   skopeo    pushes the Hub targets' test image through the Hub's registry (ah_ee)
/usr/lib/postgresql/15/bin/initdb  postgresql-15  the real Automation Hub's database server (tests/hub/hubctl.py)
DEPS
[ ${#missing[@]} -eq 0 ] && exit 0

apt=(apt-get install -y -q --no-install-recommends "${packages[@]}")
echo "system-deps: not found: ${missing[*]} (Debian packages: ${packages[*]})" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: no apt-get here; install the packages that provide ${missing[*]}, then run make again" >&2
    exit 2
fi
if [ "$(id -u)" = 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    sudo=(sudo -n)
elif command -v sudo >/dev/null 2>&1; then
    echo "system-deps: not root, and sudo asks for a password; run this, then make again:" >&2
    echo "    sudo apt-get update && sudo ${apt[*]}" >&2
    exit 2
else
    echo "system-deps: not root, and no sudo; as root, run this, then make again:" >&2
    echo "    apt-get update && ${apt[*]}" >&2
    exit 2
fi

echo "system-deps: ${sudo[*]}${sudo[*]:+ }${apt[*]}" >&2
"${sudo[@]}" apt-get update -q >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive "${apt[@]}" >&2

hash -r
still=()
for program in "${missing[@]}"; do
    present "$program" || still+=("$program")
done
if [ ${#still[@]} -gt 0 ]; then
    echo "system-deps: still not found after the install: ${still[*]}" >&2
    exit 1
fi
