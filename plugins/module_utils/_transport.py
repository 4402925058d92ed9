# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One HTTP/1.1 exchange over a socket, with the standard library's ssl.

Every task pays for what this module imports, so it imports only socket and
ssl: http.client (with the email package it parses headers with) and
urllib.request cost more to import on each task than the request itself takes.
What the API needs of HTTP is small: one request on a fresh connection, then
a status line, header fields and a body framed by Content-Length, chunks or
the end of the connection. A fresh connection per request means a failure is
never blamed on a stale kept-alive socket: an error while connecting (or
while a proxy opens its tunnel) means the request was not sent and is safe to
send again; an error after that means it may have been processed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import socket
import ssl
import sys

from ansible_collections.automation.service.plugins.module_utils._errors import ApiError

from urllib.parse import quote, urlsplit

# Characters kept as they are in a request target; everything else is percent-encoded.
TARGET_SAFE = "/?&=%:@+,;~!$'()*[]"
MAX_LINE = 65536
MAX_FIELDS = 100
# Statuses whose answers have no body (RFC 9112 section 6.3).
NO_BODY = (204, 304)


class NotSent(Exception):
    """The connection could not be made: nothing reached the service."""


class MaybeSent(Exception):
    """The connection broke after the request started: it may have been processed."""


class BadRequest(Exception):
    """The request cannot be put on the wire (a URL or header it cannot carry)."""


class TlsFailure(Exception):
    """The certificate of the service (or of the proxy) was not trusted."""


class BadAnswer(Exception):
    """What came back is not an HTTP/1.x answer (or it ended too soon)."""


class Headers:
    """The header fields of an answer: names compare without case, repeats are kept."""

    def __init__(self, fields):
        self._fields = fields

    def get(self, name, default=None):
        name = name.lower()
        for field, value in self._fields:
            if field.lower() == name:
                return value
        return default

    def get_all(self, name, failobj=None):
        name = name.lower()
        values = [value for field, value in self._fields if field.lower() == name]
        return values or failobj

    def __contains__(self, name):
        return self.get(name) is not None

    def items(self):
        return list(self._fields)

    def get_content_charset(self, failobj=None):
        for parameter in (self.get('Content-Type') or '').split(';')[1:]:
            key, _sep, value = parameter.partition('=')
            if key.strip().lower() == 'charset' and value.strip().strip('"'):
                return value.strip().strip('"').lower()
        return failobj


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
    if sys.platform not in ('darwin', 'win32') and not any(name.lower().endswith('_proxy') for name in os.environ):
        return None  # (the usual case, without importing urllib.request)
    from urllib.request import getproxies, proxy_bypass
    proxy = getproxies().get(parts.scheme)
    if not proxy or proxy_bypass(parts.hostname or ''):
        return None
    proxy_parts = urlsplit(proxy if '://' in proxy else 'http://' + proxy)
    return proxy_parts.hostname, proxy_parts.port or 3128


def exchange(method, url, body, headers, timeout, context):
    """Send one request on a new connection and read the whole answer."""
    parts = urlsplit(url)
    https = parts.scheme == 'https'
    port = parts.port or (443 if https else 80)
    host = _authority(parts.hostname or '', port, 443 if https else 80)
    target = quote(parts.path or '/', safe=TARGET_SAFE)
    if parts.query:
        target += '?' + quote(parts.query, safe=TARGET_SAFE)
    proxy = proxy_for(url)
    if proxy and not https:
        target = 'http://%s%s' % (host, target)  # (a plain-HTTP proxy takes the whole URL)
    head = _request_head(method, target, host, headers, body)
    try:
        sock = socket.create_connection(proxy or (parts.hostname, port), timeout)
    except OSError as exc:
        raise NotSent(_describe(exc))
    try:
        if proxy and https:
            _open_tunnel(sock, _authority(parts.hostname, port, None))
        if https:
            try:
                sock = context.wrap_socket(sock, server_hostname=parts.hostname)
            except ssl.SSLError as exc:
                raise TlsFailure(str(exc))
            except OSError as exc:
                raise NotSent(_describe(exc))
        try:
            sock.sendall(head + (body or b''))
            status, headers, content = _read_answer(_Reader(sock), method)
        except (OSError, BadAnswer) as exc:
            raise MaybeSent(_describe(exc))
        return Response(url, status, headers, content)
    finally:
        sock.close()


def _authority(hostname, port, default_port):
    """host[:port] in ASCII, the port left out when it is ``default_port``."""
    host = '[%s]' % hostname if ':' in hostname else hostname
    try:
        host.encode('ascii')
    except UnicodeError:
        try:
            host = host.encode('idna').decode('ascii')
        except UnicodeError as exc:
            raise BadRequest('the host name cannot be encoded: %s' % exc)
    return host if port == default_port else '%s:%d' % (host, port)


