#!/usr/bin/env bash
# The version matrix: ansible-test sanity and the integration targets under each
# supported ansible-core, each in its own virtualenv.
#
#   tests/ci/matrix.sh [VERSION...]      # default: every version below
#   MATRIX_STEPS="sanity" tests/ci/matrix.sh 2.16
#   MATRIX_TARGETS=all tests/ci/matrix.sh 2.21
#   MATRIX_STEPS_2_21=sanity tests/ci/matrix.sh 2.16 2.21   # 2.21: sanity only
#   venv=$(tests/ci/matrix.sh --venv 2.21)      # make (or reuse) a version's virtualenv, print its path
#
# VERSION is an ansible-core minor version from the table. Each virtualenv gets
# that ansible-core, plus requirements-dev.txt without the tools that pin their
# own ansible-core: the modules need requests, and the reference service that
# the integration targets run against needs Django and friends. The virtualenvs are
# kept in the machine's cache (tests/ci/cached-venv.sh), built again only when their
# requirements change.
# Sanity uses the ignore file of its version (tests/sanity/ignore-X.Y.txt) and
# runs its Python-specific tests on the virtualenv's Python only (make sanity
# covers every Python under the development ansible-core); MATRIX_SANITY_PYTHON=all
# runs them on every Python the machine has, MATRIX_SANITY_PYTHON=3.X on that one.
# Integration runs only the targets whose outcome can differ between
# ansible-core versions (MATRIX_TARGETS; "all" for every target): those that go
# through the interfaces ansible-core gives plugins and results, which change
# between versions (the action plugin in the worker, no_log and diff masking,
# facts, lookups, the inventory plugin and its cache, templating of returned
# data, failed results). The other targets test the service's API through the
# same code, and run once, under the development ansible-core (make integration).
# make test runs every integration target under the oldest version of MATRIX_CI in the AWX layout
# (replay, integration-unchecked) and under the newest in the platform gateway's layout
# (replay-gateway, integration-gateway-unchecked), with this script's --venv, and this script runs
# only sanity under both (MATRIX_STEPS_2_16=sanity MATRIX_STEPS_2_21=sanity).
# Results: tests/output/matrix/<version>/{sanity,integration}/ and a summary table.
set -euo pipefail

targets=${MATRIX_TARGETS:-async_controller awx_compat awx_compat_jobs inventory_plugin lookup_api schedule_rrule settings credential job_template workflow_job_template token}
# all: every target of the reference service (the Hub's run in make hub, against the real Hub)
[ "$targets" != all ] || targets="--exclude hub/"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

# version  python  ansible-core release
table='
2.16 3.11 2.16.19
2.17 3.11 2.17.14
2.18 3.11 2.18.19
2.19 3.11 2.19.14
2.20 3.12 2.20.10
2.21 3.13 2.21.5
'
# Tools of requirements-dev.txt left out of the matrix virtualenvs.
drop='^(ansible-core|ansible-lint|ansible-compat|resolvelib|black|pytokens|awxkit|rstcheck|rstcheck-core|antsibull-[a-z-]+|yamllint)=='

# The virtualenv of a version (made, or reused from the machine's cache), on stdout.
venv_of() {
    local version=$1 line pyver release python reqs
    line=$(awk -v v="$version" '$1 == v' <<<"$table")
    [ -n "$line" ] || { echo "matrix: unknown ansible-core version $version" >&2; return 2; }
    read -r _ pyver release <<<"$line"
    python=$pythons/python$pyver
    if [ ! -x "$python" ]; then
        echo "matrix: ansible-core $version needs Python $pyver, which this machine lacks" >&2
        return 3
    fi
    reqs=$root/.run/matrix/$version.requirements.txt
    mkdir -p "$root/.run/matrix"
    { echo "ansible-core==$release"; grep -vE "$drop" requirements-dev.txt; } > "$reqs.$$"
    mv "$reqs.$$" "$reqs"
    tests/ci/cached-venv.sh "matrix-$version" "$python" -r "$reqs"
}

if [ "${1:-}" = --venv ]; then
    [ $# -eq 2 ] || { echo "usage: matrix.sh --venv VERSION" >&2; exit 2; }
    pythons=$(tests/ci/pythons.sh "$root/.run/pythons")
    venv_of "$2"
    exit
fi

versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
    read -r -a versions <<<"$(awk 'NF {printf "%s ", $1}' <<<"$table")"
fi
steps=${MATRIX_STEPS:-sanity integration}
pythons=$(tests/ci/pythons.sh "$root/.run/pythons")

fmt() { local s=$1; if [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi; }
summary=()
status=0
for version in "${versions[@]}"; do
    line=$(awk -v v="$version" '$1 == v' <<<"$table")
    [ -n "$line" ] || { echo "matrix: unknown ansible-core version $version" >&2; exit 2; }
    read -r _ pyver release <<<"$line"
    t0=$SECONDS
    rc=0
    venv=$(venv_of "$version") || rc=$?
    if [ "$rc" = 3 ]; then
        summary+=("$(printf '%-6s %-6s %-8s %-6s  skipped: no python%s' "$version" "$pyver" "$release" - "$pyver")")
        status=1
        continue
    fi
    [ "$rc" = 0 ] || exit "$rc"
    setup=$((SECONDS - t0))

    # MATRIX_STEPS_2_21 (the version, its dot an underscore): that version's steps.
    steps_of=MATRIX_STEPS_${version//./_}
    results=()
    for step in ${!steps_of-$steps}; do
        echo "===== matrix $version: $step"
        t0=$SECONDS
        rc=0
        args=()
        if [ "$step" = integration ]; then
            read -r -a args <<<"$targets"
        fi
        sanity_python=${MATRIX_SANITY_PYTHON:-$pyver}
        [ "$sanity_python" != all ] || sanity_python=
        SANITY_PYTHON=$sanity_python \
        ANSIBLE_TEST_WORK=$root/.run/matrix/ansible-test/$version-$step \
        TEST_OUTPUT=$root/tests/output/matrix/$version/$step \
        INTEGRATION_SERVICE_DIR=$root/.run/matrix/service-$version \
        VENV=$venv \
            "tests/ci/$step.sh" "${args[@]}" || rc=$?
        if [ "$rc" = 0 ]; then verdict=pass; else verdict=FAIL; status=1; fi
        results+=("$step $(fmt $((SECONDS - t0))) $verdict")
        echo "===== matrix $version: $step $verdict"
    done
    row=$(printf '%-6s %-6s %-8s %-6s' "$version" "$pyver" "$release" "$(fmt "$setup")")
    for r in "${results[@]}"; do
        read -r name took verdict <<<"$r"
        row+=$(printf '  %s %s %s' "$name" "$took" "$verdict")
    done
    summary+=("$row")
done

echo
printf '%-6s %-6s %-8s %-6s  %s\n' core python release venv 'step time result ...'
printf '%s\n' "${summary[@]}"
exit "$status"
