# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""HTTP layer on ``requests``: base URL, TLS, timeouts, bounded retries of
idempotent requests, at most so many requests in flight to a service from the
processes of a run on the controller (``_in_flight``), and error mapping to typed exceptions.

One keep-alive ``requests.Session`` per service and credentials serves every
request of a worker process (the items of a loop, the lookups of a task).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import json
import os
import random
import socket
import ssl
import sys
import time
import warnings

from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConfigError, ConnectionFailure, MissingRequirement, NotFound, OutcomeUnknown,
)
from ansible_collections.automation.service.plugins.module_utils._in_flight import InFlight
from ansible_collections.automation.service.plugins.module_utils._private_dir import default_directory
from ansible_collections.automation.service.plugins.module_utils._session_cache import entry_key

try:
    import requests
    from requests import exceptions as rexc
    from requests.adapters import HTTPAdapter
    from requests.utils import should_bypass_proxies
    from urllib3.exceptions import InsecureRequestWarning
    from http.cookiejar import DefaultCookiePolicy
except ImportError:  # reported when a client is built, with the interpreter that lacks it
    requests = None

try:
    from urllib.parse import urlsplit, urlunsplit, urlencode
except ImportError:  # pragma: no cover - Python 2 is not supported, kept for sanity's import test
    from urlparse import urlsplit, urlunsplit  # type: ignore
    from urllib import urlencode  # type: ignore

USER_AGENT = 'automation.service-ansible-collection'
IDEMPOTENT = frozenset(('GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'))
READS = frozenset(('GET', 'HEAD', 'OPTIONS'))
UNSAFE = frozenset(('POST', 'PUT', 'PATCH', 'DELETE'))
TRANSIENT_STATUS = frozenset((429, 502, 503, 504))
API_PREFIX = '/api/v2/'
# The Automation Platform (2.5 to 2.7) gateway's layout: the controller's API behind it, and its own.
GATEWAY_CONTROLLER_PREFIX = '/api/controller/v2/'
GATEWAY_PREFIX = '/api/gateway/v1/'
# Event-Driven Ansible's API behind the gateway (its published schemas' paths are relative to it).
GATEWAY_EDA_PREFIX = '/api/eda/v1/'
# Automation Hub's API behind the gateway (the published Hub schemas' paths start with it), and on a standalone Hub
# under /api/<ah_path_prefix>/ (galaxy-ng's GALAXY_API_PATH_PREFIX, ``galaxy`` by default).
GATEWAY_HUB_PREFIX = '/api/galaxy/'
LAYOUTS = ('auto', 'awx', 'gateway')
# How long the layout a service answered at /api/ is kept in the session cache.
LAYOUT_CACHE_SECONDS = 86400
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


def hub_root(prefix):
    """The root of a standalone Hub's API for ansible.hub's ``ah_path_prefix``: ``galaxy`` -> ``/api/galaxy/``; a
    full path starting ``/api/`` is taken as it is (ansible.hub's client reads it so)."""
    text = str(prefix).strip().strip('/')
    if text.startswith('api/'):
        return '/' + text + '/'
    return '/api/' + text + '/'


def api_path(endpoint, prefix=API_PREFIX):
    """``hosts`` -> ``/api/v2/hosts/``; ``hosts/5`` -> ``/api/v2/hosts/5/``; ``jobs/5/stdout?format=json`` ->
    ``/api/v2/jobs/5/stdout/?format=json``; absolute paths kept. ``prefix``: the API's root (the
    controller's ``/api/controller/v2/`` behind a platform gateway)."""
    text = str(endpoint).strip()
    if text.startswith(('http://', 'https://', '/')):
        return text
    text, mark, query = text.partition('?')     # a query in the endpoint stays after the slash
    text = text.strip('/')
    return (prefix + text + '/' if text else prefix) + mark + query


