#!/usr/bin/env python3
"""The recording proxy: one client, one service, or two.

    proxy.py --primary URL [--secondary URL] --record FILE [--port N] [--dir DIR]
             [--primary-ca FILE] [--secondary-ca FILE] [--target-file FILE]

The client (the collection's modules) talks to this proxy over HTTPS on
loopback (its own CA, written to DIR/ca.pem). Every request goes to the
primary service, whose answer goes back to the client, and is recorded: one
JSON line in FILE for each exchange. With --target-file, each exchange also
names the integration target that sent it: the file's content when the request
came (recording.py mark writes it as ansible-test starts each target).

Without --secondary that is all: ``make record`` records a real service's
answers this way, and ``make test`` the reference service's, which
recording.py then compares with the recording (tests/recorded/). With
--secondary, the same request also goes to a second service, whose answer is
only recorded beside the first: a live comparison of two services
(``run.sh diff``), which compare.py reads.

The two services number their objects differently, so the proxy translates:

- ids (``Ids``): whenever both answers show an object at the same place (the
  same field, a list item of the same type and name, a ``Location``), it learns
  (collection, primary id) -> secondary id from the objects' ``url`` (and
  ``related`` urls, and role ids in ``summary_fields.object_roles``), and
  rewrites later request paths (``/api/v2/<collection>/<id>/``), query values
  (``?organization=5``) and JSON body fields that name objects. Behind the
  platform gateway (the gateway's layout) the gateway's API (``/api/gateway/v1/``)
  and the controller's (``/api/controller/v2/``) are two id spaces: a field or a
  path names an object of the API the request goes to;
- strings the services generate (OAuth2 tokens, application client ids and
  secrets, the resource ids ``ansible_id`` of shared objects): learned from answers that carry them at the same place, replaced in
  later request headers and bodies;
- sessions (``Sessions``): the secondary's cookies are kept apart, keyed by the
  primary's cookie values the client sends, and the CSRF token the client sends
  is replaced by the secondary's.

In a live comparison, both services must have the same administrator (name and password): the
client's Basic credentials and login forms go to both unchanged. A request whose
path names an object the secondary has no counterpart of is not sent there
(recorded as skipped, with the reason). Nothing secret is recorded: no request
body, no credential header, no cookie value, and answer fields that carry
secrets are replaced by their type.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import ssl
import sys
import threading
import time
from http.cookiejar import DefaultCookiePolicy
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import requests
import trustme

# Headers that belong to one connection, or that requests sets itself.
HOP_BY_HOP = {
    'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailers',
    'transfer-encoding', 'upgrade', 'content-length', 'content-encoding', 'host', 'accept-encoding',
}
# Answer fields whose values are secrets (recorded as their type only), and
# generated strings that the secondary has its own value of.
SECRET_FIELDS = {'token', 'access_token', 'refresh_token', 'client_secret', 'password', 'secret'}
GENERATED_FIELDS = {'token', 'access_token', 'refresh_token', 'client_id', 'client_secret', 'ansible_id'}
# Request headers not recorded at all.
UNRECORDED_HEADERS = {'authorization', 'cookie', 'x-csrftoken'}

# The controller's API (at /api/v2/, and at /api/controller/v2/ behind the platform gateway) and the
# gateway's own (/api/gateway/v1/) number their objects apart: an organization at the gateway and its
# copy at the controller have ids of their own. A gateway collection is known as GATEWAY + its name.
API_PATH_RE = re.compile(r'^/api/(v2|controller/v2|gateway/v1)/([a-z0-9_]+)/(\d+)/')
GATEWAY = 'gateway:'
API_ROOT_RE = re.compile(r'^/api/(v2|controller/v2|gateway/v1)/')
PATH_ID_RE = re.compile(r'/([a-z0-9_]+)/(\d+)(?=/)')

# The collection a field that names an object points into. A field may name an
# object of several collections that share one id space on the real service.
UNIFIED_TEMPLATES = ('job_templates', 'workflow_job_templates', 'projects', 'inventory_sources', 'system_job_templates')
UNIFIED_JOBS = ('jobs', 'workflow_jobs', 'project_updates', 'inventory_updates', 'ad_hoc_commands', 'system_jobs',
                'workflow_approvals')
FIELD_COLLECTIONS = {
    'organization': ('organizations',),
    'organizations': ('organizations',),
    'inventory': ('inventories',),
    'project': ('projects',),
    'source_project': ('projects',),
    'credential': ('credentials',),
    'credentials': ('credentials',),
    'vault_credential': ('credentials',),
    'webhook_credential': ('credentials',),
    'source_credential': ('credentials',),
    'target_credential': ('credentials',),
    'credential_type': ('credential_types',),
    'execution_environment': ('execution_environments',),
    'default_environment': ('execution_environments',),
    'team': ('teams',),
    'user': ('users',),
    'job_template': ('job_templates',),
    'workflow_job_template': ('workflow_job_templates',),
    'unified_job_template': UNIFIED_TEMPLATES,
    'instance_group': ('instance_groups',),
    'instance_groups': ('instance_groups',),
    'instance': ('instances',),
    'host': ('hosts',),
    'hosts': ('hosts',),
    'group': ('groups',),
    'inventory_source': ('inventory_sources',),
    'notification_template': ('notification_templates',),
    'label': ('labels',),
    'labels': ('labels',),
    'application': ('applications',),
    'role': ('roles',),
    'role_definition': ('role_definitions',),
    'job': UNIFIED_JOBS,
    'schedule': ('schedules',),
}
# The collection of the `id` a sub-list's POST attaches (or of the object it lists).
SUBLIST_COLLECTIONS = {
    'admins': 'users', 'users': 'users', 'members': 'users', 'roles': 'roles', 'children': 'groups',
    'hosts': 'hosts', 'groups': 'groups', 'credentials': 'credentials', 'galaxy_credentials': 'credentials',
    'labels': 'labels', 'instance_groups': 'instance_groups', 'instances': 'instances',
    'notification_templates_started': 'notification_templates', 'notification_templates_success': 'notification_templates',
    'notification_templates_error': 'notification_templates', 'notification_templates_approvals': 'notification_templates',
    'success_nodes': 'workflow_job_template_nodes', 'failure_nodes': 'workflow_job_template_nodes',
    'always_nodes': 'workflow_job_template_nodes', 'teams': 'teams', 'inventory_sources': 'inventory_sources',
    'execution_environments': 'execution_environments', 'peers': 'instances', 'input_inventories': 'inventories',
}
# The collection of a role assignment's `object_id`, by the model of its role definition's
# (or its own) `content_type` ("awx.jobtemplate"); `object_id` is a string there.
CONTENT_TYPE_COLLECTIONS = {
    'organization': 'organizations', 'team': 'teams', 'credential': 'credentials', 'project': 'projects',
    'inventory': 'inventories', 'jobtemplate': 'job_templates', 'workflowjobtemplate': 'workflow_job_templates',
    'executionenvironment': 'execution_environments', 'instancegroup': 'instance_groups',
    'notificationtemplate': 'notification_templates', 'credentialtype': 'credential_types', 'user': 'users',
}
# An object's `type` when its answer has no `url`.
TYPE_COLLECTIONS = {
    'inventory': 'inventories', 'o_auth2_application': 'applications', 'o_auth2_access_token': 'tokens',
}


def json_or_none(content: bytes):
    if not content:
        return None
    try:
        return json.loads(content)
    except ValueError:
        return None


def space_of(path: str) -> str:
    """The id space of an API path: GATEWAY for the gateway's API, '' for the controller's."""
    return GATEWAY if path.startswith('/api/gateway/') else ''


def url_object(value):
    """(collection, id) of an API url such as /api/v2/inventories/5/ (the gateway's collections
    named with GATEWAY before them), else None."""
    if isinstance(value, str):
        match = API_PATH_RE.match(value)
        if match:
            return space_of(value) + match.group(2), int(match.group(3))
    return None


class Ids:
    """What the secondary calls the primary's objects, and its own generated strings."""

    def __init__(self):
        self.ids: dict[tuple[str, int], int] = {}
        self.strings: dict[str, str] = {}
        # the primary's role definitions' content types (what an assignment's object_id names),
        # by (space, id)
        self.content_types: dict[tuple[str, int], str] = {}
        # the id space of the exchange at hand (space_of its path): the collections that fields,
        # sub-lists and paths name are that API's
        self.space = ''

    # -- learning from two answers to one request

    def learn(self, primary, secondary, field=None, under=()):
        if isinstance(primary, dict) and isinstance(secondary, dict):
            self._learn_object(primary, secondary, field, under)
            for key, value in primary.items():
                if key in secondary:
                    self.learn(value, secondary[key], key, under + (key,))
        elif isinstance(primary, list) and isinstance(secondary, list):
            for a, b in self._pairs(primary, secondary):
                self.learn(a, b, field, under)
        else:
            a, b = url_object(primary), url_object(secondary)
            if a and b and a[0] == b[0]:
                self.ids[a] = b[1]
            elif field in GENERATED_FIELDS and isinstance(primary, str) and isinstance(secondary, str) \
                    and primary and secondary and not primary.startswith('$encrypted$') and set(primary) != {'*'}:
                self.strings[primary] = secondary

    def _learn_object(self, primary, secondary, field, under):
        found = url_object(primary.get('url'))
        if found and found[0].endswith('role_definitions') and isinstance(primary.get('content_type'), str):
            self.content_types[(found[0][:-len('role_definitions')], found[1])] = primary['content_type']
        a, b = primary.get('id'), secondary.get('id')
        if not (isinstance(a, int) and isinstance(b, int)):
            return
        if 'object_roles' in under:
            self.ids[(self.space + 'roles', a)] = b
        elif primary.get('type') and primary.get('type') == secondary.get('type') and not url_object(primary.get('url')):
            kind = primary['type']
            self.ids[(self.space + TYPE_COLLECTIONS.get(kind, kind + 's'), a)] = b
        elif field in FIELD_COLLECTIONS and under and under[0] == 'summary_fields' and len(FIELD_COLLECTIONS[field]) == 1:
            self.ids[(self.space + FIELD_COLLECTIONS[field][0], a)] = b

    @staticmethod
    def _pairs(primary: list, secondary: list):
        """List items that stand for the same object: same type and name (unique on both sides)."""
        def key(item):
            if isinstance(item, dict) and 'name' in item:
                summary = item.get('summary_fields') if isinstance(item.get('summary_fields'), dict) else {}
                organization = summary.get('organization') if isinstance(summary.get('organization'), dict) else {}
                return (item.get('type'), item.get('name'), organization.get('name'))
            return None

        def index(items):
            found = {}
            for item in items:
                k = key(item)
                if k is not None:
                    found.setdefault(k, []).append(item)
            return {k: v[0] for k, v in found.items() if len(v) == 1}

        left, right = index(primary), index(secondary)
        pairs = [(left[k], right[k]) for k in left if k in right]
        if not pairs and len(primary) == len(secondary) == 1:
            pairs = [(primary[0], secondary[0])]
        return pairs

    def learn_location(self, primary: str | None, secondary: str | None):
        a, b = url_object(urlsplit(primary or '').path), url_object(urlsplit(secondary or '').path)
        if a and b and a[0] == b[0]:
            self.ids[a] = b[1]

    # -- translating a request

    def one(self, collections, value):
        """The secondary's id for the primary's id `value` in one of `collections` (of the
        exchange's space), or None."""
        for collection in collections:
            if (self.space + collection, value) in self.ids:
                return self.ids[(self.space + collection, value)]
        return None

    def path(self, path: str) -> str:
        """The path with each /<collection>/<id>/ translated; raises KeyError when one is unknown."""
        def swap(match):
            collection, value = match.group(1), int(match.group(2))
            found = self.one((collection,), value)
            if found is None:
                raise KeyError('%s %d' % (collection, value))
            return '/%s/%d' % (collection, found)
        return PATH_ID_RE.sub(swap, path)

    def value(self, collections, value):
        """A field's value with the ids it names translated (ids left as they are when unknown)."""
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            found = self.one(collections, value)
            return value if found is None else found
        if isinstance(value, str) and value.isdigit():
            found = self.one(collections, int(value))
            return value if found is None else str(found)
        if isinstance(value, list):
            return [self.value(collections, item) for item in value]
        return value

    def object_collections(self, content_type, role_definition) -> tuple:
        """The collection an assignment's object_id names: by its content_type ("awx.project"),
        else by its role definition's (the primary's id, given as a number or a string)."""
        if not isinstance(content_type, str) or not content_type:
            try:
                content_type = self.content_types.get((self.space, int(role_definition)))
            except (TypeError, ValueError):
                content_type = None
        collection = CONTENT_TYPE_COLLECTIONS.get((content_type or '').rsplit('.', 1)[-1])
        return (collection,) if collection else ()

    def body(self, data, collection_of_id=None):
        if isinstance(data, dict):
            out = {}
            for key, value in data.items():
                if key == 'id' and collection_of_id:
                    out[key] = self.value((collection_of_id,), value)
                elif key == 'object_id':
                    out[key] = self.value(self.object_collections(data.get('content_type'), data.get('role_definition')), value)
                elif key in FIELD_COLLECTIONS:
                    out[key] = self.value(FIELD_COLLECTIONS[key], value)
                elif isinstance(value, str) and value in self.strings:
                    out[key] = self.strings[value]
                elif isinstance(value, (dict, list)):
                    out[key] = self.body(value)
                else:
                    out[key] = value
            return out
        if isinstance(data, list):
            return [self.body(item, collection_of_id) for item in data]
        return data

    def query(self, query: str, collection: str | None) -> str:
        pairs = []
        given = parse_qsl(query, keep_blank_values=True)
        values = dict(given)
        for key, value in given:
            base = re.sub(r'^(or__|not__|chain__)', '', key)
            parts = base.split('__')
            field = parts[0]
            names_id = len(parts) == 1 or parts[1:] in (['id'], ['in'], ['id', 'in'])
            if field == 'id' and collection:
                collections = (collection,)
            elif field == 'object_id' and names_id:
                collections = self.object_collections(values.get('content_type'), values.get('role_definition'))
            elif field in FIELD_COLLECTIONS and names_id:
                collections = FIELD_COLLECTIONS[field]
            else:
                pairs.append((key, self.strings.get(value, value)))
                continue
            values = [str(self.value(collections, item)) for item in value.split(',')]
            pairs.append((key, ','.join(values)))
        return urlencode(pairs)

    def text(self, value: str) -> str:
        for primary, secondary in self.strings.items():
            if primary in value:
                value = value.replace(primary, secondary)
        return value


