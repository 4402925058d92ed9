#!/usr/bin/env bash
# The newcomer's path, tested: CI on a fresh clone, on a machine with no cache and
# no GitHub.
#
#   tests/ci/newcomer.sh [--keep] [--ref REF]
#
# Makes a fresh clone of REF (default HEAD) of this repository beside this checkout
# (so that the folder a machine keeps beside its checkouts, the real AWX's source
# archives, is beside it too), with a cache of its own (AUTOMATION_SERVICE_CACHE: a
# new, empty folder, so the virtualenvs and the real AWX are built again), GitHub
# blocked (REALAWX_GIT_URL, and a git configuration of its own whose url.insteadOf
# sends https://github.com/ to a port that refuses), and runs `CI=true .ci/run` there. The summary table of
# `make test` gives each step's time; the log goes to tests/output/newcomer.log here.
#
# The clone and its cache are removed at the end (the real AWX built there is stopped
# first), unless --keep. Exit status: .ci/run's.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
keep=0
ref=HEAD
while [ $# -gt 0 ]; do
    case $1 in
        --keep) keep=1; shift ;;
        --ref) ref=${2:?--ref takes a commit}; shift 2 ;;
        *) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2 ;;
    esac
done

refused=https://127.0.0.1:9
clone=$(mktemp -d "$(dirname "$root")/newcomer.XXXXXX")
# short: the real AWX's PostgreSQL socket lives under it (at most 107 bytes)
cache=$(mktemp -d /tmp/asc.XXXXXX)
home=$(mktemp -d /tmp/newcomer-home.XXXXXX)
log=$root/tests/output/newcomer.log
mkdir -p "$(dirname "$log")"

cleanup() {
    [ "$keep" = 1 ] && { echo "newcomer: kept $clone (cache $cache)" >&2; return 0; }
    AUTOMATION_SERVICE_CACHE=$cache "$clone/tests/realawx/realawx" stop >/dev/null 2>&1 || true
    rm -rf "$clone" "$cache" "$home"
}
trap cleanup EXIT

git clone -q "$root" "$clone"
git -C "$clone" -c advice.detachedHead=false checkout -q "$(git -C "$root" rev-parse "$ref")"
printf '[url "%s/"]\n\tinsteadOf = https://github.com/\n' "$refused" >"$home/gitconfig"

echo "newcomer: $(git -C "$clone" log -1 --format='%h %s') in $clone; cache $cache; GitHub refused" | tee "$log"
start=$(date +%s)
status=0
(
    cd "$clone"
    # Only what a new machine has: no cache, no virtualenv of the caller, no GitHub.
    env -u VIRTUAL_ENV -u AWX_SOURCES -u ANSIBLE_COLLECTIONS_PATH \
        CI=true AUTOMATION_SERVICE_CACHE="$cache" XDG_CACHE_HOME="$home/.cache" \
        GIT_CONFIG_GLOBAL="$home/gitconfig" REALAWX_GIT_URL="$refused" \
        bash .ci/run
) 2>&1 | tee -a "$log" || status=$?
echo "newcomer: .ci/run exited $status after $(( $(date +%s) - start )) s" | tee -a "$log"
exit "$status"
