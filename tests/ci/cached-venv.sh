#!/usr/bin/env bash
# Make (or reuse) a virtualenv in the machine's cache, outside the clone, and print its path.
#
#   venv=$(tests/ci/cached-venv.sh NAME PYTHON REQUIREMENTS...)
#
# REQUIREMENTS are pip arguments: a requirements file (-r FILE) or requirement specifiers.
# The virtualenv lives under the machine's cache root
# (AUTOMATION_SERVICE_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/automation-service),
# in venvs/NAME-KEY, where KEY is a digest of the interpreter's version and of the
# requirements' text (the contents of a -r file, not its name): so every clone and every
# `make test` on the machine shares it, and a changed requirement makes a new one. Each use
# marks it; one of the same NAME unused for a week is removed when another is made (a clone
# of an older commit may still use it meanwhile). A virtualenv is complete when its
# .complete file exists: one that was interrupted is made again. Concurrent callers wait
# for each other (flock).
set -euo pipefail

name=${1:?usage: cached-venv.sh NAME PYTHON REQUIREMENTS...}
python=${2:?usage: cached-venv.sh NAME PYTHON REQUIREMENTS...}
shift 2
[ $# -gt 0 ] || { echo "cached-venv.sh: no requirements given" >&2; exit 2; }
# The interpreter itself, not a link to it in a clone: the virtualenv outlives the clone. A bare
# version name (python3.11) means the interpreter tests/ci/pythons.sh picks for that version, as for
# ansible-test's.
python=$("$(dirname "${BASH_SOURCE[0]}")/pythons.sh" --which "$python") || { echo "cached-venv.sh: no $2 found" >&2; exit 2; }
python=$(readlink -f "$python")

root=${AUTOMATION_SERVICE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/automation-service}
case $root in /*) ;; *) echo "cached-venv.sh: the cache root must be an absolute path, not $root" >&2; exit 2 ;; esac

# What decides the virtualenv's contents: the interpreter and the requirements' text.
key_text() {
    "$python" -c 'import sys; print(sys.version)'
    while [ $# -gt 0 ]; do
        if [ "$1" = -r ]; then
            printf -- '-r\n'
            cat "$2"
            shift 2
        else
            printf '%s\n' "$1"
            shift
        fi
    done
}
key=$(key_text "$@" | sha256sum | cut -c1-16)
venv=$root/venvs/$name-$key

mkdir -p "$root/venvs"
exec 7>"$root/venvs/$name.lock"
flock 7
if [ ! -e "$venv/.complete" ]; then
    echo "cached-venv: building $venv" >&2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >&2
    touch "$venv/.complete"
    for old in "$root/venvs/$name"-*/.complete; do
        [ -e "$old" ] || continue
        if [ "$(dirname "$old")" != "$venv" ] && [ -n "$(find "$old" -mtime +7)" ]; then
            rm -rf "$(dirname "$old")"
        fi
    done
fi
touch "$venv/.complete"
flock -u 7
echo "$venv"
