# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ApiModule: the argument spec, the client, and the create/update/delete verbs
shared by every module. Errors raised below become ``fail_json`` here only.

Modules import it through _api_module, which first puts the zip loader in place."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import json

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._errors import (
    ConfigError, MultipleFound, NotFound, ServiceError,
)
from ansible_collections.automation.service.plugins.module_utils._options import (
    OPTIONS, module_argument_spec, resolve,
)

NO_LOG_PLACEHOLDER = 'VALUE_SPECIFIED_IN_NO_LOG_PARAMETER'
SECRET_OPTIONS = [name for name, spec in OPTIONS.items() if spec[3].get('no_log')]


def is_id(value):
    """An int, or a string of digits, names an object by id."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and value.strip().isdigit()


def parse_variables(value):
    """The service keeps variables as JSON or YAML text; compare them as data."""
    if value is None or value == '':
        return {}
    if isinstance(value, dict):
        return value
    text = to_text(value)
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        import yaml
        data = yaml.safe_load(text)
    except Exception:  # any YAML error: keep the raw text so it compares unequal
        return text
    return {} if data is None else data


def dump_variables(value):
    return json.dumps(value or {}, sort_keys=True)


def _leaves(data):
    if isinstance(data, dict):
        data = list(data.values())
    if isinstance(data, (list, tuple)):
        for item in data:
            yield from _leaves(item)
    elif data is not None:
        yield to_text(data)


def narrow_token_dict_no_log(module):
    """A token dict given as service_token is no_log, so Ansible would mask every
    value in it (ids, scope, dates) wherever it shows up, even inside a newly
    minted secret. Mask only its secrets and the other secret options."""
    token = module.params.get('service_token')
    if not isinstance(token, dict):
        return
    module.no_log_values.difference_update(set(_leaves(token)))
    secrets = [token.get('token'), token.get('refresh_token')] + [module.params.get(n) for n in SECRET_OPTIONS]
    module.no_log_values.update(to_text(value) for value in secrets if isinstance(value, str) and value)


def checked_module(spec, kwargs):
    """AnsibleModule(spec), failing cleanly on a whole-number option given an
    infinity: ansible-core's int check lets int(inf) escape as OverflowError."""
    try:
        return AnsibleModule(argument_spec=spec, **kwargs)
    except OverflowError:
        ints = [name for name, option in spec.items() if option.get('type') == 'int']
        loose = dict(spec, **dict((name, dict(spec[name], type='raw')) for name in ints))
        module = AnsibleModule(argument_spec=loose, **kwargs)
        infinities = (float('inf'), float('-inf'))
        given = module.params
        bad = [name for name in ints if isinstance(given.get(name), float) and given[name] in infinities]
        module.fail_json(msg='%s must be a whole number, not an infinity.' % ' and '.join(bad or ints))


