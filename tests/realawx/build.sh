# shellcheck shell=bash
# The build of the real-AWX test bed, sourced by tests/realawx/realawx, whose
# `build` command runs build_all.
#
# It makes AWX 24.6.1 from source the way AWX's own image does
# (tools/ansible/roles/dockerfile/templates/Dockerfile.j2: a virtualenv from
# requirements.txt and requirements_git.txt, then the awx sdist installed into
# it; headless, no UI), a private PostgreSQL 15 cluster provisioned the way
# AWX's installer does, a template copy of that fresh database (`realawx
# reset` goes back to it), and the awx.awx collection built from the same
# source tree as `make build_collection` builds it.
#
# This file and config/settings.py decide what the build makes: they are the
# cache key (KEY_FILES in realawx), so a change here means a new build in a new
# directory. Starting and stopping live in realawx, outside the key.
#
# Every step leaves <install>/.build/<step>.done behind and is skipped when it
# is there; build_all writes <install>/.build/complete at the end.

AWX_VERSION=24.6.1
AWX_COMMIT=94e5795dfc37b95c576d61f3e3b4e936c021548c   # the tag 24.6.1

# requirements_git.txt of 24.6.1 asks for the devel branch of four
# repositories: these are their devel heads on the day of the tag (2024-07-02).
# Each line: repository, commit, distribution, the version it installs as
# (what setuptools_scm computes from a clone of that commit; the build gives
# it to setuptools_scm, since an unpacked archive has no upstream history).
GIT_REQUIREMENTS=(
    "ansible/system-certifi 5aa52ab91f9d579bfe52b5acf30ca799f1a563d9 certifi 2038.12.31"
    "ansible/ansible-runner 764790f22818241c3b56d6041e3ed4bbfc87ed0f ansible-runner 2.3.1.dev81+g764790f"
    "ansible/python3-saml f90824c4910e36c5a89dd295271be26691204ba3 python3-saml 1.14.0"
    "ansible/django-ansible-base 12139716db383b5eaf0022389c11c5c86fd5818c django-ansible-base 2024.7.1.1.dev1+g12139716d"
)
# the extras requirements_git.txt asks of django-ansible-base
DAB_EXTRAS='[rest_filters,jwt_consumer,resource_registry,rbac]'

# Debian 12's names for what Dockerfile.j2 installs to build and run AWX, and
# what runs beside it: PostgreSQL 15, Redis, nginx; Debian's Python 3.11 with
# venv and headers serves when no other Python 3.11 is on PATH.
APT_PACKAGES=(
    build-essential git gettext libffi-dev libltdl-dev libldap2-dev libsasl2-dev
    libpq-dev libxmlsec1-dev libxmlsec1-openssl libxml2-dev libxslt1-dev pkg-config
    swig libssl-dev libkrb5-dev postgresql-15 postgresql-client-15 redis-server
    nginx-light openssl curl ca-certificates python3.11 python3.11-venv python3.11-dev
)

BUILD_STEPS=(sources apt venv awx config tls db provision snapshot collection)

PG_BIN=/usr/lib/postgresql/15/bin
DB_NAME=awx
DB_USER=awx
DB_TEMPLATE=awx_provisioned   # the freshly provisioned database, as a template
NODE_NAME=realawx             # = CLUSTER_HOST_ID of config/settings.py
ADMIN_USERNAME='admin'

# -- sources

# The archive of REPO at COMMIT in AWX_SOURCES: `git archive` of that commit,
# named <name>-<first 12 hex of the commit>.tar.gz.
archive_name() {
    echo "${1#*/}-${2:0:12}.tar.gz"
}

