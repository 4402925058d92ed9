# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The connection and authentication options, declared once.

Modules get them as an argument spec (``module_argument_spec``), the lookup
through its own option getter (``options_from_getter``); both end in
``resolve`` which applies, in order: the value given, the environment (first
variable set wins), the config file, the default.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.automation.service.plugins.module_utils._authenticator import METHODS
from ansible_collections.automation.service.plugins.module_utils._client import LAYOUTS
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError

AUTH_METHODS = ('auto',) + tuple(METHODS)

# name: (type, aliases, environment variables, extra argspec keys); doc_fragments/auth.py documents them
# (a unit test checks it against this).
OPTIONS = {
    'service_url': ('str', ['controller_host', 'aap_hostname', 'gateway_hostname'],
                    ['SERVICE_URL', 'CONTROLLER_HOST', 'TOWER_HOST', 'GATEWAY_HOSTNAME', 'AAP_HOSTNAME'], {}),
    'service_layout': ('str', [], ['SERVICE_LAYOUT'], {'choices': list(LAYOUTS)}),
    'service_auth': ('str', [], ['SERVICE_AUTH'], {'choices': list(AUTH_METHODS)}),
    'service_username': ('str', ['controller_username', 'aap_username', 'gateway_username'],
                         ['SERVICE_USERNAME', 'CONTROLLER_USERNAME', 'TOWER_USERNAME', 'GATEWAY_USERNAME',
                          'AAP_USERNAME'], {}),
    'service_password': ('str', ['controller_password', 'aap_password', 'gateway_password'],
                         ['SERVICE_PASSWORD', 'CONTROLLER_PASSWORD', 'TOWER_PASSWORD', 'GATEWAY_PASSWORD',
                          'AAP_PASSWORD'], {'no_log': True}),
    'service_token': ('raw', ['controller_oauthtoken', 'aap_token', 'gateway_token', 'controller_token', 'aap_oauth_token'],
                      ['SERVICE_TOKEN', 'CONTROLLER_OAUTH_TOKEN', 'TOWER_OAUTH_TOKEN', 'GATEWAY_API_TOKEN',
                       'AAP_TOKEN', 'CONTROLLER_TOKEN', 'AAP_OAUTH_TOKEN'], {'no_log': True}),
    'service_client_id': ('str', [], ['SERVICE_CLIENT_ID'], {}),
    'service_client_secret': ('str', [], ['SERVICE_CLIENT_SECRET'], {'no_log': True}),
    'service_sso_backend': ('str', [], ['SERVICE_SSO_BACKEND'], {}),
    'service_sso_idp': ('str', [], ['SERVICE_SSO_IDP'], {}),
    'service_sso_otp': ('str', [], ['SERVICE_SSO_OTP'], {'no_log': True}),
    'service_sso_allow_insecure_idp': ('bool', [], ['SERVICE_SSO_ALLOW_INSECURE_IDP'], {}),
    'service_session_id': ('str', [], ['SERVICE_SESSION_ID'], {'no_log': True}),
    'session_cache': ('bool', [], ['SERVICE_SESSION_CACHE'], {}),
    'validate_certs': ('bool', ['aap_validate_certs', 'gateway_validate_certs'],
                       ['SERVICE_VERIFY_SSL', 'CONTROLLER_VERIFY_SSL', 'TOWER_VERIFY_SSL', 'GATEWAY_VERIFY_SSL',
                        'AAP_VALIDATE_CERTS'], {}),
    'ca_path': ('path', ['aap_ca_bundle', 'gateway_ca_bundle', 'ansible_platform_ca_bundle'], ['SERVICE_CA_PATH'], {}),
    'request_timeout': ('float', ['aap_request_timeout', 'gateway_request_timeout'],
                        ['SERVICE_REQUEST_TIMEOUT', 'CONTROLLER_REQUEST_TIMEOUT', 'TOWER_REQUEST_TIMEOUT',
                         'GATEWAY_REQUEST_TIMEOUT', 'AAP_REQUEST_TIMEOUT'], {}),
    'allow_insecure_http': ('bool', [], ['SERVICE_ALLOW_INSECURE_HTTP'], {}),
    'request_retries': ('int', [], ['SERVICE_REQUEST_RETRIES'], {}),
    'request_retry_max_seconds': ('float', [], ['SERVICE_REQUEST_RETRY_MAX_SECONDS'], {}),
    'max_requests_in_flight': ('int', [], ['SERVICE_MAX_REQUESTS_IN_FLIGHT'], {}),
    'loop_reads': ('bool', [], ['SERVICE_LOOP_READS'], {}),
    'service_config_file': ('path', ['controller_config_file'],
                            ['SERVICE_CONFIG_FILE', 'CONTROLLER_CONFIG_FILE', 'TOWER_CONFIG_FILE'], {}),
}

