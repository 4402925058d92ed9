#!/usr/bin/env python3
"""Start and stop a real Automation Hub (galaxy-ng 4.9.2 from PyPI) on loopback, for the tests.

  hubctl.py start [--dir DIR] [--fresh] [--trust-gateway]
                                           start; prints shell export lines (HUB_URL, HUB_USERNAME,
                                           HUB_PASSWORD, HUB_CA_PATH); --trust-gateway: the Hub also
                                           takes the user a gateway in front of it names (below)
  hubctl.py stop [--dir DIR]               stop everything start started (idempotent)
  hubctl.py venv                           make (or find) the Hub's virtualenv; prints its path
  hubctl.py lock PYTHON                    resolve the Hub's packages anew with pip for PYTHON;
                                           prints the lines of requirements.lock

The Hub's packages come from requirements.lock beside this file, installed into a virtualenv of the
machine's cache (tests/ci/cached-venv.sh: keyed by the interpreter and the lock file's text, reused
when present). DIR (default .run/hub under the repository root) holds everything of one instance:
a PostgreSQL cluster of its own (Debian's PostgreSQL 15, on a Unix socket in DIR/pg/run only: no
TCP port), the Hub's settings (settings.py, written at every start with a new SECRET_KEY), the
database fields' encryption key, the container registry's token signing keys, a CA and the TLS
certificate of 127.0.0.1, the media and working directories, the logs and the pids. The API and the
content app listen on 127.0.0.1 only, each on a free port, over TLS; one tasking worker runs.
Everything the Hub runs is started under `nice -n 19` (HUB_NICE overrides): the machine is shared.
The database of DIR is kept from one start to the next (migrate brings it up to date); --fresh
starts from a new one.

--trust-gateway: the reference gateway (tests/service, svcctl start --layout gateway --hub DIR) may
stand in front of the Hub. The platform's Hub (galaxy-ng 4.10 and later) believes the user named by
the gateway's signed token (django-ansible-base's X-DAB-JW-TOKEN); galaxy-ng 4.9.2 has no such
thing. Its substitute here is pulpcore's remote-user authentication, by settings alone: the Hub
also takes the username of one request header, whose name ends in a secret made once per DIR
(DIR/gateway.json, mode 0600, which the gateway reads), so that only who can read that file can
name a user. See tests/hub/README.md.
"""
import argparse
import json
import os
import secrets
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HUB_DIR = Path(__file__).resolve().parent
REPO_ROOT = HUB_DIR.parent.parent
DEFAULT_DIR = REPO_ROOT / ".run" / "hub"
LOCK_FILE = HUB_DIR / "requirements.lock"
PYTHON = os.environ.get("HUB_PYTHON", "python3.11")
PG_BIN = Path(os.environ.get("HUB_PG_BIN", "/usr/lib/postgresql/15/bin"))
# What the lock file is resolved from (hubctl.py lock): galaxy-ng and the two pins it needs besides.
TOP_LEVEL = ["galaxy-ng==4.9.2", "ruamel.yaml.clib==0.2.12", "ansible-core<2.16"]
ADMIN_USERNAME = "admin"
DB_NAME = "galaxy"
# PostgreSQL refuses to run as root: a root caller runs it as this user (Debian's package makes it).
PG_USER = "postgres"
NICE = os.environ.get("HUB_NICE", "19")
START_TIMEOUT = float(os.environ.get("HUB_START_TIMEOUT", "300"))


def die(message, code=1):
    print("hubctl: " + message, file=sys.stderr)
    sys.exit(code)


def niced(command):
    return ["nice", "-n", NICE] + list(command)


def free_port():
    """A port on 127.0.0.1 (tests/ci/free_port.py: leased, so that steps side by side never share one)."""
    sys.path.insert(0, str(REPO_ROOT / "tests" / "ci"))
    from free_port import free_port as leased

    return leased()


# --- the virtualenv -------------------------------------------------------------------------------