class Layout:
    """Where a service serves what: AWX 24's API at ``/api/v2/`` (its login at ``/api/login/``), or an
    Automation Platform gateway with the controller's API at ``/api/controller/v2/``, its own
    (login, logout, ``me/``, personal tokens) at ``/api/gateway/v1/`` and Event-Driven Ansible's at
    ``/api/eda/v1/`` (AWX has none: ``eda`` is None); or a standalone Automation Hub (``hub``: galaxy-ng without a
    gateway, whose ``GET /api/`` is a 404). ``hub`` is the Hub's API root (``/api/galaxy/``: behind a gateway, where
    it lists it; on a standalone Hub under its path prefix), None where there is none."""

    def __init__(self, name, controller=API_PREFIX, gateway=None, eda=None, hub=None):
        self.name = name
        self.controller = controller
        self.gateway = gateway
        self.eda = eda
        self.hub = hub

    @classmethod
    def awx(cls):
        return cls('awx')

    @classmethod
    def platform_gateway(cls, controller=GATEWAY_CONTROLLER_PREFIX, gateway=GATEWAY_PREFIX, eda=GATEWAY_EDA_PREFIX,
                         hub=GATEWAY_HUB_PREFIX):
        return cls('gateway', controller, gateway, eda, hub)

    @classmethod
    def standalone_hub(cls, hub):
        """A standalone Automation Hub whose API is at ``hub`` (``/api/galaxy/``)."""
        return cls('hub', API_PREFIX, None, None, hub)

    @classmethod
    def named(cls, name):
        """The layout ``service_layout`` names, or None for ``auto`` (found at the first connection)."""
        if name in (None, '', 'auto'):
            return None
        if name == 'awx':
            return cls.awx()
        if name == 'gateway':
            return cls.platform_gateway()
        raise ConfigError('service_layout must be one of %s, not %s.' % (', '.join(LAYOUTS), name))

    @classmethod
    def from_root(cls, body):
        """The layout from the answer to ``GET /api/``, or None when it is neither's."""
        if not isinstance(body, dict):
            return None
        apis = body.get('apis')
        if isinstance(apis, dict) and isinstance(apis.get('controller'), str):
            gateway = apis.get('gateway') if isinstance(apis.get('gateway'), str) else '/api/gateway/'
            # EDA's root where the gateway names it among its APIs, else where Automation Platform 2.5 to 2.7 serve it
            eda = apis['eda'].rstrip('/') + '/v1/' if isinstance(apis.get('eda'), str) else GATEWAY_EDA_PREFIX
            # the Hub's root (its v3/, _ui/v1/ and pulp/api/v3/ under it) where the gateway names it, else where the
            # published Hub schemas put it; the gateway's answer for a platform without a Hub is not known, so a Hub
            # module finds out from the Hub's answer
            hub = apis['galaxy'].rstrip('/') + '/' if isinstance(apis.get('galaxy'), str) else GATEWAY_HUB_PREFIX
            return cls.platform_gateway(apis['controller'].rstrip('/') + '/v2/', gateway.rstrip('/') + '/v1/', eda,
                                        hub)
        if isinstance(body.get('current_version'), str) or isinstance(body.get('available_versions'), dict):
            return cls.awx()
        return None

    @classmethod
    def from_entry(cls, entry):
        """The layout kept in the session cache (``as_entry``), or None when the entry is not one."""
        if not isinstance(entry, dict):
            return None
        if entry.get('layout') == 'awx':
            return cls.awx()
        if entry.get('layout') == 'hub' and isinstance(entry.get('hub'), str):
            return cls.standalone_hub(entry['hub'])
        if entry.get('layout') == 'gateway' and isinstance(entry.get('controller'), str) \
                and isinstance(entry.get('gateway'), str):
            # an entry kept before EDA's root was kept with it: EDA where Automation Platform serves it
            eda = entry['eda'] if isinstance(entry.get('eda'), str) else GATEWAY_EDA_PREFIX
            hub = entry['hub'] if isinstance(entry.get('hub'), str) else GATEWAY_HUB_PREFIX
            return cls.platform_gateway(entry['controller'], entry['gateway'], eda, hub)
        return None

    def as_entry(self):
        return {'layout': self.name, 'controller': self.controller, 'gateway': self.gateway, 'eda': self.eda,
                'hub': self.hub, 'expires_at': time.time() + LAYOUT_CACHE_SECONDS}

    @property
    def is_gateway(self):
        return self.name == 'gateway'

    def path(self, endpoint):
        """A controller endpoint's path. On a gateway an absolute ``/api/v2/...`` path (a playbook written
        for AWX) goes to the controller's API as well; the gateway does not serve ``/api/v2/``. AWX's
        login and logout pages and its OAuth2 token endpoint are the gateway's there."""
        text = str(endpoint).strip()
        if self.is_gateway:
            if text.startswith(API_PREFIX):
                text = self.controller + text[len(API_PREFIX):]
            for awx, gateway in (('/api/login/', 'login/'), ('/api/logout/', 'logout/'), ('/api/o/', 'o/')):
                if text.startswith(awx):
                    text = self.gateway + gateway + text[len(awx):]
        return api_path(text, self.controller)

    def awx_form(self, path):
        """A path of this layout as AWX 24 lays it out (what path() was given), so that it can be laid out
        again for another layout."""
        text = str(path).strip()
        if not self.is_gateway or not text.startswith('/'):
            return text
        for awx, gateway in (('/api/login/', 'login/'), ('/api/logout/', 'logout/'), ('/api/o/', 'o/')):
            if text.startswith(self.gateway + gateway):
                return awx + text[len(self.gateway + gateway):]
        for prefix in (self.controller, self.gateway):
            if text.startswith(prefix):
                return API_PREFIX + text[len(prefix):]
        return text

    @property
    def key(self):
        return (self.name, self.controller, self.gateway, self.eda, self.hub)

    @staticmethod
    def tells(endpoint):
        """Whether a 404 to ``endpoint`` (as AWX 24 lays it out) may mean that the service is a gateway."""
        text = str(endpoint).strip()
        return not text.startswith(('http://', 'https://', '/')) or \
            text.startswith((API_PREFIX, '/api/login/', '/api/logout/', '/api/o/'))

    def gateway_path(self, endpoint):
        """An endpoint of the gateway's own API (``tokens`` -> ``/api/gateway/v1/tokens/``); the controller's
        on AWX, which has no gateway."""
        if not self.is_gateway:
            return api_path(endpoint, self.controller)
        return api_path(endpoint, self.gateway)

    def eda_path(self, endpoint):
        """An endpoint of Event-Driven Ansible's API behind the gateway (``decision-environments`` ->
        ``/api/eda/v1/decision-environments/``); None on AWX, which has no EDA."""
        if not self.eda:
            return None
        return api_path(endpoint, self.eda)

    @property
    def is_standalone_hub(self):
        return self.name == 'hub'

    def hub_path(self, endpoint):
        """An endpoint of Automation Hub's API (``v3/namespaces`` -> ``/api/galaxy/v3/namespaces/``); None where
        there is no Hub (AWX)."""
        if not self.hub:
            return None
        return api_path(endpoint, self.hub)

    # The session login's pages and the identity check, per layout.
    @property
    def login_path(self):
        return self.gateway + 'login/' if self.is_gateway else '/api/login/'

    @property
    def logout_path(self):
        return self.gateway + 'logout/' if self.is_gateway else '/api/logout/'

    @property
    def me_path(self):
        return self.gateway + 'me/' if self.is_gateway else API_PREFIX + 'me/'

    def __repr__(self):
        return 'Layout(%r, %r, %r, %r, %r)' % (self.name, self.controller, self.gateway, self.eda, self.hub)


