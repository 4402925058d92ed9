#!/usr/bin/env bash
# Make (or reuse) a tool virtualenv from a pinned requirements file and print its path.
#
#   venv=$(tests/ci/tools-venv.sh NAME REQUIREMENTS)    # .run/tools/NAME
#
# Built again only when the requirements file changes. PYTHON (default python3.11)
# is the interpreter it is made from.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
name=${1:?usage: tools-venv.sh NAME REQUIREMENTS}
reqs=${2:?usage: tools-venv.sh NAME REQUIREMENTS}
venv=$root/.run/tools/$name
mkdir -p "$root/.run/tools"
exec 8>"$venv.lock"
flock 8
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$reqs" "$venv/.requirements.txt"; then
    echo "tools: building $venv from $reqs" >&2
    rm -rf "$venv"
    "${PYTHON:-python3.11}" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$reqs" >&2
    cp "$reqs" "$venv/.requirements.txt"
fi
echo "$venv"
