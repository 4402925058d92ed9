#!/usr/bin/env bash
# ansible-test sanity on a copy of the collection (see mktree.py), offline-safe.
#
#   tests/ci/sanity.sh [ansible-test sanity options...]
#
# VENV (default .venv) is the environment holding ansible-core.
# The Python-specific tests (compile, import) run on the oldest and the newest
# CPython the modules support (3.8 and 3.13) and on this virtualenv's (the
# controller's), those of them the machine has (tests/ci/pythons.sh puts them on
# PATH): a feature a Python lacks or has removed shows at the boundaries, and each
# Python between would repeat them for half a minute of processor time.
# SANITY_PYTHONS="3.8 3.9 3.10 3.11 3.12 3.13" runs them on others; SANITY_PYTHON=3.11
# limits them to one. tests/config.yml keeps the modules' tests at Python 3.8 and later.
# Results (junit, bot output) are copied back to tests/output/sanity/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
[ -x "$venv/bin/ansible-test" ] || { echo "no ansible-test in $venv (run: make venv)" >&2; exit 2; }
export PATH="$venv/bin:$PATH"

# One tree per step; a second run of the same step waits for the first.
# ANSIBLE_TEST_WORK and TEST_OUTPUT move the tree and the results (the version matrix does).
work=${ANSIBLE_TEST_WORK:-$root/.run/ansible-test/sanity}
mkdir -p "$work"
exec 9>"$work.lock"
flock 9
tree=$(python "$root/tests/ci/mktree.py" --root "$root" --dest "$work")
# The sanity ignore files do not ship (galaxy-importer warns about any ignore
# file, even an empty one), but they apply here.
mkdir -p "$tree/tests/sanity"
cp "$root"/tests/sanity/ignore-*.txt "$tree/tests/sanity/" 2>/dev/null || true

controller=$("$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
rm -rf "$root/.run/pythons-sanity"
pythons=$(PYTHON_VERSIONS=${SANITY_PYTHONS:-3.8 $controller 3.13} "$root/tests/ci/pythons.sh" "$root/.run/pythons-sanity")
# pyenv's shims answer for every version it has (2.7 too) and fail for those not
# selected: leave them out, so ansible-test sees exactly the Pythons above.
path=$(tr ':' '\n' <<<"$PATH" | grep -v '/shims$' | paste -sd: -)
export PATH="$venv/bin:$pythons:$path"
python_args=()
if [ -n "${SANITY_PYTHON:-}" ]; then python_args=(--python "$SANITY_PYTHON"); fi

# ansible-test bootstraps pip into each sanity venv with get-pip.py, which it
# would download from ci-files.testing.ansible.com; install a stand-in that uses
# the pip wheel bundled with Python (ensurepip) instead.
python "$root/tests/ci/get_pip.py" --install

# Every sanity test of this ansible-core runs, offline once its requirements
# come from the package index (pslint and shellcheck report themselves skipped
# when there is nothing for them to check or no tool); ansible-test warns that it
# skips the Python-specific ones on the Pythons left off PATH above.
status=0
(cd "$tree" && ansible-test sanity "${python_args[@]}" --color no --junit "$@") || status=$?

output=${TEST_OUTPUT:-$root/tests/output/sanity}
rm -rf "$output"
mkdir -p "$output"
if [ -d "$tree/tests/output" ]; then
    cp -r "$tree/tests/output/." "$output/"
fi
exit "$status"
