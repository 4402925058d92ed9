"""OAuth2 on the reference service: applications, their tokens, and the
provider endpoints under /api/o/ (design section 5)."""
import time
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from test_service_auth import assert_not_provided, basic, login, make_token

REDIRECT = "https://client.example.com/callback"


def admin(service):
    return basic(service.admin_username, service.admin_password)


def make_app(service, **kwargs):
    return service.create_application(**kwargs)


def password_grant(service, app, username, password, secret=None, scope="write"):
    return requests.post(
        service.url + "/api/o/token/",
        data={"grant_type": "password", "username": username, "password": password, "scope": scope},
        auth=(app["client_id"], app["client_secret"] if secret is None else secret),
        verify=service.ca_path,
    )


def bearer(value):
    return {"Authorization": "Bearer " + value}


def me(service, value):
    return requests.get(service.url + "/api/v2/me/", headers=bearer(value), verify=service.ca_path)


def test_oauth_root(service):
    r = requests.get(service.url + "/api/o/", verify=service.ca_path)
    assert r.json() == {"authorize": "/api/o/authorize/", "revoke_token": "/api/o/revoke_token/", "token": "/api/o/token/"}


def test_application_secret_shown_once(service):
    app = make_app(service)
    assert app["type"] == "o_auth2_application"
    assert app["client_secret"] and app["client_secret"] != "************"
    again = requests.get(service.url + app["url"], headers=admin(service), verify=service.ca_path).json()
    assert again["client_secret"] == "************"
    assert again["client_id"] == app["client_id"]
    public = make_app(service, client_type="public")
    assert "client_secret" not in public


def test_application_needs_redirect_uris_for_code_grants(service):
    # Observed on AWX 24.6.1: both refusals under __all__; http is an allowed scheme.
    with pytest.raises(RuntimeError, match="redirect_uris cannot be empty with grant_type authorization-code"):
        make_app(service, grant="authorization-code")
    with pytest.raises(RuntimeError, match="Unauthorized redirect scheme: ftp"):
        make_app(service, grant="authorization-code", redirect_uris="ftp://client.example.com/cb")
    assert make_app(service, grant="authorization-code", redirect_uris="http://client.example.com/cb")["redirect_uris"] == "http://client.example.com/cb"


def test_password_grant_and_refresh(service):
    app = make_app(service)
    r = password_grant(service, app, service.admin_username, service.admin_password)
    assert r.status_code == 200, r.text
    grant = r.json()
    assert set(grant) >= {"access_token", "refresh_token", "expires_in", "token_type", "scope"}
    assert grant["token_type"] == "Bearer" and grant["scope"] == "write"
    assert me(service, grant["access_token"]).status_code == 200
    listed = requests.get(service.url + app["related"]["tokens"], headers=admin(service), verify=service.ca_path).json()
    assert listed["count"] == 1
    token = listed["results"][0]
    assert token["token"] == "************" and token["refresh_token"] == "************"
    assert token["application"] == app["id"]
    # refresh: a new access token, the old refresh token is spent
    r = requests.post(service.url + "/api/o/token/", data={"grant_type": "refresh_token", "refresh_token": grant["refresh_token"]},
                      auth=(app["client_id"], app["client_secret"]), verify=service.ca_path)
    assert r.status_code == 200, r.text
    fresh = r.json()
    assert fresh["access_token"] != grant["access_token"]
    assert me(service, fresh["access_token"]).status_code == 200
    r = requests.post(service.url + "/api/o/token/", data={"grant_type": "refresh_token", "refresh_token": grant["refresh_token"]},
                      auth=(app["client_id"], app["client_secret"]), verify=service.ca_path)
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"


def test_password_grant_errors(service):
    app = make_app(service)
    r = password_grant(service, app, service.admin_username, service.admin_password, secret="wrong")
    assert r.status_code == 401 and r.json()["error"] == "invalid_client"
    r = password_grant(service, app, service.admin_username, "wrong")
    assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
    r = password_grant(service, app, service.admin_username, service.admin_password, scope="admin")
    assert r.status_code == 400 and r.json()["error"] == "invalid_scope"
    code_app = make_app(service, grant="authorization-code", redirect_uris=REDIRECT)
    r = password_grant(service, code_app, service.admin_username, service.admin_password)
    assert r.status_code in (400, 401) and r.json()["error"] == "unauthorized_client"


def test_password_grant_refused_to_external_users(service):
    name, password = service.new_user()
    service.make_external(name)
    r = password_grant(service, make_app(service), name, password)
    assert r.status_code == 403, r.text
    assert r.text == "(access_denied) OAuth2 Tokens cannot be created by users associated with an external authentication provider (social)"


def test_password_grant_expiry_follows_the_setting(service_factory):
    svc = service_factory(ACCESS_TOKEN_EXPIRE_SECONDS=1)
    grant = password_grant(svc, make_app(svc), svc.admin_username, svc.admin_password).json()
    assert grant["expires_in"] == 1
    time.sleep(1.5)
    assert_not_provided(me(svc, grant["access_token"]))


def test_revoke_token_endpoint(service):
    app = make_app(service)
    grant = password_grant(service, app, service.admin_username, service.admin_password).json()
    r = requests.post(service.url + "/api/o/revoke_token/", data={"token": grant["access_token"]},
                      auth=(app["client_id"], app["client_secret"]), verify=service.ca_path)
    assert r.status_code == 200
    assert_not_provided(me(service, grant["access_token"]))