def is_session_cookie(name: str) -> bool:
    return 'session' in name.lower()


class Sessions:
    """The secondary's cookies for each client session, found by the primary's cookie values.

    A client that sends a session cookie is known by it alone (one the proxy never saw gets
    no cookies on the secondary either); before it has one (the login page and the login),
    by its CSRF cookie. Other cookies (userLoggedIn) say nothing about the session."""

    def __init__(self):
        self.jars: dict[str, dict] = {}

    def jar_for(self, cookie_header: str | None) -> dict:
        cookie = SimpleCookie()
        if cookie_header:
            cookie.load(cookie_header)
        sessions = [morsel.value for name, morsel in cookie.items() if is_session_cookie(name)]
        if sessions:
            return self.jars.get(sessions[0], {})
        if 'csrftoken' in cookie:
            return self.jars.get(cookie['csrftoken'].value, {})
        return {}

    def remember(self, jar: dict, primary_set_cookies: list[str], secondary_set_cookies: list[str]):
        """Take the cookies both answers set. A new session on the primary (a login) gets a jar
        of its own: the client may still hold the session it had, which keeps its jar."""
        primary = SimpleCookie()
        for header in primary_set_cookies:
            primary.load(header)
        known = [morsel.value for name, morsel in primary.items()
                 if morsel.value and (is_session_cookie(name) or name == 'csrftoken')]
        if any(value not in self.jars for name, morsel in primary.items() if is_session_cookie(name)
               for value in [morsel.value] if value):
            jar = dict(jar)
        for header in secondary_set_cookies:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                if morsel['max-age'] == '0' or not morsel.value:
                    jar.pop(name, None)
                else:
                    jar[name] = morsel.value
        for value in known:
            self.jars[value] = jar


