#!/usr/bin/env bash
# The integration targets through the recording proxy (tests/diffcheck/proxy.py): recorded on a real
# service, replayed against the reference service, or compared live between two services.
#
#   tests/diffcheck/run.sh record [--layout awx|gateway] [TARGET...]
#   tests/diffcheck/run.sh replay [--layout awx|gateway] [TARGET...]
#   tests/diffcheck/run.sh diff   [--layout awx|gateway] [TARGET...]
#
# record: the targets run against the service that SERVICE_URL, SERVICE_USERNAME, SERVICE_PASSWORD and
#   SERVICE_CA_PATH (optional: else not verified) describe, through the proxy, and each target's exchanges
#   are kept, normalized, in tests/recorded/<layout>-<version>/<target>.jsonl (recording.py save), the
#   version read from the service's ping. The targets create and delete objects there: use a service
#   you can throw away. In the AWX layout, probes.py's requests follow the targets' (as the target
#   "probes"). A target that fails is not kept (the others are), and the run fails at the end.
# replay: the same targets run against a reference service started for the run, through the proxy, and
#   recording.py replay compares every exchange with the recording of that layout (RECORDED, default
#   the one directory under tests/recorded/ of the layout): an unexplained difference fails the run, and
#   so does an exchange the recording lacks. Results: tests/output/replay[-gateway]/ (report.md).
# diff: a live comparison: the service SERVICE_* describe answers the targets, and a reference service
#   started for the run is sent the same requests (ids translated); compare.py compares the two answers.
#   Results: tests/output/diffcheck[-gateway]/ (report.md).
#
# --layout gateway: SERVICE_URL is a platform gateway (the controller's API behind it at
# /api/controller/v2/), the reference service starts in the gateway's layout, and the targets are those
# of tests/ci/targets.py gateway-checked (else checked). Without target names, all of the set.
# DIFFCHECK_VENV: the virtualenv the targets run with (ansible-test and ansible-core; default the
# project's, which runs the proxy and the comparison).
set -euo pipefail

# All of it is in main, called on the script's last line: bash reads a script as it runs
# it, and this one runs for many minutes, so an edit of the file meanwhile would otherwise
# make it run other lines than those it started with.
main() {
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
export PATH="$venv/bin:$PATH"
here=$root/tests/diffcheck
mode=${1:-}
case $mode in
    record|replay|diff) shift ;;
    *) echo "usage: run.sh record|replay|diff [--layout awx|gateway] [TARGET...]" >&2; exit 2 ;;
esac
layout=awx
if [ "${1:-}" = --layout ]; then
    layout=${2:?--layout takes awx or gateway}
    shift 2
fi
case $layout in
    awx) set=checked api=/api/v2/ suffix= ;;
    gateway) set=gateway-checked api=/api/controller/v2/ suffix=-gateway ;;
    *) echo "run.sh: --layout takes awx or gateway, not $layout" >&2; exit 2 ;;
esac
case $mode in
    record) output=$root/tests/output/record$suffix ;;
    replay) output=$root/tests/output/replay$suffix ;;
    diff) output=$root/tests/output/diffcheck$suffix ;;
esac
work=$root/.run/$mode$suffix
svcdir=$work/service

