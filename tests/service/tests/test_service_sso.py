"""The reference service's single sign-on answers like the real service (design section 5):
/sso/login/<backend>/ in both variants, HTTPS redirect URIs, the SAML SP metadata, the end of
a login (/sso/complete/) and its error page. The logins themselves run through the real IdPs."""
from urllib.parse import parse_qs, urlsplit

import pytest
import requests


def browser(svc):
    s = requests.Session()
    s.verify = svc.exports["SERVICE_CA_PATH"]
    s.trust_env = False  # REQUESTS_CA_BUNDLE would override Session.verify
    return s


@pytest.fixture
def variant(sso_service):
    def choose(name):
        assert sso_service.manage("sso_login_variant", name).strip() == name
    yield choose
    choose("get")


def test_oidc_login_redirects_to_the_idp_with_an_https_redirect_uri(sso_service):
    r = browser(sso_service).get(sso_service.url + "/sso/login/oidc/", allow_redirects=False)
    assert r.status_code == 302
    target = urlsplit(r.headers["Location"])
    query = parse_qs(target.query)
    assert query["redirect_uri"] == [sso_service.url + "/sso/complete/oidc/"]
    assert query["client_id"] == ["automation-service"] and query["response_type"] == ["code"]
    assert target.scheme == "https" and target.netloc != urlsplit(sso_service.url).netloc


def test_saml_login_needs_an_idp_and_uses_the_redirect_binding(sso_service):
    s = browser(sso_service)
    r = s.get(sso_service.url + "/sso/login/saml/", params={"idp": sso_service.exports["SSO_SAML_IDP"]},
              allow_redirects=False)
    assert r.status_code == 302
    query = parse_qs(urlsplit(r.headers["Location"]).query)
    assert "SAMLRequest" in query and "RelayState" in query
    r = s.get(sso_service.url + "/sso/login/saml/", params={"idp": "unknown"}, allow_redirects=False)
    assert r.status_code == 302 and r.headers["Location"] == "/sso/error/"
    page = s.get(sso_service.url + "/sso/error/")
    assert page.status_code == 200 and 'class="error"' in page.text


def test_post_variant_answers_get_with_405_and_wants_csrf(sso_service, variant):
    variant("post")
    s = browser(sso_service)
    assert s.get(sso_service.url + "/sso/login/oidc/", allow_redirects=False).status_code == 405
    assert s.post(sso_service.url + "/sso/login/oidc/", allow_redirects=False).status_code == 403
    s.get(sso_service.url + "/api/login/")
    token = s.cookies["csrftoken"]
    r = s.post(sso_service.url + "/sso/login/oidc/", data={"csrfmiddlewaretoken": token},
               headers={"Referer": sso_service.url + "/"}, allow_redirects=False)
    assert r.status_code == 302 and "redirect_uri=" in r.headers["Location"]


def test_saml_metadata_names_the_https_acs(sso_service):
    r = browser(sso_service).get(sso_service.url + "/sso/metadata/saml/")
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/xml")
    assert 'Location="%s/sso/complete/saml/"' % sso_service.url in r.text


def test_complete_page_without_a_login_sets_no_session(sso_service):
    r = browser(sso_service).get(sso_service.url + "/sso/complete/", allow_redirects=False)
    assert r.status_code == 301 and r.headers["Location"] == "/"
    assert "X-API-Session-Cookie-Name" not in r.headers and "userLoggedIn" not in r.cookies


def test_service_without_idps_has_no_sso_backends(service):
    s = requests.Session()
    s.trust_env = False
    r = s.get(service.url + "/sso/login/oidc/", verify=service.ca_path, allow_redirects=False)
    assert r.status_code == 404