def redact(data):
    """The answer with secret fields replaced by their type."""
    if isinstance(data, dict):
        return {key: ('<%s>' % type(value).__name__ if key in SECRET_FIELDS and isinstance(value, str) and value
                      and not value.startswith('$encrypted$') else redact(value))
                for key, value in data.items()}
    if isinstance(data, list):
        return [redact(item) for item in data]
    return data


def answer_record(response: requests.Response, base: str) -> dict:
    headers = {}
    for name, value in response.headers.items():
        lower = name.lower()
        if lower == 'set-cookie':
            continue
        if lower == 'location':
            value = value.replace(base, '')
        headers[lower] = value
    cookies = []
    for header in response.raw.headers.getlist('Set-Cookie'):
        cookie = SimpleCookie()
        cookie.load(header)
        cookies.extend(cookie.keys())
    body = json_or_none(response.content)
    record = {'status': response.status_code, 'headers': headers, 'cookies': sorted(cookies)}
    if body is not None:
        record['json'] = redact(body)
    else:
        record['text'] = response.content[:2000].decode('utf-8', 'replace')
    return record


class Tee:
    """Sends each request to both services, translates, records."""

    def __init__(self, primary: str, secondary: str | None, record: Path, primary_ca=None, secondary_ca=None,
                 target_file: Path | None = None):
        self.primary, self.secondary = primary.rstrip('/'), (secondary or '').rstrip('/')
        self.target_file = target_file
        self.primary_http = requests.Session()
        self.primary_http.verify = primary_ca or False
        self.secondary_http = requests.Session()
        self.secondary_http.verify = secondary_ca or False
        for session in (self.primary_http, self.secondary_http):
            session.trust_env = False  # no proxy, no .netrc: the client's headers as they are
            session.cookies.set_policy(DefaultCookiePolicy(allowed_domains=[]))  # the client's cookies only
        self.ids = Ids()
        self.sessions = Sessions()
        self.lock = threading.Lock()
        self.record = open(record, 'a', encoding='utf-8')
        self.seq = 0
        self.own_base = ''

    def send(self, method: str, target: str, headers: dict, body: bytes) -> tuple[int, list, bytes]:
        # One exchange at a time: the id map and the sessions follow the client's order.
        with self.lock:
            self.seq += 1
            return self._send(self.seq, method, target, headers, body)

    def _upstream_headers(self, headers: dict, base: str) -> dict:
        out = {}
        for name, value in headers.items():
            if name.lower() in HOP_BY_HOP:
                continue
            if name.lower() in ('referer', 'origin') and self.own_base:
                value = value.replace(self.own_base, base)
            out[name] = value
        return out

    def _send(self, seq, method, target, headers, body):
        split = urlsplit(target)
        entry = {'seq': seq, 'time': round(time.time(), 3), 'method': method, 'path': split.path,
                 'query': sorted({pair[0] for pair in parse_qsl(split.query, keep_blank_values=True)}),
                 'headers': {k.lower(): v for k, v in headers.items()
                             if k.lower() not in UNRECORDED_HEADERS and k.lower() not in HOP_BY_HOP},
                 'auth': auth_kind(headers)}
        if self.target_file is not None:
            entry['target'] = current_target(self.target_file)
        self.ids.space = space_of(split.path)
        primary_headers = self._upstream_headers(headers, self.primary)
        try:
            first = self.primary_http.request(method, self.primary + target, headers=primary_headers, data=body,
                                              allow_redirects=False, timeout=600)
        except requests.RequestException as exc:
            entry['primary_error'] = type(exc).__name__
            self._write(entry)
            return 502, [('Content-Type', 'text/plain')], b'primary unreachable\n'
        entry['primary'] = answer_record(first, self.primary)
        if not self.secondary:
            self._write(entry)
            return first.status_code, self._client_headers(first), first.content
        second = self._secondary(method, split, headers, body, entry, first)
        if second is not None:
            entry['secondary'] = answer_record(second, self.secondary)
            self._learn(first, second)
        self._write(entry)
        return first.status_code, self._client_headers(first), first.content

    def _secondary(self, method, split, headers, body, entry, first):
        try:
            path = self.ids.path(split.path)
        except KeyError as exc:
            entry['skipped'] = 'no counterpart of %s' % exc.args[0]
            return None
        root = API_ROOT_RE.match(split.path)
        parts = [p for p in split.path[root.end():].split('/') if p] if root else []
        collection = parts[0] if parts else None
        sublist = parts[2] if len(parts) == 3 and parts[1].isdigit() else None
        query = self.ids.query(split.query, SUBLIST_COLLECTIONS.get(sublist, sublist) if sublist else collection)
        out = self._upstream_headers(headers, self.secondary)
        jar = self.sessions.jar_for(headers.get('Cookie') or headers.get('cookie'))
        for name in list(out):
            if name.lower() in ('cookie', 'x-csrftoken'):
                del out[name]
        if jar:
            out['Cookie'] = '; '.join('%s=%s' % item for item in jar.items())
            if any(name.lower() == 'x-csrftoken' for name in headers) and 'csrftoken' in jar:
                out['X-CSRFToken'] = jar['csrftoken']
        for name, value in list(out.items()):
            if name.lower() == 'authorization':
                out[name] = self.ids.text(value)
        content_type = next((v for k, v in headers.items() if k.lower() == 'content-type'), '')
        if body and content_type.startswith('application/json'):
            data = json_or_none(body)
            if data is not None:
                body = json.dumps(self.ids.body(data, SUBLIST_COLLECTIONS.get(sublist))).encode()
        elif body and content_type.startswith('application/x-www-form-urlencoded'):
            form = parse_qsl(body.decode('utf-8', 'replace'), keep_blank_values=True)
            body = urlencode([(k, jar.get('csrftoken', v) if k == 'csrfmiddlewaretoken' else self.ids.text(v))
                              for k, v in form]).encode()
        if path != split.path or query != split.query:
            entry['secondary_path'] = path
        try:
            second = self.secondary_http.request(method, self.secondary + path + ('?' + query if query else ''),
                                                 headers=out, data=body, allow_redirects=False, timeout=600)
        except requests.RequestException as exc:
            entry['secondary_error'] = type(exc).__name__
            return None
        self.sessions.remember(jar, first.raw.headers.getlist('Set-Cookie'), second.raw.headers.getlist('Set-Cookie'))
        return second

    def _learn(self, first, second):
        self.ids.learn_location(first.headers.get('Location'), second.headers.get('Location'))
        self.ids.learn(json_or_none(first.content), json_or_none(second.content))

    def _client_headers(self, response: requests.Response) -> list:
        out = []
        for name, value in response.headers.items():
            lower = name.lower()
            if lower in HOP_BY_HOP or lower == 'set-cookie':
                continue
            if lower == 'location' and self.own_base:
                value = value.replace(self.primary, self.own_base)
            out.append((name, value))
        for header in response.raw.headers.getlist('Set-Cookie'):
            out.append(('Set-Cookie', header))
        return out

    def _write(self, entry):
        self.record.write(json.dumps(entry, sort_keys=True) + '\n')
        self.record.flush()