# Layouts found in this process, per base URL: the items of a loop and the tasks of a worker ask once.
_FOUND_LAYOUTS = {}
# The base URLs whose layout this process asked the service for (GET /api/), not only remembered.
_ASKED_LAYOUTS = set()


def error_detail(body):
    """Pull a readable message out of an error body (JSON or not)."""
    if isinstance(body, dict):
        if 'detail' in body:
            return str(body['detail'])
        hub = hub_errors(body)
        if hub is not None:
            return hub
        parts = []
        for key, value in body.items():
            if isinstance(value, list):
                value = ' '.join(str(item) for item in value)
            parts.append('%s: %s' % (key, value))
        return '; '.join(parts)
    if isinstance(body, list):
        return ' '.join(str(item) for item in body)
    return str(body)


def hub_errors(body):
    """galaxy-ng's errors (``{"errors": [{"status", "code", "title", "detail", "source"}]}``, its exception handler's
    form) as one line: each error's detail (its title when it has none) after the field it is about; None for a
    body of another form."""
    errors = body.get('errors') if isinstance(body, dict) and len(body) == 1 else None
    if not isinstance(errors, list) or not errors or not all(isinstance(error, dict) for error in errors):
        return None
    said = []
    for error in errors:
        # the detail says what is wrong; the title only its kind ("Invalid input.")
        text = str(error.get('detail') or error.get('title') or error.get('code') or '')
        pointer = (error.get('source') or {}).get('parameter') if isinstance(error.get('source'), dict) else None
        if pointer and pointer != 'non_field_errors':
            text = '%s: %s' % (pointer, text)
        said.append(text)
    return '; '.join(said)


