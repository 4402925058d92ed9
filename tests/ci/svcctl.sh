#!/usr/bin/env bash
# Run the reference service's control command (tests/service/svcctl) with the
# interpreter it asks for; the caller puts the virtualenv first on PATH.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
svcctl=$root/tests/service/svcctl
[ -e "$svcctl" ] || { echo "missing $svcctl" >&2; exit 2; }
# Test runs hash passwords with fewer PBKDF2 iterations than the real service's 600,000
# (see refsvc/svc/hashers.py); the benchmarks start the service without this script.
export REFSVC_PASSWORD_ITERATIONS=${REFSVC_PASSWORD_ITERATIONS:-1000}
if [ -x "$svcctl" ]; then
    exec "$svcctl" "$@"
elif head -n1 "$svcctl" | grep -q python; then
    exec python "$svcctl" "$@"
else
    exec bash "$svcctl" "$@"
fi
