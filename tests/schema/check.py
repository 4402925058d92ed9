"""A service held against a published OpenAPI schema of the Automation Platform (read from
../shared/platform-api/ beside the checkout, never copied into the repository).

    python tests/schema/check.py --schema gateway-2.7.json --url URL [--ca CA] --username NAME \\
        [--password-env VAR] [--known tests/schema/known-gateway.yml] [--out DIR] [--prefix FROM=TO] \\
        [--seed tests/schema/seed-gateway.yml]

For every path of the schema (its templates filled from what the service lists: ``{id}`` of
``/teams/{id}/`` is the id of a team ``/teams/`` answers; ``{preference_name}`` a key of the object
``settings/<category>/`` answers):

- ``GET`` is answered 200 (or the success status the schema gives it, such as 204) where the schema has a GET
  (``unanswered`` when not: the status is said);
- the answer has every field the schema describes (``missing``), no field it does not
  (``unknown``), each of the schema's type, null only where it is nullable (``type``), and no
  write-only field (``write-only``); a page's ``results`` are checked as the schema's items;
- ``OPTIONS`` answers 200 (``options``) and, where the schema has a POST or PUT, describes it: every
  writable field of its request body (``options``), required exactly where the schema requires it
  (``required``), no read-only field taken (``read-only``: listed without ``read_only: true``).

A template whose value the service lists nothing for is said (``unfilled``), and so is a path that
is not checked. ``--seed FILE`` makes objects first, so that the lists have something to fill the
templates from: a YAML list of ``{path, body}`` POSTed in order, where a value ``{id_of: PATH}`` is the
id of the first object PATH lists (``{id_of: PATH, field: NAME}``: its field NAME) and ``{unique: TEXT}``
TEXT with a suffix of the run; what was made is deleted, last first, at the end. An entry ``{fill: PREFIX,
values: {PARAMETER: VALUE}}`` gives the value of a template parameter that no list above it names (such as
``{model_name}`` of ``role_user_access/{model_name}/{id}/``) in every template under PREFIX, VALUE as in a
body, taken once the objects are made. An answer the schema describes as a string (``type: string``) may be
text (a PEM key), not JSON. A difference that is deliberate, or not built yet, is listed with its reason in the
known file (``path``: the schema's path template, ``kind``: one of the kinds above, ``field``
optional, ``reason``; path and kind are regular expressions); any other fails the check. The report (``report.md``, ``report.json``) goes to
``--out``. ``--prefix /api/v2/=/api/controller/v2/`` maps the schema's paths to where the service
serves them (the controller behind a gateway; ``--prefix /=/api/eda/v1/`` EDA's, whose schema's paths are relative).

The known file may say which app of the service serves which paths (``owners``: a list of ``{app, paths}``,
``paths`` a list of path templates as regular expressions). The report then lists the paths by app with their
differences, so that each app's remaining work is in one place; an app that answers none of its paths (every one
unanswered or unfilled: not installed yet) is reported as pending, its differences listed but not failing the
check. Once it answers one path, its differences count as any other.

Without the schema file (no ../shared/platform-api/ beside the checkout), the check says so and
exits 0: it has nothing to hold the service against.
"""
import argparse
import json
import os
import re
import sys
import uuid

import requests
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(os.path.dirname(ROOT), 'shared', 'platform-api')
TYPES = {'string': (str,), 'integer': (int,), 'number': (int, float), 'boolean': (bool,), 'object': (dict,),
         'array': (list,)}
PARAM = re.compile(r'\{([^}]+)\}')
# Templates filled from an object's keys, the answer above them being no page: settings/<category>/ answers the
# category's settings by name ({preference_name}).
KEYED = ('preference_name',)


def schema_path(name):
    return name if os.path.sep in name else os.path.join(SCHEMAS, name)