# check_archive FILE COMMIT: listed in SHA256SUMS with that sum, and made from
# that commit (git archive stores the commit id in the tar header).
check_archive() {
    local file=$1 commit=$2 name want got
    name=$(basename "$file")
    [ -f "$AWX_SOURCES/SHA256SUMS" ] || die "AWX_SOURCES=$AWX_SOURCES has no SHA256SUMS"
    want=$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$AWX_SOURCES/SHA256SUMS")
    [ -n "$want" ] || die "$name is not listed in $AWX_SOURCES/SHA256SUMS"
    got=$(sha256sum "$file" | cut -d' ' -f1)
    [ "$got" = "$want" ] || die "$name: sha256 $got, but SHA256SUMS says $want"
    got=$(git get-tar-commit-id < <(gzip -dc "$file" 2>/dev/null)) || got=""
    [ "$got" = "$commit" ] || die "$name was made from commit ${got:-(none)}, not $commit"
}

# unpack_archive FILE COMMIT DEST: DEST becomes a git work tree holding the
# archive's files in one local commit. setuptools_scm picks the files of the
# awx sdist (and of the runner and ansible-base wheels) through git: without
# a repository it silently falls back to MANIFEST.in and leaves files out.
unpack_archive() {
    local file=$1 commit=$2 dest=$3 date
    tar -xzf "$file" -C "$dest" --strip-components=1 --no-same-owner
    # every entry carries the commit's time: the local commit gets it too
    date="@$(stat -c %Y "$(find "$dest" -mindepth 1 -maxdepth 1 -print -quit)") +0000"
    git -C "$dest" init -q -b main
    git -C "$dest" add -A -f .
    GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
        git -C "$dest" -c user.name=realawx -c user.email=realawx@localhost -c commit.gpgsign=false \
        commit -q --no-verify -m "$(basename "$file"): upstream commit $commit"
}

# clone_at REPO COMMIT DEST: a shallow fetch of that one commit.
clone_at() {
    local url="${REALAWX_GIT_URL:-https://github.com}/$1.git"
    git -C "$3" init -q -b main &&
        git -C "$3" fetch -q --depth 1 "$url" "$2" &&
        git -C "$3" -c advice.detachedHead=false checkout -q FETCH_HEAD
}

# fetch_tree REPO COMMIT DEST: from AWX_SOURCES when it has the archive, else
# from git. DEST is a git work tree either way; git config realawx.upstream
# holds the commit.
fetch_tree() {
    local repo=$1 commit=$2 dest=$3 archive
    archive=$(archive_name "$repo" "$commit")
    rm -rf "$dest"
    mkdir -p "$dest"
    if [ -n "${AWX_SOURCES:-}" ] && [ -f "$AWX_SOURCES/$archive" ]; then
        check_archive "$AWX_SOURCES/$archive" "$commit"
        unpack_archive "$AWX_SOURCES/$archive" "$commit" "$dest"
        log "$repo at $commit: from $archive"
    elif clone_at "$repo" "$commit" "$dest"; then
        log "$repo at $commit: cloned from ${REALAWX_GIT_URL:-https://github.com}"
    else
        rm -rf "$dest"
        if [ -n "${AWX_SOURCES:-}" ]; then
            die "no $archive in AWX_SOURCES=$AWX_SOURCES, and git could not fetch $repo at $commit"
        fi
        die "git could not fetch $repo at $commit from ${REALAWX_GIT_URL:-https://github.com};" \
            "without network access, set AWX_SOURCES to a folder of source archives" \
            "($archive and the others, with SHA256SUMS; see tests/realawx/README.md)"
    fi
    git -C "$dest" config realawx.upstream "$commit"
}

build_step_sources() {
    [ -n "${AWX_SOURCES:-}" ] && [ ! -d "$AWX_SOURCES" ] && die "AWX_SOURCES=$AWX_SOURCES is not a directory"
    command -v git >/dev/null || die "git is needed to unpack the sources"
    local line repo commit _
    fetch_tree ansible/awx "$AWX_COMMIT" "$INSTALL/src"
    git -C "$INSTALL/src" tag -f "$AWX_VERSION" HEAD >/dev/null
    for line in "${GIT_REQUIREMENTS[@]}"; do
        read -r repo commit _ <<<"$line"
        fetch_tree "$repo" "$commit" "$INSTALL/.build/deps/${repo#*/}"
    done
}

