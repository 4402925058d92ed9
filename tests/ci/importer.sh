#!/usr/bin/env bash
# Build the collection artifact and run galaxy-importer on it, as Galaxy and
# Automation Hub do on upload. galaxy-importer exits 0 even when it prints
# warnings or errors: this fails on any line that starts with WARNING: or ERROR:.
#
#   tests/ci/importer.sh
#
# Tools: requirements-importer.txt, in a virtualenv of the machine's cache (tests/ci/tools-venv.sh). Config: tests/ci/galaxy-importer.cfg.
# The importer's output goes to tests/output/importer/importer.log.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
venv=$(tests/ci/tools-venv.sh importer requirements-importer.txt)
export PATH="$venv/bin:$PATH"

out=$root/tests/output/importer
work=$root/.run/importer
rm -rf "$out" "$work"
mkdir -p "$out" "$work/tmp"
ansible-galaxy collection build --force --output-path "$work" . >/dev/null
artifact=$(ls "$work"/automation-service-*.tar.gz)
echo "importer: $(basename "$artifact")"

export GALAXY_IMPORTER_CONFIG=$root/tests/ci/galaxy-importer.cfg
export GALAXY_IMPORTER_ANSIBLE_LOCAL_TMP=$work/tmp GALAXY_IMPORTER_TMP_ROOT_DIR=$work/tmp
status=0
# It writes importer_result.json into the current directory.
(cd "$work" && python -m galaxy_importer.main "$artifact") >"$out/importer.log" 2>&1 || status=$?
cp "$work/importer_result.json" "$out/" 2>/dev/null || true
grep -v '^  ' "$out/importer.log" | grep -v '^\(Loading\|Linting\) ' || true

# The importer's flake8 check (run_flake8), done once: galaxy-importer starts a flake8 per plugin
# file, a hundred processes that were most of its time. The same flake8, with the importer's own
# settings (its constants), over the files it lints (every plugin of the artifact; plugin_utils is
# no plugin type); each finding is a WARNING: line, as the importer prints it.
unpacked=$work/unpacked
mkdir -p "$unpacked"
tar -xzf "$artifact" -C "$unpacked"
read -r ignore select length < <(python -c 'from galaxy_importer import constants as c
print(c.FLAKE8_IGNORE_ERRORS, c.FLAKE8_SELECT_ERRORS, c.FLAKE8_MAX_LINE_LENGTH)')
mapfile -t linted < <(cd "$unpacked" && find plugins -mindepth 1 -maxdepth 1 -type d ! -name plugin_utils | sort)
echo "importer: flake8 over ${linted[*]}"
(cd "$unpacked" && flake8 --exit-zero --isolated --extend-ignore "$ignore" --select "$select" \
    --max-line-length "$length" -- "${linted[@]}") | sed 's/^/WARNING: flake8: /' >>"$out/importer.log"
if grep -nE '^(WARNING|ERROR):' "$out/importer.log" >&2; then
    echo "importer: FAILED: galaxy-importer (or its flake8 check, run here) printed the WARNING/ERROR lines above" >&2
    exit 1
fi
if [ "$status" != 0 ]; then
    echo "importer: FAILED: galaxy-importer exited $status" >&2
    exit "$status"
fi
echo "importer: no warnings, no errors"