def hub_refusal(body):
    """The code of galaxy-ng's refusal of the credentials (``not_authenticated``, ``authentication_failed``: a 403
    there, not a 401), None for another answer."""
    errors = body.get('errors') if isinstance(body, dict) else None
    for error in errors if isinstance(errors, list) else ():
        if isinstance(error, dict) and error.get('code') in ('not_authenticated', 'authentication_failed'):
            return error['code']
    return None


def served_by_hub(response):
    """Whether an answer is galaxy-ng's (its errors form): the Hub served the path, so a 404 there is an object it
    does not have, not a sign that the service's layout changed."""
    if 'json' not in (response.headers.get('Content-Type') or ''):
        return False
    try:
        return hub_errors(response.json()) is not None
    except ApiError:
        return False


def _retry_after(response):
    value = response.headers.get('Retry-After') if response is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def require_requests():
    if requests is None:
        raise MissingRequirement(
            'The Python package requests is not installed for %s, the interpreter that runs this task: '
            'install it with "%s -m pip install requests" (or your system\'s python3-requests package).'
            % (sys.executable, sys.executable))


class Response:
    """Status, headers, body and cookies of one answer (a thin view of requests')."""

    def __init__(self, answer):
        self.url = answer.url
        self.status = answer.status_code
        self.headers = answer.headers
        self.content = answer.content
        self.cookies = answer.cookies
        self._answer = answer

    @property
    def text(self):
        """The body as text: in the charset the answer names, else UTF-8; bytes that do not decode replaced."""
        answer = self._answer
        try:
            return str(answer.content or b'', answer.encoding or 'utf-8', errors='replace')
        except LookupError:     # a charset Python does not know
            return str(answer.content or b'', 'utf-8', errors='replace')

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


# One keep-alive session per (service, TLS settings, credentials) in this
# process. A forked child (Ansible's workers are forks) starts its own: a TLS
# connection shared by two processes is corrupted by whichever writes second.
_SESSIONS = {}
_SESSIONS_PID = [os.getpid()]


def _session_for(key):
    if _SESSIONS_PID[0] != os.getpid():
        _SESSIONS.clear()
        _SESSIONS_PID[0] = os.getpid()
    session = _SESSIONS.get(key)
    if session is None:
        session = requests.Session()
        # Credentials travel in the headers each auth method sets, never through
        # the environment (.netrc, REQUESTS_CA_BUNDLE) nor a shared cookie jar.
        session.trust_env = False
        session.cookies.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        # Retries are decided here, per method (never a POST whose answer was lost).
        adapter = HTTPAdapter(max_retries=0)
        session.mount('https://', adapter)
        session.mount('http://', adapter)
        _SESSIONS[key] = session
    return session


def default_verify():
    """What validate_certs without ca_path trusts: the system's CA store, as
    Python's ssl module finds it (SSL_CERT_FILE / SSL_CERT_DIR honoured)."""
    paths = ssl.get_default_verify_paths()
    for candidate in (paths.cafile, paths.capath):
        if candidate and os.path.exists(candidate):
            return candidate
    return True


