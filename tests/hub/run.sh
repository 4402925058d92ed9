#!/usr/bin/env bash
# make test's hub step (make hub-test runs it alone): the real Automation Hub, started once for the step.
#
#   tests/hub/run.sh [TARGET...]
#
# 1. starts a Hub (tests/hub/hubctl.py start) in a new temporary directory, its virtualenv and its
#    migrated database from the machine's cache (made there the first time: README.md beside this file);
# 2. runs the integration targets of the Hub (tests/ci/targets.py hub: those whose aliases say hub; or
#    the TARGETs named) in one ansible-test run against it (tests/ci/integration.sh with
#    INTEGRATION_LAYOUT=hub: integration_config.yml gives hub_host, hub_content_url, hub_ca_path,
#    hub_username, hub_password);
# 3. runs pytest over tests/hub/tests with HUB_URL, HUB_CONTENT_URL, HUB_CA_PATH, HUB_USERNAME,
#    HUB_PASSWORD and HUB_DIR set, so that its tests use this Hub rather than start one (it trusts a
#    gateway in front of it: hubctl.py start --trust-gateway, for test_hub_gateway.py);
# 4. stops the Hub whatever happened, checks that none of its processes is left, and removes the
#    directory.
#
# Every part runs even when an earlier one failed; the exit status is 0 only when all passed.
# HUB_TEST_DIR: a directory to run the Hub in instead (kept afterwards, its database reused by the next
# run). VENV (default .venv) holds ansible-core and pytest. HUB_PYTEST_ARGS: more arguments of pytest.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
export PATH="$venv/bin:$PATH"
hubctl=$root/tests/hub/hubctl.py

# The targets, before anything starts (a name that is no target fails here).
names=$(python "$root/tests/ci/targets.py" hub --why "hub: " "$@")
mapfile -t targets <<<"$names"
[ -n "$names" ] || targets=()
if [ $# -gt 0 ] && [ ${#targets[@]} -eq 0 ]; then
    echo "hub: none of the targets named runs against the Hub" >&2
    exit 1
fi

if [ -n "${HUB_TEST_DIR:-}" ]; then
    dir=$HUB_TEST_DIR temporary=
    mkdir -p "$dir"
else
    # Not under the clone, nor under TMPDIR: as root, PostgreSQL runs as its own user, which must be able
    # to reach the directory (a clone or a TMPDIR under a private home could not be). Each run has its
    # own, and its own ports.
    dir=$(mktemp -d /tmp/automation-service-hub.XXXXXX) temporary=1
    chmod 0755 "$dir"
fi
dir=$(cd "$dir" && pwd)

# shellcheck disable=SC2317  # called by the EXIT trap
finish() {
    local status=$?
    # hubctl stop fails when a process of the instance outlived the stop (it ends it, and names it)
    python "$hubctl" stop --dir "$dir" >&2 || status=1
    if [ -n "$temporary" ]; then
        rm -rf "$dir"
    fi
    exit "$status"
}
trap finish EXIT

# The processor time of what this script ran and waited for so far (user + system, in seconds; the Hub's
# servers are not among them: hubctl stop says theirs).
children_cpu() {  # sets cpu; bash's times runs in this shell (in a subshell it would know no children)
    times > "$dir.times"
    cpu=$(awk 'NR == 2 { total = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); total += t[1] * 60 + t[2] } printf "%.0f", total }' "$dir.times")
    rm -f "$dir.times"
}

t0=$SECONDS
# --trust-gateway: the reference gateway of tests/hub/tests/test_hub_gateway.py may stand in front of it
exports=$(python "$hubctl" start --trust-gateway --dir "$dir")
eval "$exports"
children_cpu
export HUB_URL HUB_CONTENT_URL HUB_CA_PATH HUB_USERNAME HUB_PASSWORD HUB_DIR=$dir
echo "hub: galaxy-ng at $HUB_URL (content app $HUB_CONTENT_URL), started in $((SECONDS - t0)) s ($cpu s of processor time)" >&2

status=0
if [ ${#targets[@]} -gt 0 ]; then
    children_cpu
    t0=$SECONDS c0=$cpu
    INTEGRATION_LAYOUT=hub VENV=$venv \
        ANSIBLE_TEST_WORK=$root/.run/ansible-test/hub TEST_OUTPUT=$root/tests/output/hub \
        "$root/tests/ci/integration.sh" --continue-on-error "${targets[@]}" || status=$?
    children_cpu
    echo "hub: ${#targets[@]} integration targets in $((SECONDS - t0)) s ($((cpu - c0)) s of processor time)" >&2
else
    echo "hub: no integration target of the Hub" >&2
fi

if [ $# -eq 0 ]; then
    children_cpu
    t0=$SECONDS c0=$cpu
    # shellcheck disable=SC2086  # HUB_PYTEST_ARGS is a list of arguments
    (cd "$root" && python -m pytest -q -p no:cacheprovider "$root/tests/hub/tests" ${HUB_PYTEST_ARGS:-}) || status=1
    children_cpu
    echo "hub: pytest in $((SECONDS - t0)) s ($((cpu - c0)) s of processor time)" >&2
fi
exit "$status"
