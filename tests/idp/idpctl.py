"""Start and stop the test identity providers of one reference-service instance.

Used by ``tests/service/svcctl start --with-idp`` (and ``stop``); everything lives in
``DIR/idp/``: a CA of its own (``ca.pem``) with the IdPs' TLS certificates, the SAML
signing certificate, the service's SAML SP key pair, ``users.json`` (read by both IdPs at
every login, so tests may add users with ``add_user``), the IdPs' configs, logs and pids.
``prepare`` writes ``DIR/sso.json``, which the service reads at start-up to wire its
single sign-on backends, and ``DIR/ca-bundle.pem`` (the service's CA plus the IdPs').
"""
import json
import os
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

IDP_ROOT = Path(__file__).resolve().parent
OIDC_DIR = IDP_ROOT / "oidc"
SAML_IDP_NAME = "testidp"
OIDC_CLIENT_ID = "automation-service"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pem_body(pem: bytes) -> str:
    return "".join(line for line in pem.decode().splitlines() if "-----" not in line)


def _write(path: Path, data, mode=0o644):
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    os.chmod(path, mode)
    return str(path)


def _users():
    def code():
        return "%06d" % secrets.randbelow(10 ** 6)

    def password():
        return secrets.token_urlsafe(12)

    return {
        "alice": {"password": password(), "email": "alice@idp.example.test", "given_name": "Alice", "family_name": "Doe"},
        "bob": {"password": password(), "otp": code(), "email": "bob@idp.example.test", "given_name": "Bob",
                "family_name": "Roe"},
        "carol": {"password": password(), "email": "carol@idp.example.test", "consent": False},
    }


def prepare(directory: Path, service_url: str) -> None:
    """Certificates, users and configs for the IdPs, and DIR/sso.json for the service."""
    import trustme

    idp = directory / "idp"
    idp.mkdir(parents=True, exist_ok=True)
    os.chmod(idp, 0o700)
    ca = trustme.CA(organization_name="Test identity providers CA", key_type=trustme.KeyType.RSA)
    tls = ca.issue_cert("127.0.0.1", "localhost", key_type=trustme.KeyType.RSA)
    signing = ca.issue_cert("saml-idp-signing.test", key_type=trustme.KeyType.RSA)
    sp = ca.issue_cert("saml-sp.test", key_type=trustme.KeyType.RSA)
    files = {
        "ca": _write(idp / "ca.pem", ca.cert_pem.bytes()),
        "cert": _write(idp / "tls.pem", b"".join(b.bytes() for b in tls.cert_chain_pems)),
        "key": _write(idp / "tls.key", tls.private_key_pem.bytes(), 0o600),
        "signing_cert": _write(idp / "signing.pem", signing.cert_chain_pems[0].bytes()),
        "signing_key": _write(idp / "signing.key", signing.private_key_pem.bytes(), 0o600),
    }
    users_path = idp / "users.json"
    if not users_path.exists():
        _write(users_path, json.dumps(_users(), indent=2), 0o600)
    bundle = (directory / "ca.pem").read_bytes() + ca.cert_pem.bytes()
    _write(directory / "ca-bundle.pem", bundle)

    oidc_port, saml_port = _free_port(), _free_port()
    issuer = "https://127.0.0.1:%d" % oidc_port
    saml_base = "https://127.0.0.1:%d" % saml_port
    secret = secrets.token_urlsafe(24)
    _write(idp / "oidc.json", json.dumps({
        "port": oidc_port, "issuer": issuer, "cert": files["cert"], "key": files["key"], "users": str(users_path),
        "clients": [{"client_id": OIDC_CLIENT_ID, "client_secret": secret,
                     "redirect_uris": [service_url + "/sso/complete/oidc/"]}],
    }, indent=2), 0o600)
    _write(idp / "saml.json", json.dumps(dict(files, **{
        "port": saml_port, "base_url": saml_base, "users": str(users_path), "ca": str(directory / "ca.pem"),
        "sp_metadata_url": service_url + "/sso/metadata/saml/",
        "xmlsec1": shutil.which("xmlsec1") or "/usr/bin/xmlsec1",
    }), indent=2), 0o600)
    _write(directory / "sso.json", json.dumps({
        "ca": files["ca"],
        "oidc": {"endpoint": issuer, "key": OIDC_CLIENT_ID, "secret": secret},
        "saml": {"idp_name": SAML_IDP_NAME, "entity_id": saml_base + "/metadata", "url": saml_base + "/sso/redirect",
                 "x509cert": _pem_body(signing.cert_chain_pems[0].bytes()),
                 "sp_entity_id": service_url + "/sso/metadata/saml/",
                 "sp_cert": _pem_body(sp.cert_chain_pems[0].bytes()),
                 "sp_key": sp.private_key_pem.bytes().decode()},
    }, indent=2), 0o600)


def point_at(directory: Path, redirect_uris: list, sp_metadata_url: str) -> None:
    """Send the IdPs' users back to another service than the one ``prepare`` named: the OIDC
    client's redirect URIs and the SAML service provider's metadata URL (a platform gateway's
    authenticators answer at their own paths)."""
    idp = directory / "idp"
    oidc = json.loads((idp / "oidc.json").read_text())
    for client in oidc["clients"]:
        client["redirect_uris"] = list(redirect_uris)
    _write(idp / "oidc.json", json.dumps(oidc, indent=2), 0o600)
    saml = json.loads((idp / "saml.json").read_text())
    saml["sp_metadata_url"] = sp_metadata_url
    _write(idp / "saml.json", json.dumps(saml, indent=2), 0o600)