class ApiModule:
    """One task's module: parameters, a lazily connected client, and the verbs."""

    def __init__(self, argument_spec, resource, result_key, **kwargs):
        spec = module_argument_spec()
        spec.update(argument_spec)
        kwargs.setdefault('supports_check_mode', True)
        self.module = checked_module(spec, kwargs)
        self.params = self.module.params
        narrow_token_dict_no_log(self.module)
        self.resource = resource
        self.result_key = result_key
        self.result = {'changed': False}
        self._client = None

    # -- connection ------------------------------------------------------------

    @property
    def client(self):
        if self._client is None:
            from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
            options = resolve(self.params)
            for name in SECRET_OPTIONS:
                value = options.get(name)
                if isinstance(value, dict):
                    value = value.get('token')
                if value:
                    self.module.no_log_values.add(to_text(value))
            self._client = connect(options, warn=self.module.warn)
        return self._client

    @contextlib.contextmanager
    def failures(self):
        """Turn the typed exceptions of module_utils into ``fail_json``."""
        try:
            yield
        except ServiceError as exc:
            extra = {}
            status = getattr(exc, 'status', None)
            if status is not None:
                extra['status'] = status
            # An error may carry result fields of its own (a failed job's id, status, output).
            extra.update(getattr(exc, 'result', None) or {})
            self.module.fail_json(msg=str(exc), **extra)

    # -- reads -----------------------------------------------------------------

    def get_one(self, endpoint, **filters):
        """The one object matching ``filters`` (None when there is none)."""
        params = dict((k, v) for k, v in filters.items() if v is not None)
        params['page_size'] = 2
        page = self.client.get(endpoint, params=params)
        results = page.get('results', []) if isinstance(page, dict) else []
        if len(results) > 1 or (isinstance(page, dict) and page.get('count', 0) > 1):
            described = ', '.join('%s=%s' % item for item in sorted(filters.items()) if item[1] is not None)
            raise MultipleFound('More than one object in %s matches %s: name it by id instead.'
                                % (endpoint, described))
        return results[0] if results else None

    def resolve_id(self, endpoint, value, label=None, **filters):
        """The id of the object named ``value`` (a name or an id) in ``endpoint``."""
        if value is None:
            return None
        if is_id(value):
            return int(value)
        found = self.get_one(endpoint, name=value, **filters)
        if found is None:
            raise NotFound('%s %r was not found.' % (label or endpoint.rstrip('s'), value))
        return found['id']

    # -- writes ------------------------------------------------------------------

    def detail_path(self, obj):
        return obj.get('url') or '%s/%s' % (self.resource, obj['id'])

    def changes(self, existing, desired, normalize=None):
        """The fields of ``desired`` whose values differ from ``existing``."""
        normalize = normalize or {}
        changed = {}
        for key, want in desired.items():
            have = existing.get(key)
            if key in normalize:
                want_cmp, have_cmp = normalize[key](want), normalize[key](have)
            else:
                want_cmp, have_cmp = want, have
                if want_cmp == '' and have_cmp is None:
                    have_cmp = ''
            if want_cmp != have_cmp:
                changed[key] = want
        return changed

    def ensure_present(self, existing, desired, create=None, normalize=None, encode=None, secret=()):
        """Create ``desired`` (with ``create()`` extra fields) or update only the
        fields that differ; honour check mode; fill ``self.result``."""
        encode = encode or {}

        def wire(fields):
            return dict((k, encode[k](v) if k in encode else v) for k, v in fields.items())

        if existing is None:
            body = dict(desired)
            if create is not None:
                body.update(create())
            self._diff({}, body, secret)
            self.result['changed'] = True
            if self.module.check_mode:
                self._set_object(body)
                return body
            created = self.client.request('POST', self.resource, json_body=wire(body), expect=(200, 201))
            self._set_object(created)
            return created
        delta = self.changes(existing, desired, normalize)
        before = dict((k, existing.get(k)) for k in desired)
        if normalize:
            before = dict((k, normalize[k](v) if k in normalize else v) for k, v in before.items())
        after = dict(before)
        after.update(delta)
        if not delta:
            self._set_object(existing)
            return existing
        self._diff(before, after, secret)
        self.result['changed'] = True
        if self.module.check_mode:
            merged = dict(existing)
            merged.update(delta)
            self._set_object(merged)
            return merged
        updated = self.client.request('PATCH', self.detail_path(existing), json_body=wire(delta), expect=(200,))
        self._set_object(updated)
        return updated

    def ensure_absent(self, existing):
        if existing is None:
            return
        self.result['changed'] = True
        self._diff({'id': existing.get('id'), 'name': existing.get('name')}, {}, ())
        self.result['id'] = existing.get('id')
        if not self.module.check_mode:
            self.client.request('DELETE', self.detail_path(existing), expect=(202, 204, 404))

    def _set_object(self, obj):
        self.result['id'] = obj.get('id')
        self.result[self.result_key] = obj

    def _diff(self, before, after, secret):
        if not self.module._diff:
            return

        def hide(data):
            return dict((k, NO_LOG_PLACEHOLDER if k in secret and v else v) for k, v in data.items())

        self.result['diff'] = {'before': hide(before), 'after': hide(after)}

    def exit(self):
        self.module.exit_json(**self.result)


def require_present_fields(module, fields, state):
    missing = [name for name in fields if module.params.get(name) in (None, '')]
    if state == 'present' and missing:
        raise ConfigError('state present needs %s.' % ', '.join(missing))
