# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every module is made of, and the verbs they share.

A module declares a ``ModuleSpec`` (its argument spec and what it manages) and
one function ``run(api)``. ``api`` is an ``ApiTask``: the validated parameters,
check and diff mode, a lazily connected client, and the verbs (``get_one``,
``ensure_present``, ``ensure_absent``). The same ``run`` serves both ways a
task runs: inside the controller's worker (the action plugin, which validates
with ansible-core's ArgumentSpecValidator) and as a module (``spec.main(run)``
with AnsibleModule). Errors are typed exceptions up to ``ApiTask.execute``,
which turns them into a failed result.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import json
import os
from types import MappingProxyType
from urllib.parse import quote, urlencode, urlsplit

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._client import api_path
from ansible_collections.automation.service.plugins.module_utils._errors import (
    ApiError, ConfigError, MultipleFound, NotFound, OutcomeUnknown, ServiceError,
)
from ansible_collections.automation.service.plugins.module_utils._options import (
    OPTIONS, module_argument_spec, resolve,
)
from ansible_collections.automation.service.plugins.module_utils._outcome import Outcome, masked
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

SECRET_OPTIONS = [name for name, spec in OPTIONS.items() if spec[3].get('no_log')]


def wanted_one(endpoint, params, count, client=None):
    """awx.awx's words for a look-up that did not find exactly one object (playbooks
    written for it test them): the request, as a path and query (where the client's layout
    puts it: ``/api/controller/v2/...`` behind a platform gateway), and its count."""
    shown = [(k, v) for k, v in params.items() if k != 'page_size']
    layout = getattr(client, 'layout', None)
    path = layout.path(endpoint) if layout is not None else api_path(endpoint)
    return 'Request to %s%s returned %d items, expected 1' % (path, '?' + urlencode(shown) if shown else '', count)


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


def narrow_no_log(params, no_log_values, data, secrets):
    """``data``, the value of a no_log dict option, has every value in it masked
    wherever it shows up; mask only ``secrets`` of it, and the secret options."""
    no_log_values.difference_update(set(_leaves(data)))
    secrets = list(secrets) + [params.get(n) for n in SECRET_OPTIONS]
    no_log_values.update(to_text(value) for value in secrets if isinstance(value, str) and value)


def narrow_token_dict_no_log(params, no_log_values):
    """A token dict given as service_token is no_log, so Ansible would mask every
    value in it (ids, scope, dates) wherever it shows up, even inside a newly
    minted secret. Mask only its secrets and the other secret options."""
    for option in ('service_token', 'ah_token'):    # ah_token: a Hub module's (ansible.hub's name)
        token = params.get(option)
        if isinstance(token, dict):
            narrow_no_log(params, no_log_values, token, [token.get('token'), token.get('refresh_token')])


def infinite_ints(spec, params):
    """The whole-number options given an infinity (ansible-core's int check lets
    int(inf) escape as OverflowError), and the message that names them."""
    ints = [name for name, option in spec.items() if option.get('type') == 'int']
    infinities = (float('inf'), float('-inf'))
    bad = [name for name in ints if isinstance(params.get(name), float) and params[name] in infinities]
    return '%s must be a whole number, not an infinity.' % ' and '.join(bad or ints)


def loosened(spec):
    """``spec`` with its int options taken as raw (to find the infinities)."""
    return dict(spec, **dict((name, dict(option, type='raw')) for name, option in spec.items()
                             if option.get('type') == 'int'))


def flattened(spec):
    """``spec`` without the sub-options of its dict options (ansible-core's own
    check of sub-options fails with TypeError on a value that is not a dict)."""
    return dict((name, dict((k, v) for k, v in option.items() if k != 'options')) for name, option in spec.items())


def nested_type_error(spec, params, prefix=''):
    """The message naming the first option with sub-options given a value that is not a dict."""
    for name, option in spec.items():
        value = params.get(name) if isinstance(params, dict) else None
        if not option.get('options') or value is None:
            continue
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            label = prefix + name + ('[%d]' % index if isinstance(value, list) else '')
            if isinstance(item, str):
                continue  # converted by ansible-core, never the cause
            if not isinstance(item, dict):
                return 'value of %s must be a dict, not %s.' % (label, type(item).__name__)
            found = nested_type_error(option['options'], item, label + '.')
            if found:
                return found
    return None


