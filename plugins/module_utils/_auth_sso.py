# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Single sign-on without a browser: the service's /sso/login/<backend>/ round trip (on a platform
gateway, the login URL of one of its authenticators) through the identity provider's own pages,
ending in a session that is cached like a session login."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible_collections.automation.service.plugins.module_utils import _gateway_authenticators
from ansible_collections.automation.service.plugins.module_utils._auth_session import (
    GATEWAY_SESSION_COOKIE, LOGIN_PATH, SessionAuth,
)
from ansible_collections.automation.service.plugins.module_utils._client import PAGE_ACCEPT
from ansible_collections.automation.service.plugins.module_utils._errors import AuthError, ConfigError
from ansible_collections.automation.service.plugins.module_utils._session_cache import entry_key

try:
    from urllib.parse import urljoin, urlsplit, parse_qs, parse_qsl, urlencode
except ImportError:  # pragma: no cover - Python 2 is not supported
    from urlparse import urljoin, urlsplit, parse_qs, parse_qsl  # type: ignore
    from urllib import urlencode  # type: ignore

MAX_STEPS = 30
USER_FIELD = r'user|login|email|e-mail|account|ident|principal|\bname\b|uid'
OTP_FIELD = r'otp|totp|one.?time|passcode|\bcode\b|token|mfa|2fa|two.?factor|verif'
ALLOW = r'allow|accept|approve|authori[sz]e|consent|agree|grant|\byes\b|continue|confirm'
DENY = r'deny|decline|reject|cancel|refuse|\bno\b|abort'
# Where the identity provider sends the user back: AWX 24's /sso/complete/<backend>/, a platform
# gateway's /api/gateway/social/complete/<slug>/ (django-ansible-base's social-auth URLs).
COMPLETE_PATHS = ('/sso/complete/', '/social/complete/')


def _page(text):
    """The parsed page; the HTML parser is imported only by a login that reads pages,
    never by a task that reuses a cached session."""
    from ansible_collections.automation.service.plugins.module_utils._html_forms import Page
    return Page(text)


def _where(url):
    """A URL fit for a message: no query string (it may carry codes or state)."""
    parts = urlsplit(url)
    return '%s://%s%s' % (parts.scheme, parts.netloc, parts.path)


DEFAULT_PORTS = {'http': 80, 'https': 443}


def _origin(url):
    """The origin of ``url`` as a browser compares them: scheme, host and port (a default port left out),
    without user information; fit for a message."""
    parts = urlsplit(url)
    scheme = (parts.scheme or '').lower()
    host = (parts.hostname or '').lower()
    if ':' in host:
        host = '[%s]' % host
    try:
        port = parts.port
    except ValueError:  # not a number: keep it as written, it matches nothing else
        port = parts.netloc.rpartition(':')[2]
    if port and port != DEFAULT_PORTS.get(scheme):
        host = '%s:%s' % (host, port)
    return '%s://%s' % (scheme, host)


class _Jar:
    """The cookies of one login, kept per host like a browser does."""

    def __init__(self):
        from http.cookiejar import CookieJar
        self._jar = CookieJar()

    def header(self, method, url):
        from urllib.request import Request
        request = Request(url, method=method)
        self._jar.add_cookie_header(request)
        return request.get_header('Cookie') or request.unredirected_hdrs.get('Cookie')

    def keep(self, response):
        for cookie in response.cookies:
            self._jar.set_cookie(cookie)

    def get(self, url, name):
        host = urlsplit(url).hostname
        for cookie in self._jar:
            if cookie.name == name and cookie.domain.lstrip('.') == host:
                return cookie.value
        return None