# -- Debian packages

# apt_install PACKAGE...: as root, or through sudo when it asks for no
# password; otherwise print the line to run and stop (exit 2).
apt_install() {
    local apt=(apt-get install -y -q --no-install-recommends "$@") sudo=()
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            log "missing Debian packages: $*; as root, run this, then build again:"
            log "    apt-get update && ${apt[*]}"
            exit 2
        fi
    fi
    log "${sudo[*]}${sudo[*]:+ }${apt[*]}"
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive "${apt[@]}"
}

build_step_apt() {
    local package missing=()
    for package in "${APT_PACKAGES[@]}"; do
        [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = 'install ok installed' ] ||
            missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
    require_root
    # AWX's certifi (ansible/system-certifi) answers with the RHEL bundle's
    # path; on Debian it has to point at Debian's bundle.
    if [ ! -e /etc/pki/tls/certs/ca-bundle.crt ]; then
        mkdir -p /etc/pki/tls/certs
        ln -s /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt
    fi
}

# -- AWX's virtualenv and the awx package

# A Python 3.11 that makes virtualenvs and has its C headers (AWX builds
# several extensions): REALAWX_PYTHON, python3.11 on PATH, Debian's. Prints the
# base interpreter (not a virtualenv's).
find_python() {
    local candidate found
    for candidate in "${REALAWX_PYTHON:-}" python3.11 /usr/bin/python3.11; do
        [ -n "$candidate" ] || continue
        found=$("$candidate" - 2>/dev/null <<'PY'
import ensurepip, os, sys, sysconfig
if sys.version_info[:2] == (3, 11) and os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
    print(getattr(sys, "_base_executable", None) or sys.executable)
PY
        ) || continue
        [ -n "$found" ] && { echo "$found"; return 0; }
    done
    return 1
}

