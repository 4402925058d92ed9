#!/usr/bin/env bash
# awx.awx's own integration targets, with awx.awx and with automation.service,
# on the reference service or on the real AWX test bed (tests/realawx).
#
#   tests/awx_suite/run.sh reference|real [TARGET...]
#
# The targets and awx.awx come from the AWX 24.6.1 sources that the real AWX
# test bed keeps (make real-service builds it, or reuses its cache). Their
# projects name public repositories (ansible-tower-samples, test-playbooks): the
# services clone local mirrors of them instead, so that the service and the
# modules still see the public URLs (tests/service/sample_repos.py: made once in
# the cache, from AWX_SAMPLE_REPOS's git bundles, else from GitHub).
#
# The plays run under ansible-core 2.16, the oldest this collection supports and
# the newest of the time the targets were written for (2.19 changed templating:
# a string is no longer a condition, a lookup's number no longer equals a
# string), in a virtualenv of their own.
#
# The table goes to tests/output/awx-suite/<kind>/table.txt; the exit status is
# 1 when a target passes with awx.awx and fails with automation.service.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kind=${1:?usage: run.sh reference|real [TARGET...]}
shift
case $kind in reference|real) ;; *) echo "run.sh: unknown service kind $kind" >&2; exit 2 ;; esac

realawx=$root/tests/realawx/realawx
# One run at a time uses the real AWX (it is reset, started and stopped here).
if [ "$kind" = real ] && [ -z "${REALAWX_HELD:-}" ]; then exec "$realawx" hold "$0" "$kind" "$@"; fi
bed=$("$realawx" path)
src=$bed/src
awx_collection=$bed/awx-collection/ansible_collections/awx/awx
[ -d "$src/awx_collection" ] && [ -d "$awx_collection" ] || {
    echo "run.sh: the real AWX test bed is not built (make real-service)" >&2
    exit 2
}

# Local mirrors of the sample repositories, made now when missing (a failure to make them fails
# the run); the reference service's start finds them (tests/service/svcctl).
python "$root/tests/service/sample_repos.py" >/dev/null

# ansible-core for the plays, and what the modules of both collections need (awx.awx's
# export and import need awxkit: the one of the same sources, as AWX's own CI installs it).
# The virtualenv is kept in the machine's cache (tests/ci/cached-venv.sh).
venv=$("$root/tests/ci/cached-venv.sh" awx-suite "${PYTHON:-python3.11}" ansible-core==2.16.19 requests python-dateutil pytz "$src/awxkit")
mkdir -p "$root/.run/awx-suite"
export AWX_SUITE_PYTHON=$venv/bin/python

svcdir=$root/.run/awx-suite-service-$kind
started=
# shellcheck disable=SC2317  # called by the EXIT trap
stop_service() {
    [ -n "$started" ] || return 0
    if [ "$kind" = reference ]; then
        "$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 || true
    else
        "$realawx" stop >&2 || true
    fi
}
trap stop_service EXIT

started=1
if [ "$kind" = reference ]; then
    port=$(python "$root/tests/ci/free_port.py")
    exports=$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir")
else
    "$realawx" reset >&2
    exports=$("$realawx" start)
fi
eval "$exports"

# awx.awx's results on the reference service are kept in the cache, keyed by what decides them
# (run.py --awx-cache): awx.awx runs again when the reference service changes.
keep=()
[ "$kind" = reference ] && keep=(--awx-cache "$(dirname "$bed")/awx-suite-results")
python "$root/tests/awx_suite/run.py" --awx-source "$src" --awx-collection "$awx_collection" \
    --service-kind "$kind" "${keep[@]}" "$@"
