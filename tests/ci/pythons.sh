#!/usr/bin/env bash
# Make every CPython 3.8 to 3.13 the machine has reachable as python3.X, for
# ansible-test, which looks the interpreters up on PATH by that name; or tell
# which interpreter a version means.
#
#   dir=$(tests/ci/pythons.sh DIR)   # fills DIR with python3.X symlinks, prints DIR
#   PATH="$dir:$PATH" ansible-test sanity ...
#   python=$(tests/ci/pythons.sh --which 3.11)   # the interpreter of 3.11, or exit 1
#   python=$(tests/ci/pythons.sh --which "$PYTHON")   # python3.11 as 3.11 (else PATH's), a path as given
#
# Looks on PATH first, then in pyenv's versions (PYENV_ROOT, default ~/.pyenv),
# newest patch release first; pyenv's shims are skipped (they fail for versions not
# selected), and so are virtual environments.
# So where the machine has a distribution's interpreter (Debian's /usr/bin/python3.11),
# that one is taken before a pyenv build of the same version, whatever PATH holds first
# (the project's .venv, inside make): the virtualenvs (tests/ci/cached-venv.sh) and
# ansible-test always get the same interpreter. Distributions build CPython with
# profile-guided and link-time optimisation, pyenv by default does not: importing
# ansible-playbook's code takes 0.45 s against 0.6 s here, although a whole run of the
# integration targets takes about as long on either.
# Tells on stderr which versions it found and which it did not. PYTHON_VERSIONS
# (default "3.8 3.9 3.10 3.11 3.12 3.13") overrides the list.
set -euo pipefail

pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}

# The interpreter of version $1 (a real file, not a link in $2 or a venv's), on stdout.
interpreter() {
    local v=$1 skip=${2:-} p base candidates=()
    while IFS= read -r p; do
        case $p in */shims/*) continue ;; esac
        if [ -n "$skip" ]; then case $p in "$skip"/*) continue ;; esac; fi
        candidates+=("$p")
    done < <(type -ap "python$v" 2>/dev/null || true)
    for p in $(ls -d "$pyenv_root"/versions/"$v".*/bin/python"$v" 2>/dev/null | sort -t. -k3,3nr); do
        candidates+=("$p")
    done
    for p in "${candidates[@]}"; do
        # The interpreter itself, never a virtual environment's link to it (its base
        # interpreter is found on its own; a venv made from the links' directory would
        # point back there, a loop), and one that can make virtual environments.
        base=$("$p" -c 'import os, sys, venv, ensurepip
if sys.prefix == sys.base_prefix: print(os.path.realpath(sys.executable))' 2>/dev/null) || continue
        case $base in "") continue ;; esac
        if [ -n "$skip" ]; then case $base in "$skip"/*) continue ;; esac; fi
        if [ -x "$base" ]; then
            echo "$base"
            return 0
        fi
    done
    return 1
}

if [ "${1:-}" = --which ]; then
    # 3.X or python3.X: as above; anything else (a path, another command) is looked up as it is.
    name=${2:?usage: pythons.sh --which 3.X|python3.X|PATH}
    case $name in
        3.[0-9]*) interpreter "$name" ;;
        python3.[0-9]*) interpreter "${name#python}" || command -v "$name" ;;
        *) command -v "$name" ;;
    esac
    exit
fi

dir=${1:?usage: pythons.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
found=() missing=()
for v in ${PYTHON_VERSIONS:-3.8 3.9 3.10 3.11 3.12 3.13}; do
    if base=$(interpreter "$v" "$dir"); then
        # Replaced atomically: a run in progress may be using the link.
        ln -sfn "$base" "$dir/.python$v.$$"
        mv -fT "$dir/.python$v.$$" "$dir/python$v"
        found+=("$v")
    else
        missing+=("$v")
        rm -f "$dir/python$v"
    fi
done
echo "pythons: found ${found[*]:-none}${missing:+; missing ${missing[*]}}" >&2
echo "$dir"