build_step_venv() {
    local python venv=$INSTALL/venv deps=$INSTALL/.build/deps requirements=$INSTALL/.build/requirements.txt
    local line repo commit dist version name pretend=()
    python=$(find_python) || die "no Python 3.11 with venv and headers (apt-get install python3.11-venv python3.11-dev)"
    log "python: $python"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # AWX's Makefile bootstraps with pip 21.2.4 (also pinned in
    # requirements.txt); a current pip installs the same pins, and pip is
    # not part of AWX at run time. The rest of the bootstrap as pinned.
    "$venv/bin/pip" install -q 'pip==24.0'
    "$venv/bin/pip" install -q setuptools==69.0.2 'setuptools_scm[toml]==8.0.4' wheel==0.42.0 cython==0.29.37
    {
        grep -v '^pip==' "$INSTALL/src/requirements/requirements.txt"
        for line in "${GIT_REQUIREMENTS[@]}"; do
            read -r repo commit dist version <<<"$line"
            name=${repo#*/}
            # (pip refuses git+file URLs with a commit: a path it is)
            if [ "$name" = django-ansible-base ]; then echo "$deps/$name$DAB_EXTRAS"; else echo "$deps/$name"; fi
            pretend+=("SETUPTOOLS_SCM_PRETEND_VERSION_FOR_$(tr 'a-z-' 'A-Z_' <<<"$dist")=$version")
        done
    } >"$requirements"
    # the Makefile's SRC_ONLY_PKGS are built from source
    env "${pretend[@]}" "$venv/bin/pip" install --progress-bar off \
        --no-binary cffi,pycparser,psycopg,twilio -r "$requirements"
    "$venv/bin/pip" uninstall --yes -r "$INSTALL/src/requirements/requirements_tower_uninstall.txt"
    for line in "${GIT_REQUIREMENTS[@]}"; do
        read -r repo commit dist version <<<"$line"
        name=$("$venv/bin/python" -c 'import sys, importlib.metadata as m; print(m.version(sys.argv[1]))' "$dist")
        [ "$name" = "$version" ] || die "$dist installed as $name, not $version"
    done
}

build_step_awx() {
    local python tools=$INSTALL/.build/tools scratch=$INSTALL/.build/sdist-src dist=$INSTALL/.build/dist sdist
    python=$(find_python) || die "no Python 3.11 with venv and headers"
    rm -rf "$tools" "$scratch" "$dist"
    # awx/__init__.py (setup.cfg takes the version from it) imports
    # pkg_resources, which the newest setuptools lacks: an isolated build
    # would fail, so build without isolation against the Makefile's pins.
    "$python" -m venv "$tools"
    "$tools/bin/pip" install -q 'build==1.2.1' setuptools==69.0.2 'setuptools_scm[toml]==8.0.4' wheel==0.42.0
    # a clone, so that the build's leftovers stay out of src
    git clone -q "$INSTALL/src" "$scratch"
    # setuptools_scm cannot tell 24.6.1 from the local commit: say it, as
    # Dockerfile.j2's SETUPTOOLS_SCM_PRETEND_VERSION build argument does
    (cd "$scratch" && SETUPTOOLS_SCM_PRETEND_VERSION=$AWX_VERSION "$tools/bin/python" -m build --sdist --no-isolation --outdir "$dist")
    sdist=$dist/awx-$AWX_VERSION.tar.gz
    [ -s "$sdist" ] || die "the sdist is not $sdist: $(ls "$dist")"
    log "sdist: $(tar -tzf "$sdist" | wc -l) files"
    "$INSTALL/venv/bin/pip" install --no-deps --no-build-isolation --force-reinstall "$sdist"
    [ "$("$INSTALL/venv/bin/python" -c 'import awx; print(awx.__version__)')" = "$AWX_VERSION" ] ||
        die "the installed awx is not $AWX_VERSION"
    rm -rf "$tools" "$scratch"
}

# -- configuration, TLS, database

new_secret() {
    (umask 077 && "$INSTALL/venv/bin/python" -c 'import secrets; print(secrets.token_urlsafe(32))' >"$1")
}

build_step_config() {
    local name
    mkdir -p "$INSTALL"/etc/conf.d "$INSTALL"/var/{projects,job_status,public/static,venv,tmp,redis} \
        "$INSTALL/logs" "$INSTALL/run"
    install -m 0644 "$HERE/config/settings.py" "$INSTALL/etc/settings.py"
    # kept when a step is redone: the database was made with them
    for name in SECRET_KEY db-password broadcast-secret admin-password; do
        [ -s "$INSTALL/etc/$name" ] || new_secret "$INSTALL/etc/$name"
    done
    # static files of the browsable API; no database needed, as in Dockerfile.j2
    (export SKIP_PG_VERSION_CHECK=yes && awx_manage collectstatic --noinput --clear -v0)
}

build_step_tls() {
    local dir=$INSTALL/etc/tls
    rm -rf "$dir"
    mkdir -p "$dir"
    (
        cd "$dir" || exit 1
        umask 077
        openssl req -x509 -new -newkey rsa:2048 -nodes -sha256 -days 3650 -subj '/O=realawx/CN=realawx test CA' \
            -keyout ca.key -out ca.pem \
            -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' \
            -addext 'subjectKeyIdentifier=hash' 2>/dev/null
        openssl req -new -newkey rsa:2048 -nodes -sha256 -subj '/O=realawx/CN=localhost' \
            -keyout server.key -out server.csr 2>/dev/null
        openssl x509 -req -sha256 -days 3650 -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
            -out leaf.pem -extfile <(printf '%s\n' \
                'basicConstraints=critical,CA:FALSE' \
                'keyUsage=critical,digitalSignature,keyEncipherment' \
                'extendedKeyUsage=serverAuth' \
                'subjectAltName=IP:127.0.0.1,DNS:localhost' \
                'subjectKeyIdentifier=hash' \
                'authorityKeyIdentifier=keyid') 2>/dev/null
        # nginx sends the chain; clients trust ca.pem
        cat leaf.pem ca.pem >server.pem
        rm -f server.csr leaf.pem ca.srl
        chmod 0644 ca.pem server.pem
    )
    openssl verify -CAfile "$dir/ca.pem" "$dir/server.pem" >/dev/null || die "the server certificate does not verify"
}

# PostgreSQL refuses to run as root: it runs as postgres, which must be able to
# reach the cluster through every directory above it (root's home is often 0700).
open_path_for_postgres() {
    local dir=$1
    while [ "$dir" != / ]; do
        if ! runuser -u postgres -- test -x "$dir"; then
            log "chmod o+x $dir (for PostgreSQL, which runs as postgres, and nginx's workers)"
            chmod o+x "$dir"
        fi
        dir=$(dirname "$dir")
    done
}

build_step_db() {
    local pgdata=$INSTALL/pgdata password
    id postgres >/dev/null 2>&1 || die "no user postgres (Debian package postgresql-15)"
    chmod 0755 "$INSTALL"
    open_path_for_postgres "$INSTALL"
    if [ ! -s "$pgdata/PG_VERSION" ]; then
        rm -rf "$pgdata"
        mkdir -p "$pgdata"
        chown postgres:postgres "$pgdata"
        chmod 0700 "$pgdata"
        as_postgres "$PG_BIN/initdb" -D "$pgdata" -U postgres -E UTF8 --locale=C.UTF-8 \
            --auth-local=peer --auth-host=scram-sha-256 >/dev/null
        # no TCP: a unix socket in the install, so that instances coexist
        cat >>"$pgdata/postgresql.conf" <<EOF

# real-AWX test bed
listen_addresses = ''
unix_socket_directories = '$INSTALL/run/pg'
max_connections = 200
shared_buffers = 128MB
logging_collector = off
EOF
        cat >"$pgdata/pg_hba.conf" <<'EOF'
# the superuser through peer authentication (runuser -u postgres), AWX's role by password
local   all   postgres   peer
local   all   all        scram-sha-256
EOF
        chown postgres:postgres "$pgdata/postgresql.conf" "$pgdata/pg_hba.conf"
    fi
    start_pg
    password=$(cat "$INSTALL/etc/db-password")
    if [ "$(pg_psql -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
        pg_psql -c "CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$password'"
    fi
}

# What AWX's installer does on an empty database (at 24.6.1,
# tools/docker-compose/bootstrap_development.sh and the operator's tasks):
# migrate, the admin, the demo data, the default execution environments, this
# node and its queues.
build_step_provision() {
    local password
    password=$(cat "$INSTALL/etc/admin-password")
    start_pg
    start_redis
    pg_psql -c "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)"
    pg_psql -c "CREATE DATABASE $DB_NAME OWNER $DB_USER"
    awx_manage migrate --noinput
    (export DJANGO_SUPERUSER_PASSWORD=$password && awx_manage createsuperuser --noinput \
        --username="$ADMIN_USERNAME" --email="$ADMIN_USERNAME@localhost")
    awx_manage create_preload_data
    awx_manage register_default_execution_environments
    awx_manage provision_instance --hostname="$NODE_NAME" --node_type=hybrid
    awx_manage add_receptor_address --instance="$NODE_NAME" --address="$NODE_NAME" --port=2222 --canonical
    awx_manage register_queue --queuename=controlplane --instance_percent=100
    awx_manage register_queue --queuename=default --instance_percent=100
    # The dispatcher (not run here: jobs do not execute) would, when it starts,
    # fill the queues by their policies and check the node's capacity; without
    # those the instance groups stay empty. The same two AWX functions, once.
    awx_manage shell -c '
from awx.main.models import Instance
from awx.main.tasks.system import apply_cluster_membership_policies
apply_cluster_membership_policies()
node = Instance.objects.me()
node.local_health_check()
node.refresh_from_db()
print("node", node.hostname, node.node_type, "capacity", node.capacity,
      "groups", sorted(group.name for group in node.rampart_groups.all()))
'
}

# The fresh database as a template database, which `realawx reset` copies.
build_step_snapshot() {
    start_pg
    pg_psql -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '$DB_NAME' AND pid <> pg_backend_pid()" >/dev/null
    if [ "$(pg_psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB_TEMPLATE'")" = 1 ]; then
        pg_psql -c "ALTER DATABASE $DB_TEMPLATE IS_TEMPLATE false"
        pg_psql -c "DROP DATABASE $DB_TEMPLATE"
    fi
    pg_psql -c "CREATE DATABASE $DB_TEMPLATE TEMPLATE $DB_NAME OWNER $DB_USER"
    pg_psql -c "ALTER DATABASE $DB_TEMPLATE IS_TEMPLATE true ALLOW_CONNECTIONS false"
}

# -- the awx.awx collection

# As AWX's `make build_collection` with its defaults (awx.awx, version 24.6.1,
# COLLECTION_TEMPLATE_VERSION=false), then installed from the tarball into
# <install>/awx-collection. Uses the ansible-core on PATH.
build_step_collection() {
    local scratch=$INSTALL/.build/collection dest=$INSTALL/awx-collection tarball program
    for program in ansible-playbook ansible-galaxy; do
        command -v "$program" >/dev/null ||
            die "$program is not on PATH (ansible-core; make real-service puts the project's .venv/bin first)"
    done
    rm -rf "$scratch"
    mkdir -p "$scratch"
    # the playbook writes into the collection's source: work on a copy
    cp -a "$INSTALL/src/awx_collection" "$scratch/awx_collection"
    # ansible-core 2.19 refuses the role's non-boolean `assert: that:
    # collection_version`, which older releases took
    (cd "$scratch" &&
        ANSIBLE_ALLOW_BROKEN_CONDITIONALS=True ansible-playbook -i localhost, awx_collection/tools/template_galaxy.yml \
            -e collection_package=awx -e collection_namespace=awx -e collection_version="$AWX_VERSION" \
            -e '{"awx_template_version": false, "ansible_python_interpreter": "{{ ansible_playbook_python }}"}' &&
        ansible-galaxy collection build awx_collection_build --force --output-path=awx_collection_build)
    tarball=$scratch/awx_collection_build/awx-awx-$AWX_VERSION.tar.gz
    [ -s "$tarball" ] || die "ansible-galaxy made no $tarball"
    rm -rf "$dest"
    mkdir -p "$dest"
    cp "$tarball" "$dest/"
    ansible-galaxy collection install --force --no-deps -p "$dest" "$dest/$(basename "$tarball")"
    [ -s "$dest/ansible_collections/awx/awx/MANIFEST.json" ] || die "awx.awx is not in $dest"
    rm -rf "$scratch"
}

# -- all of it

build_all() {
    local step started was_up=0 t0
    t0=$(date +%s)
    set -E
    trap 'log "failed (exit $?): $BASH_COMMAND"' ERR
    pg_running && was_up=1
    # leave the services as they were found
    [ "$was_up" = 1 ] || trap 'stop_backends' EXIT
    log "build: $INSTALL"
    for step in "${BUILD_STEPS[@]}"; do
        if [ "$step" != apt ] && [ -f "$INSTALL/.build/$step.done" ]; then
            continue
        fi
        log "step $step"
        started=$(date +%s)
        "build_step_$step"
        touch "$INSTALL/.build/$step.done"
        log "step $step: done in $(($(date +%s) - started)) s"
    done
    [ -f "$INSTALL/.build/complete" ] || echo "$AWX_VERSION $(build_key) $(date -u +%FT%TZ)" >"$INSTALL/.build/complete"
    log "build: complete in $(($(date +%s) - t0)) s: $INSTALL"
}