DEFAULTS = {
    'service_layout': 'auto',
    'service_auth': 'auto',
    'session_cache': True,
    'validate_certs': True,
    'request_timeout': 10.0,
    'allow_insecure_http': False,
    'service_sso_allow_insecure_idp': False,
    'request_retry_max_seconds': 60.0,
    'max_requests_in_flight': 4,
    'loop_reads': True,
}

# Config-file keys (tower_cli.cfg names first, then ours) for each option.
CONFIG_KEYS = {
    'service_url': ('host', 'service_url'),
    'service_layout': ('layout', 'service_layout'),
    'service_auth': ('auth', 'service_auth'),
    'service_username': ('username', 'service_username'),
    'service_password': ('password', 'service_password'),
    'service_token': ('oauth_token', 'token', 'service_token'),
    'service_client_id': ('client_id', 'service_client_id'),
    'service_client_secret': ('client_secret', 'service_client_secret'),
    'service_sso_backend': ('sso_backend', 'service_sso_backend'),
    'service_sso_idp': ('sso_idp', 'service_sso_idp'),
    'service_session_id': ('session_id', 'service_session_id'),
    'session_cache': ('session_cache',),
    'validate_certs': ('verify_ssl', 'validate_certs'),
    'ca_path': ('ca_path',),
    'request_timeout': ('request_timeout',),
    'allow_insecure_http': ('allow_insecure_http',),
    'request_retries': ('request_retries',),
    'request_retry_max_seconds': ('request_retry_max_seconds',),
    'max_requests_in_flight': ('max_requests_in_flight',),
    'loop_reads': ('loop_reads',),
}

# The Automation Hub modules' own connection options, ansible.hub's names (its doc fragment auth and its
# module_utils/ah_module.py: AUTH_ARGSPEC): name -> (type, aliases, environment variables, the shared option it
# means, extra argspec keys); doc_fragments/hub.py documents them. A Hub module takes them besides the shared ones;
# what a task gives under either name, or the environment gives under ansible.hub's variables, is the shared
# option's value (see resolve). No other module takes them, so AH_HOST and the rest never move a controller's task.
HUB_OPTIONS = {
    'ah_host': ('str', ['ah_hostname'], ['AH_HOST'], 'service_url', {}),
    'ah_username': ('str', [], ['AH_USERNAME'], 'service_username', {}),
    'ah_password': ('str', [], ['AH_PASSWORD'], 'service_password', {'no_log': True}),
    'ah_token': ('raw', [], ['AH_API_TOKEN'], 'service_token', {'no_log': True}),
    # the Hub's API under /api/<prefix>/ on a standalone Hub (a full path starting /api/ is taken as it is)
    'ah_path_prefix': ('str', [], ['GALAXY_API_PATH_PREFIX'], None, {}),
}
# ansible.hub's environment variables for the shared options its modules take under their shared names (its
# validate_certs, with the alias ah_verify_ssl, and request_timeout): read before the shared ones by a Hub module.
HUB_ENVIRONMENT = {
    'validate_certs': ['AH_VERIFY_SSL'],
    'request_timeout': ['AH_REQUEST_TIMEOUT'],
}
HUB_ALIASES = {'validate_certs': ['ah_verify_ssl']}
HUB_DEFAULTS = {'ah_path_prefix': 'galaxy'}

_TRUE = ('1', 'true', 'yes', 'on', 'y', 't')
_FALSE = ('0', 'false', 'no', 'off', 'n', 'f', '')


def module_argument_spec():
    """The options as an AnsibleModule argument spec, without env fallbacks.

    Env and config-file fallbacks are applied by ``resolve`` so that modules
    and the lookup share one precedence.
    """
    spec = {}
    for name, (kind, aliases, _envs, extra) in OPTIONS.items():
        entry = {'type': kind}
        if aliases:
            entry['aliases'] = list(aliases)
        entry.update(extra)
        spec[name] = entry
    return spec


def hub_argument_spec():
    """The options of a Hub module: the shared ones (module_argument_spec) and ansible.hub's (HUB_OPTIONS), with
    ansible.hub's alias of validate_certs."""
    spec = module_argument_spec()
    for name, (kind, aliases, _envs, _shared, extra) in HUB_OPTIONS.items():
        entry = {'type': kind}
        if aliases:
            entry['aliases'] = list(aliases)
        entry.update(extra)
        spec[name] = entry
    for name, aliases in HUB_ALIASES.items():
        spec[name]['aliases'] = list(spec[name].get('aliases') or []) + list(aliases)
    return spec


def is_hub(given):
    """Whether ``given`` are a Hub module's options (they name ansible.hub's, set or not)."""
    return 'ah_path_prefix' in given


def options_from_getter(get_option):
    """Collect the options from a plugin's ``get_option``."""
    return dict((name, get_option(name)) for name in OPTIONS)


