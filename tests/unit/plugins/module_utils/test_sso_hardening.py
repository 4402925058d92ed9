"""Where service_auth sso writes the password and the one-time code.

The rules: they go only to the identity provider that the service's own SSO start
redirected to (the first origin off the service: scheme, host and port), only over
https (unless service_sso_allow_insecure_idp), and only in the body of a POST.

What is real here: the collection's whole SSO client (connect(), the HTTP client on
requests, the cookie jar, the HTML form parser) talks over real sockets, TLS with a
certificate made for the test, to small local web servers (http.server), each on a
port of its own, so each is an origin of its own. One stands in for the service's
SSO endpoints (/sso/login/oidc/ redirects to the identity provider, /sso/complete/
sets the session, /api/v2/me/ answers for it); the others are identity providers,
honest or hostile, that record every request they get, so a test can show that the
password never reached a hostile one. The same rule against the reference service
and its real identity providers (oidc-provider, pysaml2) is tested in
tests/live/plugins/module_utils/test_sso_live.py.
"""

import datetime
import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from ansible_collections.automation.service.plugins.module_utils import _auth_sso
from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError
from ansible_collections.automation.service.plugins.module_utils._options import resolve
from ansible_collections.automation.service.plugins.module_utils._session_cache import SessionCache

USER = 'alice'
PASSWORD = 'Pw-never-leaks-7731'
OTP = '482916'


# -- the local web servers ----------------------------------------------------------------


