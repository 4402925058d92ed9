#!/usr/bin/env bash
# The differential check: the integration targets that run on the real AWX
# (tests/ci/integration-real.sh) run once more, through a tee proxy
# (tests/diffcheck/proxy.py) that sends every request to the real AWX test bed
# (whose answers the targets get) and to a reference service, and records both
# answers; compare.py then compares them and fails on a difference that
# tests/diffcheck/known.yml does not explain.
#
#   tests/diffcheck/run.sh [--layout gateway] [TARGET...]
#
# --layout gateway: the same check in the platform gateway's layout. The primary
# is then the real AWX behind the project's gateway (tests/realawx/gateway: the
# reference service's gateway, forwarding /api/controller/ to the real AWX with a
# signed X-DAB-JW-TOKEN), the secondary the reference service's gateway layout
# (its gateway and its own controller); the targets are those of
# tests/ci/targets.py gateway-checked. The two gateways are the same software:
# what is compared is the controller behind them, and what the gateway does with
# it. Results then go to tests/output/diffcheck-gateway/.
#
# The real AWX is tests/realawx's (reset to its freshly provisioned database and
# started, stopped afterwards), unless DIFFCHECK_PRIMARY_URL names another one
# already running: then DIFFCHECK_PRIMARY_CA (optional; else not verified),
# DIFFCHECK_PRIMARY_USERNAME and DIFFCHECK_PRIMARY_PASSWORD describe it, and it is
# neither reset nor stopped. The reference service is started for the run with
# the real AWX's administrator and password, so that the targets' credentials
# serve both. Targets left out: those of tests/integration/real-service.yml, and
# those of known.yml's left_out (with the reason).
# Without target names, probes.py's requests follow the targets'.
# A target that fails does not stop the others (their requests are compared too);
# the run fails at the end.
# DIFFCHECK_VENV: the virtualenv the targets run with (ansible-test and ansible-core; default the
# project's, which runs the proxy and the comparison).
# Results: tests/output/diffcheck/ (report.md, report.json, exchanges.jsonl,
# probes.txt, the targets' own output under integration/).
set -euo pipefail

# All of it is in main, called on the script's last line: bash reads a script as it runs
# it, and this one runs for many minutes, so an edit of the file meanwhile would otherwise
# make it run other lines than those it started with (once, a second integration run).
main() {
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
export PATH="$venv/bin:$PATH"
here=$root/tests/diffcheck
realawx=$root/tests/realawx/realawx
# One run at a time uses the real AWX (it is reset, started and stopped here).
[ -n "${REALAWX_HELD:-}" ] || [ -n "${DIFFCHECK_PRIMARY_URL:-}" ] || exec "$realawx" hold "$0" "$@"
layout=awx
if [ "${1:-}" = --layout ]; then
    layout=${2:?--layout takes awx or gateway}
    shift 2
fi
case $layout in
    awx) output=$root/tests/output/diffcheck work=$root/.run/diffcheck set=checked ;;
    gateway) output=$root/tests/output/diffcheck-gateway work=$root/.run/diffcheck-gateway set=gateway-checked ;;
    *) echo "diffcheck: --layout takes awx or gateway, not $layout" >&2; exit 2 ;;
esac
svcdir=$work/service
realgw=$work/real-gateway