def _convert(name, value, source):
    kind = OPTIONS[name][0]
    if value is None:
        return None
    try:
        if kind == 'bool':
            if isinstance(value, bool):
                return value
            text = to_text(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ValueError(text)
        if kind == 'float':
            number = float(value)
            if number <= 0:
                raise ValueError(value)
            return number
        if kind == 'int':
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)
            number = int(value)
            if number < 0:
                raise ValueError(value)
            return number
        if kind == 'path':
            return os.path.expanduser(to_text(value))
        if kind == 'raw':
            return value
        return to_text(value)
    except (TypeError, ValueError):
        raise ConfigError('Option %s from %s has an invalid value for type %s.' % (name, source, kind))


def _parse_config_text(text, path):
    stripped = text.strip()
    if not stripped:
        return {}
    if stripped.startswith('{'):
        try:
            data = json.loads(stripped)
        except ValueError as exc:
            raise ConfigError('Config file %s is not valid JSON: %s' % (path, exc))
        return data
    first = [line for line in stripped.splitlines() if line.strip() and not line.strip().startswith(('#', ';'))]
    if first and (first[0].strip().startswith('[') or '=' in first[0] and ':' not in first[0].split('=', 1)[0]):
        return _parse_ini(stripped, path)
    try:
        import yaml
        data = yaml.safe_load(stripped)
    except Exception as exc:  # yaml raises many types; report them all the same way
        raise ConfigError('Config file %s is neither YAML, JSON nor INI: %s' % (path, exc))
    if not isinstance(data, dict):
        raise ConfigError('Config file %s must hold a mapping of keys to values.' % path)
    return data


def _parse_ini(text, path):
    from ansible.module_utils.six.moves import configparser
    parser = configparser.ConfigParser()
    if not text.lstrip().startswith('['):
        text = '[general]\n' + text
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        raise ConfigError('Config file %s is not valid INI: %s' % (path, exc))
    section = 'general' if parser.has_section('general') else (parser.sections() or [None])[0]
    if section is None:
        return {}
    return dict(parser.items(section))


def read_config_file(path):
    """Read a tower_cli.cfg-style file (YAML, JSON or INI) into a dict."""
    try:
        with open(path, 'r') as handle:
            text = handle.read()
    except (IOError, OSError) as exc:
        raise ConfigError('Cannot read config file %s: %s' % (path, exc.strerror or exc))
    data = _parse_config_text(text, path)
    if not isinstance(data, dict):
        raise ConfigError('Config file %s must hold a mapping of keys to values.' % path)
    return data


def resolve(given, environ=None):
    """Apply env, config-file and default fallbacks; return a plain dict."""
    environ = os.environ if environ is None else environ
    values = {}
    hub = is_hub(given)
    # a Hub module's: the shared option -> ansible.hub's that means it
    hub_names = dict((spec[3], name) for name, spec in HUB_OPTIONS.items() if spec[3]) if hub else {}
    for name in OPTIONS:
        value = given.get(name)
        source = 'the task'
        hub_name = hub_names.get(name)
        if hub_name and given.get(hub_name) not in (None, ''):
            # ansible.hub's name given in the task wins over the shared one: a role written for ansible.hub sets
            # it on the task, while the shared one may come from a module_defaults group meant for the controller
            value, source = given[hub_name], 'the task (%s)' % hub_name
        envs = list(OPTIONS[name][2])
        if hub:
            envs = [HUB_OPTIONS[hub_name][2][0]] + envs if hub_name else HUB_ENVIRONMENT.get(name, []) + envs
        if value is None or value == '':
            value, source = None, None
            for var in envs:
                if environ.get(var):
                    value, source = environ[var], 'environment variable %s' % var
                    break
        values[name] = _convert(name, value, source) if value is not None else None

    config_path = values.get('service_config_file')
    if config_path:
        config = read_config_file(config_path)
        for name, keys in CONFIG_KEYS.items():
            if values.get(name) is not None:
                continue
            for key in keys:
                if config.get(key) not in (None, ''):
                    values[name] = _convert(name, config[key], 'config file %s key %s' % (config_path, key))
                    break

    for name, default in DEFAULTS.items():
        if values.get(name) is None:
            values[name] = default
    if hub:
        prefix = given.get('ah_path_prefix')
        if prefix in (None, ''):
            prefix = next((environ[var] for var in HUB_OPTIONS['ah_path_prefix'][2] if environ.get(var)),
                          HUB_DEFAULTS['ah_path_prefix'])
        values['ah_path_prefix'] = to_text(prefix)
        # the Hub's own words for a token (ansible.hub's) when the task named it so
        values['token_option'] = 'ah_token' if given.get('ah_token') not in (None, '') or (
            given.get('service_token') in (None, '') and environ.get('AH_API_TOKEN')) else None
    if values['service_layout'] not in LAYOUTS:
        raise ConfigError('service_layout must be one of %s, not %s.'
                          % (', '.join(LAYOUTS), values['service_layout']))
    if values['service_auth'] not in AUTH_METHODS:
        raise ConfigError('service_auth must be one of %s, not %s.'
                          % (', '.join(AUTH_METHODS), values['service_auth']))
    return values
