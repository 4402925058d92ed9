#!/usr/bin/env bash
# ansible-test integration on a copy of the collection (see mktree.py), against
# a reference service started for the run and stopped afterwards.
#
#   tests/ci/integration.sh [ansible-test integration options, e.g. a target name]
#
# VENV (default .venv) is the environment holding ansible-core and the service's
# requirements. The targets get the service through
# tests/integration/integration_config.yml in the ansible-test tree:
# service_url, service_ca_path, service_admin_username, service_admin_password, and
# sso_username, sso_password, sso_otp_username, sso_otp_password, sso_otp_code,
# sso_saml_idp from the test identity providers it starts too (svcctl --with-idp),
# and second_service_url, second_service_ca_path, second_service_admin_username,
# second_service_admin_password: a second reference service that the import
# target applies an export of the first to, and that acts as one deployed on
# Kubernetes (svcctl start --set IS_K8S=true), where the instance target adds nodes.
#
# INTEGRATION_EXTERNAL=1 runs the targets against the service that SERVICE_URL,
# SERVICE_CA_PATH, SERVICE_ADMIN_USERNAME and SERVICE_ADMIN_PASSWORD describe
# instead (the targets create and delete resources there); SECOND_SERVICE_URL,
# SECOND_SERVICE_CA_PATH, SECOND_SERVICE_ADMIN_USERNAME and SECOND_SERVICE_ADMIN_PASSWORD
# describe the second service (without them, the import target applies its export
# to the first service again).
# INTEGRATION_LAYOUT=gateway starts the reference service in the platform gateway's layout
# (svcctl start --layout gateway: the gateway's API at /api/gateway/v1/, the controller's
# at /api/controller/v2/) and no second service (the import and instance targets are not run
# there); the targets are given the gateway's URL only, and the collection finds the layout.
# INTEGRATION_LAYOUT=hub starts no service: the targets (tests/ci/targets.py hub) run against the real
# Automation Hub that HUB_URL, HUB_CONTENT_URL, HUB_CA_PATH, HUB_USERNAME and HUB_PASSWORD describe (as
# tests/hub/hubctl.py start prints them; tests/hub/run.sh starts it), given to them as hub_host,
# hub_content_url, hub_ca_path, hub_username and hub_password.
# INTEGRATION_TARGET_FILE: a file that names the target ansible-test runs, written as each starts
# (the recording proxy reads it: tests/diffcheck/run.sh).
# Results are copied back to tests/output/integration/ (TEST_OUTPUT).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${VENV:-$root/.venv}
[ -x "$venv/bin/ansible-test" ] || { echo "no ansible-test in $venv (run: make venv)" >&2; exit 2; }
export PATH="$venv/bin:$PATH"
python=$("$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')

svcdir=${INTEGRATION_SERVICE_DIR:-$root/.run/integration-service}
second_svcdir=$svcdir-second

if [ -z "$(find "$root/tests/integration/targets" -mindepth 1 -maxdepth 1 -type d 2>/dev/null)" ]; then
    echo "no integration targets in tests/integration/targets" >&2
    exit 1
fi

# One tree per step; a second run of the same step waits for the first.
# ANSIBLE_TEST_WORK and TEST_OUTPUT move the tree and the results (the version matrix does).
work=${ANSIBLE_TEST_WORK:-$root/.run/ansible-test/integration}
mkdir -p "$work"
exec 9>"$work.lock"
flock 9
tree=$(python "$root/tests/ci/mktree.py" --root "$root" --dest "$work")

started=
# shellcheck disable=SC2317  # called by the EXIT trap
stop_service() {
    if [ -n "$started" ]; then
        "$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 || true
        "$root/tests/ci/svcctl.sh" stop --dir "$second_svcdir" >&2 || true
    fi
}
trap stop_service EXIT

if [ "${INTEGRATION_LAYOUT:-}" = hub ]; then
    : "${HUB_URL:?INTEGRATION_LAYOUT=hub needs HUB_URL (tests/hub/hubctl.py start prints it)}"
    export HUB_URL HUB_CONTENT_URL HUB_CA_PATH HUB_USERNAME HUB_PASSWORD
    python - "$tree/tests/integration/integration_config.yml" <<'PY'
import os
import sys

import yaml

config = {name: os.environ.get(variable, '') for name, variable in (
    ('hub_host', 'HUB_URL'), ('hub_content_url', 'HUB_CONTENT_URL'), ('hub_ca_path', 'HUB_CA_PATH'),
    ('hub_username', 'HUB_USERNAME'), ('hub_password', 'HUB_PASSWORD'))}
with open(sys.argv[1], 'w', encoding='utf-8') as f:
    f.write('---\n')
    yaml.safe_dump(config, f, default_flow_style=False)
PY
    echo "integration: the Automation Hub at $HUB_URL" >&2
elif [ "${INTEGRATION_EXTERNAL:-}" != 1 ]; then
    port=$(python "$root/tests/ci/free_port.py")
    started=1
    layout=${INTEGRATION_LAYOUT:-awx}
    exports=$("$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir" --with-idp --layout "$layout")
    if [ "$layout" = awx ]; then
        second_port=$(python "$root/tests/ci/free_port.py")
        # The second service also acts as one deployed on Kubernetes (the instance target adds nodes there).
        second=$("$root/tests/ci/svcctl.sh" start --port "$second_port" --dir "$second_svcdir" --set IS_K8S=true)
        eval "$(printf '%s\n' "$second" | sed 's/^export SERVICE_/export SECOND_SERVICE_/')"
    fi
    eval "$exports"
fi
if [ "${INTEGRATION_LAYOUT:-}" != hub ]; then
    : "${SERVICE_URL:?the service did not give SERVICE_URL}"
    export SERVICE_URL SERVICE_CA_PATH SERVICE_ADMIN_USERNAME SERVICE_ADMIN_PASSWORD
    export SECOND_SERVICE_URL="${SECOND_SERVICE_URL:-$SERVICE_URL}" SECOND_SERVICE_CA_PATH="${SECOND_SERVICE_CA_PATH:-$SERVICE_CA_PATH}"
    export SECOND_SERVICE_ADMIN_USERNAME="${SECOND_SERVICE_ADMIN_USERNAME:-$SERVICE_ADMIN_USERNAME}"
    export SECOND_SERVICE_ADMIN_PASSWORD="${SECOND_SERVICE_ADMIN_PASSWORD:-$SERVICE_ADMIN_PASSWORD}"
    export SSO_USERNAME SSO_PASSWORD SSO_OTP_USERNAME SSO_OTP_PASSWORD SSO_OTP_CODE SSO_SAML_IDP

    python - "$tree/tests/integration/integration_config.yml" <<'PY'
import os
import sys

import yaml

config = {
    'service_url': os.environ['SERVICE_URL'],
    # Where the controller's API is, for the targets that call it without the collection.
    'service_api': '/api/controller/v2/' if os.environ.get('INTEGRATION_LAYOUT') == 'gateway' else '/api/v2/',
    'service_ca_path': os.environ.get('SERVICE_CA_PATH', ''),
    'service_admin_username': os.environ.get('SERVICE_ADMIN_USERNAME', ''),
    'service_admin_password': os.environ.get('SERVICE_ADMIN_PASSWORD', ''),
}
config.update({name.lower(): os.environ[name] for name in (
    'SECOND_SERVICE_URL', 'SECOND_SERVICE_CA_PATH', 'SECOND_SERVICE_ADMIN_USERNAME', 'SECOND_SERVICE_ADMIN_PASSWORD',
)})
# The test identity providers (svcctl start --with-idp), for the sso target.
config.update({name.lower(): os.environ[name] for name in (
    'SSO_USERNAME', 'SSO_PASSWORD', 'SSO_OTP_USERNAME', 'SSO_OTP_PASSWORD', 'SSO_OTP_CODE', 'SSO_SAML_IDP',
) if os.environ.get(name)})
with open(sys.argv[1], 'w', encoding='utf-8') as f:
    f.write('---\n')
    yaml.safe_dump(config, f, default_flow_style=False)
PY
    echo "integration: service at $SERVICE_URL" >&2
fi

# The targets get a home of their own, new for every run: ansible-test passes HOME (and no SERVICE_CACHE_DIR
# or XDG_CACHE_HOME) through to them, and the collection's session cache (~/.cache/automation.service) keeps what
# it learnt of a service URL, its layout, for a day. Shared with earlier runs and other steps, an entry left
# for a URL whose port is used again would spare a request the recording has (tests/diffcheck/run.sh replay).
home=$work/home
rm -rf "$home"
mkdir -p "$home"
# ansible-test makes itself an SSH key pair in ~/.ansible/test when there is none (an RSA key: about two
# seconds of processor time); it gets a copy of the one it made in the real home, where there is one.
if [ -f "$HOME/.ansible/test/id_rsa" ] && [ -f "$HOME/.ansible/test/id_rsa.pub" ]; then
    mkdir -p "$home/.ansible/test"
    cp -p "$HOME/.ansible/test/id_rsa" "$HOME/.ansible/test/id_rsa.pub" "$home/.ansible/test/"
fi

status=0
if [ -n "${INTEGRATION_TARGET_FILE:-}" ]; then
    # The recording proxy names each exchange's target from this file (tests/diffcheck/recording.py mark).
    rm -f "$INTEGRATION_TARGET_FILE"
    (cd "$tree" && HOME=$home ansible-test integration --python "$python" --local --color no "$@" 2>&1) |
        python "$root/tests/diffcheck/recording.py" mark "$INTEGRATION_TARGET_FILE" || status=$?
else
    (cd "$tree" && HOME=$home ansible-test integration --python "$python" --local --color no "$@") || status=$?
fi

output=${TEST_OUTPUT:-$root/tests/output/integration}
rm -rf "$output"
mkdir -p "$output"
if [ -d "$tree/tests/output" ]; then
    cp -r "$tree/tests/output/." "$output/"
fi
exit "$status"
