#!/usr/bin/env bash
# Make every CPython 3.8 to 3.13 the machine has reachable as python3.X, for
# ansible-test, which looks the interpreters up on PATH by that name.
#
#   dir=$(tests/ci/pythons.sh DIR)   # fills DIR with python3.X symlinks, prints DIR
#   PATH="$dir:$PATH" ansible-test sanity ...
#
# Looks on PATH first, then in pyenv's versions (PYENV_ROOT, default ~/.pyenv),
# newest patch release first. Tells on stderr which versions it found and which
# it did not. PYTHON_VERSIONS (default "3.8 3.9 3.10 3.11 3.12 3.13") overrides the list.
set -euo pipefail

dir=${1:?usage: pythons.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
found=() missing=()
for v in ${PYTHON_VERSIONS:-3.8 3.9 3.10 3.11 3.12 3.13}; do
    candidates=()
    # PATH, skipping pyenv's shims (they fail for versions not selected) and this directory.
    while IFS= read -r p; do
        case $p in */shims/*|"$dir"/*) continue ;; esac
        candidates+=("$p")
    done < <(type -ap "python$v" 2>/dev/null || true)
    for p in $(ls -d "$pyenv_root"/versions/"$v".*/bin/python"$v" 2>/dev/null | sort -t. -k3,3nr); do
        candidates+=("$p")
    done
    ok=
    for p in "${candidates[@]}"; do
        # The interpreter itself, not a virtual environment's link to it: a link into a
        # venv made from this directory would point back here (a loop).
        base=$("$p" -c 'import os, sys, venv, ensurepip; print(os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable))' 2>/dev/null) || continue
        case $base in "$dir"/*|"") continue ;; esac
        if [ -x "$base" ]; then
            # Replaced atomically: a run in progress may be using the link.
            ln -sfn "$base" "$dir/.python$v.$$"
            mv -fT "$dir/.python$v.$$" "$dir/python$v"
            ok=$base
            break
        fi
    done
    if [ -n "$ok" ]; then found+=("$v"); else missing+=("$v"); rm -f "$dir/python$v"; fi
done
echo "pythons: found ${found[*]:-none}${missing:+; missing ${missing[*]}}" >&2
echo "$dir"
