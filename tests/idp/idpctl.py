"""Start and stop the test identity providers of one reference-service instance.

Used by ``tests/service/svcctl start --with-idp`` (and ``stop``); everything lives in
``DIR/idp/``: a CA of its own (``ca.pem``) with the IdPs' TLS certificates, the SAML
signing certificate, the service's SAML SP key pair, ``users.json`` (read by both IdPs at
every login, so tests may add users with ``add_user``), the IdPs' configs, logs and pids.
``prepare`` writes ``DIR/sso.json``, which the service reads at start-up to wire its
single sign-on backends, and ``DIR/ca-bundle.pem`` (the service's CA plus the IdPs').

And an LDAP directory: an OpenLDAP server (Debian's ``slapd``) of its own, not the system's
service: its configuration (``DIR/idp/ldap/slapd.conf``) and database (``DIR/idp/ldap/data``),
on a free loopback port, ``ldap://127.0.0.1:PORT`` with StartTLS (the IdPs' certificate and CA;
a simple bind without TLS is refused). Its users and groups (``DIR/idp/ldap.json``: ``ldap-admin``
in the ``admins`` group, ``ldap-user`` in ``users``, ``ldap-outsider`` in neither) are loaded
into a new database at every start; ``sso.json``'s ``ldap`` tells the gateway its URL, the
service account it binds as, and where the users and groups are.
"""
import base64
import hashlib
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
    """A port for an identity provider (tests/ci/free_port.py: leased, so that steps side by side never share one)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ci"))
    from free_port import free_port

    return free_port()


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


# The directory's tree: its suffix, its people, its groups, and the account a service binds as.
LDAP_SUFFIX = "dc=example,dc=test"
LDAP_PEOPLE = "ou=people," + LDAP_SUFFIX
LDAP_GROUPS = "ou=groups," + LDAP_SUFFIX
LDAP_BIND_DN = "cn=gateway,ou=services," + LDAP_SUFFIX
# The directory's manager (slapd's rootdn), for the tests' changes while it runs (add_ldap_user).
LDAP_MANAGER_DN = "cn=manager," + LDAP_SUFFIX
LDAP_GROUP_NAMES = ("admins", "users")
LDAP_SCHEMAS = ("core", "cosine", "inetorgperson")


def _ldap_users():
    def person(given, family, groups):
        return {"password": secrets.token_urlsafe(12), "given_name": given, "family_name": family,
                "groups": groups}

    return {
        "ldap-admin": person("Ada", "Admin", ["admins"]),
        "ldap-user": person("Uma", "User", ["users"]),
        "ldap-outsider": person("Otto", "Outsider", []),
    }


def ldap_user_dn(name: str) -> str:
    return "uid=%s,%s" % (name, LDAP_PEOPLE)


def ldap_group_dn(name: str) -> str:
    return "cn=%s,%s" % (name, LDAP_GROUPS)


def _ssha(password: str) -> str:
    """An RFC 2307 {SSHA} value of ``password`` (the directory keeps no password in clear)."""
    salt = secrets.token_bytes(8)
    return "{SSHA}" + base64.b64encode(hashlib.sha1(password.encode() + salt).digest() + salt).decode()


def _slapd(program: str) -> str:
    """Debian's slapd programs live in /usr/sbin, which a user's PATH may not have."""
    found = shutil.which(program) or shutil.which(program, path="/usr/sbin:/usr/local/sbin")
    if not found:
        raise RuntimeError("the LDAP test directory needs OpenLDAP's %s, not found: install Debian's slapd "
                           "(make system-deps, tests/ci/system-deps.sh)" % program)
    return found


def _ldap_prepare(directory: Path, files: dict) -> dict:
    """slapd.conf, and the service account's password, kept across starts; returns sso.json's ``ldap``."""
    idp = directory / "idp"
    home = idp / "ldap"
    home.mkdir(exist_ok=True)
    os.chmod(home, 0o700)
    path = idp / "ldap.json"
    if path.exists():
        state = json.loads(path.read_text())
    else:
        state = {"bind_password": secrets.token_urlsafe(18), "manager_password": secrets.token_urlsafe(18),
                 "users": _ldap_users()}
        _write(path, json.dumps(state, indent=2), 0o600)
    port = _free_port()
    schema_dir = Path("/etc/ldap/schema")
    conf = [
        "# The LDAP test directory (tests/idp/idpctl.py); made at every start.",
        *("include %s" % (schema_dir / ("%s.schema" % name)) for name in LDAP_SCHEMAS),
        "modulepath /usr/lib/ldap",
        "moduleload back_mdb",
        "pidfile %s" % (home / "slapd.pid"),
        "argsfile %s" % (home / "slapd.args"),
        "TLSCACertificateFile %s" % files["ca"],
        "TLSCertificateFile %s" % files["cert"],
        "TLSCertificateKeyFile %s" % files["key"],
        "# A simple bind (a password) only over TLS: StartTLS on ldap://, as the gateway is told to.",
        "security simple_bind=128",
        "database mdb",
        "maxsize 67108864",
        'suffix "%s"' % LDAP_SUFFIX,
        'rootdn "%s"' % LDAP_MANAGER_DN,
        "rootpw %s" % _ssha(state["manager_password"]),
        "directory %s" % (home / "data"),
        "access to attrs=userPassword by self =xw by anonymous auth by * none",
        "access to * by users read by * none",
        "",
    ]
    _write(home / "slapd.conf", "\n".join(conf), 0o600)
    return {
        "server_uri": "ldap://127.0.0.1:%d" % port, "port": port, "start_tls": True, "ca": files["ca"],
        "bind_dn": LDAP_BIND_DN, "bind_password": state["bind_password"],
        "user_search_base": LDAP_PEOPLE, "group_search_base": LDAP_GROUPS,
        "groups": {name: ldap_group_dn(name) for name in LDAP_GROUP_NAMES},
    }


def _person(name: str, person: dict) -> list:
    return [
        ("objectClass", "inetOrgPerson"), ("uid", name),
        ("cn", "%s %s" % (person["given_name"], person["family_name"])),
        ("givenName", person["given_name"]), ("sn", person["family_name"]),
        ("mail", "%s@ldap.example.test" % name), ("userPassword", _ssha(person["password"])),
    ]


def _ldif(entries: list) -> str:
    blocks = []
    for dn, attrs in entries:
        lines = ["dn: %s" % dn]
        for name, values in attrs:
            for value in values if isinstance(values, (list, tuple)) else [values]:
                lines.append("%s: %s" % (name, value))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _ldap_seed(directory: Path) -> None:
    """A new database with the tree, from ldap.json (slapadd, before slapd starts)."""
    home = directory / "idp" / "ldap"
    state = json.loads((directory / "idp" / "ldap.json").read_text())
    people = state["users"]
    entries = [
        (LDAP_SUFFIX, [("objectClass", ["dcObject", "organization"]), ("dc", "example"), ("o", "Example")]),
        (LDAP_PEOPLE, [("objectClass", "organizationalUnit"), ("ou", "people")]),
        (LDAP_GROUPS, [("objectClass", "organizationalUnit"), ("ou", "groups")]),
        ("ou=services," + LDAP_SUFFIX, [("objectClass", "organizationalUnit"), ("ou", "services")]),
        (LDAP_BIND_DN, [("objectClass", ["organizationalRole", "simpleSecurityObject"]), ("cn", "gateway"),
                        ("userPassword", _ssha(state["bind_password"]))]),
    ]
    for name, person in sorted(people.items()):
        entries.append((ldap_user_dn(name), _person(name, person)))
    for group in LDAP_GROUP_NAMES:
        # groupOfNames must have a member: the service account stands in for an empty group.
        members = [ldap_user_dn(n) for n, p in sorted(people.items()) if group in p["groups"]] or [LDAP_BIND_DN]
        entries.append((ldap_group_dn(group), [("objectClass", "groupOfNames"), ("cn", group),
                                               ("member", members)]))
    data = home / "data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(mode=0o700)
    seed = home / "seed.ldif"
    _write(seed, _ldif(entries), 0o600)
    try:
        result = subprocess.run([_slapd("slapadd"), "-q", "-f", str(home / "slapd.conf"), "-l", str(seed)],
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    finally:
        seed.unlink()
    if result.returncode != 0:
        raise RuntimeError("slapadd could not load the LDAP test directory (status %d):\n%s"
                           % (result.returncode, (result.stdout + result.stderr)[-3000:]))


def _wait_port(port: int, proc: subprocess.Popen, timeout=30.0):
    """None once 127.0.0.1:``port`` accepts a connection; else why not."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return None
        except OSError:
            pass
        if proc.poll() is not None:
            return "the process ended with status %s" % proc.returncode
        time.sleep(0.05)
    return "no answer in %.0f s" % timeout


