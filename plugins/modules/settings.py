#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: settings
short_description: Change settings of the service
version_added: 0.2.0
description:
  - Reads every setting of the service (C(GET /api/v2/settings/all/)), compares the ones given with their current
    values, and writes only those that differ, in one C(PATCH).
  - Give one setting with O(name) and O(value), or many at once with O(settings).
  - A name the service has no setting for fails the task before anything is written.
  - A setting defined in a settings file of the service cannot be changed through the API; the service ignores
    it. When the service's answer still holds such a setting's old value, the task reports no change for it and
    warns (check mode cannot tell, and reports the change).
  - Takes the options of awx.awx's C(settings) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of one setting to change, for example V(AWX_ISOLATION_SHOW_PATHS), to O(value).
    type: str
  value:
    description:
      - The value of the setting O(name).
      - A text value is turned into the type of the setting's current value where they differ, as awx.awx does
        for any text value, for example the text V(["/srv/shared"]) into a list or V('true') into a boolean, so that values
        templated as text still compare equal. A setting whose current value is text keeps the value as given;
        one whose current value is V(null) takes JSON or YAML lists and dictionaries, booleans and whole numbers.
      - V(null), or no O(value) at all (as with awx.awx), clears a setting that takes it; the service refuses it for
        the others, and the task fails with C(Unable to update settings). A setting defined in a settings file of
        the service, which the service keeps as it was, fails the task the same way when given no value (an
        omitted value is most often a mistake, such as a C(default(omit)) of a missing variable); given a value, it
        is no change and a warning.
    type: raw
  settings:
    description:
      - Many settings at once, setting name to value. The values are sent as given (no conversion).
    type: dict
  update_secrets:
    description:
      - Whether the secret settings given are written when the service already holds a value for them (see the notes).
    type: bool
    default: true
notes:
  - The service reads the value of a secret setting back as C($encrypted$), so the module cannot tell whether the
    value given equals the one stored. A secret the service does not hold yet, or a secret given as V('') or V(null)
    when one is held, is a change. Otherwise, with O(update_secrets=true), the secret given is sent (not in check
    mode) so that a new value reaches the service, but the run does not report a change for it, and returns its name
    in RV(secrets_sent). With O(update_secrets=false) it is not sent.
  - A setting is taken as secret when the service reads it back as C($encrypted$) or when its name holds
    C(PASSWORD), C(SECRET) or C(PRIVATE_KEY). Secret values are masked in the diff and in all output of the task.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Paths shown to jobs in their isolated environment
  automation.service.settings:
    name: AWX_ISOLATION_SHOW_PATHS
    value:
      - /var/lib/shared
      - /opt/tools

- name: Send logs to a log aggregator
  automation.service.settings:
    settings:
      LOG_AGGREGATOR_HOST: logs.example.com
      LOG_AGGREGATOR_PORT: 8088
      LOG_AGGREGATOR_TYPE: splunk
      LOG_AGGREGATOR_PASSWORD: "{{ splunk_token }}"
      LOG_AGGREGATOR_ENABLED: true
'''

RETURN = r'''
old_values:
  description: The settings that differed, with the values they had (secrets masked).
  returned: always
  type: dict
  sample: {"AWX_ISOLATION_SHOW_PATHS": []}
new_values:
  description: The settings that differed, with the values written (secrets masked).
  returned: always
  type: dict
  sample: {"AWX_ISOLATION_SHOW_PATHS": ["/var/lib/shared", "/opt/tools"]}
value:
  description: The value of the setting O(name) as the service holds it after the task (the would-be one in check mode).
  returned: with O(name)
  type: raw
  sample: ["/var/lib/shared", "/opt/tools"]
current_values:
  description: The values of the settings O(settings) as the service holds them after the task (the would-be ones in
    check mode); secrets read as C($encrypted$).
  returned: with O(settings)
  type: dict
  sample: {"LOG_AGGREGATOR_HOST": "logs.example.com", "LOG_AGGREGATOR_PASSWORD": "$encrypted$"}
secrets_sent:
  description: The names of the secret settings sent although the module could not tell whether they changed.
  returned: when such secrets were sent
  type: list
  elements: str
  sample: [LOG_AGGREGATOR_PASSWORD]
