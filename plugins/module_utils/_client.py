# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""HTTP layer: base URL, TLS, timeouts, bounded retries of idempotent requests,
and error mapping to typed exceptions (the wire itself is in _transport)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import random
import time

from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConfigError, ConnectionFailure, NotFound, OutcomeUnknown,
)
from ansible_collections.automation.service.plugins.module_utils import _transport

try:
    from urllib.parse import urlsplit, urlunsplit, urlencode
except ImportError:  # pragma: no cover - Python 2 is not supported, kept for sanity's import test
    from urlparse import urlsplit, urlunsplit  # type: ignore
    from urllib import urlencode  # type: ignore

USER_AGENT = 'automation.service-ansible-collection'
IDEMPOTENT = frozenset(('GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'))
UNSAFE = frozenset(('POST', 'PUT', 'PATCH', 'DELETE'))
TRANSIENT_STATUS = frozenset((429, 502, 503, 504))
API_PREFIX = '/api/v2/'
# What a browser asks for: the Accept of every request for a page (the login
# form, single sign-on, the identity provider). The service's login page
# answers 406 to ``application/json`` alone; API calls keep asking for JSON.
PAGE_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8'


def normalize_url(url):
    """Return ``scheme://host[:port][/prefix]`` with no trailing slash.

    A bare host gets ``https://``. A path prefix is kept for services behind
    a reverse proxy under a sub-path.
    """
    if not url or not str(url).strip():
        raise ConfigError('service_url is required (or SERVICE_URL / CONTROLLER_HOST in the environment).')
    text = str(url).strip()
    if '://' not in text:
        text = 'https://' + text
    parts = urlsplit(text)
    if parts.scheme not in ('http', 'https'):
        raise ConfigError('service_url must use https:// (or http://), not %s://.' % parts.scheme)
    try:
        parts.port
    except ValueError:
        raise ConfigError('service_url %s has an invalid port.' % text)
    if not parts.hostname:
        raise ConfigError('service_url %s has no host name.' % text)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip('/'), '', ''))


def api_path(endpoint):
    """``hosts`` -> ``/api/v2/hosts/``; ``hosts/5`` -> ``/api/v2/hosts/5/``; absolute paths kept."""
    text = str(endpoint).strip()
    if text.startswith(('http://', 'https://', '/')):
        return text
    text = text.strip('/')
    if not text:
        return API_PREFIX
    return API_PREFIX + text + '/'


def error_detail(body):
    """Pull a readable message out of an error body (JSON or not)."""
    if isinstance(body, dict):
        if 'detail' in body:
            return str(body['detail'])
        parts = []
        for key, value in body.items():
            if isinstance(value, list):
                value = ' '.join(str(item) for item in value)
            parts.append('%s: %s' % (key, value))
        return '; '.join(parts)
    if isinstance(body, list):
        return ' '.join(str(item) for item in body)
    return str(body)


def _retry_after(response):
    value = response.headers.get('Retry-After') if response is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