class SsoAuth(SessionAuth):
    """``service_auth: sso``: the IdP's login (one-time code, consent) pages filled in headlessly."""

    name = 'sso'

    def private(self, client):
        # Another SSO login would ask the identity provider again (a one-time code is spent):
        # the shared session goes on, and answered() follows its replacement.
        return self

    @property
    def backend(self):
        return self.options.get('service_sso_backend')

    @property
    def idp(self):
        return self.options.get('service_sso_idp')

    @property
    def otp(self):
        return self.options.get('service_sso_otp')

    @property
    def allow_insecure_idp(self):
        return bool(self.options.get('service_sso_allow_insecure_idp'))

    def validate(self):
        if self.session_id:
            return super(SsoAuth, self).validate()
        self.require('service_sso_backend', 'service_username', 'service_password')
        # A gateway's authenticator may be named with spaces; nothing of a URL or a control character.
        if not self.backend.strip() or re.search(r'[/?#%\\\x00-\x1f\x7f]', self.backend):
            raise ConfigError('service_sso_backend %s is not a backend name such as oidc or saml, nor the slug or '
                              'the name of a platform gateway\'s authenticator.' % self.backend)
        self.refuse_plain_http()

    def check_awx_backend(self):
        """What AWX 24's /sso/login/<backend>/ needs: a path segment, and the SAML IdP's name (a gateway's
        authenticator names its identity provider itself)."""
        if not re.match(r'^[A-Za-z0-9_.-]+$', self.backend):
            raise ConfigError('service_sso_backend %s is not a backend name such as oidc or saml.' % self.backend)
        if self.backend.startswith('saml') and not self.idp:
            raise ConfigError('service_sso_backend %s needs service_sso_idp, the name of the SAML identity provider.'
                              % self.backend)

    def _key(self, client):
        if self.session_id:
            return super(SsoAuth, self)._key(client)
        return entry_key(client.base_url, 'sso', self.backend, self.idp or '', self.username)

    # -- the round trip --------------------------------------------------------

    def login(self, client, confirm=True):
        if client.settled_layout().is_gateway:
            flow = _GatewayFlow(self, client)
        else:
            self.check_awx_backend()
            flow = _Flow(self, client)
        state = flow.run()
        self.state = state
        me = self.confirm_sso(client, flow)
        state['username'] = me.get('username')
        return state

    def confirm_sso(self, client, flow):
        me_path = client.layout.me_path
        response = client.send('GET', me_path)
        if response.status == 401:
            raise AuthError('The %s single sign-on of %s came back to the service, but %s refused the '
                            'session: the service did not log the user in.' % (self.backend, self.username, me_path),
                            method=self.name)
        if response.status != 200:
            raise client.error_for('GET', response)
        body = response.json() or {}
        results = body.get('results') if isinstance(body, dict) else None
        return results[0] if results else {}

    def unauthorized(self, client):
        if self.session_id:
            return super(SsoAuth, self).unauthorized(client)
        return AuthError('The service refused the single sign-on session of %s even after a fresh login through '
                         'the identity provider.' % self.username, method=self.name)


