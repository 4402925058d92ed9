# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One HTTP exchange over the standard library's http.client.

The standard library is enough for what the API needs and costs a fraction of
requests' import time, which every task would pay. A request is sent on a
fresh connection, so a failure is never blamed on a stale kept-alive socket:
an error while connecting means the request was not sent (safe to send
again); an error after that means it may have been processed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import http.client
import json
import socket
import ssl

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError

from urllib.parse import quote, urlsplit
from urllib.request import getproxies, proxy_bypass

# Characters kept as they are in a request target; everything else is percent-encoded.
TARGET_SAFE = "/?&=%:@+,;~!$'()*[]"


class NotSent(Exception):
    """The connection could not be made: nothing reached the service."""


class MaybeSent(Exception):
    """The connection broke after the request started: it may have been processed."""


class BadRequest(Exception):
    """The request cannot be put on the wire (a URL or header it cannot carry)."""


class TlsFailure(Exception):
    """The certificate of the service (or of the proxy) was not trusted."""


class Response:
    """Status, headers, body and cookies of one answer."""

    def __init__(self, url, status, headers, content):
        self.url = url
        self.status = status
        self.headers = headers
        self.content = content
        self._cookies = None

    @property
    def text(self):
        charset = self.headers.get_content_charset() or 'utf-8'
        try:
            return self.content.decode(charset, 'replace')
        except LookupError:
            return self.content.decode('utf-8', 'replace')

    def json(self):
        """The decoded body; ApiError quoting the first bytes when it is not JSON."""
        if not self.content:
            return None
        try:
            return json.loads(self.text)
        except ValueError:
            raise ApiError('The service answered %s to %s with a body that is not JSON: %s'
                           % (self.status, self.url, self.snippet()), status=self.status, url=self.url)

    def snippet(self, size=200):
        text = ' '.join(self.text.split()) if self.content else ''
        return text[:size] + ('...' if len(text) > size else '')

    @property
    def cookies(self):
        """The cookies the answer sets, as an http.cookiejar jar with ``get(name)``."""
        if self._cookies is None:
            self._cookies = _Cookies.from_response(self)
        return self._cookies


def ssl_context(verify, ca_path):
    if not verify:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    return ssl.create_default_context(cafile=ca_path) if ca_path else ssl.create_default_context()


def proxy_for(url):
    """The proxy (host, port) the environment sets for ``url``, or None."""
    parts = urlsplit(url)
    proxies = getproxies()
    proxy = proxies.get(parts.scheme)
    if not proxy or proxy_bypass(parts.hostname or ''):
        return None
    proxy_parts = urlsplit(proxy if '://' in proxy else 'http://' + proxy)
    return proxy_parts.hostname, proxy_parts.port or 3128


def exchange(method, url, body, headers, timeout, context):
    """Send one request on a new connection and read the whole answer."""
    parts = urlsplit(url)
    target = quote(parts.path or '/', safe=TARGET_SAFE)
    if parts.query:
        target += '?' + quote(parts.query, safe=TARGET_SAFE)
    for name, value in headers.items():
        # (the value itself is never quoted: it may be a credential)
        if any(char in str(value) for char in '\r\n\0'):
            raise BadRequest('the %s header holds a line break or NUL character' % name)
        try:
            str(value).encode('latin-1')
        except UnicodeEncodeError:
            raise BadRequest('the %s header holds characters an HTTP header cannot carry' % name)
    proxy = proxy_for(url)
    if parts.scheme == 'https':
        host, port = proxy if proxy else (parts.hostname, parts.port or 443)
        connection = http.client.HTTPSConnection(host, port, timeout=timeout, context=context)
    else:
        host, port = proxy if proxy else (parts.hostname, parts.port or 80)
        connection = http.client.HTTPConnection(host, port, timeout=timeout)
        if proxy:
            target = url
    if proxy and parts.scheme == 'https':
        connection.set_tunnel(parts.hostname, parts.port or 443)
    try:
        try:
            connection.connect()
        except ssl.SSLError as exc:
            raise TlsFailure(str(exc))
        except (OSError, http.client.HTTPException) as exc:
            raise NotSent(_describe(exc))
        try:
            connection.putrequest(method, target, skip_accept_encoding=True)
        except (ValueError, UnicodeError) as exc:
            raise BadRequest(str(exc))
        try:
            for name, value in headers.items():
                connection.putheader(name, value)
            if body is not None or method in ('POST', 'PUT', 'PATCH'):
                connection.putheader('Content-Length', str(len(body or b'')))
            connection.endheaders(body)
            answer = connection.getresponse()
            content = answer.read()
        except (OSError, http.client.HTTPException) as exc:
            raise MaybeSent(_describe(exc))
        return Response(url, answer.status, answer.msg, content)
    finally:
        connection.close()


def _describe(exc):
    if isinstance(exc, socket.timeout):
        return 'timed out'
    text = str(exc) or type(exc).__name__
    return '%s: %s' % (type(exc).__name__, text) if type(exc).__name__ not in text else text


class _Cookies:
    """Builds the stdlib cookie jar for a Response (only logins need it)."""

    @staticmethod
    def from_response(response):
        from http.cookiejar import CookieJar
        from urllib.request import Request

        class Jar(CookieJar):
            def get(self, name, default=None):
                for cookie in self:
                    if cookie.name == name:
                        return cookie.value
                return default

        class Info:
            def __init__(self, headers):
                self._headers = headers

            def info(self):
                return self._headers

        jar = Jar()
        jar.extract_cookies(Info(response.headers), Request(response.url))
        return jar