@pytest.fixture(scope='module')
def tls(tmp_path_factory):
    """A self-signed certificate for 127.0.0.1: (certificate file, key file)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    import ipaddress

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, '127.0.0.1')])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address('127.0.0.1'))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    directory = tmp_path_factory.mktemp('tls')
    cert_file, key_file = directory / 'cert.pem', directory / 'key.pem'
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_file), str(key_file)


class Site:
    """One origin: a web server on a port of its own that answers from ``routes``
    ({(method, path): handler(site, request) -> (status, headers, body)}) and records each request."""

    def __init__(self, tls=None):
        self.routes = {}
        self.requests = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self):
                length = int(self.headers.get('Content-Length') or 0)
                body = self.rfile.read(length).decode('utf-8') if length else ''
                parts = urlsplit(self.path)
                request = {'method': self.command, 'path': parts.path, 'query': parts.query,
                           'form': parse_qs(body), 'raw': self.path + '\n' + body,
                           'cookie': self.headers.get('Cookie') or ''}
                site.requests.append(request)
                handler = site.routes.get((self.command, parts.path))
                status, headers, text = handler(site, request) if handler else (404, {}, 'not here')
                data = text.encode('utf-8')
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header('Content-Type', 'text/html; charset=utf-8' if not text.startswith('{')
                                 else 'application/json')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

        self.server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.scheme = 'http'
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
            self.scheme = 'https'
        self.origin = '%s://127.0.0.1:%d' % (self.scheme, self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return self.origin + path

    def route(self, method, path, handler):
        self.routes[(method, path)] = handler
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def saw(self, secret):
        """Did any request this site got carry ``secret``?"""
        return any(secret in request['raw'] for request in self.requests)


def page(form, title='Sign in'):
    return 200, {}, '<!DOCTYPE html><html><head><title>%s</title></head><body>%s</body></html>' % (title, form)


def login_form(action, method='post'):
    return ('<form method="%s" action="%s"><input type="hidden" name="state" value="s1">'
            '<input type="text" name="username"><input type="password" name="password">'
            '<button type="submit">Sign in</button></form>' % (method, action))


OTP_FORM = ('<form method="post" action="%s"><input type="text" name="otp" autocomplete="one-time-code">'
            '<button type="submit">Verify</button></form>')


def redirect(location):
    return 302, {'Location': location}, ''


class World:
    """A service stand-in and identity providers, started per test and stopped after it."""

    def __init__(self, tls):
        self.tls = tls
        self.sites = []
        self.service = self.site(tls=True)
        self.service.route('GET', '/sso/login/oidc/', lambda site, r: redirect(self.start_target))
        self.service.route('GET', '/sso/complete/oidc/', self._complete)
        self.service.route('GET', '/api/v2/me/', self._me)
        self.start_target = None

    def site(self, tls=True):
        site = Site(self.tls if tls else None)
        self.sites.append(site)
        return site

    def _complete(self, site, request):
        if parse_qs(request['query']).get('code') != ['good']:
            return redirect('/sso/error/')
        return 302, {'Location': '/', 'X-API-Session-Cookie-Name': 'sessionid',
                     'Set-Cookie': 'sessionid=sess-1; Path=/; HttpOnly'}, ''

    def _me(self, site, request):
        if 'sessionid=sess-1' not in request['cookie']:
            return 401, {}, '{"detail": "Authentication credentials were not provided."}'
        return 200, {}, json.dumps({'count': 1, 'results': [{'id': 7, 'username': USER}]})

    def honest_idp(self, tls=True, otp=False):
        """An identity provider that checks the password (and code) and sends the user back to the service."""
        idp = self.site(tls=tls)
        back = self.service.url('/sso/complete/oidc/?' + urlencode({'code': 'good', 'state': 's1'}))

        def check(site, request):
            if request['form'].get('username') != [USER] or request['form'].get('password') != [PASSWORD]:
                return page('<p class="error">Invalid password.</p>' + login_form('/login'))
            return redirect('/otp' if otp else back)

        idp.route('GET', '/authorize', lambda site, r: page(login_form('/login')))
        idp.route('POST', '/login', check)
        idp.route('GET', '/otp', lambda site, r: page(OTP_FORM % '/otp'))
        idp.route('POST', '/otp', lambda site, r: redirect(back) if r['form'].get('otp') == [OTP]
                  else page('<p class="error">Invalid code.</p>' + OTP_FORM % '/otp'))
        self.start_target = idp.url('/authorize?' + urlencode({'client_id': 'svc', 'state': 's1'}))
        return idp

    def connect(self, environ=None, **given):
        options = {'service_url': self.service.origin, 'ca_path': self.tls[0], 'service_auth': 'sso',
                   'service_sso_backend': 'oidc', 'service_username': USER, 'service_password': PASSWORD}
        options.update(given)
        return connect(resolve(options, environ=environ or {}), SessionCache(enabled=False))

    def refused(self, **given):
        with pytest.raises(AuthError) as info:
            self.connect(**given)
        message = str(info.value)
        assert PASSWORD not in message and OTP not in message
        return message

    def stop(self):
        for site in self.sites:
            site.stop()


@pytest.fixture
def world(tls, monkeypatch):
    for name in ('HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv('NO_PROXY', '127.0.0.1')
    made = World(tls)
    yield made
    made.stop()


# -- the honest round trip goes through --------------------------------------------------


def test_the_identity_provider_the_service_redirected_to_gets_the_password(world):
    idp = world.honest_idp()
    client = world.connect()
    assert client.get('me')['results'][0]['username'] == USER
    posted = [r for r in idp.requests if r['method'] == 'POST' and r['path'] == '/login']
    assert len(posted) == 1 and posted[0]['form']['password'] == [PASSWORD]
    assert not world.service.saw(PASSWORD)


def test_the_one_time_code_goes_to_the_same_identity_provider(world):
    idp = world.honest_idp(otp=True)
    world.connect(service_sso_otp=OTP)
    assert [r['form']['otp'] for r in idp.requests if r['method'] == 'POST' and r['path'] == '/otp'] == [[OTP]]


# -- another origin asks for the password: nothing is written to it -------------------


def test_a_login_form_that_posts_to_another_origin_gets_nothing(world):
    idp = world.honest_idp()
    collector = world.site()
    collector.route('POST', '/steal', lambda site, r: redirect(world.service.url('/sso/complete/oidc/?code=good')))
    idp.route('GET', '/authorize', lambda site, r: page(login_form(collector.url('/steal'))))
    message = world.refused()
    assert 'Refusing to give the password of alice to %s' % collector.origin in message
    assert 'redirected to (%s)' % idp.origin in message
    assert collector.requests == []
    assert not idp.saw(PASSWORD) and not world.service.saw(PASSWORD)


def test_a_login_page_on_an_origin_the_identity_provider_redirected_to_gets_nothing(world):
    idp = world.honest_idp()
    hostile = world.site()
    hostile.route('GET', '/login', lambda site, r: page(login_form('/login')))
    hostile.route('POST', '/login', lambda site, r: redirect(world.service.url('/sso/complete/oidc/?code=good')))
    idp.route('GET', '/authorize', lambda site, r: redirect(hostile.url('/login')))
    message = world.refused()
    assert 'Refusing to give the password of alice to %s' % hostile.origin in message
    assert 'Nothing was sent to %s.' % hostile.origin in message
    assert [r['method'] for r in hostile.requests] == ['GET']
    assert not hostile.saw(PASSWORD)


def test_the_same_host_on_another_port_is_another_origin(world):
    idp = world.honest_idp()
    other_port = world.site()
    other_port.route('GET', '/login', lambda site, r: page(login_form('/login')))
    idp.route('GET', '/authorize', lambda site, r: redirect(other_port.url('/login')))
    assert urlsplit(other_port.origin).hostname == urlsplit(idp.origin).hostname
    message = world.refused()
    assert 'to %s,' % other_port.origin in message
    assert not other_port.saw(PASSWORD)


def test_a_password_form_on_the_service_itself_gets_nothing(world):
    world.service.route('GET', '/sso/password/', lambda site, r: page(login_form('/sso/password/')))
    world.start_target = world.service.url('/sso/password/')
    message = world.refused()
    assert 'Refusing to give the password of alice to %s' % world.service.origin in message
    assert 'redirected to (none yet)' in message
    assert not world.service.saw(PASSWORD)


def test_a_one_time_code_form_on_another_origin_gets_nothing(world):
    idp = world.honest_idp(otp=True)
    hostile = world.site()
    hostile.route('GET', '/otp', lambda site, r: page(OTP_FORM % '/otp'))
    idp.route('GET', '/otp', lambda site, r: redirect(hostile.url('/otp')))
    message = world.refused(service_sso_otp=OTP)
    assert 'Refusing to give the one-time code of alice to %s' % hostile.origin in message
    assert not hostile.saw(OTP) and not hostile.saw(PASSWORD)


def test_the_option_for_plain_http_does_not_open_other_origins(world):
    idp = world.honest_idp(tls=False)
    collector = world.site(tls=False)
    idp.route('GET', '/authorize', lambda site, r: page(login_form(collector.url('/steal'))))
    message = world.refused(service_sso_allow_insecure_idp=True)
    assert 'to %s,' % collector.origin in message
    assert collector.requests == []


# -- plain http ---------------------------------------------------------------------------


def test_an_identity_provider_on_plain_http_is_refused(world):
    idp = world.honest_idp(tls=False)
    message = world.refused()
    assert 'over plain http://' in message and 'service_sso_allow_insecure_idp' in message
    assert '%s/authorize' % idp.origin in message
    assert [r['method'] for r in idp.requests] == ['GET']
    assert not idp.saw(PASSWORD)


@pytest.mark.parametrize('how', ['option', 'environment'])
def test_plain_http_is_allowed_when_asked_for(world, how):
    idp = world.honest_idp(tls=False)
    if how == 'option':
        client = world.connect(service_sso_allow_insecure_idp=True)
    else:
        client = world.connect(environ={'SERVICE_SSO_ALLOW_INSECURE_IDP': 'true'})
    assert client.get('me')['results'][0]['username'] == USER
    assert idp.saw(PASSWORD)


def test_a_form_on_the_https_identity_provider_that_posts_to_its_http_twin_is_refused(world):
    """http:// on the same host and port is another origin (the scheme differs)."""
    idp = world.honest_idp()
    insecure = 'http' + idp.origin[len('https'):]
    idp.route('GET', '/authorize', lambda site, r: page(login_form(insecure + '/login')))
    message = world.refused()
    assert 'Refusing to give the password of alice to %s' % insecure in message


