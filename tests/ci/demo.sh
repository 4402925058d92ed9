#!/usr/bin/env bash
# Start the reference service, run examples/demo.yml against it, stop the
# service whatever happened, and exit with the playbook's status.
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

trap '"$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 || true' EXIT

exports=$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir" --with-idp)
eval "$exports"
export SERVICE_URL SERVICE_CA_PATH SERVICE_ADMIN_USERNAME SERVICE_ADMIN_PASSWORD
export SSO_USERNAME SSO_PASSWORD  # the identity provider's user for examples/demo_sso.yml
echo "demo: service at $SERVICE_URL" >&2

status=0
ansible-playbook "$root/examples/demo.yml" "$@" </dev/null || status=$?
exit "$status"