class Schema:
    def __init__(self, document):
        self.document = document
        self.paths = document.get('paths', {})

    def resolve(self, node):
        seen = 0
        while isinstance(node, dict) and '$ref' in node:
            seen += 1
            if seen > 20:
                raise ValueError('a $ref loop at %s' % node['$ref'])
            target = self.document
            for part in node['$ref'].lstrip('#/').split('/'):
                target = target[part]
            node = target
        return node

    def answer_schema(self, path, method='get'):
        operation = self.paths.get(path, {}).get(method) or {}
        for status in ('200', '201'):
            content = ((operation.get('responses') or {}).get(status) or {}).get('content') or {}
            body = content.get('application/json')
            if body and body.get('schema'):
                return self.resolve(body['schema'])
        return None

    def properties(self, node):
        """The properties of an object schema, allOf flattened."""
        node = self.resolve(node)
        props = dict(node.get('properties') or {})
        for part in node.get('allOf') or []:
            props.update(self.properties(part))
        return props


class Service:
    def __init__(self, url, ca, username, password, prefixes):
        self.url = url.rstrip('/')
        self.http = requests.Session()
        self.http.trust_env = False
        self.http.verify = ca or False
        self.http.auth = (username, password)
        self.http.headers['Accept'] = 'application/json'
        self.prefixes = prefixes
        self.pages = {}

    def served(self, path):
        for old, new in self.prefixes:
            if path.startswith(old):
                return new + path[len(old):]
        return path

    def request(self, method, path, body=None):
        return self.http.request(method, self.url + self.served(path), json=body, timeout=60, allow_redirects=False)

    def first_page(self, path):
        if path not in self.pages:
            try:
                answer = self.request('GET', path)
                body = answer.json() if answer.status_code == 200 else None
            except (requests.RequestException, ValueError):
                body = None
            self.pages[path] = body
        return self.pages[path]


def seed_value(value, service, run):
    """A seed body's value with its ``{id_of: PATH}`` and ``{unique: TEXT}`` made real."""
    if isinstance(value, dict) and 'id_of' in value and set(value) <= {'id_of', 'field'}:
        page = service.first_page(value['id_of'])
        results = page_items(page)
        if not results:
            raise LookupError('%s lists nothing' % value['id_of'])
        return results[0][value.get('field', 'id')]
    if isinstance(value, dict) and set(value) == {'unique'}:
        return '%s-%s' % (value['unique'], run)
    if isinstance(value, dict):
        return dict((key, seed_value(item, service, run)) for key, item in value.items())
    if isinstance(value, list):
        return [seed_value(item, service, run) for item in value]
    return value


def seed(entries, service):
    """POSTs the seed's objects in order: [(path, id)] of those made, the problems of those not, and the
    values its ``fill`` entries give: [(prefix, {parameter: value})]."""
    made, failed, fills, run = [], [], [], uuid.uuid4().hex[:8]
    for entry in entries:
        if 'fill' in entry:
            continue
        try:
            body = seed_value(entry.get('body') or {}, service, run)
            answer = service.request('POST', entry['path'], body)
        except (LookupError, requests.RequestException) as exc:
            failed.append((entry['path'], str(exc)))
            continue
        if answer.status_code not in (200, 201):
            failed.append((entry['path'], 'POST answered %d: %s' % (answer.status_code, answer.text[:200])))
            continue
        service.pages.pop(entry['path'], None)
        try:
            made.append((entry['path'], answer.json().get('id')))
        except ValueError:
            pass
    service.pages.clear()
    for entry in entries:
        if 'fill' not in entry:
            continue
        values = {}
        for name, value in (entry.get('values') or {}).items():
            try:
                values[name] = seed_value(value, service, run)
            except (LookupError, KeyError, requests.RequestException) as exc:
                failed.append((entry['fill'], '%s: %s' % (name, exc)))
        fills.append((entry['fill'], values))
    service.pages.clear()
    return made, failed, fills


def unseed(made, service):
    for path, pk in reversed(made):
        if pk is not None:
            try:
                service.request('DELETE', '%s%s/' % (path, pk))
            except requests.RequestException:
                pass