mapfile -t targets < <(python "$root/tests/ci/targets.py" "$set" --why "diffcheck: " "$@")
[ ${#targets[@]} -gt 0 ] || { echo "diffcheck: no target to run" >&2; exit 1; }

"$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 2>/dev/null || true
[ "$layout" = awx ] || "$root/tests/ci/svcctl.sh" stop --dir "$realgw" >&2 2>/dev/null || true
rm -rf "$output" "$work"
mkdir -p "$output" "$work"
proxy_pid= started_real=
# shellcheck disable=SC2317  # called by the EXIT trap
stop_all() {
    if [ -n "$proxy_pid" ]; then
        kill "$proxy_pid" 2>/dev/null || true
        wait "$proxy_pid" 2>/dev/null || true
    fi
    "$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 || true
    if [ -n "$started_real" ] && [ "$layout" = gateway ]; then
        REAL_GATEWAY_DIR=$realgw "$root/tests/realawx/gateway" stop >&2 || true
    elif [ -n "$started_real" ]; then
        "$realawx" stop >&2 || true
    fi
}
trap stop_all EXIT

if [ -n "${DIFFCHECK_PRIMARY_URL:-}" ]; then
    primary_url=$DIFFCHECK_PRIMARY_URL primary_ca=${DIFFCHECK_PRIMARY_CA:-}
    admin=${DIFFCHECK_PRIMARY_USERNAME:?DIFFCHECK_PRIMARY_USERNAME} password=${DIFFCHECK_PRIMARY_PASSWORD:?DIFFCHECK_PRIMARY_PASSWORD}
elif [ "$layout" = gateway ]; then
    # Both gateways get one administrator password (svcctl keeps the one it finds in its
    # directory), so that the targets' credentials serve both.
    started_real=1
    "$realawx" reset >&2
    mkdir -p "$realgw" "$svcdir"
    (umask 077 && python -c 'import secrets; print(secrets.token_urlsafe(24))' > "$realgw/admin_password")
    exports=$(REAL_GATEWAY_DIR=$realgw REAL_GATEWAY_PORT=$(python "$root/tests/ci/free_port.py") \
        "$root/tests/realawx/gateway" start --with-idp)
    eval "$exports"
    primary_url=$SERVICE_URL primary_ca=$SERVICE_CA_PATH admin=$SERVICE_ADMIN_USERNAME password=$SERVICE_ADMIN_PASSWORD
else
    started_real=1
    "$realawx" reset >&2
    exports=$("$realawx" start)
    eval "$exports"
    primary_url=$SERVICE_URL primary_ca=$SERVICE_CA_PATH admin=$SERVICE_ADMIN_USERNAME password=$SERVICE_ADMIN_PASSWORD
fi

# The reference service, with the same administrator password (svcctl keeps the
# one it finds in its directory).
mkdir -p "$svcdir"
(umask 077 && printf '%s\n' "$password" > "$svcdir/admin_password")
port=$(python "$root/tests/ci/free_port.py")
if [ "$layout" = gateway ]; then
    # Both gateways with the test identity providers' authenticators, as make integration-gateway
    # starts the gateway: the targets that remove an authenticator need another one enabled.
    exports=$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir" --layout gateway --with-idp)
else
    # Its session cookie gets AWX's name (its default is another, settable one).
    exports=$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir" --set SESSION_COOKIE_NAME=awx_sessionid)
fi
eval "$exports"
[ "$SERVICE_ADMIN_USERNAME" = "$admin" ] || { echo "diffcheck: the services' administrators differ" >&2; exit 1; }
secondary_url=$SERVICE_URL secondary_ca=$SERVICE_CA_PATH

record=$output/exchanges.jsonl
python "$here/proxy.py" --primary "$primary_url" ${primary_ca:+--primary-ca "$primary_ca"} \
    --secondary "$secondary_url" --secondary-ca "$secondary_ca" \
    --record "$record" --dir "$work/proxy" > "$work/proxy.url" 2> "$work/proxy.log" &
proxy_pid=$!
for _ in $(seq 100); do
    [ -s "$work/proxy.url" ] && break
    kill -0 "$proxy_pid" 2>/dev/null || { cat "$work/proxy.log" >&2; exit 1; }
    sleep 0.1
done
proxy_url=$(head -n1 "$work/proxy.url")
echo "diffcheck ($layout layout): real AWX $primary_url, reference service $secondary_url, proxy $proxy_url" >&2

status=0
SERVICE_URL=$proxy_url SERVICE_CA_PATH=$work/proxy/ca.pem SERVICE_ADMIN_USERNAME=$admin SERVICE_ADMIN_PASSWORD=$password \
INTEGRATION_EXTERNAL=1 INTEGRATION_LAYOUT=$layout VENV=${DIFFCHECK_VENV:-$venv} \
ANSIBLE_TEST_WORK=$root/.run/ansible-test/diffcheck-$layout \
TEST_OUTPUT=$output/integration \
    "$root/tests/ci/integration.sh" --continue-on-error "${targets[@]}" || status=$?

# Requests about facts the reference service once took without seeing a real AWX.
if [ $# -eq 0 ] && [ "$layout" = awx ]; then
    DIFFCHECK_PASSWORD=$password python "$here/probes.py" --url "$proxy_url" --ca "$work/proxy/ca.pem" \
        --username "$admin" --password-env DIFFCHECK_PASSWORD > "$output/probes.txt" || status=$?
fi

kill "$proxy_pid" 2>/dev/null || true
wait "$proxy_pid" 2>/dev/null || true
proxy_pid=

compare=0
python "$here/compare.py" --record "$record" --out "$output" --layout "$layout" || compare=$?
echo "diffcheck: report in ${output#"$root"/}/report.md" >&2
if [ "$status" != 0 ]; then
    echo "diffcheck: the targets failed through the proxy (status $status)" >&2
    exit "$status"
fi
exit "$compare"
}

# (on one line: bash reads a script as it runs it)
main "$@"; exit $?