mapfile -t targets < <(python "$root/tests/ci/targets.py" "$set" --why "$mode: " "$@")
[ ${#targets[@]} -gt 0 ] || { echo "run.sh: no target to run" >&2; exit 1; }
probes=
[ $# -gt 0 ] || [ "$layout" != awx ] || probes=1

"$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 2>/dev/null || true
rm -rf "$output" "$work"
mkdir -p "$output" "$work"
proxy_pid=
# shellcheck disable=SC2317  # called by the EXIT trap
stop_all() {
    if [ -n "$proxy_pid" ]; then
        kill "$proxy_pid" 2>/dev/null || true
        wait "$proxy_pid" 2>/dev/null || true
    fi
    "$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 || true
}
trap stop_all EXIT

# The service the targets talk to (primary), and in a live comparison the reference service beside it.
if [ "$mode" = replay ]; then
    start_reference
    primary_url=$SERVICE_URL primary_ca=$SERVICE_CA_PATH admin=$SERVICE_ADMIN_USERNAME password=$SERVICE_ADMIN_PASSWORD
    secondary_url=
else
    primary_url=${SERVICE_URL:?SERVICE_URL: the service to $mode against}
    primary_ca=${SERVICE_CA_PATH:-}
    admin=${SERVICE_USERNAME:?SERVICE_USERNAME: its administrator}
    password=${SERVICE_PASSWORD:?SERVICE_PASSWORD: the administrator password}
    secondary_url=
    if [ "$mode" = diff ]; then
        # The reference service gets the same administrator and password, so that the targets'
        # credentials serve both.
        mkdir -p "$svcdir"
        (umask 077 && printf '%s\n' "$password" > "$svcdir/admin_password")
        start_reference
        [ "$SERVICE_ADMIN_USERNAME" = "$admin" ] || { echo "run.sh: the services' administrators differ" >&2; exit 1; }
        secondary_url=$SERVICE_URL secondary_ca=$SERVICE_CA_PATH
    fi
fi

record=$work/exchanges.jsonl
target_file=$work/target
# The proxy writes its URL once it listens; a file left by an earlier run must not be taken for it.
rm -f "$work/proxy.url"
python "$here/proxy.py" --primary "$primary_url" ${primary_ca:+--primary-ca "$primary_ca"} \
    ${secondary_url:+--secondary "$secondary_url" --secondary-ca "$secondary_ca"} \
    --target-file "$target_file" --record "$record" --dir "$work/proxy" > "$work/proxy.url" 2> "$work/proxy.log" &
proxy_pid=$!
for _ in $(seq 100); do
    [ -s "$work/proxy.url" ] && break
    kill -0 "$proxy_pid" 2>/dev/null || { cat "$work/proxy.log" >&2; exit 1; }
    sleep 0.1
done
proxy_url=$(head -n1 "$work/proxy.url")
echo "run.sh $mode ($layout layout): service $primary_url${secondary_url:+, reference service $secondary_url}, proxy $proxy_url" >&2

status=0
SERVICE_URL=$proxy_url SERVICE_CA_PATH=$work/proxy/ca.pem SERVICE_ADMIN_USERNAME=$admin SERVICE_ADMIN_PASSWORD=$password \
INTEGRATION_EXTERNAL=1 INTEGRATION_LAYOUT=$layout INTEGRATION_TARGET_FILE=$target_file VENV=${DIFFCHECK_VENV:-$venv} \
ANSIBLE_TEST_WORK=$root/.run/ansible-test/$mode-$layout \
TEST_OUTPUT=$output/integration \
    "$root/tests/ci/integration.sh" --continue-on-error "${targets[@]}" || status=$?

# Requests about facts the reference service once took without seeing a real AWX.
if [ -n "$probes" ]; then
    echo probes > "$target_file"
    targets+=(probes)
    DIFFCHECK_PASSWORD=$password python "$here/probes.py" --url "$proxy_url" --ca "$work/proxy/ca.pem" \
        --username "$admin" --password-env DIFFCHECK_PASSWORD > "$output/probes.txt" || status=$?
fi

kill "$proxy_pid" 2>/dev/null || true
wait "$proxy_pid" 2>/dev/null || true
proxy_pid=

compare=0
case $mode in
    record)
        version=$(service_version)
        dest=${RECORDED:-$root/tests/recorded/$layout-$version}
        # a target that failed is not kept (recording.py mark wrote which failed)
        python "$here/recording.py" save --record "$record" --dest "$dest" --layout "$layout" --version "$version" \
            --leave-out "$target_file.failed" || compare=$?
        ;;
    replay)
        recorded=${RECORDED:-$(recorded_dir)}
        python "$here/recording.py" replay --record "$record" --recorded "$recorded" --layout "$layout" \
            --out "$output" "${targets[@]}" || compare=$?
        echo "run.sh: report in ${output#"$root"/}/report.md" >&2
        ;;
    diff)
        python "$here/compare.py" --record "$record" --out "$output" --layout "$layout" || compare=$?
        echo "run.sh: report in ${output#"$root"/}/report.md" >&2
        ;;
esac
if [ "$status" != 0 ]; then
    echo "run.sh: the targets failed through the proxy (status $status)" >&2
    exit "$status"
fi
exit "$compare"
}

# A reference service for the run (its directory $svcdir), in the layout; sets SERVICE_*.
start_reference() {
    local port exports
    port=$(python "$root/tests/ci/free_port.py")
    mkdir -p "$svcdir"
    if [ "$layout" = gateway ]; then
        # With the test identity providers' authenticators, as make integration-gateway starts the
        # gateway: the targets that remove an authenticator need another one enabled.
        exports=$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir" --layout gateway --with-idp)
    else
        # Its session cookie gets AWX's name (its default is another, settable one).
        exports=$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir" --set SESSION_COOKIE_NAME=awx_sessionid)
    fi
    eval "$exports"
}

# The version the service's ping gives (the controller's, behind a gateway).
service_version() {
    python - "$primary_url" "${primary_ca:-}" "$api" <<'PY'
import sys

import requests

url, ca, api = sys.argv[1].rstrip('/'), sys.argv[2], sys.argv[3]
answer = requests.get(url + api + 'ping/', verify=ca or False, timeout=60)
answer.raise_for_status()
version = answer.json().get('version')
if not version:
    sys.exit('run.sh: %s%sping/ gives no version' % (url, api))
print(version)
PY
}

# The recording of the layout: the one directory tests/recorded/<layout>-*.
recorded_dir() {
    local found=("$root"/tests/recorded/"$layout"-*/)
    if [ ${#found[@]} -ne 1 ] || [ ! -d "${found[0]}" ]; then
        echo "run.sh: tests/recorded/ must hold one recording of the $layout layout (found ${#found[@]}); set RECORDED" >&2
        return 1
    fi
    echo "${found[0]%/}"
}

# (on one line: bash reads a script as it runs it)
main "$@"; exit $?