def clear(directory: Path) -> None:
    """Unwire the service (a start without --with-idp)."""
    for name in ("sso.json", "ca-bundle.pem"):
        try:
            (directory / name).unlink()
        except FileNotFoundError:
            pass


def _node_modules():
    if not (OIDC_DIR / "node_modules" / "oidc-provider").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=str(OIDC_DIR),
                       check=True, stdout=sys.stderr)


def _spawn(directory: Path, name: str, command: list, env=None) -> subprocess.Popen:
    log = open(directory / "idp" / ("%s.log" % name), "ab")
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                            start_new_session=True)


def _wait(url: str, ca: str, proc: subprocess.Popen, timeout=30.0):
    """None once ``url`` answers; else why not (the process ended, or the time ran out)."""
    context = ssl.create_default_context(cafile=ca)
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, context=context, timeout=5) as answer:
                if answer.status == 200:
                    return None
        except Exception:
            pass
        if proc.poll() is not None:
            return "the process ended with status %s" % proc.returncode
        time.sleep(0.05)
    return "no answer in %.0f s" % timeout


def _start_one(directory: Path, name: str, command: list, url: str, env=None, attempts=3) -> int:
    """Start one provider and wait until it answers; a provider that ends at once is
    started again (it happens, rarely, on a loaded machine) before giving up."""
    ca = str(directory / "idp" / "ca.pem")
    why = None
    for _ in range(attempts):
        proc = _spawn(directory, name, command, env)
        why = _wait(url, ca, proc)
        if why is None:
            return proc.pid
        if proc.poll() is None:
            proc.kill()
    log = (directory / "idp" / ("%s.log" % name)).read_text(errors="replace")[-3000:]
    raise RuntimeError("the %s identity provider did not start on %s (%s):\n%s" % (name, url, why, log))


def start(directory: Path) -> None:
    idp = directory / "idp"
    stop(directory)
    _node_modules()
    env = dict(os.environ, NODE_ENV="production")
    oidc = json.loads((idp / "oidc.json").read_text())
    saml = json.loads((idp / "saml.json").read_text())
    pids = {}  # written after each start, so that stop() finds whatever did start
    pids["oidc"] = _start_one(directory, "oidc", ["node", str(OIDC_DIR / "server.mjs"), str(idp / "oidc.json")],
                              oidc["issuer"] + "/.well-known/openid-configuration", env)
    (idp / "pids.json").write_text(json.dumps(pids))
    pids["saml"] = _start_one(directory, "saml", [sys.executable, str(IDP_ROOT / "saml" / "idp.py"),
                                                  str(idp / "saml.json")], saml["base_url"] + "/ping")
    (idp / "pids.json").write_text(json.dumps(pids))


def process_of(pid: int, directory: Path) -> bool:
    """Whether ``pid`` is still a process started for ``directory`` (its command line
    names a file in it). A pid from a stale file may since belong to another
    instance's process: that one must not be stopped. Without /proc, trust the pid."""
    try:
        command = Path("/proc/%d/cmdline" % pid).read_bytes()
    except FileNotFoundError:
        return not Path("/proc/self/cmdline").exists()
    except OSError:
        return True
    return (str(directory).rstrip("/") + "/").encode() in command


def stop(directory: Path) -> None:
    path = directory / "idp" / "pids.json"
    try:
        pids = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    for pid in pids.values():
        if not process_of(pid, directory):
            continue
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
        deadline = time.time() + 5
        while time.time() < deadline:
            try:
                os.kill(pid, 0)
                if Path("/proc/%d/stat" % pid).read_text().split(")")[-1].split()[0] == "Z":
                    break
            except (ProcessLookupError, OSError):
                break
            time.sleep(0.05)
        else:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    path.unlink()


def users(directory: Path) -> dict:
    return json.loads((directory / "idp" / "users.json").read_text())


def add_user(directory: Path, name: str, **fields) -> dict:
    """Add (or replace) a user at both IdPs; returns its record (with a random password)."""
    path = directory / "idp" / "users.json"
    data = users(directory)
    record = dict({"password": secrets.token_urlsafe(12), "email": "%s@idp.example.test" % name}, **fields)
    data[name] = record
    tmp = path.with_suffix(".tmp%d" % os.getpid())
    _write(tmp, json.dumps(data, indent=2), 0o600)
    os.replace(tmp, path)
    return record


def exports(directory: Path) -> list:
    """The SSO_* shell export lines, and SERVICE_CA_PATH as the bundle of both CAs."""
    data = users(directory)
    values = [
        ("SERVICE_CA_PATH", str(directory / "ca-bundle.pem")),
        ("SSO_USERNAME", "alice"), ("SSO_PASSWORD", data["alice"]["password"]),
        ("SSO_OTP_USERNAME", "bob"), ("SSO_OTP_PASSWORD", data["bob"]["password"]),
        ("SSO_OTP_CODE", data["bob"]["otp"]),
        ("SSO_SAML_IDP", SAML_IDP_NAME),
    ]
    return ["export %s=%s" % (name, shlex.quote(value)) for name, value in values]
