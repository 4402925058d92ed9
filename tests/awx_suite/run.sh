#!/usr/bin/env bash
# awx.awx's own integration targets, with awx.awx and with automation.service,
# on the reference service or on the real AWX test bed (tests/realawx).
#
#   tests/awx_suite/run.sh reference|real [TARGET...]
#
# The targets and awx.awx come from the AWX 24.6.1 sources that the real AWX
# test bed keeps (make real-service builds it, or reuses its cache). Their
# projects name public repositories (ansible-tower-samples, test-playbooks): the
# services clone local mirrors of them instead, through git's url.insteadOf in a
# GIT_CONFIG_GLOBAL file given to the service's processes only, so that the
# service and the modules still see the public URLs; GitHub's archives of their tags are
# made from them, and REFSVC_URL_MIRRORS points the reference service's archive
# projects at those. The mirrors are made once,
# under the cache, from GitHub or from a folder of git bundles (AWX_SAMPLE_REPOS,
# files <name>.bundle).
#
# The plays run under ansible-core 2.16, the oldest this collection supports and
# the newest of the time the targets were written for (2.19 changed templating:
# a string is no longer a condition, a lookup's number no longer equals a
# string), in a virtualenv of their own.
#
# The table goes to tests/output/awx-suite/<kind>/table.txt; the exit status is
# 1 when a target passes with awx.awx and fails with automation.service.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kind=${1:?usage: run.sh reference|real [TARGET...]}
shift
case $kind in reference|real) ;; *) echo "run.sh: unknown service kind $kind" >&2; exit 2 ;; esac

realawx=$root/tests/realawx/realawx
# One run at a time uses the real AWX (it is reset, started and stopped here).
if [ "$kind" = real ] && [ -z "${REALAWX_HELD:-}" ]; then exec "$realawx" hold "$0" "$kind" "$@"; fi
bed=$("$realawx" path)
src=$bed/src
awx_collection=$bed/awx-collection/ansible_collections/awx/awx
[ -d "$src/awx_collection" ] && [ -d "$awx_collection" ] || {
    echo "run.sh: the real AWX test bed is not built (make real-service)" >&2
    exit 2
}

# Local mirrors of the sample repositories, and the git configuration that
# points the public URLs at them.
cache=$(dirname "$bed")
mirrors=$cache/sample-repos
mkdir -p "$mirrors"
gitconfig=$mirrors/gitconfig
: > "$gitconfig.new"
for repo in ansible-tower-samples test-playbooks; do
    mirror=$mirrors/$repo.git
    if [ ! -d "$mirror" ]; then
        if [ -n "${AWX_SAMPLE_REPOS:-}" ] && [ -f "$AWX_SAMPLE_REPOS/$repo.bundle" ]; then
            git clone -q --mirror "$AWX_SAMPLE_REPOS/$repo.bundle" "$mirror.tmp"
        else
            git clone -q --mirror "https://github.com/ansible/$repo" "$mirror.tmp"
        fi
        mv "$mirror.tmp" "$mirror"
    fi
    # awx.awx's project target checks out test-playbooks' branch empty_branch; the bundles hold
    # main and the tags only. Where it is missing, it is made at main's commit: the target checks
    # out the branch and never reads what is in it.
    if [ "$repo" = test-playbooks ] && ! git -C "$mirror" rev-parse -q --verify refs/heads/empty_branch >/dev/null; then
        git -C "$mirror" update-ref refs/heads/empty_branch "$(git -C "$mirror" rev-parse HEAD)"
    fi
    printf '[url "file://%s"]\n\tinsteadOf = https://github.com/ansible/%s\n\tinsteadOf = https://github.com/ansible/%s.git\n' \
        "$mirror" "$repo" "$repo" >> "$gitconfig.new"
    # GitHub's archive of each tag (awx.awx's project target makes an archive project of one),
    # at the path GitHub serves it from, for the reference service's REFSVC_URL_MIRRORS.
    for tag in $(git -C "$mirror" tag); do
        archive=$mirrors/archives/ansible/$repo/archive/refs/tags/$tag.tar.gz
        [ -f "$archive" ] && continue
        mkdir -p "$(dirname "$archive")"
        git -C "$mirror" archive --format=tar.gz --prefix="$repo-$tag/" -o "$archive.tmp" "$tag"
        mv "$archive.tmp" "$archive"
    done
done
mv "$gitconfig.new" "$gitconfig"

# ansible-core for the plays, and what the modules of both collections need (awx.awx's
# export and import need awxkit: the one of the same sources, as AWX's own CI installs it).
# The virtualenv is kept in the machine's cache (tests/ci/cached-venv.sh).
venv=$("$root/tests/ci/cached-venv.sh" awx-suite "${PYTHON:-python3.11}" ansible-core==2.16.19 requests python-dateutil pytz "$src/awxkit")
mkdir -p "$root/.run/awx-suite"
export AWX_SUITE_PYTHON=$venv/bin/python

svcdir=$root/.run/awx-suite-service-$kind
started=
# shellcheck disable=SC2317  # called by the EXIT trap
stop_service() {
    [ -n "$started" ] || return 0
    if [ "$kind" = reference ]; then
        "$root/tests/ci/svcctl.sh" stop --dir "$svcdir" >&2 || true
    else
        "$realawx" stop >&2 || true
    fi
}
trap stop_service EXIT

started=1
if [ "$kind" = reference ]; then
    port=$(python "$root/tests/ci/free_port.py")
    exports=$(GIT_CONFIG_GLOBAL=$gitconfig REFSVC_URL_MIRRORS="{\"https://github.com/\": \"file://$mirrors/archives/\"}" \
        "$root/tests/ci/svcctl.sh" start --port "$port" --dir "$svcdir")
else
    "$realawx" reset >&2
    exports=$("$realawx" start)
fi
eval "$exports"

python "$root/tests/awx_suite/run.py" --awx-source "$src" --awx-collection "$awx_collection" \
    --service-kind "$kind" "$@"
