#!/usr/bin/env bash
# awx_compat's jobs: the same runner, this target's playbook (files/awx_playbook.yml).
set -eux
exec ../awx_compat/runme.sh "$@"