class Client:
    """Sends requests to one service with one set of TLS and auth settings."""

    def __init__(self, options, auth=None, sleep=time.sleep, environ=None, bounded=False, on_write=None):
        require_requests()
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
        # Retries are bounded by time (request_retry_max_seconds); request_retries, when set, bounds their
        # number too. An idempotent request whose answer was lost (a read timeout, a connection broken after
        # sending) is sent again at most request_retries times, 3 when unset: its next answer may be lost too.
        retries = options.get('request_retries')
        self.max_attempts = None if retries is None else 1 + max(0, retries)
        self.max_lost_answers = 1 + (3 if retries is None else max(0, retries))
        self.max_retry_seconds = options.get('request_retry_max_seconds') or 60.0
        self.auth = auth
        self.writes_sent = 0  # the API writes (not logins) this client has tried to send
        # on_write(client, method, url, response): told of each API write about to be sent and answered (the reads
        # a loop shares follow it)
        self.on_write = on_write
        # service_layout: awx or gateway as given; auto is found by find_layout (connect() calls it), until
        # then the AWX layout, as a client made without connect() always had.
        self.layout = Layout.named(options.get('service_layout')) or Layout.awx()
        self.layout_found = (options.get('service_layout') or 'auto') != 'auto'
        # A layout found in the session cache (or by another client of this process) and not asked for again:
        # the service at that URL may have changed since (an upgrade to a platform gateway, a test bed
        # started again on the same port), so the first 404 asks once more.
        self.layout_remembered = False
        # A Hub module's client (ah_path_prefix resolved): where a standalone Hub serves its API, found by discover()
        self.hub_root = hub_root(options.get('ah_path_prefix')) if options.get('ah_path_prefix') else None
        self._sleep = sleep
        self.environ = os.environ if environ is None else environ
        if not self.validate_certs:
            self.verify = False
        else:
            self.verify = self.ca_path or default_verify()
        self.session = _session_for(self.session_key(options))
        # On the controller the processes of a run (its forks and async jobs) share the slots in the cache
        # directory; a module (on a remote host, with become) sends its requests without one.
        self.in_flight = InFlight(default_directory(self.environ) if bounded else None, self.base_url,
                                  options.get('max_requests_in_flight'))

    def session_key(self, options):
        """The base URL, TLS settings and a digest of the credentials."""
        secrets = json.dumps([options.get(name) for name in sorted(options)], sort_keys=True, default=str)
        return (self.base_url, self.validate_certs, self.ca_path,
                hashlib.sha256(secrets.encode('utf-8')).hexdigest())

    def find_layout(self, cache=None):
        """With service_layout auto, the layout found before: in this process, or in the session cache
        (per base URL, whoever logs in). Nothing is sent: until a layout is found, requests go as AWX 24
        lays them out, and the first 404 to one of them asks ``GET /api/`` (discover()). So a task
        against AWX 24 sends no request more than before, and one against a gateway one 404 and one
        ``GET /api/`` per day."""
        if self.layout_found:
            return self.layout
        found = _FOUND_LAYOUTS.get(self.base_url)
        if found is None and cache is not None and cache.enabled:
            found = Layout.from_entry(cache.load(entry_key(self.base_url, 'layout')))
        if found is not None:
            _FOUND_LAYOUTS[self.base_url] = found
            self.layout, self.layout_found = found, True
            self.layout_remembered = self.base_url not in _ASKED_LAYOUTS
        return self.layout

    def own_session(self):
        """From now on, a session of this client's own (see the auth's ``private()``): for a request after which
        the service replaces the session it came with."""
        if self.auth is not None:
            self.auth = self.auth.private(self)

    def settled_layout(self):
        """The layout, asked for now when it is not known yet (for a choice made before any request)."""
        if not self.layout_found:
            self.discover()
        return self.layout

    def anonymous_json(self, path):
        """``GET path`` without credentials: the answer, and its JSON body when it is a 200 with one (else None)."""
        response = self.send('GET', path, with_auth=False)
        body = None
        if response.status == 200:
            try:
                body = response.json()
            except ApiError:
                body = None
        return response, body

    def discover(self):
        """The layout from ``GET /api/`` (one request, no credentials), kept in this process and in the
        session cache, so that the other tasks and forks do not ask again. An answer that is neither
        AWX's nor a gateway's (an older service, a proxy in the way) leaves the AWX layout, as before,
        and is not kept."""
        self.layout_found = True    # asked once, whatever it answers
        self.layout_remembered = False
        response, body = self.anonymous_json('/api/')
        found = Layout.from_root(body)
        if self.hub_root is not None and found is None:
            # a module that may reach a Hub: galaxy-ng 4.9.2 answers GET /api/ with a 404, so its own root tells it. Where
            # /api/ answered as AWX's or a gateway's, the Hub's root is not asked (export and import on AWX send no
            # request more than before; a Hub module there fails before anything is sent)
            found = self.standalone_hub()
        if found is None:
            return self.layout
        _ASKED_LAYOUTS.add(self.base_url)
        cache = getattr(self, 'cache', None)
        if cache is not None and cache.enabled:
            cache.save(entry_key(self.base_url, 'layout'), found.as_entry())
        _FOUND_LAYOUTS[self.base_url] = found
        self.layout, self.layout_found = found, True
        return found

    def standalone_hub(self):
        """The layout of a standalone Automation Hub at this client's hub root, or None when the service does not
        answer there as galaxy-ng does (one request, no credentials): its root's versions (anonymous access
        allowed), or its refusal of a request without credentials (a 401 or 403 in its ``{"errors": [...]}``
        form; galaxy-ng 4.9.2 answers 403 ``not_authenticated``)."""
        response, body = self.anonymous_json(self.hub_root)
        versions = body.get('available_versions') if isinstance(body, dict) else None
        if response.status == 200 and isinstance(versions, dict) and 'v3' in versions:
            return Layout.standalone_hub(self.hub_root)
        if response.status in (401, 403):
            try:
                refused = response.json()
            except ApiError:
                refused = None
            if hub_errors(refused) is not None:
                return Layout.standalone_hub(self.hub_root)
        return None

    def url(self, path, params=None):
        path = self.layout.path(path)
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

    def proxies(self, url):
        """The proxy the environment names for ``url`` (``*_proxy``, ``no_proxy``)."""
        environ = self.environ
        scheme = urlsplit(url).scheme

        def env(name):
            return environ.get(name) or environ.get(name.upper())

        proxy = env('%s_proxy' % scheme) or env('all_proxy')
        if not proxy or should_bypass_proxies(url, no_proxy=env('no_proxy')):
            return {}
        return {scheme: proxy}

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
        if with_auth and method not in READS:
            self.writes_sent += 1   # tried, whatever comes of it
        if self.on_write is not None and with_auth and method not in READS:
            self.on_write(self, method, url.split('?')[0], None)
        renewed = False
        while True:
            send_headers = dict(request_headers)
            if with_auth and self.auth is not None:
                self.auth.apply(self, method, send_headers)
            response = self._send_with_retries(method, url, body, send_headers)
            if response.status == 404 and not self.layout_found and Layout.tells(path):
                # AWX 24's path is not served: a platform gateway, maybe. A 404 was not processed: send it
                # again where the layout found says.
                if self.discover().is_gateway:
                    url = self.url(path, params)
                    continue
            elif response.status == 404 and self.layout_remembered and not served_by_hub(response):
                # The layout remembered may be one the service no longer has. Where the service answers with
                # another, the 404 came from a path it does not serve (not processed): send it again there.
                previous = self.layout
                if self.discover().key != previous.key:
                    url = self.url(previous.awx_form(path), params)
                    continue
            if with_auth and self.auth is not None:
                self.auth.answered(self, response)
            if response.status == 401 and with_auth and self.auth is not None and not renewed:
                renewed = True
                if self.auth.renew(self):
                    continue
            if self.on_write is not None and with_auth and method not in READS:
                self.on_write(self, method, url.split('?')[0], response)
            return response

    def _exchange(self, method, url, body, headers):
        """One attempt. Raises _NotSent when nothing reached the service,
        _MaybeSent when the request may have been processed."""
        try:
            with warnings.catch_warnings():
                if not self.verify:  # the user's explicit choice: no warning per request
                    warnings.simplefilter('ignore', InsecureRequestWarning)
                with self.in_flight.slot():
                    answer = self.session.request(method, url, data=body, headers=headers, timeout=self.timeout,
                                                  verify=self.verify, proxies=self.proxies(url), allow_redirects=False)
        except rexc.SSLError as exc:
            raise ConnectionFailure(self._tls_message(url, exc))
        except (rexc.ConnectTimeout, rexc.ProxyError) as exc:
            raise _NotSent(exc)
        except (rexc.InvalidURL, rexc.InvalidHeader, rexc.InvalidSchema, rexc.MissingSchema, ValueError) as exc:
            raise ConfigError('Cannot send %s %s: %s.' % (method, url, _short(exc)))
        except rexc.ConnectionError as exc:
            if _name_unknown(exc):
                raise self._connection_error(method, url, exc, True)
            if _never_connected(exc):
                raise _NotSent(exc)
            raise _MaybeSent(exc)
        except rexc.RequestException as exc:  # read timeouts, broken chunked bodies
            raise _MaybeSent(exc)
        return Response(answer)

    def _send_with_retries(self, method, url, body, headers):
        started = time.time()
        attempt = lost = 0
        while True:
            attempt += 1
            response = error = None
            not_sent = False
            try:
                response = self._exchange(method, url, body, headers)
            except _NotSent as exc:
                error, not_sent = exc.cause, True
            except _MaybeSent as exc:
                error = exc.cause

            retryable = method in IDEMPOTENT or not_sent
            if response is not None:
                if response.status not in TRANSIENT_STATUS:
                    return response
                # 429 means the request was not processed; other 5xx may have been.
                retryable = method in IDEMPOTENT or response.status == 429
            elapsed = time.time() - started
            lost += response is None and not not_sent
            spent = not retryable or elapsed >= self.max_retry_seconds or lost >= self.max_lost_answers or (
                self.max_attempts is not None and attempt >= self.max_attempts)
            if spent:
                if response is not None:
                    return response
                raise self._connection_error(method, url, error, not_sent, attempt, elapsed)
            delay = _retry_after(response)
            if delay is None:
                delay = min(8.0, 0.5 * (2 ** (attempt - 1))) * (0.5 + random.random() / 2)
            delay = min(delay, max(0.0, self.max_retry_seconds - elapsed))
            self._sleep(delay)

    def _connection_error(self, method, url, error, not_sent, attempts=1, elapsed=0.0):
        if method not in IDEMPOTENT and not not_sent:
            return OutcomeUnknown(
                'The connection broke during %s %s (%s). The service may or may not have processed '
                'the request: check whether the object exists (or the action happened) before '
                'running it again.' % (method, url, _short(error)))
        tried = '%d attempt%s in %.0f s' % (attempts, '' if attempts == 1 else 's', elapsed)
        if not_sent:
            return ConnectionFailure('Cannot connect to %s: %s (%s; request_retry_max_seconds %ss)'
                                     % (self.origin, _short(error), tried, '%g' % self.max_retry_seconds))
        return ConnectionFailure('Request %s %s failed after retries: %s (timeout %ss; %s)'
                                 % (method, url, _short(error), self.timeout, tried))

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
        if response.status in (401, 403) and self.auth is not None and hub_refusal(body):
            # galaxy-ng refuses credentials with a 403 (its ``not_authenticated`` or ``authentication_failed``)
            return self.auth.refused_by_hub(self, detail)
        message = '%s %s answered %s: %s' % (method, response.url, response.status, detail)
        if response.status == 403 and self.auth is not None:
            hint = self.auth.forbidden_hint(method, detail)
            if hint:
                message += ' ' + hint
        if method not in IDEMPOTENT and response.status in (502, 503, 504):
            # A proxy's answer: the service behind it may have done the write before the answer was lost.
            message += (' The service may or may not have processed the request: check whether the object exists '
                        '(or the action happened) before running it again.')
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