def current_target(path: Path) -> str:
    """The integration target running now, as the file says ('' before the first)."""
    try:
        return path.read_text(encoding='utf-8').strip()
    except FileNotFoundError:
        return ''


def auth_kind(headers: dict) -> str:
    for name, value in headers.items():
        if name.lower() == 'authorization':
            return value.split(' ', 1)[0].lower()
        if name.lower() == 'cookie':
            return 'session'
    return 'anonymous'


def make_handler(tee: Tee):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def _any(self):
            length = int(self.headers.get('Content-Length') or 0)
            body = self.rfile.read(length) if length else b''
            headers = dict(self.headers.items())
            status, out_headers, content = tee.send(self.command, self.path, headers, body)
            self.send_response(status)
            for name, value in out_headers:
                self.send_header(name, value)
            self.send_header('Content-Length', str(len(content)))
            self.end_headers()
            if self.command != 'HEAD':
                self.wfile.write(content)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = _any

        def log_message(self, format, *args):  # noqa: A002  (the base class's name)
            pass

    return Handler


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n', maxsplit=1)[0])
    parser.add_argument('--primary', required=True, help='the service whose answers the client gets and that is recorded')
    parser.add_argument('--secondary', help='a service compared with it live: each request goes there too')
    parser.add_argument('--primary-ca', help='CA file of the primary (default: not verified)')
    parser.add_argument('--secondary-ca', help='CA file of the secondary (default: not verified)')
    parser.add_argument('--record', required=True, type=Path, help='JSON lines file the exchanges are appended to')
    parser.add_argument('--dir', type=Path, required=True, help='where the proxy keeps its CA and certificate')
    parser.add_argument('--port', type=int, default=0)
    parser.add_argument('--target-file', type=Path, help='a file naming the integration target running now')
    args = parser.parse_args(argv)

    args.dir.mkdir(parents=True, exist_ok=True)
    ca = trustme.CA()
    cert = ca.issue_cert('127.0.0.1', 'localhost')
    ca.cert_pem.write_to_path(str(args.dir / 'ca.pem'))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(context)

    tee = Tee(args.primary, args.secondary, args.record, args.primary_ca, args.secondary_ca, args.target_file)
    server = ThreadingHTTPServer(('127.0.0.1', args.port), make_handler(tee))
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True)
    tee.own_base = 'https://127.0.0.1:%d' % server.server_address[1]
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(tee.own_base, flush=True)
    server.serve_forever()
    tee.record.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