class Client:
    """Sends requests to one service with one set of TLS and auth settings."""

    def __init__(self, options, auth=None, sleep=time.sleep):
        self.base_url = normalize_url(options.get('service_url'))
        parts = urlsplit(self.base_url)
        self.origin = '%s://%s' % (parts.scheme, parts.netloc)
        self.prefix = parts.path
        self.ca_path = options.get('ca_path')
        if self.ca_path and not os.path.isfile(self.ca_path):
            raise ConfigError('ca_path %s is not a readable file: give the PEM bundle of the CA that signed the '
                              "service's certificate." % self.ca_path)
        self.validate_certs = options.get('validate_certs', True)
        self.timeout = options.get('request_timeout') or 10.0
        retries = options.get('request_retries')
        self.max_attempts = 1 + (3 if retries is None else retries)
        self.max_retry_seconds = options.get('request_retry_max_seconds') or 60.0
        self.auth = auth
        self.requests_sent = 0
        self._sleep = sleep
        self._context = None

    @property
    def is_https(self):
        return self.base_url.startswith('https://')

    @property
    def context(self):
        if self._context is None:
            self._context = _transport.ssl_context(self.validate_certs, self.ca_path)
        return self._context

    def url(self, path, params=None):
        path = api_path(path)
        if path.startswith(('http://', 'https://')):
            full = path
        elif self.prefix and not path.startswith(self.prefix + '/'):
            full = self.origin + self.prefix + path
        else:
            full = self.origin + path
        if params:
            query = urlencode(sorted((k, v) for k, v in params.items() if v is not None), doseq=True)
            if query:
                full += ('&' if '?' in full else '?') + query
        return full

    # -- raw sending -------------------------------------------------------

    def send(self, method, path, params=None, json_body=None, data=None, headers=None, with_auth=True):
        """Send one request (with bounded retries where safe) and return a Response.

        No status check is done here except the auth renewal on 401.
        """
        method = method.upper()
        url = self.url(path, params)
        request_headers = {'User-Agent': USER_AGENT, 'Accept': 'application/json'}
        request_headers.update(headers or {})
        body = data
        if json_body is not None:
            body = json.dumps(json_body)
            request_headers['Content-Type'] = 'application/json'
        elif isinstance(data, (dict, list, tuple)):
            body = urlencode(list(data.items()) if isinstance(data, dict) else list(data), doseq=True)
            request_headers['Content-Type'] = 'application/x-www-form-urlencoded'
        if isinstance(body, str):
            body = body.encode('utf-8')
        renewed = False
        while True:
            send_headers = dict(request_headers)
            if with_auth and self.auth is not None:
                self.auth.apply(self, method, send_headers)
            response = self._send_with_retries(method, url, body, send_headers)
            if response.status == 401 and with_auth and self.auth is not None and not renewed:
                renewed = True
                if self.auth.renew(self):
                    continue
            return response

    def _send_with_retries(self, method, url, body, headers):
        started = time.time()
        attempt = 0
        while True:
            attempt += 1
            response = error = None
            not_sent = False
            try:
                response = _transport.exchange(method, url, body, headers, self.timeout, self.context)
                self.requests_sent += 1
            except _transport.TlsFailure as exc:
                raise ConnectionFailure(self._tls_message(url, exc))
            except _transport.BadRequest as exc:
                raise ConfigError('Cannot send %s %s: %s.' % (method, url, exc))
            except _transport.NotSent as exc:
                error, not_sent = exc, True
            except _transport.MaybeSent as exc:
                error = exc

            retryable = method in IDEMPOTENT or not_sent
            if response is not None:
                if response.status not in TRANSIENT_STATUS:
                    return response
                # 429 means the request was not processed; other 5xx may have been.
                retryable = method in IDEMPOTENT or response.status == 429
            elapsed = time.time() - started
            if not retryable or attempt >= self.max_attempts or elapsed >= self.max_retry_seconds:
                if response is not None:
                    return response
                raise self._connection_error(method, url, error, not_sent)
            delay = _retry_after(response)
            if delay is None:
                delay = min(8.0, 0.5 * (2 ** (attempt - 1))) * (0.5 + random.random() / 2)
            delay = min(delay, max(0.0, self.max_retry_seconds - elapsed))
            self._sleep(delay)

    def _connection_error(self, method, url, error, not_sent):
        if method not in IDEMPOTENT and not not_sent:
            return OutcomeUnknown(
                'The connection broke during %s %s (%s). The service may or may not have processed '
                'the request: check whether the object exists (or the action happened) before '
                'running it again.' % (method, url, _short(error)))
        if not_sent:
            return ConnectionFailure('Cannot connect to %s: %s' % (self.origin, _short(error)))
        return ConnectionFailure('Request %s %s failed after retries: %s (timeout %ss)'
                                 % (method, url, _short(error), self.timeout))

    def _tls_message(self, url, exc):
        host = urlsplit(url).netloc
        if self.ca_path:
            trust = 'the CA bundle %s (ca_path)' % self.ca_path
        else:
            trust = "the system's default CA bundle (set ca_path to your service's CA)"
        return ('TLS verification of %s failed against %s: %s. Set ca_path to the CA that signed the '
                "service's certificate, or validate_certs: false only for testing."
                % (host, trust, _short(exc)))

    # -- JSON helpers --------------------------------------------------------

    def request(self, method, path, params=None, json_body=None, expect=(200, 201, 202, 204)):
        """Send and return the decoded JSON body; raise ApiError on other statuses."""
        response = self.send(method, path, params=params, json_body=json_body)
        if response.status in expect:
            return response.json() if response.status != 204 else None
        raise self.error_for(method, response)

    def error_for(self, method, response):
        try:
            body = response.json()
        except ApiError:
            body = None
        if body is None and response.content:
            detail = 'non-JSON answer: %s' % response.snippet()
        else:
            detail = error_detail(body) if body is not None else 'empty answer'
        if response.status == 401 and self.auth is not None:
            return self.auth.unauthorized(self)
        message = '%s %s answered %s: %s' % (method, response.url, response.status, detail)
        if response.status == 403 and self.auth is not None:
            hint = self.auth.forbidden_hint(method, detail)
            if hint:
                message += ' ' + hint
        cls = NotFound if response.status == 404 else ApiError
        return cls(message, status=response.status, detail=body, method=method, url=response.url)

    def get(self, path, params=None):
        return self.request('GET', path, params=params, expect=(200,))

    def iterate(self, path, params=None, all_pages=True):
        """Yield objects of a list endpoint, following ``next`` links."""
        page = self.get(path, params=params)
        while True:
            if not isinstance(page, dict) or 'results' not in page:
                raise ApiError('%s is not a list endpoint (no results in its answer).' % self.url(path))
            yield from page['results']
            following = page.get('next')
            if not following or not all_pages:
                return
            page = self.get(following)


def _short(error):
    text = str(error)
    return text if len(text) <= 300 else text[:300] + '...'