def _ldap_start(directory: Path) -> int:
    ldap = json.loads((directory / "sso.json").read_text())["ldap"]
    home = directory / "idp" / "ldap"
    _ldap_seed(directory)
    # -d 0: in the foreground (its pid is the one kept), logging nothing but its errors.
    command = [_slapd("slapd"), "-d", "0", "-f", str(home / "slapd.conf"), "-h", ldap["server_uri"] + "/"]
    why = None
    for _ in range(3):
        proc = _spawn(directory, "ldap", command)
        why = _wait_port(ldap["port"], proc)
        if why is None:
            return proc.pid
        if proc.poll() is None:
            proc.kill()
    log = (directory / "idp" / "ldap.log").read_text(errors="replace")[-3000:]
    raise RuntimeError("the LDAP test directory did not start on %s (%s):\n%s" % (ldap["server_uri"], why, log))


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
    ldap = _ldap_prepare(directory, files)
    _write(directory / "sso.json", json.dumps({
        "ca": files["ca"],
        "ldap": ldap,
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
    pids["ldap"] = _ldap_start(directory)
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


def ldap_users(directory: Path) -> dict:
    """The LDAP test directory's users: name -> password, given_name, family_name, groups."""
    return json.loads((directory / "idp" / "ldap.json").read_text())["users"]


def add_ldap_user(directory: Path, name: str, groups=(), given_name="New", family_name="Person") -> dict:
    """Add a person to the running LDAP directory (as its manager, over StartTLS) and to ``ldap.json`` (a
    later start seeds it too), in the given groups (names of LDAP_GROUP_NAMES); returns its record,
    with a random password."""
    import ldap
    import ldap.modlist

    path = directory / "idp" / "ldap.json"
    state = json.loads(path.read_text())
    config = json.loads((directory / "sso.json").read_text())["ldap"]
    record = {"password": secrets.token_urlsafe(12), "given_name": given_name, "family_name": family_name,
              "groups": list(groups)}
    connection = ldap.initialize(config["server_uri"])
    connection.set_option(ldap.OPT_NETWORK_TIMEOUT, 10)
    connection.set_option(ldap.OPT_X_TLS_CACERTFILE, config["ca"])
    connection.set_option(ldap.OPT_X_TLS_REQUIRE_CERT, ldap.OPT_X_TLS_DEMAND)
    connection.set_option(ldap.OPT_X_TLS_NEWCTX, 0)
    connection.start_tls_s()
    connection.simple_bind_s(LDAP_MANAGER_DN, state["manager_password"])
    try:
        attrs = {}
        for attr, value in _person(name, record):
            attrs.setdefault(attr, []).append(value.encode())
        connection.add_s(ldap_user_dn(name), ldap.modlist.addModlist(attrs))
        for group in groups:
            connection.modify_s(ldap_group_dn(group), [(ldap.MOD_ADD, "member", [ldap_user_dn(name).encode()])])
    finally:
        connection.unbind_s()
    state["users"][name] = record
    tmp = path.with_suffix(".tmp%d" % os.getpid())
    _write(tmp, json.dumps(state, indent=2), 0o600)
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
    people = ldap_users(directory)
    values += [
        ("LDAP_URL", json.loads((directory / "sso.json").read_text())["ldap"]["server_uri"]),
        ("LDAP_ADMIN_USERNAME", "ldap-admin"), ("LDAP_ADMIN_PASSWORD", people["ldap-admin"]["password"]),
        ("LDAP_USERNAME", "ldap-user"), ("LDAP_PASSWORD", people["ldap-user"]["password"]),
    ]
    return ["export %s=%s" % (name, shlex.quote(value)) for name, value in values]
