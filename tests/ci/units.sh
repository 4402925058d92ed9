#!/usr/bin/env bash
# ansible-test units on a copy of the collection (see mktree.py): the tests that
# need no service (tests/unit).
#
#   tests/ci/units.sh [ansible-test units options...]
#   tests/ci/units.sh tests/unit/plugins/module_utils/test_http.py
#
# The live tests (tests/live: against the reference service, with real
# ansible-playbook) run with plain pytest instead (make live): ansible-test runs
# each test in a fork of its own, which costs them an eighth more processor time
# (557 s against 491 s, one test at a time) and proves nothing more of them. Neither the tests nor the service ship in
# the collection (build_ignore), so the tests are copied into the units tree on
# top of what mktree.py copies, with the one file of tests/live they read
# (compat_names.json: the names of the collections this one stands in for).
#
# VENV (default .venv) holds ansible-core and pytest; the tests run with its
# Python (--local).
# Results (junit) are copied back to tests/output/units/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
[ -x "$venv/bin/ansible-test" ] || { echo "no ansible-test in $venv (run: make venv)" >&2; exit 2; }
export PATH="$venv/bin:$PATH"
python=$("$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')

work=$root/.run/ansible-test/units
mkdir -p "$work"
exec 9>"$work.lock"
flock 9
tree=$(python "$root/tests/ci/mktree.py" --root "$root" --dest "$work")

# The tests: tracked or new (not ignored) files, as mktree.py lists them.
(cd "$root" && git ls-files -z --cached --others --exclude-standard -- tests/unit tests/conftest.py tests/live/compat_names.json) |
    while IFS= read -r -d '' rel; do
        [ -f "$root/$rel" ] || continue
        case $rel in */__pycache__/*|*.pyc) continue ;; esac
        mkdir -p "$tree/$(dirname "$rel")"
        cp -p "$root/$rel" "$tree/$rel"
    done
# The tests drive the modules the way users do, through ansible-playbook and
# ansible on the controller, where these API modules run. ansible-test would run
# tests/unit/plugins/modules and module_utils isolated from the controller's code
# (no ansible.cli); in this tree the modules are declared controller-only, so the
# tests run with all of ansible-core. Sanity keeps tests/config.yml as it is:
# the modules' code stays checked on Python 3.8 to 3.13.
cat >"$tree/tests/config.yml" <<'YAML'
---
modules:
  python_requires: controller
  controller_only: true
YAML
if [ -z "$(find "$tree/tests/unit" -name 'test_*.py' 2>/dev/null)" ]; then
    echo "no unit tests in tests/unit" >&2
    exit 1
fi

status=0
(cd "$tree" && ansible-test units --local --python "$python" --color no "$@") || status=$?

rm -rf "$root/tests/output/units"
mkdir -p "$root/tests/output/units"
if [ -d "$tree/tests/output" ]; then
    cp -r "$tree/tests/output/." "$root/tests/output/units/"
fi
exit "$status"
