#!/usr/bin/env bash
# make test's step on the real AWX test bed: the integration targets that can run
# there go through the differential check (tests/diffcheck/run.sh): they get the
# real AWX's answers, as tests/ci/integration-real.sh runs them, and the reference
# service's answers to the same requests are compared with those. The targets the
# check leaves out but the real AWX can run (tests/diffcheck/known.yml left_out:
# single sign-on, whose identity providers send the browser back to the real AWX
# past the proxy) then run directly with tests/ci/integration-real.sh. One hold
# of the real AWX covers both. Fails when a target fails or a difference is not
# explained.
#
#   tests/ci/real-checked.sh
#
# Results: tests/output/diffcheck/ and tests/output/integration-real/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
export PATH="$venv/bin:$PATH"
[ -n "${REALAWX_HELD:-}" ] || exec "$root/tests/realawx/realawx" hold "$0" "$@"

mapfile -t direct < <(python "$root/tests/ci/targets.py" direct)

status=0
echo "===== real-checked: the targets through the differential check" >&2
"$root/tests/diffcheck/run.sh" || status=$?
if [ ${#direct[@]} -gt 0 ]; then
    echo "===== real-checked: directly on the real AWX: ${direct[*]}" >&2
    "$root/tests/ci/integration-real.sh" "${direct[@]}" || status=$?
fi
exit "$status"