def fill(template, service, fills=()):
    """The path with its templates filled from the seed's values (``fills``) or else from the lists above
    them (None when one cannot be)."""
    path = ''
    for part in template.strip('/').split('/'):
        match = PARAM.fullmatch(part)
        if not match:
            path += '/' + part
            continue
        given = [values[match.group(1)] for prefix, values in fills
                 if template.startswith(prefix) and match.group(1) in values]
        if given:
            path += '/%s' % given[0]
            continue
        page = service.first_page(path + '/')
        name = match.group(1)
        results = page_items(page)
        if results is None and name in KEYED and isinstance(page, dict):
            results = [{name: key} for key in page]
        if not results:
            return None
        item = results[0]
        value = None
        if isinstance(item, dict):
            # Pulp's objects are named in their paths by their pulp_id, the last part of their pulp_href
            href = item.get('pulp_href') if isinstance(item.get('pulp_href'), str) else ''
            candidates = (item.get(name), item.get('id'), item.get('pulp_id'), href.rstrip('/').rsplit('/', 1)[-1],
                          item.get('slug'), item.get('name'))
            value = next((candidate for candidate in candidates if candidate not in (None, '')), None)
        if value is None:
            return None
        path += '/%s' % value
    return path + '/'


def page_items(page):
    """The items of a list's answer: a page's ``results`` (DRF's, Pulp's), ``data`` (galaxy-ng's v3 and _ui
    pages: ``meta``, ``links``, ``data``), or the list itself; None when it is none of these."""
    if isinstance(page, list):
        return page
    if isinstance(page, dict):
        for key in ('results', 'data'):
            if isinstance(page.get(key), list):
                return page[key]
    return None


def describe(value):
    return 'null' if value is None else type(value).__name__


def check_object(schema, node, obj, where, problems):
    """Fields of ``obj`` against the object schema ``node``."""
    props = schema.properties(node)
    if not props or not isinstance(obj, dict):
        return
    for name, prop in sorted(props.items()):
        prop = schema.resolve(prop)
        if prop.get('writeOnly'):
            if name in obj:
                problems.append(('write-only', name, '%s returns it' % where))
            continue
        if name not in obj:
            problems.append(('missing', name, '%s lacks it' % where))
            continue
        value = obj[name]
        if value is None:
            if not prop.get('nullable'):
                problems.append(('type', name, '%s: null, not nullable' % where))
            continue
        kind = prop.get('type')
        if kind in TYPES and (not isinstance(value, TYPES[kind]) or (kind != 'boolean' and isinstance(value, bool))):
            problems.append(('type', name, '%s: %s, the schema says %s' % (where, describe(value), kind)))
    for name in sorted(set(obj) - set(props)):
        problems.append(('unknown', name, '%s returns it' % where))


def check_answer(schema, template, body, problems):
    node = schema.answer_schema(template)
    if node is None:
        return
    props = schema.properties(node)
    for key in ('results', 'data'):
        results = props.get(key)
        if results is not None and isinstance(body, dict) and isinstance(body.get(key), list):
            items = schema.resolve(schema.resolve(results).get('items') or {})
            for index, item in enumerate(body[key][:3]):
                check_object(schema, items, item, '%s[%d]' % (key, index), problems)
            return
    check_object(schema, node, body, 'the answer', problems)


def request_schema(schema, operations, method):
    body = ((operations.get(method) or {}).get('requestBody') or {}).get('content') or {}
    node = (body.get('application/json') or {}).get('schema')
    return schema.resolve(node) if node else None


def check_options(schema, operations, described, problems):
    """OPTIONS against the schema's request bodies: every writable field described (as required where the
    schema requires it, and not where it does not), no read-only field taken."""
    actions = described.get('actions') if isinstance(described, dict) else None
    for method in ('post', 'put'):
        node = request_schema(schema, operations, method)
        props = schema.properties(node) if node else {}
        if not props:
            continue
        fields = (actions or {}).get(method.upper())
        if not isinstance(fields, dict):
            problems.append(('options', '', 'OPTIONS describes no %s' % method.upper()))
            continue
        required = set(schema.resolve(node).get('required') or [])
        for part in schema.resolve(node).get('allOf') or []:
            required.update(schema.resolve(part).get('required') or [])
        for name, prop in sorted(props.items()):
            prop = schema.resolve(prop)
            field = fields.get(name)
            if prop.get('readOnly'):
                if isinstance(field, dict) and not field.get('read_only'):
                    problems.append(('read-only', name, 'OPTIONS %s takes it' % method.upper()))
                continue
            if not isinstance(field, dict):
                problems.append(('options', name, 'OPTIONS %s does not describe it' % method.upper()))
            elif bool(field.get('required')) != (name in required):
                problems.append(('required', name, 'OPTIONS %s says %srequired, the schema %s' % (
                    method.upper(), '' if field.get('required') else 'not ',
                    'requires it' if name in required else 'does not')))


