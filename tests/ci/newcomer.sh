#!/usr/bin/env bash
# The newcomer's path, tested: CI on a fresh clone, on a machine with no cache and
# no GitHub.
#
#   tests/ci/newcomer.sh [--keep] [--ref REF]
#
# Makes a fresh clone of REF (default HEAD) of this repository in a new temporary
# folder, with nothing beside it (no folder of copies a machine may keep beside its
# checkouts), with a cache of its own (AUTOMATION_SERVICE_CACHE: a new, empty folder,
# so the virtualenvs are built again), GitHub blocked (a git configuration of its
# own whose url.insteadOf sends https://github.com/ to a port that refuses), and runs `CI=true .ci/run` there. The summary table of
# `make test` gives each step's time; the log goes to tests/output/newcomer.log here.
#
# The clone and its cache are removed at the end, unless --keep. Exit status:
# .ci/run's.
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
# the clone alone in a folder of its own: nothing beside it that .ci/run could take
base=$(mktemp -d /tmp/newcomer.XXXXXX)
clone=$base/clone
# a new, empty cache
cache=$(mktemp -d /tmp/asc.XXXXXX)
home=$(mktemp -d /tmp/newcomer-home.XXXXXX)
log=$root/tests/output/newcomer.log
mkdir -p "$(dirname "$log")"

cleanup() {
    [ "$keep" = 1 ] && { echo "newcomer: kept $clone (cache $cache)" >&2; return 0; }
    rm -rf "$base" "$cache" "$home"
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
    env -u VIRTUAL_ENV -u ANSIBLE_COLLECTIONS_PATH \
        CI=true AUTOMATION_SERVICE_CACHE="$cache" XDG_CACHE_HOME="$home/.cache" \
        GIT_CONFIG_GLOBAL="$home/gitconfig" \
        bash .ci/run
) 2>&1 | tee -a "$log" || status=$?
echo "newcomer: .ci/run exited $status after $(( $(date +%s) - start )) s" | tee -a "$log"
exit "$status"