class _Flow:
    """One login: follow redirects with a cookie jar, fill the forms, stop back at the service."""

    def __init__(self, auth, client):
        self.auth = auth
        self.client = client
        self.jar = _Jar()
        self.service = urlsplit(client.base_url).netloc
        self.submitted = set()      # kinds of forms answered so far: login, otp, consent
        self.idp_error = None       # error/error_description the IdP sent back to the service
        self.cookie_name = None
        # The identity provider: the first origin off the service that the service's own SSO start sent
        # us to. The password and one-time code are given to it alone.
        self.idp_origin = None

    def fail(self, message):
        if self.idp_error:
            message += ' The identity provider said: %s.' % self.idp_error
        return AuthError(message, method='sso')

    def send(self, method, url, data=None, referer=None):
        headers = {'Accept': PAGE_ACCEPT}
        cookie = self.jar.header(method, url)
        if cookie:
            headers['Cookie'] = cookie
        if referer:
            headers['Referer'] = referer
        if data is not None:
            headers['Content-Type'] = 'application/x-www-form-urlencoded'
        response = self.client.send(method, url, data=data, headers=headers, with_auth=False)
        self.jar.keep(response)
        return response

    def start_url(self):
        path = '/sso/login/%s/' % self.auth.backend
        params = {'idp': self.auth.idp} if self.auth.idp else None
        return self.client.url(path, params)

    def start(self):
        url = self.start_url()
        response = self.send('GET', url)
        if response.status != 405:
            return url, response
        # social-auth-app-django 6 and later: POST with the CSRF token only (the query's parameters,
        # such as SAML's idp, in the body, where the view reads them).
        first = self.send('GET', self.client.url(LOGIN_PATH))
        csrftoken = self.jar.get(first.url, 'csrftoken')
        if not csrftoken:
            raise self.fail('The service answered 405 to GET %s and gave no csrftoken to POST it with.' % _where(url))
        data = [('csrfmiddlewaretoken', csrftoken)] + parse_qsl(urlsplit(url).query)
        return url, self._post_csrf(url, data, csrftoken, self.client.base_url + '/')

    def _post_csrf(self, url, data, csrftoken, referer):
        headers = {'X-CSRFToken': csrftoken, 'Referer': referer, 'Accept': PAGE_ACCEPT,
                   'Content-Type': 'application/x-www-form-urlencoded', 'Cookie': self.jar.header('POST', url)}
        response = self.client.send('POST', url, data=data, headers=headers, with_auth=False)
        self.jar.keep(response)
        return response

    def run(self):
        url, response = self.start()
        for _step in range(MAX_STEPS):
            done = self.finished(url, response)
            if done:
                return done
            if response.status in (301, 302, 303, 307, 308):
                url = self.follow(url, response)
                self.reached(url)
                response = self.send('GET', url)
                continue
            url, response = self.answer_page(url, response)
            self.reached(url)
        raise self.fail('The single sign-on did not come back to the service after %d steps (last at %s).'
                        % (MAX_STEPS, _where(url)))

    def on_service(self, url):
        return urlsplit(url).netloc == self.service

    def reached(self, url):
        """Note the identity provider: the first origin off the service the round trip comes to."""
        if self.idp_origin is None and not self.on_service(url):
            self.idp_origin = _origin(url)

    def guard(self, url, target, form, kind):
        """Refuse to write the password or one-time code anywhere but to the identity provider, over https,
        in the body of a POST. Nothing has been sent to the form when this fails."""
        what = 'password' if kind == 'login' else 'one-time code'
        for origin in (_origin(url), _origin(target)):
            if origin != self.idp_origin:
                raise self.fail('Refusing to give the %s of %s to %s, which asks for it: only the identity provider '
                                'that the service\'s %s single sign-on redirected to (%s) gets it. Nothing was sent '
                                'to %s.' % (what, self.auth.username, origin, self.auth.backend,
                                            self.idp_origin or 'none yet', origin))
        if urlsplit(url).scheme.lower() != 'https' or urlsplit(target).scheme.lower() != 'https':
            if not self.auth.allow_insecure_idp:
                raise self.fail('Refusing to send the %s of %s to the identity provider over plain http:// (the form '
                                'at %s sends to %s): anyone on the network could read it. Use https:// at the '
                                'identity provider, or set service_sso_allow_insecure_idp: true for a test identity '
                                'provider.' % (what, self.auth.username, _where(url), _where(target)))
        if form.method != 'POST':
            raise self.fail('Refusing to send the %s of %s with the form at %s: it would go with %s in the URL (%s), '
                            'where logs and proxies keep it; a login form must use POST.'
                            % (what, self.auth.username, _where(url), form.method, _where(target)))

    def follow(self, url, response):
        target = urljoin(url, response.headers.get('Location', ''))
        if self.on_service(target) and any(mark in urlsplit(target).path for mark in COMPLETE_PATHS):
            query = parse_qs(urlsplit(target).query)
            if 'error' in query:
                self.idp_error = ': '.join(v[0] for k, v in sorted(query.items())
                                           if k in ('error', 'error_description'))
        return target

    def finished(self, url, response):
        """The session state once the service has logged the user in, else None."""
        if not self.on_service(url):
            return None
        name = response.headers.get('X-API-Session-Cookie-Name')
        path = urlsplit(url).path
        if path.startswith(('/sso/error/', '/sso/inactive/')) and response.status == 200:
            text = _page(response.text).error_text() or 'no reason given'
            if self.idp_error:
                raise AuthError('The identity provider refused the %s single sign-on of %s: %s (the service then '
                                'showed %s: %s)' % (self.auth.backend, self.auth.username, self.idp_error,
                                                    _where(url), text), method='sso')
            what = 'is inactive at the service' if 'inactive' in path else 'failed at the service'
            raise self.fail('The %s single sign-on of %s %s (%s): %s'
                            % (self.auth.backend, self.auth.username, what, _where(url), text))
        if name:
            session_id = self.jar.get(url, name)
            if not session_id:
                raise self.fail('The service named its session cookie %s at the end of the single sign-on but did '
                                'not set it.' % name)
            return {'cookie_name': name, 'session_id': session_id,
                    'csrftoken': self.jar.get(url, 'csrftoken') or '', 'expires_at': self.auth._expiry(response)}
        if response.status < 300 and not path.startswith('/sso/'):
            raise self.fail('The %s single sign-on of %s ended on %s without a login.'
                            % (self.auth.backend, self.auth.username, _where(url)))
        return None

    def answer_page(self, url, response):
        page = _page(response.text if response.content else '')
        if response.status >= 400 and not any(self.kind(form) for form in page.forms):
            raise self.fail('%s answered %s during the %s single sign-on of %s: %s'
                            % (_where(url), response.status, self.auth.backend, self.auth.username,
                               page.error_text() or page.title or 'no reason given'))
        for form in page.forms:
            kind = self.kind(form)
            if kind:
                return self.submit(url, page, form, kind)
        raise self.fail('The single sign-on cannot go on from %s (status %s, "%s"): the page has no login, '
                        'one-time-code, consent or auto-submit form this client understands (it runs no '
                        'JavaScript). %s' % (_where(url), response.status, page.title,
                                             page.error_text()).rstrip())

    @staticmethod
    def kind(form):
        if form.password_fields():
            return 'login'
        visible = form.visible()
        if visible and any(field.describes(OTP_FIELD) for field in visible):
            return 'otp'
        if visible:
            return None
        buttons = form.buttons()
        if any(b.describes(ALLOW) for b in buttons) and any(b.describes(DENY) for b in buttons):
            return 'consent'
        return 'post'

    def submit(self, url, page, form, kind):
        auth = self.auth
        values, button = {}, None
        said = page.error_text()
        target = urljoin(url, form.action or url)
        if kind in ('login', 'otp'):
            self.guard(url, target, form, kind)
        if kind == 'login':
            if 'login' in self.submitted:
                raise self.fail('The identity provider rejected the login of %s at %s: %s'
                                % (auth.username, _where(url), said or 'it showed the login form again'))
            password = form.password_fields()[0]
            values[password.name] = auth.password
            user = self._user_field(form, password)
            if user is None:
                raise self.fail('The login form at %s has a password field but no user name field.' % _where(url))
            values[user.name] = auth.username
        elif kind == 'otp':
            if not auth.otp:
                raise self.fail('The identity provider asks %s for a one-time code (%s), but service_sso_otp is not '
                                'set.%s' % (auth.username, _where(url), (' It said: %s' % said) if said else ''))
            if 'otp' in self.submitted:
                raise self.fail('The identity provider rejected the one-time code of %s at %s: %s'
                                % (auth.username, _where(url), said or 'it asked for a code again'))
            field = [f for f in form.visible() if f.describes(OTP_FIELD)][0]
            values[field.name] = auth.otp
        elif kind == 'consent':
            if 'consent' in self.submitted:
                raise self.fail('The identity provider asked for consent again at %s: %s' % (_where(url), said))
            button = [b for b in form.buttons() if b.describes(ALLOW)][0]
        else:
            buttons = form.buttons()
            button = buttons[0] if len(buttons) == 1 else None
        self.submitted.add(kind)
        data = form.data(values, button)
        if form.method == 'POST':
            return target, self.send('POST', target, data=data, referer=_where(url))
        split = urlsplit(target)
        target = '%s://%s%s?%s' % (split.scheme, split.netloc, split.path, urlencode(data))
        return target, self.send('GET', target, referer=_where(url))

    @staticmethod
    def _user_field(form, password):
        """The text input next to (before) the password field, else the one that looks like a user name."""
        candidates = [f for f in form.visible() if f.type in ('text', 'email', '') and f.name]
        before = []
        for field in form.fields:
            if field is password:
                break
            if field in candidates:
                before.append(field)
        if before:
            return before[-1]
        named = [f for f in candidates if f.describes(USER_FIELD)]
        return (named or candidates or [None])[0]