class _Failed(Exception):
    def __init__(self, cause):
        super(_Failed, self).__init__(str(cause))
        self.cause = cause


class _NotSent(_Failed):
    """Nothing reached the service: safe to send again, whatever the method."""


class _MaybeSent(_Failed):
    """The request left: the service may have processed it."""


def _causes(exc):
    """``exc`` and the errors under it (urllib3's reasons, the context, a wrapped first argument)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = getattr(exc, 'reason', None) or exc.__context__ or (exc.args[0] if exc.args and isinstance(
            exc.args[0], BaseException) else None)


def _never_connected(exc):
    """True when urllib3 failed before the request left (no connection was made)."""
    from urllib3.exceptions import NewConnectionError
    return any(isinstance(cause, (NewConnectionError, ConnectionRefusedError)) for cause in _causes(exc))


# The resolver's answers that a name does not exist: asking again will not make it exist (a name that
# could not be resolved for now, EAI_AGAIN, is asked again).
_NAME_UNKNOWN = tuple(getattr(socket, name) for name in ('EAI_NONAME', 'EAI_NODATA') if hasattr(socket, name))


def _name_unknown(exc):
    """True when the service's host name does not exist (not worth asking again)."""
    return any(isinstance(cause, socket.gaierror) and cause.errno in _NAME_UNKNOWN for cause in _causes(exc))


def _short(error):
    text = str(error)
    return text if len(text) <= 300 else text[:300] + '...'