def _known_only(spec, value, path, ignored):
    options = spec.get('options')
    if not options:
        return value
    if spec.get('type') == 'list' and isinstance(value, list):
        item_spec = dict(spec, type=spec.get('elements'))
        return [_known_only(item_spec, item, '%s[%d]' % (path, i), ignored) for i, item in enumerate(value)]
    if not isinstance(value, dict):
        return value
    names = {}
    for key, sub in options.items():
        for name in [key] + list(sub.get('aliases') or ()):
            names[name] = sub
    kept = {}
    for key, item in value.items():
        if key in names:
            kept[key] = _known_only(names[key], item, '%s.%s' % (path, key), ignored)
        else:
            ignored.append('%s.%s' % (path, key))
    return kept


# Options that, when optional and given as '', the task reads as not given.
EMPTY_IS_UNSET = ('organization',)


class ModuleSpec:
    """A module's argument spec (its own options and the shared connection
    options), the keywords AnsibleModule takes with it, and what it manages."""

    def __init__(self, argument_spec, resource=None, result_key=None, free_form=(), adjust=None,
                 result_is_secret=None, **spec_kwargs):
        self.argument_spec = module_argument_spec()
        self.argument_spec.update(argument_spec)
        self.resource = resource
        self.result_key = result_key
        # adjust(params): the options that the module reads otherwise than given (awx.awx's spellings of
        # one value), as a dict; the task reads them in place of those given, which stay as they are.
        self.adjust = adjust
        # Options whose items awx.awx takes as free-form dicts, ignoring the keys it does not use:
        # those keys are left out here too (with a warning) instead of failing the task.
        self.free_form = free_form
        self.spec_kwargs = spec_kwargs      # mutually_exclusive, required_if, ...
        # result_is_secret(result): the result holds a secret just minted (a token, a client secret), so
        # the action hides the whole result from every display, as ``no_log`` would, while the
        # registered variable keeps it for later tasks.
        self.result_is_secret = result_is_secret
        # An optional organization given as '' is no organization, in every module, as awx.awx reads
        # it (``if organization:``) and as infra.aap_configuration sends it for "not set".
        self.empty_is_unset = tuple(option for option in EMPTY_IS_UNSET
                                    if option in argument_spec and not argument_spec[option].get('required'))

    def without_unknown(self, args):
        """``args`` with the keys of the ``free_form`` options' items that their sub-options do
        not name left out; and the left-out keys' paths."""
        ignored = []
        args = dict(args)
        for name in self.free_form:
            if name in args:
                args[name] = _known_only(self.argument_spec[name], args[name], name, ignored)
        return args, ignored

    def main(self, run):
        """The module's entry point (a remote host, become, async)."""
        from ansible.module_utils.basic import AnsibleModule
        kwargs = dict(self.spec_kwargs, supports_check_mode=True)
        try:
            module = AnsibleModule(argument_spec=self.argument_spec, **kwargs)
        except OverflowError:
            module = AnsibleModule(argument_spec=loosened(self.argument_spec), **kwargs)
            module.fail_json(msg=infinite_ints(self.argument_spec, module.params))
        except TypeError:
            module = AnsibleModule(argument_spec=flattened(self.argument_spec), **kwargs)
            module.fail_json(msg=nested_type_error(self.argument_spec, module.params) or 'an option has a wrong type.')
        narrow_token_dict_no_log(module.params, module.no_log_values)
        api = ApiTask(self, module.params, check_mode=module.check_mode, diff=module._diff,
                      no_log_values=module.no_log_values, runner=module_runner(module))
        result = api.execute(run)
        for warning in result.pop('warnings', ()):
            module.warn(warning)
        if result.pop('failed', False):
            module.fail_json(**result)
        module.exit_json(**result)


def module_runner(module):
    """The runner of a task on the module's host: AnsibleModule.run_command (the module's environment is the
    task's already)."""
    def run(args, environ):
        return module.run_command(args, check_rc=False)

    return run


