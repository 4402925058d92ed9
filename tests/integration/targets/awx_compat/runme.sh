#!/usr/bin/env bash
# A playbook written for awx.awx runs with only the collection prefix replaced
# (files/awx_playbook.yml of the target that runs this: awx_compat, awx_compat_jobs).
# The service's CA reaches the modules through the environment, as it would
# through a system CA store: the playbook itself is unchanged.
set -eux
config=../../integration_config.yml
value() { python -c "import sys, yaml; print(yaml.safe_load(open('$config'))['$1'])"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/awx\.awx\./automation.service./g' files/awx_playbook.yml > "$work/playbook.yml"
! grep -n 'awx\.awx' "$work/playbook.yml"
SERVICE_CA_PATH=$(value service_ca_path) SERVICE_CACHE_DIR="$work/cache" ansible-playbook "$work/playbook.yml" \
    -e controller_host="$(value service_url)" -e controller_username="$(value service_admin_username)" \
    -e controller_password="$(value service_admin_password)" "$@"