def test_management_command_all_revokes_refresh_tokens(service):
    name, password = service.new_user()
    app = make_app(service)
    grant = password_grant(service, app, name, password).json()
    service.manage("revoke_oauth2_tokens", "--user", name, "--all")
    assert_not_provided(me(service, grant["access_token"]))
    r = requests.post(service.url + "/api/o/token/", data={"grant_type": "refresh_token", "refresh_token": grant["refresh_token"]},
                      auth=(app["client_id"], app["client_secret"]), verify=service.ca_path)
    assert r.status_code == 400


def _authorize(service, app, response_type):
    s, _ = login(service)
    params = {"response_type": response_type, "client_id": app["client_id"], "redirect_uri": REDIRECT, "scope": "read"}
    return s.get(service.url + "/api/o/authorize/", params=params, allow_redirects=False)


def test_authorization_code_grant(service):
    app = make_app(service, grant="authorization-code", redirect_uris=REDIRECT, skip_authorization=True)
    anonymous = requests.get(service.url + "/api/o/authorize/", params={"response_type": "code", "client_id": app["client_id"]},
                             allow_redirects=False, verify=service.ca_path)
    assert anonymous.status_code == 302 and anonymous.headers["Location"].startswith("/api/login/?next=")
    r = _authorize(service, app, "code")
    assert r.status_code == 302 and r.headers["Location"].startswith(REDIRECT), r.text[:300]
    code = parse_qs(urlsplit(r.headers["Location"]).query)["code"][0]
    r = requests.post(service.url + "/api/o/token/", data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT},
                      auth=(app["client_id"], app["client_secret"]), verify=service.ca_path)
    assert r.status_code == 200, r.text
    token = r.json()
    assert token["scope"] == "read"
    assert me(service, token["access_token"]).status_code == 200
    write = requests.post(service.url + "/api/v2/organizations/", json={"name": "no"}, headers=bearer(token["access_token"]), verify=service.ca_path)
    assert write.status_code == 403


def test_no_implicit_grant(service):
    # AWX 24.6.1 offers authorization-code and password grants only (its OPTIONS of applications/).
    r = requests.post(service.url + "/api/v2/applications/", headers=admin(service), verify=service.ca_path,
                      json={"name": "implicit", "organization": 1, "client_type": "public",
                            "authorization_grant_type": "implicit", "redirect_uris": REDIRECT})
    assert r.status_code == 400
    assert r.json() == {"authorization_grant_type": ['"implicit" is not a valid choice.']}


def test_application_token_endpoints(service):
    app = make_app(service)
    r = requests.post(service.url + app["related"]["tokens"], json={"description": "app", "scope": "read"}, headers=admin(service), verify=service.ca_path)
    assert r.status_code == 201, r.text
    tok = r.json()
    assert tok["application"] == app["id"] and len(tok["refresh_token"]) == 30 and tok["scope"] == "read"
    r = requests.post(service.url + "/api/v2/tokens/", json={"application": app["id"], "scope": "write"}, headers=admin(service), verify=service.ca_path)
    assert r.status_code == 201 and r.json()["application"] == app["id"] and r.json()["refresh_token"] != "************"
    r = requests.post(service.url + "/api/v2/tokens/", json={"application": 999999}, headers=admin(service), verify=service.ca_path)
    assert r.status_code == 400 and "application" in r.json()
    assert make_token(service)["refresh_token"] is None


def test_user_token_lists_and_deletion(service):
    name, password = service.new_user()
    other, other_password = service.new_user()
    mine = make_token(service, user=name, password=password)
    user_id = mine["user"]
    for kind in ("tokens", "personal_tokens"):
        r = requests.get(service.url + "/api/v2/users/%d/%s/" % (user_id, kind), headers=basic(name, password), verify=service.ca_path)
        assert r.json()["count"] == 1
        r = requests.get(service.url + "/api/v2/users/%d/%s/" % (user_id, kind), headers=admin(service), verify=service.ca_path)
        assert r.json()["count"] == 1
    # an administrator cannot mint a personal token for somebody else
    r = requests.post(service.url + "/api/v2/users/%d/personal_tokens/" % user_id, json={}, headers=admin(service), verify=service.ca_path)
    assert r.status_code == 403
    # another user cannot delete it; an administrator can
    r = requests.delete(service.url + mine["url"], headers=basic(other, other_password), verify=service.ca_path)
    assert r.status_code == 404
    r = requests.delete(service.url + mine["url"], headers=admin(service), verify=service.ca_path)
    assert r.status_code == 204
    assert_not_provided(me(service, mine["token"]))


def test_last_used_is_updated(service):
    tok = make_token(service)
    assert me(service, tok["token"]).status_code == 200
    out = service.manage("shell", "-c", "from refsvc.svc.models import OAuth2AccessToken as T; print(T.objects.get(pk=%d).last_used is not None)" % tok["id"])
    assert out.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("scope", ["read write", "write"])
def test_scopes_accepted_by_the_grant(service, scope):
    grant = password_grant(service, make_app(service), service.admin_username, service.admin_password, scope=scope).json()
    assert grant["scope"] == scope