def success_statuses(operation):
    """The 2xx statuses the schema gives an operation's answer (200 when it gives none)."""
    found = {int(code) for code in (operation.get('responses') or {}) if str(code).isdigit() and str(code).startswith('2')}
    return found or {200}


def check(schema, service, fills=()):
    """Every path's problems: {template: [(kind, field, detail)]}."""
    found = {}
    for template in sorted(schema.paths):
        operations = schema.paths[template]
        problems = found.setdefault(template, [])
        path = fill(template, service, fills) if PARAM.search(template) else template
        if path is None:
            problems.append(('unfilled', '', 'nothing listed to fill %s' % template))
            continue
        try:
            options = service.request('OPTIONS', path)
            if options.status_code != 200:
                problems.append(('options', '', 'OPTIONS %s answered %d' % (path, options.status_code)))
            else:
                try:
                    described = options.json()
                except ValueError:
                    described = None
                check_options(schema, operations, described, problems)
            if 'get' in operations:
                answer = service.request('GET', path)
                if answer.status_code not in success_statuses(operations['get']):
                    problems.append(('unanswered', '', 'GET %s answered %d' % (path, answer.status_code)))
                elif answer.status_code == 204:
                    pass        # no content, as the schema says (EDA's session login preflight)
                else:
                    try:
                        body = answer.json()
                    except ValueError:
                        if (schema.answer_schema(template) or {}).get('type') != 'string':
                            problems.append(('unanswered', '', 'GET %s answered no JSON' % path))
                    else:
                        check_answer(schema, template, body, problems)
        except requests.RequestException as exc:
            problems.append(('unanswered', '', '%s: %s' % (path, exc)))
    return found


def _known_document(path):
    if not path or not os.path.exists(path):
        return {}
    with open(path, encoding='utf-8') as handle:
        return yaml.safe_load(handle) or {}


def load_known(path):
    entries = _known_document(path).get('known') or []
    for entry in entries:
        if not entry.get('reason') or not entry.get('path') or not entry.get('kind'):
            raise SystemExit('%s: every entry needs path, kind and reason: %r' % (path, entry))
    return entries


def load_owners(path):
    """[(app, [regex...])] of the known file's ``owners``."""
    owners = _known_document(path).get('owners') or []
    for entry in owners:
        if not entry.get('app') or not entry.get('paths'):
            raise SystemExit('%s: every owner needs app and paths: %r' % (path, entry))
    return [(entry['app'], list(entry['paths'])) for entry in owners]


def owner_of(owners, template):
    for app, patterns in owners:
        if any(re.fullmatch(pattern, template) for pattern in patterns):
            return app
    return None


ABSENT = ('unanswered', 'unfilled')


def is_absent(problems):
    """Whether a path is not served at all: unfilled, or its GET or OPTIONS not answered (404)."""
    return any(kind in ABSENT or (kind == 'options' and 'answered 404' in detail) for kind, _field, detail in problems)


def pending_apps(found, owners):
    """The apps of ``owners`` that answer none of their paths while other paths of the schema are answered (a
    service that answers nothing has no pending app: everything fails)."""
    pending = set()
    for app, _patterns in owners:
        templates = [template for template in found if owner_of(owners, template) == app]
        others = [template for template in found if owner_of(owners, template) != app]
        if templates and all(is_absent(found[template]) for template in templates) and \
                any(not is_absent(found[template]) for template in others):
            pending.add(app)
    return pending


def explained(known, template, kind, field):
    for entry in known:
        if not re.fullmatch(entry['kind'], kind) or not re.fullmatch(entry['path'], template):
            continue
        if entry.get('field') and entry['field'] != field:
            continue
        return entry['reason']
    return None