'''

import json
import re

from ansible.module_utils.parsing.convert_bool import boolean

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._outcome import NO_LOG_PLACEHOLDER
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
    value=dict(type='raw'),
    settings=dict(type='dict'),
    update_secrets=dict(type='bool', default=True, no_log=False),
)
ENCRYPTED = '$encrypted$'
SECRET_NAME = re.compile(r'PASSWORD|SECRET|PRIVATE_KEY')
ENDPOINT = 'settings/all'


def load_data(text):
    """A JSON or YAML list or dictionary given as text."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        import yaml
        return yaml.safe_load(text)
    except Exception:
        raise ConfigError('value %r looks like a list or dictionary but is neither JSON nor YAML.' % text)


def coerce(value, current):
    """``value`` given as text, in the type of the setting's ``current`` value."""
    if not isinstance(value, str) or isinstance(current, str):
        return value
    text = value.strip()
    if isinstance(current, bool):
        try:
            return boolean(text, strict=True)
        except TypeError:
            return value
    if text[:1] + text[-1:] in ('{}', '[]'):
        return load_data(text)
    if current is None and text.lower() in ('true', 'false'):
        return text.lower() == 'true'
    if isinstance(current, (int, float)) or current is None:
        try:
            return int(text)
        except ValueError:
            try:
                return float(text) if isinstance(current, float) else value
            except ValueError:
                return value
    return value


def is_secret(name, current):
    return SECRET_NAME.search(name) is not None or (isinstance(current, str) and current.startswith(ENCRYPTED))


def held(current):
    return isinstance(current, str) and current.startswith(ENCRYPTED)


def kept_as_they_were(changed, before, answer):
    """The names of ``changed`` whose value in the service's ``answer`` to the update is still
    the one ``before`` it (and not the one asked for)."""
    if not isinstance(answer, dict):
        return []
    return sorted(name for name in changed
                  if name in answer and answer[name] == before[name] and answer[name] != changed[name])


def run(api):
    params = api.params
    if params['settings'] is None and not params['name']:
        raise ConfigError('Give the setting to change: name and value, or settings.')
    existing = api.client.get(ENDPOINT)
    if not isinstance(existing, dict):
        raise ConfigError('The service answered no settings at %s.' % ENDPOINT)
    if params['settings'] is not None:
        wanted = dict(params['settings'])
    else:
        wanted = {params['name']: coerce(params['value'], existing.get(params['name']))}
    unknown = sorted((name for name in wanted if name not in existing), key=str)
    if unknown:
        raise ConfigError('The service has no setting %s.' % ', '.join(str(name) for name in unknown))
    secrets = sorted(name for name in wanted if is_secret(name, existing[name]))
    for name in secrets:
        if isinstance(wanted[name], str) and wanted[name] and not wanted[name].startswith(ENCRYPTED):
            api.no_log_values.add(wanted[name])

    changed, resend = {}, []
    for name, value in sorted(wanted.items()):
        current = existing[name]
        if name in secrets and held(current):
            if value in (None, ''):
                changed[name] = value
            elif not (isinstance(value, str) and value.startswith(ENCRYPTED)):
                resend.append(name)
        elif value != current:
            changed[name] = value

    def masked(data):
        return dict((k, NO_LOG_PLACEHOLDER if k in secrets and v not in (None, '') else v) for k, v in data.items())

    before = dict((name, existing[name]) for name in changed)
    resend = resend if params['update_secrets'] else []
    body = dict(changed, **dict((name, wanted[name]) for name in resend))

    def refused(exc):
        # Nothing changed. awx.awx's words first (playbooks look for them), then the service's answer.
        api.returns(old_values=masked(before), new_values=masked(changed))
        raise ApiError('Unable to update settings: %s' % exc, status=exc.status, detail=exc.detail,
                       method=exc.method, url=exc.url)

    # What changed is said below, from the answer: the service may keep a setting as it was.
    writes = [Write('PATCH', ENDPOINT, body, makes=True, answer=existing, refused=refused, changes=False)] if body else []
    current = api.apply(Plan(existing, writes))
    if api.check_mode:
        current = dict(existing, **masked(changed))
    elif body:
        if resend:
            api.returns(secrets_sent=resend)
        kept = kept_as_they_were(changed, before, current)
        if kept and params['settings'] is None and params['value'] is None:
            # No value (omitted, or null) asks for null, as awx.awx sends it: most settings refuse it, and the task
            # fails; one the service keeps as it was fails the same way, since nothing asked for was done.
            api.returns(old_values=masked(before), new_values=masked(changed))
            raise ApiError('Unable to update settings: %s was given no value, and the service kept it as it was (a '
                           'setting defined in a settings file of the service cannot be changed through the API).'
                           % params['name'])
        if kept:
            # The service ignores a setting defined in one of its settings files: nothing changed.
            api.warn('The service kept %s as %s: a setting defined in a settings file of the service cannot be '
                     'changed through the API.' % (', '.join(kept), 'it was' if len(kept) == 1 else 'they were'))
            for name in kept:
                del changed[name]
                del before[name]
    api.returns(old_values=masked(before), new_values=masked(changed))
    if changed:
        api.change(before, changed, secrets)
    values = dict((name, current.get(name)) for name in wanted)
    if params['settings'] is not None:
        api.returns(current_values=values)
    else:
        api.returns(value=values[params['name']])


# Neither name nor settings is refused by run (an argument spec check would come before the type checks).
SPEC = ModuleSpec(ARGUMENT_SPEC, resource=ENDPOINT, mutually_exclusive=[['name', 'settings']])


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
