#!/usr/bin/env bash
# For each layout of DEMO_LAYOUTS (default: "awx gateway", AWX 24's and the platform
# gateway's), start the reference service in that layout, run examples/demo.yml against it,
# stop the service whatever happened; exit with 0 when every run passed.
#
#   tests/ci/demo.sh [ansible-playbook options]
#
# Expects the virtualenv first on PATH and the collection reachable through
# ANSIBLE_COLLECTIONS_PATH (make demo does both).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
svcdir=${DEMO_SERVICE_DIR:-$root/.run/demo}
port=${DEMO_PORT:-$(python "$root/tests/ci/free_port.py")}

# A second demo in the same directory waits for the first.
mkdir -p "$(dirname "$svcdir")"
exec 9>"$svcdir.lock"
flock 9

svcctl=$root/tests/ci/svcctl.sh
trap '"$svcctl" stop --dir "$svcdir" >&2 || true' EXIT

status=0
for layout in ${DEMO_LAYOUTS:-awx gateway}; do
    exports=$("$svcctl" start --port "$port" --dir "$svcdir" --with-idp --layout "$layout")
    (
        eval "$exports"
        export SERVICE_URL SERVICE_CA_PATH SERVICE_ADMIN_USERNAME SERVICE_ADMIN_PASSWORD
        export SERVICE_LAYOUT=$layout
        export SSO_USERNAME SSO_PASSWORD  # the identity provider's user for examples/demo_sso.yml
        echo "demo: the $layout layout, service at $SERVICE_URL" >&2
        ansible-playbook "$root/examples/demo.yml" "$@" </dev/null
    ) || { echo "demo: FAILED on the $layout layout" >&2; status=1; }
    "$svcctl" stop --dir "$svcdir" >&2
done
exit "$status"