class _GatewayFlow(_Flow):
    """A platform gateway's login: the start URL of the authenticator that service_sso_backend names (its
    slug, its name, or its type as AWX 24 names backends: oidc, saml), through the identity provider, back to
    the gateway's /api/gateway/social/complete/<slug>/, which sets the gateway's session cookie."""

    def __init__(self, auth, client):
        _Flow.__init__(self, auth, client)
        self.authenticator = None
        self.completed = False      # the gateway's callback has answered

    def start_url(self):
        self.authenticator = _gateway_authenticators.find(self.client, self.auth.backend)
        login_url = self.authenticator['login_url']
        url = urljoin(self.client.origin + '/', login_url)
        if _origin(url) != _origin(self.client.base_url):
            raise self.fail('The authenticator %s of the platform gateway at %s starts its login on %s, another '
                            'origin than the gateway\'s: this client starts a login at the gateway only.'
                            % (self.authenticator.get('name'), self.client.base_url, _origin(url)))
        return url

    def describe(self):
        entry = self.authenticator or {}
        return 'authenticator %s (%s)' % (entry.get('name'), entry.get('type'))

    def finished(self, url, response):
        if not self.on_service(url):
            return None
        path = urlsplit(url).path
        if not any(mark in path for mark in COMPLETE_PATHS):
            if self.completed and response.status < 300:
                raise self.fail('The %s single sign-on of %s through the gateway\'s %s ended on %s without a login.'
                                % (self.auth.backend, self.auth.username, self.describe(), _where(url)))
            return None
        self.completed = True
        location = response.headers.get('Location', '') if response.status in (301, 302, 303, 307, 308) else ''
        forms = _page(response.text if response.content else '').forms if response.status == 200 else []
        if not location and any(self.kind(form) == 'post' for form in forms):
            return None     # a page that posts the answer on (an interstitial of newer social-auth versions)
        query = parse_qs(urlsplit(urljoin(url, location)).query, keep_blank_values=True) if location else {}
        if not location or 'auth_failed' in query:
            # django-ansible-base sends a failed login to its LOGIN_ERROR_URL, /?auth_failed.
            text = ''
            if not location:
                page = _page(response.text if response.content else '')
                text = ': %s' % (page.error_text() or page.title or 'no reason given')
            if self.idp_error:
                raise AuthError('The identity provider refused the %s single sign-on of %s: %s (the gateway\'s %s '
                                'then failed the login%s)' % (self.auth.backend, self.auth.username, self.idp_error,
                                                              self.describe(), text), method='sso')
            answer = '%s to %s?auth_failed' % (response.status, _where(urljoin(url, location))) if location \
                else '%s%s' % (response.status, text)
            raise self.fail('The platform gateway did not log %s in through its %s: its callback %s answered %s. The '
                            'gateway refused the identity provider\'s answer or the user (its authenticator maps, an '
                            'inactive user: see its log).' % (self.auth.username, self.describe(), _where(url), answer))
        name = response.headers.get('X-API-Session-Cookie-Name') or GATEWAY_SESSION_COOKIE
        session_id = response.cookies.get(name)
        if not session_id:
            raise self.fail('The gateway\'s callback %s answered %s to %s without setting its session cookie %s.'
                            % (_where(url), response.status, _where(urljoin(url, location)), name))
        return {'cookie_name': name, 'session_id': session_id,
                'csrftoken': self.jar.get(url, 'csrftoken') or '', 'expires_at': self.auth._expiry(response)}