def report(found, known, out, title, owners=()):
    rows, unexplained = [], 0
    pending = pending_apps(found, owners)
    for template, problems in sorted(found.items()):
        app = owner_of(owners, template)
        for kind, field, detail in problems:
            reason = explained(known, template, kind, field)
            if reason is None and app in pending:
                reason = 'pending: %s answers none of its paths yet' % app
            unexplained += reason is None
            rows.append({'path': template, 'kind': kind, 'field': field, 'detail': detail, 'reason': reason,
                         'app': app})
    paths = len(found)
    clean = sum(1 for problems in found.values() if not problems)
    summary = {'paths': paths, 'clean': clean, 'differences': len(rows), 'unexplained': unexplained,
               'pending': sorted(pending)}
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, 'report.json'), 'w', encoding='utf-8') as handle:
            json.dump({'summary': summary, 'differences': rows}, handle, indent=1)
        with open(os.path.join(out, 'report.md'), 'w', encoding='utf-8') as handle:
            handle.write('# %s\n\n%d paths, %d without a difference; %d differences, %d unexplained.\n\n'
                         % (title, paths, clean, len(rows), unexplained))
            handle.write('| path | kind | field | detail | known because |\n|---|---|---|---|---|\n')
            for row in rows:
                handle.write('| `%s` | %s | %s | %s | %s |\n' % (row['path'], row['kind'], row['field'] or '',
                                                                 row['detail'], row['reason'] or '**unexplained**'))
            if owners:
                handle.write(by_app(found, rows, owners, pending))
    return summary, rows


def by_app(found, rows, owners, pending):
    """The report's section of the paths each app serves: per path, clean, or its differences (and how many are
    not explained)."""
    text = '\n## Paths by app\n'
    apps = [app for app, _patterns in owners] + [None]
    for app in apps:
        templates = sorted(t for t in found if owner_of(owners, t) == app)
        if not templates:
            continue
        text += '\n### %s%s\n\n' % (app or 'no owner', ' (pending: answers none of its paths yet)' if app in pending else '')
        for template in templates:
            mine = [row for row in rows if row['path'] == template]
            if not mine:
                text += '- `%s`: clean\n' % template
                continue
            open_ = sum(1 for row in mine if row['reason'] is None or row['reason'].startswith('pending:'))
            kinds = sorted({row['kind'] for row in mine})
            text += '- `%s`: %d difference(s) (%s), %d not explained\n' % (template, len(mine), ', '.join(kinds), open_)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--schema', required=True, help='a file of ../shared/platform-api/, or a path')
    parser.add_argument('--url', required=True)
    parser.add_argument('--ca')
    parser.add_argument('--username', required=True)
    parser.add_argument('--password-env', default='SERVICE_ADMIN_PASSWORD')
    parser.add_argument('--known')
    parser.add_argument('--out')
    parser.add_argument('--prefix', action='append', default=[], metavar='FROM=TO')
    parser.add_argument('--seed', help='a YAML list of objects to make first ({path, body})')
    args = parser.parse_args(argv)
    path = schema_path(args.schema)
    if not os.path.exists(path):
        print('schema check: %s is not there (the platform\'s published schemas are read from %s): nothing checked'
              % (path, SCHEMAS))
        return 0
    with open(path, encoding='utf-8') as handle:
        schema = Schema(json.load(handle))
    prefixes = [tuple(item.split('=', 1)) for item in args.prefix]
    service = Service(args.url, args.ca, args.username, os.environ.get(args.password_env, ''), prefixes)
    made, fills = [], []
    if args.seed:
        with open(args.seed, encoding='utf-8') as handle:
            made, failed, fills = seed(yaml.safe_load(handle) or [], service)
        for where, detail in failed:
            print('schema check: seed %s not made: %s' % (where, detail))
    try:
        found = check(schema, service, fills)
    finally:
        unseed(made, service)
    summary, rows = report(found, load_known(args.known), args.out, 'Held against %s' % os.path.basename(path),
                           load_owners(args.known))
    print('schema check (%s): %d paths, %d without a difference; %d differences, %d unexplained'
          % (os.path.basename(path), summary['paths'], summary['clean'], summary['differences'],
             summary['unexplained']))
    for app in summary['pending']:
        print('  pending: %s answers none of its paths yet (listed in the report)' % app)
    for row in rows:
        if row['reason'] is None:
            print('  unexplained: %s %s %s: %s' % (row['path'], row['kind'], row['field'], row['detail']))
    return 1 if summary['unexplained'] else 0


if __name__ == '__main__':
    sys.exit(main())
