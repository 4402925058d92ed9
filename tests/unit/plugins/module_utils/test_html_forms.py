"""How the SSO client reads identity providers' pages (plain HTML, no JavaScript)."""

from ansible_collections.automation.service.plugins.module_utils._auth_sso import _Flow
from ansible_collections.automation.service.plugins.module_utils._html_forms import Page

KEYCLOAK_LIKE = """<html><head><title>Sign in to realm</title></head><body>
<span class="kc-feedback-text alert-error">Invalid username or password.</span>
<form id="kc-form-login" action="/realms/r/login-actions/authenticate?session_code=abc" method="post">
<input type="hidden" name="execution" value="e1">
<input tabindex="1" id="username" name="username" type="text" autocomplete="off">
<input tabindex="2" id="password" name="password" type="password">
<input type="checkbox" name="rememberMe">
<input type="submit" name="login" value="Sign In">
</form></body></html>"""

AUTO_POST = """<html><body onload="document.forms[0].submit()">
<form method="post" action="https://svc/sso/complete/saml/">
<input type="hidden" name="SAMLResponse" value="PHNhbWw+"><input type="hidden" name="RelayState" value='{"idp": "x"}'>
<noscript><input type="submit" value="Continue"></noscript></form></body></html>"""


def test_login_form_keeps_hidden_fields_and_finds_the_user_field():
    page = Page(KEYCLOAK_LIKE)
    form = page.forms[0]
    assert _Flow.kind(form) == 'login'
    password = form.password_fields()[0]
    user = _Flow._user_field(form, password)
    assert user.name == 'username'
    data = form.data({'username': 'u', 'password': 'p'}, form.buttons()[0])
    assert data == [('execution', 'e1'), ('username', 'u'), ('password', 'p'), ('login', 'Sign In')]
    assert page.error_text() == 'Invalid username or password.'
    assert page.title == 'Sign in to realm'


def test_auto_post_form_is_submitted_as_is():
    form = Page(AUTO_POST).forms[0]
    assert _Flow.kind(form) == 'post'
    assert form.method == 'POST'
    assert dict(form.data())['RelayState'] == '{"idp": "x"}'


def test_one_time_code_and_consent_pages():
    otp = Page('<form method="post"><label>Code</label><input name="otp" autocomplete="one-time-code"></form>')
    assert _Flow.kind(otp.forms[0]) == 'otp'
    consent = Page('<form method="post"><button name="decision" value="allow">Allow</button>'
                   '<button name="decision" value="deny">Deny</button></form>')
    assert _Flow.kind(consent.forms[0]) == 'consent'


def test_a_search_form_is_not_understood():
    page = Page('<form action="/search"><input type="text" name="q"></form>')
    assert _Flow.kind(page.forms[0]) is None


def test_the_method_of_a_form_is_read_as_a_browser_reads_it():
    """A form without method, or with method get in any case and spacing, is sent with GET, which puts its
    fields in the URL: the SSO client refuses to send a password that way."""
    for attrs, method in (('', 'GET'), (' method="get"', 'GET'), (' method=" Post "', 'POST'),
                          (' method="POST"', 'POST'), (' method="GET "', 'GET')):
        form = Page('<form%s action="/x"><input name="u"><input type="password" name="p"></form>' % attrs).forms[0]
        assert form.method == method, attrs
        assert _Flow.kind(form) == 'login'
