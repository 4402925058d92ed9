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


def pg_start(directory: Path, fresh: bool):
    pg = directory / "pg"
    data, run = pg / "data", pg / "run"
    if fresh and pg.exists():
        shutil.rmtree(pg)
    if os.geteuid() == 0 and subprocess.run(["runuser", "-u", PG_USER, "--", "test", "-x", str(directory)]).returncode:
        die("PostgreSQL runs as the user %s here, which cannot reach %s: give a directory every user may "
            "traverse (not one under a private directory such as pytest's temporary ones)" % (PG_USER, directory))
    if not (data / "PG_VERSION").exists():
        if pg.exists():
            shutil.rmtree(pg)
        pg.mkdir(parents=True)
        run.mkdir()
        if os.geteuid() == 0:
            shutil.chown(pg, PG_USER, PG_USER)
            shutil.chown(run, PG_USER, PG_USER)
        os.chmod(pg, 0o700)
        os.chmod(run, 0o700)
        # Local (Unix socket) connections only, trusted: the socket's directory is the cluster owner's
        # alone, and there is no TCP listener.
        subprocess.run(niced(as_pg_user([str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres",
                                         "--auth-local=trust", "--auth-host=reject", "-E", "UTF8",
                                         "--locale=C.UTF-8"])),
                       check=True, stdout=subprocess.DEVNULL)
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
    exists = subprocess.run(as_pg_user([str(PG_BIN / "psql"), "-h", str(run), "-U", "postgres", "-tAc",
                                        "SELECT 1 FROM pg_database WHERE datname = '%s'" % DB_NAME]),
                            check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    if exists != "1":
        subprocess.run(as_pg_user([str(PG_BIN / "createdb"), "-h", str(run), "-U", "postgres", DB_NAME]), check=True)
    return run


def pg_stop(directory: Path):
    data = directory / "pg" / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(as_pg_user([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


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


def write_settings(directory: Path, api_url: str, content_url: str, content_port: int, socket_dir: Path,
                   keys: Path, extra=None) -> Path:
    """The settings of a standalone Hub (pulpcore reads the file PULP_SETTINGS names, after its own and
    the plugins' defaults: pulpcore/app/settings.py, galaxy_ng/app/settings.py)."""
    for name in ("media", "assets", "tmp"):
        (directory / name).mkdir(exist_ok=True)
    values = {
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
    }
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

def stop(directory: Path):
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


def cmd_stop(args):
    stop(Path(args.dir).resolve())


def cmd_start(args):
    directory = Path(args.dir).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "logs").mkdir(exist_ok=True)
    stop(directory)
    venv = venv_path()
    if args.fresh:
        for name in ("media", "tmp", "keys"):
            shutil.rmtree(directory / name, ignore_errors=True)
    socket_dir = pg_start(directory, args.fresh)
    try:
        start_hub(directory, venv, socket_dir, trust_gateway=args.trust_gateway)
    except BaseException:
        stop(directory)
        raise


def start_hub(directory: Path, venv: Path, socket_dir: Path, trust_gateway=False):
    keys = ensure_keys(directory)
    ca_path, cert_path, key_path = ensure_certificates(directory)
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
    manage(venv, env, "migrate", "--no-input", "-v0")
    password = admin_password(directory)
    # The administrator: made once, its password set at every start (the file is the truth).
    manage(venv, env, "shell", "-c",
           "from django.contrib.auth import get_user_model; import os, sys\n"
           "User = get_user_model()\n"
           "user, _ = User.objects.get_or_create(username=%r)\n"
           "user.is_superuser = True; user.is_staff = True\n"
           "user.set_password(open(os.path.join(os.environ['HUB_INSTANCE_DIR'], 'admin_password')).read().strip())\n"
           "user.save()\n" % ADMIN_USERNAME)
    tls = ["--certfile", str(cert_path), "--keyfile", str(key_path)]
    python = str(venv / "bin" / "python")
    pids = {}
    pids["api"] = spawn(directory, "api", [
        python, "-m", "gunicorn", "pulpcore.app.wsgi:application",
        "--bind", "127.0.0.1:%d" % api_port, "--workers", "2", "--timeout", "300",
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