# The keys that name a created object in awx.awx's and ansible.platform's results, in their order.
CREATED_NAME_KEYS = ('name', 'username', 'identifier', 'hostname')


class ApiTask:
    """One task: parameters, modes, a lazily connected client, and the verbs."""

    def __init__(self, spec, params, check_mode=False, diff=False, environ=None, no_log_values=None, bounded=False,
                 reads=None, client=None, runner=None):
        self.spec = spec
        self.given = params
        self.params = MappingProxyType(params)
        self.check_mode = check_mode
        self.diff = diff
        self.environ = os.environ if environ is None else environ
        self.no_log_values = set() if no_log_values is None else no_log_values
        self.bounded = bounded  # on the controller: at most max_requests_in_flight requests at once
        # runs a command for the task (args, environ) -> (rc, stdout, stderr): AnsibleModule.run_command's on the
        # module's host, the action's own on the controller (plugin_utils); None where the task runs none
        self.runner = runner
        # a task of a module that may reach a Hub (export, import) but does not this time: its client neither looks
        # for a standalone Hub nor picks its authentication for one (see reaches_no_hub())
        self.hub_unneeded = False
        self.resource = spec.resource
        self.result_key = spec.result_key
        # What the task has said (an Outcome), then what each part() under way has said, innermost last.
        self._outcomes = [Outcome(diff)]
        self.warnings = []
        self.error = None  # the typed error that ended the task, if one did
        # What the task looked up, kept for the rest of it: the names of the objects it named ((endpoint, id) ->
        # name, for its diff), the scope objects its options name ((option, value) -> object), and the object a
        # resource found (endpoint -> object or None); and what the OPTIONS of a list said its POST takes
        # (endpoint -> field -> what it says of it), read once a task.
        self.names = {}
        self.scope_objects = {}
        self.found = {}
        self.described = {}
        # The client: None until the task first needs it and connects (a task within another is given its client).
        self._client = client
        # The reads the items of the task's loop share (a LoopReads, see _loop_reads), None for none; the
        # loop_reads option turns them off.
        self.reads = reads
        self._held = None
        # ahead() -> the validated options of the items of this task's loop that will run after this one (None
        # when unsure), given by the action for a resource that creates in bulk (see _loop_bulk); None for none.
        self.ahead = None

    def subtask(self, spec, params):
        """A task within this one: ``spec``'s, with ``params``, in the same modes and through the same client (this
        task's, connected now), with an outcome and warnings of its own."""
        return ApiTask(spec, params, check_mode=self.check_mode, diff=self.diff, environ=self.environ,
                       no_log_values=self.no_log_values, client=self.client, runner=self.runner)

    def reaches_no_hub(self):
        """Say, before the task connects, that it asks nothing of an Automation Hub although its module takes
        ansible.hub's options: unless the task names its service with those options (``ah_host``... given, or
        ``AH_HOST``... in the environment: a Hub is meant, and a standalone one is told as such), its client sends no
        request to find one (on AWX, none more than a controller module)."""
        from ansible_collections.automation.service.plugins.module_utils._options import HUB_OPTIONS
        named = [name for name, spec in HUB_OPTIONS.items() if spec[3]]
        if any(self.params.get(name) not in (None, '') for name in named):
            return
        if any(self.environ.get(var) for name in named for var in HUB_OPTIONS[name][2]):
            return
        self.hub_unneeded = True

    def run_command(self, args):
        """Run ``args`` (a list, no shell) in the task's environment: (rc, stdout, stderr) as text."""
        if self.runner is None:
            raise ConfigError('This task cannot run %s here.' % args[0])
        return self.runner(args, dict(self.environ))

    @contextlib.contextmanager
    def reading(self, **changed):
        """Within the block, the task reads the options ``changed`` as given there, in place of those given (an
        option whose meaning an earlier read settled: a team found where it was moved to)."""
        read = self.params
        self.params = MappingProxyType(dict(read, **changed))
        try:
            yield self
        finally:
            self.params = read

    def warn(self, message):
        self.warnings.append(message)

    @property
    def outcome(self):
        """What the task has said so far (within a part(), what the part has)."""
        return self._outcomes[-1]

    @property
    def result(self):
        """The result so far, read-only: the executor (apply()) and returns() say what it holds."""
        return self.outcome.view()

    def show(self, before=None, after=None, secret=(), under=()):
        """Fields for the diff of a change not made yet: see Outcome.show()."""
        self.outcome.show(before, after, secret, under)

    def returns(self, **values):
        self.outcome.returns(**values)

    def says(self, message):
        """The task's ``msg``, when it does not fail (see Outcome.says())."""
        self.outcome.says(message)

    def merge(self, task, under=()):
        """Take in what the sub-task ``task`` (subtask()) said: its change, its diff under the keys ``under``, its
        warnings; not the values it returns. Whether it changed anything."""
        changed = self.outcome.merge(task.outcome, under, values=False)
        self.warnings.extend(task.warnings)
        return changed

    @contextlib.contextmanager
    def part(self, diff=True, undone_on_error=False):
        """A part of the task, said with an outcome of its own (``diff`` False: what it shows is left out of the
        diff), merged into the task's when the part ends. ``undone_on_error``: a part that fails is not merged (its
        writes were taken back). Yields a dict whose ``changed`` says, once the part ended, whether it changed
        anything."""
        task, own, said = self.outcome, Outcome(self.outcome.diff_mode and diff), {'changed': False}
        self._outcomes.append(own)
        try:
            yield said
        except BaseException:
            self._outcomes.pop()
            if not undone_on_error:
                said['changed'] = task.merge(own)
            raise
        self._outcomes.pop()
        said['changed'] = task.merge(own)

    def execute(self, run):
        """``run(self)``; the result, failed with the error's message and fields
        when a typed exception of module_utils ends it."""
        try:
            read = dict((option, None) for option in self.spec.empty_is_unset if self.given.get(option) == '')
            if self.spec.adjust is not None:
                read.update(self.spec.adjust(dict(self.given, **read)))
            if read:
                self.params = MappingProxyType(dict(self.given, **read))
            run(self)
            result = self.outcome.result()
        except ServiceError as exc:
            self.error = exc
            failed = dict(self.outcome.result(), failed=True, msg=str(exc))
            status = getattr(exc, 'status', None)
            if status is not None:
                failed['status'] = status
                detail = getattr(exc, 'detail', None)
                if isinstance(detail, (dict, list)):
                    # The service's answer, where awx.awx returns it (response.json holds the field errors).
                    failed['response'] = {'status_code': status, 'json': detail}
            # An error may carry result fields of its own (a failed job's id, status, output).
            failed.update(getattr(exc, 'result', None) or {})
            result = failed
        if self.params.get('copy_from') and self.params.get('state', 'present') != 'absent':
            # awx.awx's return value: whether copy_from made the object (copied_from names the source).
            result.setdefault('copied', 'copied_from' in result)
        if self.warnings:
            result['warnings'] = list(self.warnings)
        return result

    # -- connection ------------------------------------------------------------

    @property
    def client(self):
        if self._client is None:
            from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
            options = resolve(self.params, self.environ)
            if self.hub_unneeded:
                options['ah_path_prefix'] = None
            for name in SECRET_OPTIONS:
                value = options.get(name)
                if isinstance(value, dict):
                    value = value.get('token')
                if value:
                    self.no_log_values.add(to_text(value))
            held = self.held
            self._client = connect(options, warn=self.warn, environ=self.environ, bounded=self.bounded,
                                   on_write=held.wrote if held is not None else None)
        return self._client

    @property
    def held(self):
        """What the items of this task's loop hold for its service and credentials (a Held); None when
        nothing is shared (a module, or ``loop_reads`` off)."""
        if self._held is None and self.reads is not None:
            from ansible_collections.automation.service.plugins.module_utils._loop_reads import identity
            options = resolve(self.params, self.environ)
            if options.get('loop_reads'):
                self._held = self.reads.held_for(identity(options))
            else:
                self.reads = None
        return self._held

    @property
    def writes_sent(self):
        """How many API writes this task has tried to send (0 before it connected)."""
        return self._client.writes_sent if self._client is not None else 0

    # -- reads -----------------------------------------------------------------

    def get_one(self, endpoint, **filters):
        """The one object matching ``filters`` (None when there is none)."""
        params = dict((k, v) for k, v in filters.items() if v is not None)
        params['page_size'] = 2
        return self.only_one(endpoint, params, self.client.get(endpoint, params=params))

    def only_one(self, endpoint, params, page):
        """The one object of ``page``, the answer to ``params`` (None when there is none); MultipleFound when
        it holds more than one."""
        filters = dict((k, v) for k, v in params.items() if k != 'page_size')
        results = page.get('results', []) if isinstance(page, dict) else []
        count = page.get('count', len(results)) if isinstance(page, dict) else len(results)
        if len(results) > 1 or count > 1:
            described = ', '.join('%s=%s' % item for item in sorted(filters.items()) if item[1] is not None)
            raise MultipleFound('More than one object in %s matches %s: name it by id instead (%s).'
                                % (endpoint, described, wanted_one(endpoint, params, count, self.client)), total_results=count)
        return results[0] if results else None

    def lookup(self, endpoint, value, name_field='name', label=None, required=False, missing=None, **filters):
        """The object ``value`` names in ``endpoint``, found as awx.awx finds it: a named URL
        (``name++organization``) first; then by ``name_field``, or for digits by ``name_field`` or
        id (when both match, the id wins); ``filters`` narrow the search. None when there is none,
        or NotFound when ``required`` (``''`` names nothing), with ``missing % value`` as its message
        (awx.awx's own words for that option), else with awx.awx's words for the request."""
        if value is None:
            return None
        text = to_text(value)
        filters = dict((k, v) for k, v in filters.items() if v is not None)
        if is_id(value):
            params = dict(filters, **{'or__id': int(value), 'or__' + name_field: text})
        else:
            params = dict(filters, **{name_field: text})
        found = None
        if text:
            found = self._find(endpoint, value, text, params, name_field)
        if found is None and required:
            if missing:
                raise NotFound(missing % (value,), total_results=0)
            said = '%s %r was not found' % (label or endpoint.rstrip('s'), value)
            raise NotFound('%s: %s.' % (said, wanted_one(endpoint, params, 0, self.client)), total_results=0)
        return found

    def _find(self, endpoint, value, text, params, name_field='name'):
        held = self.held
        if held is not None and (is_id(value) or '++' in text):
            # by id or named URL: the same look-up again in this loop is answered by what the first found
            return held.again(self, (endpoint, value, params),
                              lambda: self._find_here(endpoint, value, text, params, name_field))
        return self._find_here(endpoint, value, text, params, name_field)

    def _find_here(self, endpoint, value, text, params, name_field='name'):
        if '++' in text:
            try:
                found = self.client.get('%s/%s' % (endpoint, quote(text, safe='+')))
            except NotFound:
                found = None
            if isinstance(found, dict) and found.get('id') is not None:
                return found
        if not is_id(value):
            held = self.held
            if held is not None and params.get(name_field) == text:
                return held.find(self, endpoint, name_field, params)
            return self.get_one(endpoint, **params)
        page = self.client.get(endpoint, params=dict(params, page_size=10))
        results = page.get('results', []) if isinstance(page, dict) else []
        count = page.get('count', len(results)) if isinstance(page, dict) else len(results)
        if count > 1:
            for item in results:
                if item.get('id') == int(value):
                    return item
            raise MultipleFound('More than one object in %s is named %r: name it by id instead (%s).'
                                % (endpoint, text, wanted_one(endpoint, params, count, self.client)), total_results=count)
        return results[0] if results else None

    def resolve_id(self, endpoint, value, label=None, name_field='name', missing=None, **filters):
        """The id of the object named ``value`` (a name, an id or a named URL) in ``endpoint``;
        None for None. ``missing``: as for lookup()."""
        found = self.lookup(endpoint, value, name_field, label, required=True, missing=missing, **filters)
        return None if found is None else found['id']

    # -- writes ------------------------------------------------------------------

    def detail_path(self, obj, resource=None):
        """Where ``obj`` is: its id in ``resource`` (None: the task's endpoint) when that is a path placed in full
        (``/api/eda/v1/projects/``: EDA's objects have no url of their own, and a project's or an event stream's
        ``url`` is something else), else its url, else its id in ``resource``."""
        resource = resource or self.resource
        if obj.get('id') is None and obj.get('pulp_href'):
            # Pulp's objects (the Hub's roles, repositories, remotes) have no id: their pulp_href is where they are
            return urlsplit(obj['pulp_href']).path
        if str(resource).endswith('/'):
            return '%s%s/' % (resource, obj['id'])
        return obj.get('url') or '%s/%s' % (resource, obj['id'])

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

    def ensure_present(self, existing, desired, create=None, normalize=None, encode=None, secret=(), endpoint=None,
                       resource=None):
        """Create ``desired`` (with ``create()`` extra fields) or update only the
        fields that differ; honour check mode; say what changed and return the
        object (``existing`` and ``end_state`` too). A new object is posted to
        ``endpoint`` (a sub-list that creates it) when given. ``resource``: the endpoint of the
        objects, when it is not the task's (see plan_present())."""
        made = self.apply(self.plan_present(existing, desired, create, normalize, encode, secret, endpoint, resource))
        return self.returns_object(existing, made, secret)

    def plan_present(self, existing, desired, create=None, normalize=None, encode=None, secret=(), endpoint=None,
                     resource=None):
        """The write that makes ``existing`` hold ``desired`` (a POST of ``desired`` and ``create()``'s fields to
        ``endpoint``, or when there is none to the objects' endpoint, else a PATCH of the fields that differ);
        none when nothing differs. ``resource``: the objects' endpoint, as the declaration of what is written
        says it (None: the task's, its module's declared one). ``encode``: field -> how it is sent (variables
        as text)."""
        encode = encode or {}

        def wire(fields):
            return dict((k, encode[k](v) if k in encode else v) for k, v in fields.items())

        if existing is None:
            body = dict(desired)
            if create is not None:
                body.update(create())
            kind = (self.result_key or 'object').replace('_', ' ')
            name = next((body[key] for key in ('name', 'username', 'identifier') if body.get(key)), '')

            def refused(exc):
                if exc.status == 400:
                    # awx.awx's words first: "Unable to create <type> <name>: <why>".
                    exc.reword('Unable to create %s %s: %s' % (kind, name, exc.message))

            return Plan(None, [Write('POST', endpoint or resource or self.resource, wire(body), expect=(200, 201), before={},
                                     after=body, secret=secret, makes=True, answer=body, refused=refused)])
        delta = self.changes(existing, desired, normalize)
        if not delta:
            return Plan(existing)
        before = dict((k, existing.get(k)) for k in desired)
        if normalize:
            before = dict((k, normalize[k](v) if k in normalize else v) for k, v in before.items())
        after = dict(before)
        after.update(delta)
        return Plan(existing, [Write('PATCH', self.detail_path(existing, resource), wire(delta), before=before, after=after,
                                     secret=secret, makes=True, answer=dict(existing, **delta))])

    def ensure_absent(self, existing, resource=None):
        """Delete ``existing`` (nothing when it is None): plan_absent(), applied by apply_absent()."""
        self.apply_absent(self.plan_absent(existing, resource))

    def apply_absent(self, plan):
        """Apply the plan of a deletion (plan_absent()'s), and return what awx.awx returns for one: the object
        as it was (``existing``), its ``id``, and an empty ``end_state``."""
        existing = plan.existing
        if existing is None:
            self.returns(existing={}, end_state={})
        else:
            self.returns(id=existing.get('id'), existing=existing, end_state={})
        self.apply(plan)

    def plan_absent(self, existing, resource=None):
        """The DELETE of ``existing`` (none when there is nothing to delete); ``resource``: as for plan_present()."""
        if existing is None:
            return Plan(None)
        return Plan(existing, [Write('DELETE', self.detail_path(existing, resource), expect=(202, 204, 404),
                                     before={'id': existing.get('id'), 'name': existing.get('name')}, after={})])

    def apply(self, plan):
        """Send the plan's writes in order (in check mode, send none) and say each: the one place a
        write is sent and said. The object the writes made (the plan's starting one when they made none;
        in check mode, what they would have made). When a write is refused after one that says how it is
        undone, that one is undone, and the task changed nothing."""
        if self.check_mode or not any(write.undo is not None for write in plan.writes):
            return self._send(plan)
        with self.part(undone_on_error=True):
            return self._send(plan)

    def _send(self, plan):
        made = plan.existing
        queue = list(plan.writes)
        undo = []
        try:
            while queue:
                write = queue.pop(0)
                if write.shows() and not write.shown_once_taken():
                    self.show(write.before, write.after, write.secret, write.under)
                if self.check_mode and write.changes is False:
                    continue
                if write.answered is not None:
                    answer = write.answered
                elif self.check_mode:
                    answer = write.answer
                else:
                    answer = self._sent(write, made)
                    if write.undo is not None:
                        undo.append(write.undo(answer))
                plan.sent.append(write)
                plan.answers[write] = answer
                if write.shown_once_taken():
                    before, after = write.shown(answer)
                    self.show(before, after, write.secret, write.under)
                if write.changed_by(answer):
                    plan.changed.append(write)
                    self.outcome.change()   # only once the service took it: a refused write changed nothing
                if write.makes:
                    made = answer
                if write.then is not None:
                    queue[:0] = write.then(made)
        except ServiceError as exc:
            if undo and not isinstance(exc, NotFound):
                # NotFound: what is written stays, for the task to finish once the service has what it lacked
                for write in reversed(undo):
                    try:
                        self.client.request(write.method, write.path_for(made), expect=write.expect)
                    except ApiError as failed:
                        if write.refused is not None:
                            write.refused(failed)
                        raise
                    if write.note:
                        exc.reword('%s (%s)' % (exc.message, write.note))
            raise
        return made

    def _sent(self, write, made):
        """Send ``write`` (``made``: the object the plan made so far) and return its answer, settled."""
        try:
            answer = self.client.request(write.method, write.path_for(made), json_body=write.body_for(made),
                                         expect=write.expect)
        except ApiError as exc:
            if write.refused is not None:
                write.refused(exc)
            raise
        except OutcomeUnknown as exc:
            if write.lost is not None:
                write.lost(exc)
            if write.changes is not False:
                self.outcome.change()   # it may have happened: not said as nothing done
            raise
        if write.settle is None:
            return answer
        try:
            return write.settle(answer)
        except ServiceError:
            if write.changed_by(None):
                self.outcome.change()   # taken, and what it started failed or is still going
            raise

    def send_now(self, method, path, body, expect=(200, 201)):
        """Send one write now and return its answer, without saying it as this task's change: a write made for
        several items of a loop (see _loop_bulk), each of which says its own part on its own turn."""
        return self.client.request(method, path, json_body=body, expect=expect)

    def returns_object(self, existing, obj, secret=()):
        """Return ``obj`` as the module's object (awx.awx's ``id`` and result key), with the object as it
        was (``existing``) and is (``end_state``), their ``secret`` fields masked there; and, when the task
        created it, what it is called (``returns_created``)."""
        self.returns(id=obj.get('id'), existing=masked(existing or {}, secret), end_state=masked(obj, secret))
        if self.result_key:
            self.returns(**{self.result_key: obj})
        if not existing:
            self.returns_created(obj)
        return obj

    def returns_created(self, obj):
        """What awx.awx 24.6.1 and ansible.platform 2.6 return at the top of the result for an object the
        task created (not in check mode, where nothing is): its ``name`` (the last of ``name``,
        ``username``, ``identifier`` and ``hostname`` the answer has; ``unknown`` when it has none), each of
        those keys it has, as ansible.platform returns them, and, for an object called ``unknown``, its
        ``summary_fields``."""
        if self.check_mode or not isinstance(obj, dict) or obj.get('id') is None:
            return
        named = dict((key, obj[key]) for key in CREATED_NAME_KEYS if key in obj)
        name = 'unknown'
        for key in CREATED_NAME_KEYS:
            if key in obj:
                name = obj[key]
        named['name'] = name
        if name == 'unknown' and obj.get('summary_fields'):
            named['summary_fields'] = obj['summary_fields']
        self.returns(**named)
