#!/usr/bin/env bash
# Make (or reuse) a tool virtualenv from a pinned requirements file and print its path.
#
#   venv=$(tests/ci/tools-venv.sh NAME REQUIREMENTS)
#
# The virtualenv is kept in the machine's cache (tests/ci/cached-venv.sh), made again only
# when the requirements file or the interpreter changes. PYTHON (default python3.11) is the
# interpreter it is made from.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
name=${1:?usage: tools-venv.sh NAME REQUIREMENTS}
reqs=${2:?usage: tools-venv.sh NAME REQUIREMENTS}
exec "$root/tests/ci/cached-venv.sh" "tools-$name" "${PYTHON:-python3.11}" -r "$reqs"
