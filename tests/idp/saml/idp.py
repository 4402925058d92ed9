"""SAML 2.0 identity provider for the single sign-on tests (pysaml2, signing with xmlsec1).

    python idp.py CONFIG.json

CONFIG: {port, base_url, cert, key (TLS), signing_cert, signing_key, users (path of the
users.json the OIDC provider reads too), sp_metadata_url, ca (to fetch the SP metadata)}.
Redirect binding in, POST binding out; response and assertion both signed. The SP's metadata
is fetched from the service on the first login (the service starts before its IdPs know it).
"""
import html
import json
import secrets
import ssl
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.saml import NAME_FORMAT_URI, NAMEID_FORMAT_UNSPECIFIED, NameID
from saml2.server import Server
from saml2.authn_context import PASSWORD

PAGE = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%(title)s</title></head>'
        '<body><h1>%(title)s</h1>%(alert)s%(body)s</body></html>')
LOGIN_FORM = ('<form method="post" action="/sso/login"><input type="hidden" name="key" value="%(key)s">'
              '<label for="u">User name</label> <input id="u" type="text" name="username" value="%(username)s">'
              '<label for="p">Password</label> <input id="p" type="password" name="password">'
              '<input type="submit" value="Log in"></form>')
OTP_FORM = ('<form method="post" action="/sso/otp"><input type="hidden" name="key" value="%(key)s">'
            '<label for="c">One-time code</label> <input id="c" type="text" name="code" autocomplete="one-time-code">'
            '<input type="submit" value="Verify"></form>')


def page(title, body, error=None):
    alert = '<p class="error" role="alert">%s</p>' % html.escape(error) if error else ''
    return PAGE % {'title': html.escape(title), 'alert': alert, 'body': body}


class IdP:
    def __init__(self, config):
        self.config = config
        self.base = config['base_url']
        self.pending = {}        # key -> {'request': parsed AuthnRequest, 'relay_state', 'user'}
        self.lock = threading.Lock()
        self._server = None

    def users(self):
        with open(self.config['users']) as handle:
            return json.load(handle)

    def server(self):
        with self.lock:
            if self._server is None:
                context = ssl.create_default_context(cafile=self.config['ca'])
                with urllib.request.urlopen(self.config['sp_metadata_url'], context=context, timeout=30) as answer:
                    metadata = answer.read().decode()
                settings = {
                    'entityid': self.base + '/metadata',
                    'service': {'idp': {
                        'name': 'Test SAML IdP',
                        'endpoints': {'single_sign_on_service': [(self.base + '/sso/redirect', BINDING_HTTP_REDIRECT)]},
                        'name_id_format': [NAMEID_FORMAT_UNSPECIFIED],
                        'want_authn_requests_signed': False,
                        'policy': {'default': {'lifetime': {'minutes': 15}, 'name_form': NAME_FORMAT_URI,
                                               'attribute_restrictions': None}},
                    }},
                    'key_file': self.config['signing_key'],
                    'cert_file': self.config['signing_cert'],
                    'metadata': {'inline': [metadata]},
                    'xmlsec_binary': self.config.get('xmlsec1', '/usr/bin/xmlsec1'),
                }
                idp_config = IdPConfig()
                idp_config.load(settings)
                self._server = Server(config=idp_config)
            return self._server

    def begin(self, query):
        saml_request = query.get('SAMLRequest', [''])[0]
        if not saml_request:
            return 400, page('Error', '<p class="error">No SAMLRequest in the request.</p>')
        request = self.server().parse_authn_request(saml_request, BINDING_HTTP_REDIRECT)
        key = secrets.token_urlsafe(16)
        with self.lock:
            self.pending[key] = {'request': request.message, 'relay_state': query.get('RelayState', [None])[0]}
        return 200, page('Log in', LOGIN_FORM % {'key': key, 'username': ''})

    def login(self, form):
        key = form.get('key', '')
        state = self.pending.get(key)
        if state is None:
            return 400, page('Error', '<p class="error">This login request expired; start again.</p>')
        username = form.get('username', '')
        user = self.users().get(username)
        again = LOGIN_FORM % {'key': key, 'username': html.escape(username)}
        if user is None:
            return 401, page('Log in', again, 'No such user: %s' % (username or '(empty)'))
        if form.get('password') != user['password']:
            return 401, page('Log in', again, 'Wrong password.')
        state['user'] = username
        if user.get('otp'):
            return 200, page('One-time code', OTP_FORM % {'key': key})
        return self.respond(key)

    def otp(self, form):
        key = form.get('key', '')
        state = self.pending.get(key)
        if state is None or 'user' not in state:
            return 400, page('Error', '<p class="error">This login request expired; start again.</p>')
        code = form.get('code', '')
        if not code:
            return 401, page('One-time code', OTP_FORM % {'key': key}, 'A one-time code is required.')
        if code != str(self.users()[state['user']]['otp']):
            return 401, page('One-time code', OTP_FORM % {'key': key}, 'The one-time code is not valid.')
        return self.respond(key)

    def respond(self, key):
        with self.lock:
            state = self.pending.pop(key)
        request, username = state['request'], state['user']
        user = self.users()[username]
        server = self.server()
        destination = request.assertion_consumer_service_url
        identity = {'uid': [username], 'mail': [user['email']], 'givenName': [user.get('given_name', '')],
                    'sn': [user.get('family_name', '')]}
        response = server.create_authn_response(
            identity, in_response_to=request.id, destination=destination, sp_entity_id=request.issuer.text,
            name_id=NameID(format=NAMEID_FORMAT_UNSPECIFIED, text=username),
            authn={'class_ref': PASSWORD, 'authn_auth': self.base}, sign_response=True, sign_assertion=True)
        args = server.apply_binding(BINDING_HTTP_POST, str(response), destination, state['relay_state'],
                                    response=True)
        return 200, args['data']


class Handler(BaseHTTPRequestHandler):
    idp = None

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header('Content-Type', 'text/html; charset=utf-8')
        self.send_header('Cache-Control', 'no-store')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def run(self, action, *args):
        try:
            self.answer(*action(*args))
        except Exception as exc:  # report to the browser (or client) like a real IdP's error page
            self.answer(500, page('Error', '<p class="error">%s</p>' % html.escape(str(exc))))

    def do_GET(self):
        parts = urlsplit(self.path)
        if parts.path == '/sso/redirect':
            return self.run(self.idp.begin, parse_qs(parts.query))
        if parts.path == '/ping':
            return self.answer(200, 'ok')
        return self.answer(404, page('Not found', ''))

    def do_POST(self):
        length = int(self.headers.get('Content-Length') or 0)
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode(), keep_blank_values=True).items()}
        path = urlsplit(self.path).path
        if path == '/sso/login':
            return self.run(self.idp.login, form)
        if path == '/sso/otp':
            return self.run(self.idp.otp, form)
        return self.answer(404, page('Not found', ''))


def main():
    with open(sys.argv[1]) as handle:
        config = json.load(handle)
    Handler.idp = IdP(config)
    httpd = ThreadingHTTPServer(('127.0.0.1', config['port']), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(config['cert'], config['key'])
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    print('saml idp listening on %s' % config['base_url'], flush=True)
    httpd.serve_forever()


if __name__ == '__main__':
    main()