def _request_head(method, target, host, headers, body):
    if not method.isalpha() or not target.isprintable() or ' ' in target or ' ' in host or not host.isprintable():
        raise BadRequest('the method, path or host holds characters a request line cannot carry')
    lines = ['%s %s HTTP/1.1' % (method, target), 'Host: ' + host]
    for name, value in headers.items():
        # (the value itself is never quoted: it may be a credential)
        value = str(value)
        if any(char in value for char in '\r\n\0'):
            raise BadRequest('the %s header holds a line break or NUL character' % name)
        try:
            value.encode('latin-1')
        except UnicodeEncodeError:
            raise BadRequest('the %s header holds characters an HTTP header cannot carry' % name)
        lines.append('%s: %s' % (name, value))
    if body is not None or method in ('POST', 'PUT', 'PATCH'):
        lines.append('Content-Length: %d' % len(body or b''))
    lines.append('Connection: close')
    return ('\r\n'.join(lines) + '\r\n\r\n').encode('latin-1')


def _open_tunnel(sock, authority):
    """CONNECT through the proxy; a refusal means nothing reached the service."""
    try:
        sock.sendall(('CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n' % (authority, authority)).encode('ascii'))
        status, _fields = _read_head(_Reader(sock))
    except (OSError, BadAnswer) as exc:
        raise NotSent('the proxy did not open a tunnel: %s' % _describe(exc))
    if status != 200:
        raise NotSent('the proxy answered %d to CONNECT %s' % (status, authority))


class _Reader:
    """Lines and bytes from a socket, buffered."""

    def __init__(self, sock):
        self._sock = sock
        self._buffer = b''

    def _fill(self):
        chunk = self._sock.recv(65536)
        self._buffer += chunk
        return bool(chunk)

    def line(self):
        while True:
            end = self._buffer.find(b'\n')
            if end >= 0:
                line, self._buffer = self._buffer[:end + 1], self._buffer[end + 1:]
                return line
            if len(self._buffer) > MAX_LINE:
                raise BadAnswer('a line of the answer is longer than %d bytes' % MAX_LINE)
            if not self._fill():
                line, self._buffer = self._buffer, b''
                return line

    def exactly(self, size):
        while len(self._buffer) < size:
            if not self._fill():
                raise BadAnswer('the answer ended after %d of %d bytes' % (len(self._buffer), size))
        data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data

    def rest(self):
        chunks = [self._buffer]
        self._buffer = b''
        while True:
            chunk = self._sock.recv(65536)
            if not chunk:
                return b''.join(chunks)
            chunks.append(chunk)


def _read_head(reader):
    """Status and header fields of one answer."""
    line = reader.line()
    if not line:
        raise BadAnswer('the connection closed without an answer')
    version, _sep, rest = line.decode('latin-1').rstrip('\r\n').partition(' ')
    code = rest.partition(' ')[0]
    if not version.startswith('HTTP/1.') or len(code) != 3 or not code.isdigit():
        raise BadAnswer('the answer does not start with an HTTP/1.x status line: %r' % line[:80])
    fields = []
    while True:
        line = reader.line()
        if not line:
            raise BadAnswer('the answer ended inside its header')
        text = line.decode('latin-1').rstrip('\r\n')
        if not text:
            return int(code), fields
        if text[0] in ' \t' and fields:  # an obsolete folded continuation line
            fields[-1] = (fields[-1][0], fields[-1][1] + ' ' + text.strip())
            continue
        name, sep, value = text.partition(':')
        if not sep or not name or name != name.strip():
            raise BadAnswer('malformed header line in the answer: %r' % line[:80])
        fields.append((name, value.strip()))
        if len(fields) > MAX_FIELDS:
            raise BadAnswer('the answer has more than %d header fields' % MAX_FIELDS)


def _read_answer(reader, method):
    while True:
        status, fields = _read_head(reader)
        if not 100 <= status < 200:
            break  # (1xx answers are interim: the real one follows)
    headers = Headers(fields)
    if method == 'HEAD' or status in NO_BODY:
        return status, headers, b''
    if 'chunked' in (headers.get('Transfer-Encoding') or '').lower():
        return status, headers, _read_chunks(reader)
    length = headers.get('Content-Length')
    if length is not None:
        if not length.isdigit():
            raise BadAnswer('the answer has an invalid Content-Length: %r' % length[:40])
        return status, headers, reader.exactly(int(length))
    return status, headers, reader.rest()


def _read_chunks(reader):
    chunks = []
    while True:
        size_text = reader.line().split(b';')[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise BadAnswer('the answer has an invalid chunk size: %r' % size_text[:40])
        if size == 0:
            break
        chunks.append(reader.exactly(size))
        reader.exactly(2)
    while reader.line().strip():
        pass  # (trailer fields: none the API uses)
    return b''.join(chunks)


def _describe(exc):
    if isinstance(exc, socket.timeout):
        return 'timed out'
    if isinstance(exc, BadAnswer):
        return str(exc)
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