# -- GET forms ----------------------------------------------------------------------------


@pytest.mark.parametrize('method', ['get', '', 'GET '])
def test_a_login_form_sent_with_get_is_refused(world, method):
    idp = world.honest_idp()
    form = login_form('/login', method) if method else login_form('/login').replace(' method="post"', '')
    idp.route('GET', '/authorize', lambda site, r: page(form))
    message = world.refused()
    assert 'would go with GET in the URL' in message and 'a login form must use POST' in message
    assert '%s/authorize' % idp.origin in message
    assert not idp.saw(PASSWORD)
    assert [r['method'] for r in idp.requests] == ['GET']


def test_a_one_time_code_form_sent_with_get_is_refused(world):
    idp = world.honest_idp(otp=True)
    idp.route('GET', '/otp', lambda site, r: page((OTP_FORM % '/otp').replace('method="post"', 'method="get"')))
    message = world.refused(service_sso_otp=OTP)
    assert 'Refusing to send the one-time code of alice' in message and 'GET' in message
    assert not idp.saw(OTP)


# -- the origin -----------------------------------------------------------------------------


@pytest.mark.parametrize('url, origin', [
    ('https://IdP.Example.com/a?b=c', 'https://idp.example.com'),
    ('https://idp.example.com:443/a', 'https://idp.example.com'),
    ('https://idp.example.com:8443/a', 'https://idp.example.com:8443'),
    ('http://idp.example.com:80/', 'http://idp.example.com'),
    ('https://user:secret@idp.example.com/', 'https://idp.example.com'),
    ('https://[::1]:9443/x', 'https://[::1]:9443'),
])
def test_origin(url, origin):
    assert _auth_sso._origin(url) == origin
