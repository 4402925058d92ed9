"""The reference service answers authentication like the real service (design section 5)."""
import base64
import re
import time
import uuid

import pytest
import requests

NOT_PROVIDED = {"detail": "Authentication credentials were not provided. To establish a login session, visit /api/login/."}
WWW_AUTH = "Bearer realm=api authorization_url=/api/o/authorize/"


def client(service):
    s = requests.Session()
    s.verify = service.ca_path
    # REQUESTS_CA_BUNDLE in the environment would override Session.verify.
    s.trust_env = False
    return s


def basic(user, password):
    return {"Authorization": "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()}


def login(service, username=None, password=None, next_=None):
    s = client(service)
    r = s.get(service.url + "/api/login/")
    assert r.status_code == 200
    data = {"username": username or service.admin_username, "password": password or service.admin_password}
    if next_:
        data["next"] = next_
    r = s.post(
        service.url + "/api/login/",
        data=data,
        headers={"X-CSRFToken": s.cookies["csrftoken"], "Referer": service.url + "/api/login/"},
        allow_redirects=False,
    )
    return s, r


def set_cookie_headers(response):
    return response.raw.headers.getlist("Set-Cookie")


def cookie_line(response, name):
    for line in set_cookie_headers(response):
        if line.startswith(name + "="):
            return line
    raise AssertionError("no Set-Cookie for %s in %s" % (name, set_cookie_headers(response)))


def assert_not_provided(r):
    assert r.status_code == 401, r.text
    assert r.json() == NOT_PROVIDED
    assert r.headers["WWW-Authenticate"] == WWW_AUTH


def make_token(service, scope=None, user=None, password=None):
    body = {"description": "test"}
    if scope is not None:
        body["scope"] = scope
    r = requests.post(
        service.url + "/api/v2/tokens/",
        json=body,
        headers=basic(user or service.admin_username, password or service.admin_password),
        verify=service.ca_path,
    )
    assert r.status_code == 201, r.text
    return r.json()


# ------------------------------------------------------------------ session login

def test_login_page_sets_csrftoken_without_max_age(service):
    r = requests.get(service.url + "/api/login/", verify=service.ca_path)
    assert r.status_code == 200
    assert "text/html" in r.headers["Content-Type"]
    line = cookie_line(r, "csrftoken")
    assert "Max-Age" not in line and "expires" not in line.lower()
    assert "SameSite=Lax" in line
    assert "X-API-Product-Name" not in r.headers


# The login page's content negotiation, as observed on the real service: any
# Accept that admits HTML gets the form and the csrftoken cookie; JSON alone
# gets 406 with the body null and no cookie.
@pytest.mark.parametrize("accept", [None, "*/*", "text/html", "application/json, text/html;q=0.9",
                                    "text/html,application/xhtml+xml,*/*;q=0.8"])
def test_login_page_answers_html_when_the_accept_admits_it(service, accept):
    headers = {} if accept is None else {"Accept": accept}
    r = requests.get(service.url + "/api/login/", headers=headers, verify=service.ca_path)
    if accept is None:
        # requests sends "*/*" by default; send no Accept at all through a prepared request
        s = requests.Session()
        request = s.prepare_request(requests.Request("GET", service.url + "/api/login/"))
        del request.headers["Accept"]
        r = s.send(request, verify=service.ca_path)
        assert "Accept" not in r.request.headers
    assert r.status_code == 200
    assert "text/html" in r.headers["Content-Type"]
    assert r.cookies.get("csrftoken")


def test_login_page_answers_406_to_json_alone(service):
    r = requests.get(service.url + "/api/login/", headers={"Accept": "application/json"}, verify=service.ca_path)
    assert r.status_code == 406
    assert r.content == b"null"
    assert "Set-Cookie" not in r.headers
    assert "X-API-Product-Version" not in r.headers


def test_login_post_does_not_negotiate(service):
    """Only the GET is picky: a login POST with Accept: application/json still logs in."""
    s = requests.Session()
    first = s.get(service.url + "/api/login/", headers={"Accept": "text/html, */*"}, verify=service.ca_path)
    token = first.cookies["csrftoken"]
    r = s.post(service.url + "/api/login/", data={"username": service.admin_username, "password": service.admin_password},
               headers={"X-CSRFToken": token, "Referer": service.url + "/api/login/", "Accept": "application/json"},
               allow_redirects=False, verify=service.ca_path)
    assert r.status_code == 302
    assert r.headers["X-API-Session-Cookie-Name"] == "svc_session_id"


def test_api_root_answers_json_and_sets_csrftoken_for_awxkit(service):
    r = requests.get(service.url + "/api/", headers={"Accept": "application/json"}, verify=service.ca_path)
    assert r.status_code == 200
    assert r.json()["current_version"] == "/api/v2/"
    assert r.cookies.get("csrftoken")


def test_login_success(service):
    s, r = login(service)
    assert r.status_code == 302
    assert r.headers["Location"] == "/accounts/profile/"
    assert r.content == b""
    assert r.headers["Content-Length"] == "0"
    assert r.headers["X-API-Session-Cookie-Name"] == "svc_session_id"
    assert r.headers["Session-Timeout"] == "1800"
    assert r.headers["Strict-Transport-Security"] == "max-age=15768000"
    assert r.headers["Access-Control-Expose-Headers"] == "X-API-Request-Id"
    assert r.headers["X-API-Request-Id"]
    assert re.fullmatch(r"\d+\.\d+s", r.headers["X-API-Total-Time"])
    assert "X-API-Product-Name" not in r.headers
    # Observed on the real service: the login's answer carries no product version.
    assert "X-API-Product-Version" not in r.headers
    assert "text/html" in r.headers["Content-Type"]
    session_line = cookie_line(r, "svc_session_id")
    for attr in ("HttpOnly", "Max-Age=1800", "Path=/", "SameSite=Lax", "expires="):
        assert attr in session_line, session_line
    logged = cookie_line(r, "userLoggedIn")
    assert logged.startswith("userLoggedIn=true;") and "SameSite=Lax" in logged and "Path=/" in logged
    # Observed on the real service: no current_user cookie (24.6.1's login view sets none).
    assert "current_user" not in [c.split("=")[0] for c in set_cookie_headers(r)]
    assert "csrftoken" in [c.split("=")[0] for c in set_cookie_headers(r)]
    me = s.get(service.url + "/api/v2/me/")
    assert me.status_code == 200
    assert me.json()["results"][0]["username"] == service.admin_username


def test_login_is_logged(service):
    mark = service.mark()
    _, r = login(service)
    assert r.status_code == 302
    entries = [e for e in service.since(mark) if e["path"] == "/api/login/" and e["method"] == "POST"]
    assert len(entries) == 1
    assert entries[0]["login"] is True
    assert entries[0]["auth"] == "session"
    assert entries[0]["user"] == service.admin_username
    assert entries[0]["password_checks"] == 1
    assert entries[0]["status"] == 302


def test_login_with_next(service):
    s, r = login(service, next_="/api/")
    assert r.status_code == 302
    assert r.headers["Location"] == "/api/"


def test_login_bad_password(service):
    mark = service.mark()
    s, r = login(service, password="wrong")
    assert r.status_code == 401
    assert "text/html" in r.headers["Content-Type"]
    assert "<form" in r.text
    assert "X-API-Session-Cookie-Name" not in r.headers
    assert "Strict-Transport-Security" not in r.headers
    entry = [e for e in service.since(mark) if e["method"] == "POST"][-1]
    assert entry["login"] is False and entry["password_checks"] == 1 and entry["status"] == 401


def test_login_without_csrf_token_gets_django_403_page(service):
    s = client(service)
    s.get(service.url + "/api/login/")
    r = s.post(
        service.url + "/api/login/",
        data={"username": service.admin_username, "password": service.admin_password},
        headers={"Referer": service.url + "/api/login/"},
        allow_redirects=False,
    )
    assert r.status_code == 403
    assert "text/html" in r.headers["Content-Type"]
    assert "CSRF verification failed" in r.text
    assert "X-API-Product-Name" not in r.headers
    assert "Strict-Transport-Security" not in r.headers


def test_session_request_refreshes_cookie_and_carries_timeout(service):
    s, _ = login(service)
    r = s.get(service.url + "/api/v2/hosts/")
    assert r.status_code == 200
    assert r.headers["Session-Timeout"] == "1800"
    line = cookie_line(r, "svc_session_id")
    assert "Max-Age=1800" in line
    assert r.headers["X-API-Product-Name"] == "AWX"
    assert r.headers["X-API-Product-Version"] == "24.6.1"


def test_session_write_without_referer_is_csrf_403(service):
    s, _ = login(service)
    r = s.post(service.url + "/api/v2/organizations/", json={"name": "x"}, headers={"X-CSRFToken": s.cookies["csrftoken"]})
    assert r.status_code == 403
    assert r.json() == {"detail": "CSRF Failed: Referer checking failed - no Referer."}
    r = s.post(service.url + "/api/v2/organizations/", json={"name": "x"}, headers={"Referer": service.url + "/api/"})
    assert r.status_code == 403
    assert r.json()["detail"].startswith("CSRF Failed: CSRF token")


def test_session_write_with_csrf(service):
    s, _ = login(service)
    name = "org-" + uuid.uuid4().hex[:8]
    r = s.post(
        service.url + "/api/v2/organizations/",
        json={"name": name},
        headers={"X-CSRFToken": s.cookies["csrftoken"], "Referer": service.url + "/api/"},
    )
    assert r.status_code == 201, r.text
    assert r.json()["name"] == name


def test_logout_and_dropped_sessions(service):
    s, _ = login(service)
    assert s.get(service.url + "/api/v2/me/").status_code == 200
    r = s.get(service.url + "/api/logout/", allow_redirects=False)
    assert r.status_code == 302
    assert_not_provided(s.get(service.url + "/api/v2/me/"))
    s, _ = login(service)
    assert s.get(service.url + "/api/v2/me/").status_code == 200
    service.drop_sessions()
    r = s.get(service.url + "/api/v2/me/")
    assert_not_provided(r)
    assert "Session-Timeout" not in r.headers


def test_session_cookie_name_and_age_are_settings(service_factory):
    svc = service_factory(SESSION_COOKIE_NAME="othersession", SESSION_COOKIE_AGE=120)
    s, r = login(svc)
    assert r.headers["X-API-Session-Cookie-Name"] == "othersession"
    assert r.headers["Session-Timeout"] == "120"
    assert "Max-Age=120" in cookie_line(r, "othersession")
    assert s.get(svc.url + "/api/v2/me/").status_code == 200


def test_awxkit_style_login(service):
    """awxkit: csrftoken from GET /api/, login with next=/api/, follow the redirect."""
    s = client(service)
    r = s.get(service.url + "/api/")
    assert r.status_code == 200 and r.json()["current_version"] == "/api/v2/"
    assert "csrftoken" in s.cookies
    r = s.post(
        service.url + "/api/login/",
        data={"username": service.admin_username, "password": service.admin_password, "next": "/api/"},
        headers={"X-CSRFToken": s.cookies["csrftoken"], "Referer": service.url + "/api/login/"},
    )
    assert r.status_code == 200
    assert r.history[0].headers["X-API-Session-Cookie-Name"] == "svc_session_id"
    assert "svc_session_id" in s.cookies


# ------------------------------------------------------------------ 401 answers

def test_no_credentials(service):
    assert_not_provided(requests.get(service.url + "/api/v2/hosts/", verify=service.ca_path))


def test_bad_basic_password(service):
    mark = service.mark()
    r = requests.get(service.url + "/api/v2/hosts/", headers=basic(service.admin_username, "nope"), verify=service.ca_path)
    assert_not_provided(r)
    assert "X-API-Product-Version" not in r.headers
    assert "Strict-Transport-Security" not in r.headers
    assert r.headers["X-API-Product-Name"] == "AWX"
    assert service.since(mark)[-1]["password_checks"] == 1


def test_bad_bearer_token(service):
    r = requests.get(service.url + "/api/v2/hosts/", headers={"Authorization": "Bearer nonsense"}, verify=service.ca_path)
    assert_not_provided(r)


def test_basic_works_and_is_logged(service):
    mark = service.mark()
    r = requests.get(service.url + "/api/v2/me/", headers=basic(service.admin_username, service.admin_password), verify=service.ca_path)
    assert r.status_code == 200
    assert r.headers["X-API-Product-Version"] == "24.6.1"
    assert "Session-Timeout" not in r.headers
    entry = service.since(mark)[-1]
    assert entry["auth"] == "basic" and entry["user"] == service.admin_username and entry["password_checks"] == 1


def test_basic_switched_off(service_factory):
    svc = service_factory(AUTH_BASIC_ENABLED=False)
    r = requests.get(svc.url + "/api/v2/me/", headers=basic(svc.admin_username, svc.admin_password), verify=svc.ca_path)
    assert_not_provided(r)
    # A session login with the same credentials still works.
    s, r = login(svc)
    assert r.status_code == 302


# ------------------------------------------------------------------ tokens

def test_token_create_shows_secret_once(service):
    mark = service.mark()
    tok = make_token(service)
    for key in ("id", "type", "url", "related", "summary_fields", "created", "modified", "description", "user",
                "token", "refresh_token", "application", "expires", "scope"):
        assert key in tok
    assert tok["type"] == "o_auth2_access_token"
    assert tok["refresh_token"] is None and tok["application"] is None
    assert tok["scope"] == "write"
    assert len(tok["token"]) == 30
    assert tok["url"] == "/api/v2/tokens/%d/" % tok["id"]
    r = requests.get(service.url + "/api/v2/me/", headers={"Authorization": "Bearer " + tok["token"]}, verify=service.ca_path)
    assert r.status_code == 200
    assert r.headers["X-API-Product-Version"] == "24.6.1"
    entry = service.since(mark)[-1]
    assert entry["auth"] == "bearer" and entry["password_checks"] == 0
    again = requests.get(service.url + tok["url"], headers={"Authorization": "Bearer " + tok["token"]}, verify=service.ca_path)
    assert again.json()["token"] == "************"
    listed = requests.get(service.url + "/api/v2/tokens/", headers={"Authorization": "Bearer " + tok["token"]}, verify=service.ca_path)
    assert all(t["token"] == "************" for t in listed.json()["results"])


def test_token_revoked(service):
    tok = make_token(service)
    auth = {"Authorization": "Bearer " + tok["token"]}
    r = requests.delete(service.url + tok["url"], headers=auth, verify=service.ca_path)
    assert r.status_code == 204
    assert_not_provided(requests.get(service.url + "/api/v2/me/", headers=auth, verify=service.ca_path))


def test_token_revoked_by_management_command(service):
    name, password = service.new_user()
    tok = make_token(service, user=name, password=password)
    auth = {"Authorization": "Bearer " + tok["token"]}
    assert requests.get(service.url + "/api/v2/me/", headers=auth, verify=service.ca_path).status_code == 200
    service.manage("revoke_oauth2_tokens", "--user", name)
    assert_not_provided(requests.get(service.url + "/api/v2/me/", headers=auth, verify=service.ca_path))


def test_token_expired(service_factory):
    svc = service_factory(ACCESS_TOKEN_EXPIRE_SECONDS=1)
    tok = make_token(svc)
    time.sleep(1.5)
    assert_not_provided(requests.get(svc.url + "/api/v2/me/", headers={"Authorization": "Bearer " + tok["token"]}, verify=svc.ca_path))


def test_token_default_expiry_is_far(service):
    tok = make_token(service)
    assert tok["expires"].startswith(("30", "29"))


def test_read_token_cannot_write(service):
    tok = make_token(service, scope="read")
    auth = {"Authorization": "Bearer " + tok["token"]}
    assert requests.get(service.url + "/api/v2/hosts/", headers=auth, verify=service.ca_path).status_code == 200
    r = requests.post(service.url + "/api/v2/organizations/", json={"name": "ro-" + uuid.uuid4().hex[:6]}, headers=auth, verify=service.ca_path)
    assert r.status_code == 403
    assert r.json() == {"detail": "You do not have permission to perform this action."}


@pytest.mark.parametrize("scope", ["admin", "read,write", ""])
def test_bad_scope(service, scope):
    r = requests.post(
        service.url + "/api/v2/tokens/",
        json={"description": "x", "scope": scope},
        headers=basic(service.admin_username, service.admin_password),
        verify=service.ca_path,
    )
    assert r.status_code == 400
    assert r.json() == {"scope": ["Must be a simple space-separated string with allowed scopes ['read', 'write']."]}


def test_personal_tokens_by_id_and_username(service):
    name, password = service.new_user()
    auth = basic(name, password)
    me = requests.get(service.url + "/api/v2/me/", headers=auth, verify=service.ca_path).json()["results"][0]
    for key in (str(me["id"]), name):
        r = requests.post(service.url + "/api/v2/users/%s/personal_tokens/" % key, json={"description": "cli", "application": None, "scope": "write"}, headers=auth, verify=service.ca_path)
        assert r.status_code == 201, r.text
        assert r.json()["user"] == me["id"]
    r = requests.get(service.url + "/api/v2/users/%s/personal_tokens/" % name, headers=auth, verify=service.ca_path)
    assert r.json()["count"] == 2
    # somebody else's
    r = requests.post(service.url + "/api/v2/users/1/personal_tokens/", json={}, headers=auth, verify=service.ca_path)
    assert r.status_code in (403, 404)


# ------------------------------------------------------------------ settings

def test_settings_endpoint(service_factory):
    svc = service_factory(SESSION_COOKIE_AGE=600)
    admin = basic(svc.admin_username, svc.admin_password)
    url = svc.url + "/api/v2/settings/authentication/"
    r = requests.get(url, headers=admin, verify=svc.ca_path)
    assert r.status_code == 200
    data = r.json()
    assert data["AUTH_BASIC_ENABLED"] is True
    assert data["ALLOW_OAUTH2_FOR_EXTERNAL_USERS"] is False
    assert data["SESSION_COOKIE_AGE"] == 600
    assert data["OAUTH2_PROVIDER"]["ACCESS_TOKEN_EXPIRE_SECONDS"] == 31536000000
    name, password = svc.new_user()
    assert requests.get(url, headers=basic(name, password), verify=svc.ca_path).status_code == 403
    assert requests.patch(url, json={"AUTH_BASIC_ENABLED": False}, headers=basic(name, password), verify=svc.ca_path).status_code == 403
    # Change the session age: both workers see it on the next request.
    r = requests.patch(url, json={"SESSION_COOKIE_AGE": 900, "OAUTH2_PROVIDER": {"ACCESS_TOKEN_EXPIRE_SECONDS": 3600}}, headers=admin, verify=svc.ca_path)
    assert r.status_code == 200, r.text
    assert r.json()["SESSION_COOKIE_AGE"] == 900
    for _ in range(4):
        s, r = login(svc)
        assert r.headers["Session-Timeout"] == "900"
    tok = make_token(svc)
    # about an hour from now
    assert tok["expires"][:4] == time.strftime("%Y", time.gmtime(time.time() + 3600))
    assert requests.patch(url, json={"SESSION_COOKIE_AGE": "x"}, headers=admin, verify=svc.ca_path).status_code == 400
    # Switch Basic off through the API, then on again through a session.
    assert requests.patch(url, json={"AUTH_BASIC_ENABLED": False}, headers=admin, verify=svc.ca_path).status_code == 200
    for _ in range(4):
        assert_not_provided(requests.get(svc.url + "/api/v2/me/", headers=admin, verify=svc.ca_path))
    s, _ = login(svc)
    r = s.patch(url, json={"AUTH_BASIC_ENABLED": True}, headers={"X-CSRFToken": s.cookies["csrftoken"], "Referer": svc.url + "/api/"})
    assert r.status_code == 200
    assert requests.get(svc.url + "/api/v2/me/", headers=admin, verify=svc.ca_path).status_code == 200


def _make_external(svc, username):
    svc.manage(
        "shell", "-c",
        "from django.contrib.auth.models import User; from refsvc.svc.models import UserProfile; "
        "UserProfile.objects.update_or_create(user=User.objects.get(username=%r), defaults={'external_account': 'social'})" % username,
    )


@pytest.mark.parametrize("allowed", [False, True])
def test_external_users_and_tokens(service_factory, allowed):
    svc = service_factory(ALLOW_OAUTH2_FOR_EXTERNAL_USERS=allowed)
    name, password = svc.new_user()
    _make_external(svc, name)
    r = requests.post(svc.url + "/api/v2/tokens/", json={"description": "x"}, headers=basic(name, password), verify=svc.ca_path)
    me = requests.get(svc.url + "/api/v2/me/", headers=basic(name, password), verify=svc.ca_path).json()["results"][0]
    assert me["external_account"] == "social"
    if allowed:
        assert r.status_code == 201, r.text
    else:
        assert r.status_code == 403
        assert r.json() == {"detail": "(access_denied) OAuth2 Tokens cannot be created by users associated with an external authentication provider (social)"}