def venv_path() -> Path:
    """The Hub's virtualenv in the machine's cache, made from the lock file when it is not there yet."""
    command = niced([str(REPO_ROOT / "tests" / "ci" / "cached-venv.sh"), "hub", PYTHON,
                     "--no-deps", "-r", str(LOCK_FILE)])
    result = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        die("the Hub's virtualenv could not be made (cached-venv.sh exited %d)" % result.returncode)
    venv = Path(result.stdout.strip().splitlines()[-1])
    # --no-deps installs exactly the lock's packages: pip check says whether they are all there and
    # agree (once per virtualenv).
    checked = venv / ".pip-check"
    if not checked.exists():
        check = subprocess.run(niced([str(venv / "bin" / "python"), "-m", "pip", "check"]),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if check.returncode != 0:
            die("pip check fails in %s: the lock file is incomplete or inconsistent:\n%s" % (venv, check.stdout))
        checked.write_text(check.stdout)
    return venv


def cmd_venv(args):
    print(venv_path())


def cmd_lock(args):
    """Resolve TOP_LEVEL with pip in a throwaway virtualenv and print the pins (for requirements.lock)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([args.python, "-m", "venv", tmp + "/venv"], check=True)
        subprocess.run(niced([tmp + "/venv/bin/python", "-m", "pip", "install", "--quiet"] + TOP_LEVEL),
                       check=True, stdout=sys.stderr)
        frozen = subprocess.run([tmp + "/venv/bin/python", "-m", "pip", "freeze", "--all"],
                                check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in frozen.splitlines():
        if not line.startswith("pip=="):
            print(line)


# --- processes ------------------------------------------------------------------------------------

def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is not alive
        with open("/proc/%d/stat" % pid) as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def process_of(pid: int, directory: Path) -> bool:
    """Whether pid is still a process started for this instance: its command line or its environment
    names DIR (a pid from a stale file may since belong to another process, which must be left alone)."""
    marker = (str(directory).rstrip("/") + "/").encode()
    for name in ("cmdline", "environ"):
        try:
            if marker in Path("/proc/%d/%s" % (pid, name)).read_bytes():
                return True
        except FileNotFoundError:
            return False
        except OSError:
            continue
    return False


def terminate(pid: int, timeout=20.0):
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.time() + timeout
    while time.time() < deadline and alive(pid):
        time.sleep(0.1)
    if alive(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def read_pids(directory: Path) -> dict:
    try:
        return json.loads((directory / "pids.json").read_text())
    except (OSError, ValueError):
        return {}


def write_pids(directory: Path, pids: dict):
    (directory / "pids.json").write_text(json.dumps(pids))


def spawn(directory: Path, name: str, command: list, env: dict) -> int:
    log = open(directory / "logs" / ("%s.log" % name), "ab")
    proc = subprocess.Popen(niced(command), stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                            cwd=str(directory), start_new_session=True)
    log.close()
    return proc.pid


# --- PostgreSQL -----------------------------------------------------------------------------------

def as_pg_user(command: list) -> list:
    if os.geteuid() == 0:
        return ["runuser", "-u", PG_USER, "--"] + command
    return command


INITDB_OPTIONS = ["-U", "postgres", "--auth-local=trust", "--auth-host=reject", "-E", "UTF8", "--locale=C.UTF-8"]


def pg_init(directory: Path):
    """A new, empty PostgreSQL cluster in DIR/pg (whatever was there is removed)."""
    pg = directory / "pg"
    if os.geteuid() == 0 and subprocess.run(["runuser", "-u", PG_USER, "--", "test", "-x", str(directory)]).returncode:
        die("PostgreSQL runs as the user %s here, which cannot reach %s: give a directory every user may "
            "traverse (not one under a private directory such as pytest's temporary ones)" % (PG_USER, directory))
    if pg.exists():
        shutil.rmtree(pg)
    pg.mkdir(parents=True)
    own_pg_dir(pg)
    # Local (Unix socket) connections only, trusted: the socket's directory is the cluster owner's
    # alone, and there is no TCP listener.
    subprocess.run(niced(as_pg_user([str(PG_BIN / "initdb"), "-D", str(pg / "data")] + INITDB_OPTIONS)),
                   check=True, stdout=subprocess.DEVNULL)


def own_pg_dir(pg: Path):
    """DIR/pg and its socket directory DIR/pg/run: the cluster owner's alone."""
    (pg / "run").mkdir(exist_ok=True)
    for path in (pg, pg / "run"):
        if os.geteuid() == 0:
            shutil.chown(path, PG_USER, PG_USER)
        os.chmod(path, 0o700)


def pg_start(directory: Path):
    pg = directory / "pg"
    data, run = pg / "data", pg / "run"
    if os.geteuid() == 0 and subprocess.run(["runuser", "-u", PG_USER, "--", "test", "-x", str(directory)]).returncode:
        die("PostgreSQL runs as the user %s here, which cannot reach %s: give a directory every user may "
            "traverse (not one under a private directory such as pytest's temporary ones)" % (PG_USER, directory))
    options = "-c listen_addresses='' -c unix_socket_directories=%s -c fsync=off" % run
    result = subprocess.run(niced(as_pg_user([str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(pg / "postgres.log"),
                                              "-o", options, "-w", "-t", "60", "start"])),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        log = ""
        try:
            log = (pg / "postgres.log").read_text(errors="replace")[-2000:]
        except OSError:
            pass
        die("PostgreSQL did not start:\n%s\n%s" % (result.stdout, log))
    if psql(run, "SELECT 1 FROM pg_database WHERE datname = '%s'" % DB_NAME, database="postgres") != "1":
        subprocess.run(as_pg_user([str(PG_BIN / "createdb"), "-h", str(run), "-U", "postgres", DB_NAME]), check=True)
    return run


def psql(socket_dir: Path, query: str, database=DB_NAME) -> str:
    """The answer of one query, or None when it fails (a table that is not there)."""
    result = subprocess.run(as_pg_user([str(PG_BIN / "psql"), "-h", str(socket_dir), "-U", "postgres", "-d", database,
                                        "-tAc", query]),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return result.stdout.strip() if result.returncode == 0 else None


def pg_stop(directory: Path):
    data = directory / "pg" / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(as_pg_user([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# --- the migrated database's template -------------------------------------------------------------
#
# Migrating a new database takes about 30 s of processor time. A new instance copies a migrated one
# instead: the stopped PostgreSQL cluster of an instance just migrated, kept in the machine's cache
# (AUTOMATION_SERVICE_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/automation-service, beside the virtualenvs
# of tests/ci/cached-venv.sh), in hub-db/KEY/: data/ (the cluster), the database fields' encryption key it
# was made with (the default domain's storage settings are encrypted with it), and manifest.json (every
# file's size and SHA-256, and the number of migrations applied). KEY is a digest of what makes the
# database: the Hub's virtualenv (its name is a digest of the interpreter and the lock file), the
# PostgreSQL server's version, initdb's options and the settings but the instance's own (INSTANCE_SETTINGS).
# One instance at a time makes a template of a key (a lock file per key); the others wait and copy it.
# A template whose files are not those of its manifest, or whose database does not hold the manifest's
# migrations, is removed and made again, never used.

TEMPLATE_FORMAT = 1  # raise it when what a template holds changes
TEMPLATES_KEPT = 3  # the most recently used templates kept; older ones are removed when one is made


class BrokenTemplate(Exception):
    pass


def cache_root() -> Path:
    root = os.environ.get("AUTOMATION_SERVICE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "automation-service")
    if not os.path.isabs(root):
        die("the cache root must be an absolute path, not %s" % root)
    return Path(root)


def database_key(venv: Path) -> str:
    import hashlib

    server = subprocess.run([str(PG_BIN / "postgres"), "--version"], stdout=subprocess.PIPE, text=True,
                            check=True).stdout
    placeholder = Path("/instance")
    values = settings_values(placeholder, "https://api", "https://content", 0, placeholder, placeholder)
    text = "\n".join([
        "format %d" % TEMPLATE_FORMAT,
        "venv %s" % venv.name,
        "server %s" % server.strip(),
        "initdb %s" % " ".join(INITDB_OPTIONS),
        "settings %r" % sorted((name, value) for name, value in values.items() if name not in INSTANCE_SETTINGS),
    ])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def file_digest(path: Path, copy_to: Path = None) -> str:
    """The SHA-256 of a file, copying it to copy_to on the way when given (one read for both)."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as source:
        target = open(copy_to, "wb") if copy_to else None
        try:
            for chunk in iter(lambda: source.read(1 << 20), b""):
                digest.update(chunk)
                if target:
                    target.write(chunk)
        finally:
            if target:
                target.close()
    return digest.hexdigest()


def tree_entries(root: Path):
    """(relative path, is a directory) of everything under root, parents first."""
    for top, dirs, files in os.walk(root):
        dirs.sort()
        for name in dirs:
            yield os.path.relpath(os.path.join(top, name), root), True
        for name in sorted(files):
            yield os.path.relpath(os.path.join(top, name), root), False


def save_template(directory: Path, template: Path, key: str, migrations: int):
    """Keep the stopped cluster of DIR (just migrated) and its encryption key as the template of key."""
    partial = template.parent / ("%s.tmp%d" % (key, os.getpid()))
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(mode=0o700)
    data = directory / "pg" / "data"
    files, dirs = {}, []
    for relative, is_dir in tree_entries(data):
        if is_dir:
            (partial / "data" / relative).mkdir(parents=True, exist_ok=True)
            dirs.append(relative)
            continue
        (partial / "data" / relative).parent.mkdir(parents=True, exist_ok=True)
        digest = file_digest(data / relative, copy_to=partial / "data" / relative)
        files[relative] = [(data / relative).stat().st_size, digest]
    key_file = directory / "keys" / "database_fields.symmetric.key"
    shutil.copyfile(key_file, partial / key_file.name)
    os.chmod(partial / key_file.name, 0o600)
    manifest = {"key": key, "migrations": migrations, "dirs": dirs, "files": files,
                "encryption_key": file_digest(key_file)}
    (partial / "manifest.json").write_text(json.dumps(manifest))
    if template.exists():
        shutil.rmtree(template)
    os.replace(partial, template)


def copy_template(template: Path, directory: Path, key: str) -> dict:
    """Make DIR/pg/data a copy of the template, checking every file against the manifest on the way;
    raises BrokenTemplate when one differs. Returns the manifest."""
    try:
        manifest = json.loads((template / "manifest.json").read_text())
    except (OSError, ValueError) as exc:
        raise BrokenTemplate("no readable manifest (%s)" % exc)
    if manifest.get("key") != key:
        raise BrokenTemplate("its manifest names another key")
    source = template / "data"
    present = {relative: is_dir for relative, is_dir in tree_entries(source)}
    if set(present) != set(manifest["files"]) | set(manifest["dirs"]):
        raise BrokenTemplate("its files are not those of its manifest")
    pg = directory / "pg"
    if pg.exists():
        shutil.rmtree(pg)
    pg.mkdir(parents=True)
    data = pg / "data"
    data.mkdir(mode=0o700)
    for relative in manifest["dirs"]:
        (data / relative).mkdir(mode=0o700)
    for relative, (size, digest) in manifest["files"].items():
        if file_digest(source / relative, copy_to=data / relative) != digest or (data / relative).stat().st_size != size:
            raise BrokenTemplate("%s is not the file of its manifest" % relative)
        os.chmod(data / relative, 0o600)
    key_file = template / "database_fields.symmetric.key"
    if file_digest(key_file) != manifest.get("encryption_key"):
        raise BrokenTemplate("its encryption key is not the one of its manifest")
    keys = directory / "keys"
    keys.mkdir(exist_ok=True)
    target = keys / key_file.name
    target.unlink(missing_ok=True)
    write_secret(target, key_file.read_bytes())
    if os.geteuid() == 0:
        for top, dirs, files in os.walk(data):
            for name in [top] + [os.path.join(top, n) for n in dirs + files]:
                shutil.chown(name, PG_USER, PG_USER)
    own_pg_dir(pg)
    return manifest


def applied_migrations(socket_dir: Path):
    answer = psql(socket_dir, "SELECT count(*) FROM django_migrations")
    return int(answer) if answer and answer.isdigit() else None


def new_database(directory: Path, venv: Path, key: str):
    """DIR's database, new: a copy of the template of key, made first when there is none (or it is broken).
    Returns PostgreSQL's socket directory, the cluster started."""
    import fcntl

    cache = cache_root() / "hub-db"
    cache.mkdir(parents=True, exist_ok=True)
    template = cache / key
    with open(str(cache / (key + ".lock")), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if template.exists():
            try:
                manifest = copy_template(template, directory, key)
                socket_dir = pg_start(directory)
                found = applied_migrations(socket_dir)
                if found != manifest["migrations"]:
                    pg_stop(directory)
                    raise BrokenTemplate("its database holds %s migrations, not the manifest's %d"
                                         % (found, manifest["migrations"]))
                os.utime(str(template))  # used: pruned last
                (directory / "db.key").write_text(key + "\n")
                return socket_dir
            except BrokenTemplate as exc:
                print("hubctl: the database template %s is broken, made again: %s" % (template, exc), file=sys.stderr)
                shutil.rmtree(template, ignore_errors=True)
        # Made here: this instance's cluster, migrated, stopped while it is copied.
        pg_init(directory)
        socket_dir = pg_start(directory)
        keys = ensure_keys(directory)
        migrate(directory, venv, socket_dir, keys)
        migrations = applied_migrations(socket_dir)
        pg_stop(directory)
        save_template(directory, template, key, migrations)
        prune_templates(cache, keep=template)
    (directory / "db.key").write_text(key + "\n")
    return pg_start(directory)


def prune_templates(cache: Path, keep: Path):
    """Remove all but the TEMPLATES_KEPT most recently used templates (other clones' lock files make others)."""
    templates = sorted((path for path in cache.iterdir() if path.is_dir() and ".tmp" not in path.name),
                       key=lambda path: path.stat().st_mtime, reverse=True)
    for old in [path for path in templates if path != keep][TEMPLATES_KEPT - 1:]:
        shutil.rmtree(old, ignore_errors=True)
        try:
            (cache / (old.name + ".lock")).unlink()
        except FileNotFoundError:
            pass


# --- files of the instance ------------------------------------------------------------------------

def write_secret(path: Path, data: bytes):
    if not path.exists():
        partial = path.with_suffix(".tmp")
        partial.write_bytes(b"")
        os.chmod(partial, 0o600)
        partial.write_bytes(data)
        os.replace(partial, path)
    return path


def ensure_keys(directory: Path):
    """The database fields' encryption key (a Fernet key: it must outlive the database's contents) and
    the registry's token signing key pair (ES256: chosen, not taken from the platform's Hub)."""
    from cryptography.fernet import Fernet
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    keys = directory / "keys"
    keys.mkdir(exist_ok=True)
    write_secret(keys / "database_fields.symmetric.key", Fernet.generate_key())
    private = keys / "token_private.pem"
    if not private.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        (keys / "token_public.pem").write_bytes(key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
        write_secret(private, key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()))
    return keys


def ensure_certificates(directory: Path):
    tls = directory / "tls"
    tls.mkdir(exist_ok=True)
    ca_path, cert_path, key_path = tls / "ca.pem", tls / "server.pem", tls / "server.key"
    if not (ca_path.exists() and cert_path.exists() and key_path.exists()):
        import trustme

        ca = trustme.CA(organization_name="Automation Hub test CA")
        server = ca.issue_cert("127.0.0.1", "localhost")
        ca.cert_pem.write_to_path(str(ca_path))
        server.private_key_pem.write_to_path(str(key_path))
        os.chmod(key_path, 0o600)
        with open(cert_path, "wb") as fh:
            for blob in server.cert_chain_pems:
                fh.write(blob.bytes())
    return ca_path, cert_path, key_path


def gateway_trust(directory: Path, api_url: str, content_url: str, ca_path: Path) -> dict:
    """--trust-gateway: the settings with which the Hub takes the user the gateway in front of it names, and
    DIR/gateway.json, what the gateway needs to reach it (its URLs, its CA, the header's name).

    pulpcore 3.28's PulpRemoteUserAuthentication (DRF's RemoteUserAuthentication) reads the username from
    the request's META key REMOTE_USER_ENVIRON_NAME, and Django's RemoteUserBackend makes a user it has
    not seen; galaxy-ng's GALAXY_AUTHENTICATION_CLASSES become DRF's (and so Pulp's) authentication
    classes, and AUTHENTICATION_BACKEND_PRESET "custom" keeps AUTHENTICATION_BACKENDS as given
    (galaxy_ng/app/dynaconf_hooks.py). A header is any client's to send: its name ends in a secret
    made once per DIR, which only the gateway reads, and the gateway drops every header of that
    prefix a client sends."""
    path = directory / "gateway.json"
    header = None
    try:
        header = json.loads(path.read_text()).get("header")
    except (OSError, ValueError):
        pass
    if not header:
        header = "X-Gateway-User-" + secrets.token_hex(16)
    partial = directory / "gateway.json.tmp"
    partial.write_text("")
    os.chmod(partial, 0o600)
    partial.write_text(json.dumps({"url": api_url, "content_url": content_url, "ca": str(ca_path),
                                   "header": header, "username": ADMIN_USERNAME}))
    os.replace(partial, path)
    return {
        "GALAXY_AUTHENTICATION_CLASSES": [
            "rest_framework.authentication.SessionAuthentication",
            "rest_framework.authentication.TokenAuthentication",
            "rest_framework.authentication.BasicAuthentication",
            "pulpcore.app.authentication.PulpRemoteUserAuthentication",
        ],
        "REMOTE_USER_ENVIRON_NAME": "HTTP_" + header.upper().replace("-", "_"),
        "AUTHENTICATION_BACKEND_PRESET": "custom",
        "AUTHENTICATION_BACKENDS": [
            # passwords (Basic, the session login) as before; then the header's user, made at first sight
            "django.contrib.auth.backends.ModelBackend",
            "django.contrib.auth.backends.RemoteUserBackend",
            "pulpcore.backends.ObjectRolePermissionBackend",
        ],
    }


# The settings whose values are the instance's own (secrets, paths, addresses): they stay out of the
# key of the migrated database's template (database_key). Every other setting is in the key, so that a
# setting added to settings_values makes a new template, whether or not it changes what migrate does.
INSTANCE_SETTINGS = {
    "SECRET_KEY", "DATABASES", "DB_ENCRYPTION_KEY", "CONTENT_ORIGIN", "ANSIBLE_API_HOSTNAME",
    "ANSIBLE_CONTENT_HOSTNAME", "X_PULP_CONTENT_HOST", "X_PULP_CONTENT_PORT", "MEDIA_ROOT", "STATIC_ROOT",
    "WORKING_DIRECTORY", "FILE_UPLOAD_TEMP_DIR", "TOKEN_SERVER", "PUBLIC_KEY_PATH", "PRIVATE_KEY_PATH",
}


def settings_values(directory: Path, api_url: str, content_url: str, content_port: int, socket_dir: Path,
                    keys: Path) -> dict:
    """The settings of a standalone Hub (pulpcore reads the file PULP_SETTINGS names, after its own and
    the plugins' defaults: pulpcore/app/settings.py, galaxy_ng/app/settings.py)."""
    return {
        "SECRET_KEY": secrets.token_urlsafe(48),
        "DATABASES": {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": DB_NAME, "USER": "postgres",
                                  "HOST": str(socket_dir), "CONN_MAX_AGE": 0}},
        "DB_ENCRYPTION_KEY": str(keys / "database_fields.symmetric.key"),
        "ALLOWED_HOSTS": ["127.0.0.1", "localhost"],
        "GALAXY_DEPLOYMENT_MODE": "standalone",
        # Where clients are sent for artifacts and blobs (the content app) and the API's own origin
        # (pulp_ansible builds the v3 API's absolute links from it).
        "CONTENT_ORIGIN": content_url,
        "ANSIBLE_API_HOSTNAME": api_url,
        "ANSIBLE_CONTENT_HOSTNAME": content_url + "/pulp/content",
        "X_PULP_CONTENT_HOST": "127.0.0.1",
        "X_PULP_CONTENT_PORT": content_port,
        "MEDIA_ROOT": str(directory / "media"),
        "STATIC_ROOT": str(directory / "assets"),
        "WORKING_DIRECTORY": str(directory / "tmp"),
        "FILE_UPLOAD_TEMP_DIR": str(directory / "tmp"),
        # The container registry (/v2/) answers with bearer tokens from the API's /token/, signed with
        # the instance's own key pair.
        "TOKEN_SERVER": api_url + "/token/",
        "TOKEN_SIGNATURE_ALGORITHM": "ES256",
        "PUBLIC_KEY_PATH": str(keys / "token_public.pem"),
        "PRIVATE_KEY_PATH": str(keys / "token_private.pem"),
        # The UI is a separate package (galaxy-ng-ui is not installed): only the API is served.
        "GALAXY_ENABLE_API_ACCESS_LOG": False,
        "ANALYTICS": False,
        # Passwords are hashed with Django's salted MD5 hasher, as Django's testing docs advise for tests:
        # with its default (PBKDF2, 600,000 iterations) every request with Basic credentials cost the Hub
        # 0.2 s of processor time (measured here; 0.01 s with a token). Hashes of the default hasher
        # still verify (and are hashed anew on the next login).
        "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher",
                             "django.contrib.auth.hashers.PBKDF2PasswordHasher"],
    }


def write_settings(directory: Path, api_url: str, content_url: str, content_port: int, socket_dir: Path,
                   keys: Path, extra=None) -> Path:
    for name in ("media", "assets", "tmp"):
        (directory / name).mkdir(exist_ok=True)
    values = settings_values(directory, api_url, content_url, content_port, socket_dir, keys)
    # --trust-gateway's authentication settings: outside the database's key (no migration reads them)
    values.update(extra or {})
    path = directory / "settings.py"
    partial = directory / "settings.py.tmp"
    partial.write_text("")
    os.chmod(partial, 0o600)
    partial.write_text("# Written by tests/hub/hubctl.py at every start.\n"
                       + "".join("%s = %r\n" % item for item in values.items()))
    os.replace(partial, path)
    return path


def hub_env(directory: Path, venv: Path, settings: Path) -> dict:
    env = dict(os.environ)
    for name in list(env):
        # the caller's own Django or Pulp settings are not the Hub's
        if name.startswith("PULP_") or name in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH", "VIRTUAL_ENV"):
            del env[name]
    env.update({
        "PULP_SETTINGS": str(settings),
        "DJANGO_SETTINGS_MODULE": "pulpcore.app.settings",
        "HUB_INSTANCE_DIR": str(directory) + "/",
        "PATH": str(venv / "bin") + os.pathsep + env.get("PATH", ""),
        "HOME": str(directory),
    })
    return env


def manage(venv: Path, env: dict, *args):
    """A pulpcore-manager command; its output (Django's system check notes) shows only when it fails."""
    result = subprocess.run(niced([str(venv / "bin" / "pulpcore-manager")] + list(args)), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        die("pulpcore-manager %s failed (%d):\n%s" % (args[0], result.returncode, result.stdout[-3000:]))


def admin_password(directory: Path) -> str:
    path = directory / "admin_password"
    write_secret(path, secrets.token_urlsafe(18).encode())
    return path.read_text().strip()


def wait_ready(url: str, ca_path: Path, pid: int, log: Path, auth=None, timeout=START_TIMEOUT):
    context = ssl.create_default_context(cafile=str(ca_path))
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        if not alive(pid):
            last = "the process ended"
            break
        request = urllib.request.Request(url)
        if auth:
            request.add_header("Authorization", auth)
        try:
            with urllib.request.urlopen(request, context=context, timeout=10) as answer:
                if answer.status == 200:
                    return
        except Exception as exc:  # not up yet
            last = exc
        time.sleep(0.5)
    tail = ""
    try:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
    except OSError:
        pass
    raise RuntimeError("%s did not answer (%s)\n--- %s ---\n%s" % (url, last, log.name, tail))


# --- start and stop -------------------------------------------------------------------------------

def instance_processes(directory: Path) -> list:
    """The processes of the instance still running: those whose environment has the instance's
    HUB_INSTANCE_DIR (every process of the Hub: hub_env) or whose command line names its PostgreSQL
    data directory."""
    marker = b"\0HUB_INSTANCE_DIR=" + (str(directory).rstrip("/") + "/").encode() + b"\0"
    data = (str(directory / "pg" / "data")).encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if (marker in b"\0" + (entry / "environ").read_bytes()
                    or data in (entry / "cmdline").read_bytes().split(b"\0")):
                if alive(int(entry.name)):
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


def processor_time(directory: Path) -> float:
    """Seconds of processor time the running instance has used so far: its processes' own and that of their
    children that ended (the tasks' processes, PostgreSQL's backends); PostgreSQL's running backends too."""
    ticks = os.sysconf("SC_CLK_TCK")
    own = set(instance_processes(directory))
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # fields: state ppid ... utime(11) stime(12) cutime(13) cstime(14), counted from the state
        if int(entry.name) in own or int(fields[1]) in own:
            total += sum(int(value) for value in fields[11:15]) / ticks
    return total


def stop(directory: Path) -> list:
    """Stop the instance; returns the processes of it that had to be ended after the rest had stopped
    (none when all went as it should)."""
    if read_pids(directory):
        print("hubctl: the Hub used %.1f s of processor time" % processor_time(directory), file=sys.stderr)
    pids = read_pids(directory)
    # the worker first (it may be running a task), then the servers
    for name in ("worker", "content", "api"):
        pid = pids.get(name)
        if pid and alive(pid) and process_of(pid, directory):
            terminate(pid)
    try:
        (directory / "pids.json").unlink()
    except FileNotFoundError:
        pass
    pg_stop(directory)
    left = instance_processes(directory)
    for pid in left:
        terminate(pid, timeout=5)
    return left


def cmd_stop(args):
    left = stop(Path(args.dir).resolve())
    if left:
        die("processes of the Hub were still running after it stopped, ended now: %s"
            % ", ".join(str(pid) for pid in left))


def cmd_start(args):
    directory = Path(args.dir).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "logs").mkdir(exist_ok=True)
    stop(directory)
    venv = venv_path()
    if args.fresh:
        for name in ("media", "tmp", "keys", "pg", "db.key"):
            path = directory / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    key = database_key(venv)
    try:
        if (directory / "pg" / "data" / "PG_VERSION").exists():
            # the database of an earlier start: migrate brings it up to date unless it has the key's already
            socket_dir = pg_start(directory)
            made_with = (directory / "db.key").read_text().strip() if (directory / "db.key").exists() else None
            start_hub(directory, venv, socket_dir, migrate_to=None if made_with == key else key,
                      trust_gateway=args.trust_gateway)
        else:
            start_hub(directory, venv, new_database(directory, venv, key), trust_gateway=args.trust_gateway)
    except BaseException:
        stop(directory)
        raise


def migrate(directory: Path, venv: Path, socket_dir: Path, keys: Path):
    """pulpcore-manager migrate, then the administrator made when it is not there (a superuser; its
    password is set at every start: set_admin_password). The settings' addresses are placeholders here:
    start_hub writes them anew."""
    settings = write_settings(directory, "https://127.0.0.1", "https://127.0.0.1", 443, socket_dir, keys)
    env = hub_env(directory, venv, settings)
    manage(venv, env, "migrate", "--no-input", "-v0")
    manage(venv, env, "shell", "-c",
           "from django.contrib.auth import get_user_model\n"
           "user, made = get_user_model().objects.get_or_create(username=%r)\n"
           "user.is_superuser = True; user.is_staff = True\n"
           "made and user.set_unusable_password()\n"
           "user.save()\n" % ADMIN_USERNAME)


def set_admin_password(socket_dir: Path, password: str):
    """The administrator's password, hashed as the first of the settings' PASSWORD_HASHERS does (Django's
    MD5PasswordHasher: md5$SALT$md5(SALT + password)), written into the database: a Django command would
    cost a start of Django (about 3 s of processor time) at every start of the Hub."""
    import hashlib

    salt = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(22))
    encoded = "md5$%s$%s" % (salt, hashlib.md5((salt + password).encode()).hexdigest())
    answer = psql(socket_dir, "UPDATE galaxy_user SET password = '%s', is_active = true "
                              "WHERE username = '%s' AND is_superuser RETURNING id" % (encoded, ADMIN_USERNAME))
    if not answer:
        die("the database has no administrator %s to set the password of" % ADMIN_USERNAME)


def start_hub(directory: Path, venv: Path, socket_dir: Path, migrate_to=None, trust_gateway=False):
    """Start the Hub's processes on its database; migrate it first when migrate_to (the key it is
    migrated to) is given."""
    keys = ensure_keys(directory)
    ca_path, cert_path, key_path = ensure_certificates(directory)
    if migrate_to:
        migrate(directory, venv, socket_dir, keys)
        (directory / "db.key").write_text(migrate_to + "\n")
    api_port, content_port = free_port(), free_port()
    api_url = "https://127.0.0.1:%d" % api_port
    content_url = "https://127.0.0.1:%d" % content_port
    extra = None
    if trust_gateway:
        extra = gateway_trust(directory, api_url, content_url, ca_path)
    else:
        try:
            (directory / "gateway.json").unlink()
        except FileNotFoundError:
            pass
    settings = write_settings(directory, api_url, content_url, content_port, socket_dir, keys, extra)
    env = hub_env(directory, venv, settings)
    # The administrator's password: made once per DIR, set at every start (the file is the truth).
    password = admin_password(directory)
    set_admin_password(socket_dir, password)
    tls = ["--certfile", str(cert_path), "--keyfile", str(key_path)]
    python = str(venv / "bin" / "python")
    pids = {}
    pids["api"] = spawn(directory, "api", [
        python, "-m", "gunicorn", "pulpcore.app.wsgi:application",
        "--bind", "127.0.0.1:%d" % api_port, "--workers", "2", "--timeout", "300",
        # the application loaded once, before the workers fork: each would load it again (about 3.5 s of
        # processor time)
        "--preload",
        "--access-logfile", "-", "--pid", str(directory / "api.pid")] + tls, env)
    write_pids(directory, pids)
    pids["content"] = spawn(directory, "content", [
        python, "-m", "gunicorn", "pulpcore.content:server",
        "--worker-class", "aiohttp.GunicornWebWorker",
        "--bind", "127.0.0.1:%d" % content_port, "--workers", "1", "--timeout", "300",
        "--access-logfile", "-", "--pid", str(directory / "content.pid")] + tls, env)
    write_pids(directory, pids)
    pids["worker"] = spawn(directory, "worker", [str(venv / "bin" / "pulpcore-worker")], env)
    write_pids(directory, pids)
    import base64

    basic = "Basic " + base64.b64encode(("%s:%s" % (ADMIN_USERNAME, password)).encode()).decode()
    wait_ready(api_url + "/api/galaxy/", ca_path, pids["api"], directory / "logs" / "api.log", auth=basic)
    wait_ready(content_url + "/pulp/content/", ca_path, pids["content"], directory / "logs" / "content.log")
    # the worker has registered itself once the status lists it online
    deadline = time.time() + START_TIMEOUT
    while True:
        # (galaxy-ng serves Pulp's API under its own prefix: /pulp/api/v3/ redirects there)
        request = urllib.request.Request(api_url + "/api/galaxy/pulp/api/v3/status/")
        with urllib.request.urlopen(request, context=ssl.create_default_context(cafile=str(ca_path)),
                                    timeout=10) as answer:
            status = json.load(answer)
        if status.get("online_workers"):
            break
        if not alive(pids["worker"]) or time.time() > deadline:
            log = (directory / "logs" / "worker.log").read_text(errors="replace")[-3000:]
            raise RuntimeError("the tasking worker did not come online\n--- worker.log ---\n" + log)
        time.sleep(0.5)
    print("export HUB_URL=%s" % shlex.quote(api_url))
    print("export HUB_CONTENT_URL=%s" % shlex.quote(content_url))
    print("export HUB_CA_PATH=%s" % shlex.quote(str(ca_path)))
    print("export HUB_USERNAME=%s" % shlex.quote(ADMIN_USERNAME))
    print("export HUB_PASSWORD=%s" % shlex.quote(password))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="hubctl.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("start", help="start the Hub and print shell export lines")
    p.add_argument("--dir", default=str(DEFAULT_DIR))
    p.add_argument("--fresh", action="store_true", help="start from a new database and media")
    p.add_argument("--trust-gateway", action="store_true",
                   help="also take the user the reference gateway in front names (DIR/gateway.json)")
    p.set_defaults(func=cmd_start)
    p = sub.add_parser("stop", help="stop the Hub")
    p.add_argument("--dir", default=str(DEFAULT_DIR))
    p.set_defaults(func=cmd_stop)
    p = sub.add_parser("venv", help="make (or find) the Hub's virtualenv and print its path")
    p.set_defaults(func=cmd_venv)
    p = sub.add_parser("lock", help="resolve the Hub's packages anew and print the pins")
    p.add_argument("python", nargs="?", default=PYTHON)
    p.set_defaults(func=cmd_lock)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
