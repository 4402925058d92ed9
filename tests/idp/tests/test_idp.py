"""The test identity providers (tests/idp): both started by idpctl as real processes over
HTTPS with their own CA; the OIDC provider's discovery document, a login round trip as the
collection's SSO login makes it (authorization code, the sign-in form, the code exchanged
for tokens), a wrong password and a wrong one-time code refused."""
import json
import re
import sys
import urllib.parse
from pathlib import Path

import pytest
import requests
import trustme

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import idpctl  # noqa: E402

# Only the redirect URI and the SP metadata URL are made of it: no service runs there.
SERVICE_URL = "https://127.0.0.1:9"
REDIRECT_URI = SERVICE_URL + "/sso/complete/oidc/"


@pytest.fixture(scope="module")
def idp(tmp_path_factory):
    directory = tmp_path_factory.mktemp("idp")
    (directory / "ca.pem").write_bytes(trustme.CA().cert_pem.bytes())  # the service's CA, for the bundle
    idpctl.prepare(directory, SERVICE_URL)
    idpctl.start(directory)
    try:
        yield {"dir": directory, "ca": str(directory / "idp" / "ca.pem"), "sso": json.loads((directory / "sso.json").read_text()),
               "users": idpctl.users(directory)}
    finally:
        idpctl.stop(directory)


def discovery(idp):
    r = requests.get(idp["sso"]["oidc"]["endpoint"] + "/.well-known/openid-configuration", verify=idp["ca"], timeout=30)
    assert r.status_code == 200
    return r.json()


def sign_in(idp, username, password, otp=None):
    """The authorization request and the sign-in form; the last answer (a redirect to the
    redirect URI with a code once the login is done)."""
    config = discovery(idp)
    session = requests.Session()
    session.verify = idp["ca"]
    session.trust_env = False  # REQUESTS_CA_BUNDLE would override verify
    query = {"client_id": idp["sso"]["oidc"]["key"], "redirect_uri": REDIRECT_URI, "response_type": "code",
             "scope": "openid email profile", "state": "s-1"}
    r = session.get(config["authorization_endpoint"], params=query, timeout=30)
    assert r.status_code == 200 and 'name="password"' in r.text, r.text[:300]
    action = urllib.parse.urljoin(r.url, re.search(r'action="([^"]+)"', r.text).group(1))
    r = session.post(action, data={"login": username, "password": password}, allow_redirects=False, timeout=30)
    if otp is not None:
        assert r.status_code == 200 and 'name="otp"' in r.text
        action = urllib.parse.urljoin(action, re.search(r'action="([^"]+)"', r.text).group(1))
        r = session.post(action, data={"otp": otp}, allow_redirects=False, timeout=30)
    while True:
        if r.status_code in (302, 303) and not r.headers["Location"].startswith(SERVICE_URL):
            r = session.get(urllib.parse.urljoin(r.url, r.headers["Location"]), allow_redirects=False, timeout=30)
        elif r.status_code == 200 and '/consent"' in r.text:  # the consent page: allow
            action = urllib.parse.urljoin(r.url, re.search(r'action="([^"]+)"', r.text).group(1))
            r = session.post(action, data={"decision": "allow"}, allow_redirects=False, timeout=30)
        else:
            return config, r


def test_discovery_document(idp):
    config = discovery(idp)
    assert config["issuer"] == idp["sso"]["oidc"]["endpoint"]
    for key in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        assert config[key].startswith(config["issuer"] + "/")


def test_login_round_trip(idp):
    config, r = sign_in(idp, "alice", idp["users"]["alice"]["password"])
    assert r.status_code in (302, 303), r.text[:300]
    back = urllib.parse.urlsplit(r.headers["Location"])
    params = urllib.parse.parse_qs(back.query)
    assert back.path == "/sso/complete/oidc/" and params["state"] == ["s-1"] and "code" in params, params
    token = requests.post(config["token_endpoint"], verify=idp["ca"], timeout=30,
                          data={"grant_type": "authorization_code", "code": params["code"][0], "redirect_uri": REDIRECT_URI},
                          auth=(idp["sso"]["oidc"]["key"], idp["sso"]["oidc"]["secret"]))
    assert token.status_code == 200, token.text
    assert token.json()["id_token"].count(".") == 2


