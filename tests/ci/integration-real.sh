#!/usr/bin/env bash
# The integration targets against the real AWX test bed (tests/realawx), as
# tests/ci/integration.sh runs them against the reference service.
#
#   tests/ci/integration-real.sh [TARGET...] [ansible-test option...]
#
# The test bed runs the API only: a target that needs a job, a project update or
# an inventory update to run, or the reference service's fault injection, is
# listed in tests/integration/real-service.yml with the reason, and left out.
# The database is reset to the freshly provisioned one first. Single sign-on is
# the AWX's own: its OIDC and SAML settings point at the project's test identity
# providers (tests/ci/realawx_sso.py), whose CA its uwsgi trusts. The import
# target applies its export to the same service (there is one real AWX).
# Results: tests/output/integration-real/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
export PATH="$venv/bin:$PATH"
realawx=$root/tests/realawx/realawx
# One run at a time uses the real AWX (it is reset, started and stopped here).
[ -n "${REALAWX_HELD:-}" ] || exec "$realawx" hold "$0" "$@"

names=() options=()
for arg in "$@"; do
    case $arg in -*) options+=("$arg") ;; *) names+=("$arg") ;; esac
done
mapfile -t targets < <(python "$root/tests/ci/targets.py" real --why "integration-real: " "${names[@]}")
[ ${#targets[@]} -gt 0 ] || { echo "integration-real: no target to run" >&2; exit 1; }

idpdir=$root/.run/realawx-idp
started=
# shellcheck disable=SC2317  # called by the EXIT trap
stop_service() {
    [ -n "$started" ] || return 0
    python "$root/tests/ci/realawx_sso.py" stop --dir "$idpdir" >&2 || true
    "$realawx" stop >&2 || true
}
trap stop_service EXIT
started=1
"$realawx" reset >&2
exports=$("$realawx" start)
eval "$exports"
awx_ca=$SERVICE_CA_PATH
idp_ca=$(python "$root/tests/ci/realawx_sso.py" prepare --dir "$idpdir" --url "$SERVICE_URL" --ca "$awx_ca")
exports=$(REALAWX_EXTRA_CA=$idp_ca "$realawx" start)
eval "$exports"
exports=$(python "$root/tests/ci/realawx_sso.py" start --dir "$idpdir" --url "$SERVICE_URL" --ca "$awx_ca")
eval "$exports"

INTEGRATION_EXTERNAL=1 \
ANSIBLE_TEST_WORK=$root/.run/ansible-test/integration-real \
TEST_OUTPUT=$root/tests/output/integration-real \
    "$root/tests/ci/integration.sh" "${options[@]}" "${targets[@]}"
