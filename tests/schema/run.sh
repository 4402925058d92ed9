#!/usr/bin/env bash
# The reference service's gateway layout held against the platform's published gateway schemas
# (../shared/platform-api/gateway-<release>.json beside the checkout; tests/schema/check.py), and Event-Driven
# Ansible's API behind it (/api/eda/v1/) against eda-<release>.json.
#
#   tests/schema/run.sh [RELEASE...]      # default: 2.7 2.6
#
# A reference service is started in the gateway's layout for each release, standing for it, and stopped
# after it; the same service answers both checks. Reports in
# tests/output/schema/gateway-<release>/report.md and eda-<release>/report.md (EDA's with its paths by app); exits 1
# when a difference is not explained in tests/schema/known-gateway.yml or known-eda.yml.
set -euo pipefail

main() {
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export PATH="${VENV:-$root/.venv}/bin:$PATH"
releases=("$@")
[ ${#releases[@]} -gt 0 ] || releases=(2.7 2.6)
svcdir=$root/.run/schema-service
stop() { "$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >/dev/null 2>&1 || true; }
stop
trap stop EXIT
status=0
for release in "${releases[@]}"; do
    # A service per release, standing for it (GATEWAY_RELEASE: the fields that differ between releases), and
    # answering as the schemas describe a user: its links to authenticators (authenticators, authenticator_uid,
    # associated_authenticators) write-only. The service shows them by default, as the platform's own collection
    # (ansible.platform's users_test) expects of a real gateway; GATEWAY_USER_LINKS_SHOWN in
    # tests/service/refsvc/gateway/settings.py.
    port=$(python "$root/tests/ci/free_port.py")
    eval "$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir" --layout gateway \
        --set "GATEWAY_RELEASE=$release" --set GATEWAY_USER_LINKS_SHOWN=false)"
    SCHEMA_CHECK_PASSWORD=$SERVICE_ADMIN_PASSWORD python "$root/tests/schema/check.py" \
        --schema "gateway-$release.json" --url "$SERVICE_URL" --ca "$SERVICE_CA_PATH" \
        --username "$SERVICE_ADMIN_USERNAME" --password-env SCHEMA_CHECK_PASSWORD \
        --known "$root/tests/schema/known-gateway.yml" --seed "$root/tests/schema/seed-gateway.yml" --out "$root/tests/output/schema/gateway-$release" || status=1
    # EDA's paths are relative to /api/eda/v1 (the schema's servers entry); its seed also makes gateway objects
    SCHEMA_CHECK_PASSWORD=$SERVICE_ADMIN_PASSWORD python "$root/tests/schema/check.py" \
        --schema "eda-$release.json" --url "$SERVICE_URL" --ca "$SERVICE_CA_PATH" \
        --username "$SERVICE_ADMIN_USERNAME" --password-env SCHEMA_CHECK_PASSWORD \
        --prefix /api/gateway/v1/=/api/gateway/v1/ --prefix /=/api/eda/v1/ \
        --known "$root/tests/schema/known-eda.yml" --seed "$root/tests/schema/seed-eda.yml" --out "$root/tests/output/schema/eda-$release" || status=1
    stop
done
exit "$status"
}

# (on one line: bash reads a script as it runs it)
main "$@"; exit $?