def test_wrong_password_is_refused(idp):
    _, r = sign_in(idp, "alice", "not-" + idp["users"]["alice"]["password"])
    assert r.status_code == 401 and "Invalid password." in r.text


def test_one_time_code(idp):
    bob = idp["users"]["bob"]
    wrong = "%06d" % ((int(bob["otp"]) + 1) % 10 ** 6)
    _, r = sign_in(idp, "bob", bob["password"], otp=wrong)
    assert r.status_code != 302 or not r.headers["Location"].startswith(SERVICE_URL)
    _, r = sign_in(idp, "bob", bob["password"], otp=bob["otp"])
    assert r.status_code in (302, 303) and "code=" in r.headers["Location"]



# -- the LDAP directory (slapd)


def ldap_connection(idp, start_tls=True):
    import ldap

    config = idp["sso"]["ldap"]
    connection = ldap.initialize(config["server_uri"])
    connection.set_option(ldap.OPT_NETWORK_TIMEOUT, 10)
    connection.set_option(ldap.OPT_X_TLS_CACERTFILE, config["ca"])
    connection.set_option(ldap.OPT_X_TLS_REQUIRE_CERT, ldap.OPT_X_TLS_DEMAND)
    connection.set_option(ldap.OPT_X_TLS_NEWCTX, 0)
    if start_tls:
        connection.start_tls_s()
    return connection


def test_ldap_directory_users_bind_over_starttls_and_groups_name_them(idp):
    import ldap

    config = idp["sso"]["ldap"]
    people = idpctl.ldap_users(idp["dir"])
    assert config["server_uri"].startswith("ldap://127.0.0.1:")
    user = ldap_connection(idp)
    user.simple_bind_s(idpctl.ldap_user_dn("ldap-user"), people["ldap-user"]["password"])
    assert user.whoami_s() == "dn:" + idpctl.ldap_user_dn("ldap-user")
    service = ldap_connection(idp)
    service.simple_bind_s(config["bind_dn"], config["bind_password"])
    groups = dict(service.search_s(config["group_search_base"], ldap.SCOPE_ONELEVEL, "(objectClass=groupOfNames)",
                                   ["member"]))
    assert groups[config["groups"]["admins"]]["member"] == [idpctl.ldap_user_dn("ldap-admin").encode()]
    assert groups[config["groups"]["users"]]["member"] == [idpctl.ldap_user_dn("ldap-user").encode()]
    # The passwords are kept hashed: the service account reads no userPassword.
    person = service.search_s(idpctl.ldap_user_dn("ldap-user"), ldap.SCOPE_BASE, "(objectClass=*)")[0][1]
    assert "userPassword" not in person and person["mail"] == [b"ldap-user@ldap.example.test"]


def test_ldap_directory_refuses_a_wrong_password_and_a_bind_without_tls(idp):
    import ldap

    people = idpctl.ldap_users(idp["dir"])
    with pytest.raises(ldap.INVALID_CREDENTIALS):
        ldap_connection(idp).simple_bind_s(idpctl.ldap_user_dn("ldap-user"), "not-the-password")
    with pytest.raises(ldap.CONFIDENTIALITY_REQUIRED):
        ldap_connection(idp, start_tls=False).simple_bind_s(idpctl.ldap_user_dn("ldap-user"),
                                                            people["ldap-user"]["password"])


def test_ldap_directory_takes_a_new_person_while_it_runs(idp):
    import ldap

    record = idpctl.add_ldap_user(idp["dir"], "ldap-new", groups=["users"])
    person = ldap_connection(idp)
    person.simple_bind_s(idpctl.ldap_user_dn("ldap-new"), record["password"])
    members = person.search_s(idp["sso"]["ldap"]["groups"]["users"], ldap.SCOPE_BASE, "(objectClass=*)",
                              ["member"])[0][1]["member"]
    assert idpctl.ldap_user_dn("ldap-new").encode() in members
    assert idpctl.ldap_users(idp["dir"])["ldap-new"]["groups"] == ["users"]
