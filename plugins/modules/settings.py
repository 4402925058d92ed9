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
  - Behind an Automation Platform (2.5 to 2.7) platform gateway, the gateway keeps settings of its own (its session,
    password policy, tokens, proxy and analytics settings, C(GET /api/gateway/v1/settings/all/)). The module reads
    both lists; a setting the gateway holds is written there (one C(PUT) of those settings, as the gateway's
    settings view takes it), every other one at the controller (one C(PATCH), as on AWX). A name the gateway holds
    is the gateway's even when the controller has one of that name too. RV(written_at) says where the task wrote.
  - A name neither the gateway nor the controller has fails the task before anything is written, and so does a
    name the service has no setting for on AWX.
  - Should the controller refuse its part after the gateway took its own, the task fails and says which settings
    were written at the gateway (they stay written, and the task reports a change).
  - Takes the options of awx.awx's C(settings) module, and the form of ansible.platform's C(settings) module
    (O(settings) alone, the gateway's settings by their names).
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
      - Behind a platform gateway, the gateway's settings and the controller's may be given together.
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
    C(PASSWORD), C(SECRET) or C(PRIVATE_KEY), or C(private_key) (the gateway's C(jwt_private_key)). Secret values are
    masked in the diff and in all output of the task.
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

- name: Behind a platform gateway, its password policy and a controller setting in one task
  automation.service.settings:
    settings:
      password_min_length: 12
      password_min_digits: 1
      SESSION_COOKIE_AGE: 3600
      MAX_UI_JOB_EVENTS: 5000
  register: result       # result.written_at: [gateway, controller]
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
written_at:
  description:
    - Behind a platform gateway, where the task wrote (in check mode, would write) a change, in the order written
      (C(gateway), then C(controller)); empty when nothing changed.
  returned: when the service is behind a platform gateway
  type: list
  elements: str
  sample: [gateway, controller]
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

from ansible_collections.automation.service.plugins.module_utils._outcome import NO_LOG_PLACEHOLDER
from ansible_collections.automation.service.plugins.module_utils._errors import ApiError, ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import Resource
from ansible_collections.automation.service.plugins.module_utils._shared_resources import CONTROLLER, GATEWAY, on_gateway

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
    value=dict(type='raw'),
    settings=dict(type='dict'),
    update_secrets=dict(type='bool', default=True, no_log=False),
)
ENCRYPTED = '$encrypted$'
# Upper case: the controller's and the gateway's secrets; the gateway's jwt_private_key (its password_min_* are none).
SECRET_NAME = re.compile(r'PASSWORD|SECRET|PRIVATE_KEY|private_key')
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


class Place:
    """The settings one place keeps (the controller's, or the platform gateway's), the ones given that it holds,
    and what the task writes there."""

    def __init__(self, name, path, existing, method):
        self.name, self.path, self.existing, self.method = name, path, existing, method
        self.wanted, self.changed, self.before, self.resend = {}, {}, {}, []
        self.current = existing

    def want(self, name, value):
        """The task gives ``value`` to the setting ``name``, which this place holds."""
        self.wanted[name] = value

    def plan(self, secrets, update_secrets):
        for name, value in sorted(self.wanted.items()):
            current = self.existing[name]
            if name in secrets and held(current):
                if value in (None, ''):
                    self.changed[name] = value
                elif not (isinstance(value, str) and value.startswith(ENCRYPTED)):
                    self.resend.append(name)
            elif value != current:
                self.changed[name] = value
        self.before = dict((name, self.existing[name]) for name in self.changed)
        if not update_secrets:
            self.resend = []

    @property
    def body(self):
        return dict(self.changed, **dict((name, self.wanted[name]) for name in self.resend))

    def made(self, answer, check_mode):
        """The settings the write changed, judged by the service's ``answer`` (it may keep one as it was)."""
        kept = [] if check_mode else kept_as_they_were(self.changed, self.before, answer)
        return dict((name, value) for name, value in self.changed.items() if name not in kept)

    def took(self, answer):
        """The service answered the write with ``answer``: the settings as they now are."""
        self.current = answer
        return []

    def kept(self):
        """The settings the service kept as they were (see kept_as_they_were()), once it answered the write."""
        return kept_as_they_were(self.changed, self.before, self.current)

    def unchanged(self, names):
        """The settings ``names`` were not changed after all (the service kept them as they were)."""
        for name in names:
            del self.changed[name]
            del self.before[name]


def read_settings(api, path, where):
    found = api.client.get(path)
    if not isinstance(found, dict):
        raise ConfigError('The %s answered no settings at %s.' % (where, path))
    return found


def place_of(places, name):
    """The place that holds the setting ``name`` (the first of ``places``, the gateway's behind one); None for none."""
    return next((place for place in places if name in place.existing), None)


class SettingsPlan(Plan):
    """The writes of a settings task (one a place), with the places it read and the settings it was given, their
    ``secrets`` among them."""

    def __init__(self, places, wanted, secrets):
        super(SettingsPlan, self).__init__()
        self.places, self.wanted, self.secrets = places, wanted, secrets

    def masked(self, data):
        return dict((k, NO_LOG_PLACEHOLDER if k in self.secrets and v not in (None, '') else v) for k, v in data.items())

    def all_of(self, attribute):
        merged = {}
        for place in self.places:
            merged.update(getattr(place, attribute))
        return merged

    def values(self):
        """awx.awx's old_values and new_values: the settings that differed, before and as written (secrets masked)."""
        return dict(old_values=self.masked(self.all_of('before')), new_values=self.masked(self.all_of('changed')))


class Settings(Resource):
    """The service's settings (``settings/all/``): the controller's, and behind a platform gateway the gateway's too,
    each written where it is kept (the gateway's first, with a PUT of the settings named; the controller's with a
    PATCH); nothing is created or deleted."""

    def read_ahead(self, api):
        """Nothing for a loop's shared reads to count: no object is looked up by name."""

    def places(self, api):
        """Where the settings are kept, each read once: the controller's; behind a platform gateway, first the
        gateway's (its settings view takes PUT, of the settings named only)."""
        places = [Place(CONTROLLER, ENDPOINT, read_settings(api, ENDPOINT, 'service'), 'PATCH')]
        if on_gateway(api):
            path = api.client.layout.gateway_path(ENDPOINT)
            places.insert(0, Place(GATEWAY, path, read_settings(api, path, 'platform gateway'), 'PUT'))
        return places

    def plan(self, api):
        """Every setting given, compared where it is kept: one write a place that has one that differs (or a secret
        sent again). A name neither place holds fails the task before anything is written."""
        params = api.params
        if params['settings'] is None and not params['name']:
            raise ConfigError('Give the setting to change: name and value, or settings.')
        places = self.places(api)
        if params['settings'] is not None:
            wanted = dict(params['settings'])
        else:
            holder = place_of(places, params['name'])
            wanted = {params['name']: coerce(params['value'], holder.existing.get(params['name']) if holder else None)}
        unknown = sorted((name for name in wanted if place_of(places, name) is None), key=str)
        if unknown:
            said = 'The service has no setting %s.' % ', '.join(str(name) for name in unknown)
            if len(places) > 1:
                said += ' Neither the platform gateway nor the controller has %s.' % (
                    'it' if len(unknown) == 1 else 'them')
            raise ConfigError(said)
        for name, value in wanted.items():
            place_of(places, name).want(name, value)
        secrets = sorted(name for name in wanted if is_secret(name, place_of(places, name).existing[name]))
        for name in secrets:
            if isinstance(wanted[name], str) and wanted[name] and not wanted[name].startswith(ENCRYPTED):
                api.no_log_values.add(wanted[name])
        for place in places:
            place.plan(secrets, params['update_secrets'])
        plan = SettingsPlan(places, wanted, secrets)

        def refusal(place):
            def refused(exc):
                # awx.awx's words first (playbooks look for them), then the service's answer. The places written
                # before keep what was written there, and the task says so.
                api.returns(**plan.values())
                if len(places) > 1:
                    api.returns(written_at=plan.written_at())
                where = ' (the platform gateway)' if place.name == GATEWAY else ''
                done = ''
                if plan.changed:
                    done = ' (the settings %s were written at the platform gateway)' % ', '.join(
                        sorted(n for p in places if p.name == GATEWAY for n in p.changed))
                raise ApiError('Unable to update settings%s: %s%s' % (where, exc, done), status=exc.status,
                               detail=exc.detail, method=exc.method, url=exc.url)
            return refused

        def write(place):
            # what changed follows from the answer: the service may keep a setting as it was
            def made(answer):
                return place.made(answer, api.check_mode)

            def before(answer):
                return dict((name, place.before[name]) for name in made(answer)) or None

            return Write(place.method, place.path, place.body, makes=True,
                         answer=dict(place.existing, **plan.masked(place.changed)), before=before,
                         after=lambda answer: made(answer) or None, changes=made, secret=secrets,
                         refused=refusal(place), then=place.took, at=place.name if len(places) > 1 else None)

        return plan.add(*[write(place) for place in places if place.body])

    def returns(self, api, existing, made, plan=None):
        """What the task wrote and what the settings given now are; a setting the service kept as it was is no
        change (a warning says so), or fails the task when it was given no value."""
        params = api.params
        resent = []
        for place in plan.places:
            if place.body and not api.check_mode:
                resent.extend(place.resend)
                kept = place.kept()
                if kept and params['settings'] is None and params['value'] is None:
                    # No value (omitted, or null) asks for null, as awx.awx sends it: most settings refuse it, and the
                    # task fails; one the service keeps as it was fails the same way, since nothing asked for was
                    # done.
                    api.returns(**plan.values())
                    raise ApiError('Unable to update settings: %s was given no value, and the service kept it as it '
                                   'was (a setting defined in a settings file of the service cannot be changed '
                                   'through the API).' % params['name'])
                if kept:
                    # The service ignores a setting defined in one of its settings files: nothing changed.
                    api.warn('The service kept %s as %s: a setting defined in a settings file of the service cannot '
                             'be changed through the API.' % (', '.join(kept), 'it was' if len(kept) == 1 else
                                                              'they were'))
                    place.unchanged(kept)
        if resent:
            api.returns(secrets_sent=sorted(resent))
        api.returns(**plan.values())
        if len(plan.places) > 1:
            api.returns(written_at=plan.written_at())
        values = dict((name, place_of(plan.places, name).current.get(name)) for name in plan.wanted)
        if params['settings'] is not None:
            api.returns(current_values=values)
        else:
            api.returns(value=values[params['name']])


RESOURCE = Settings(ENDPOINT, None, 'settings')
# Neither name nor settings is refused by plan() (an argument spec check would come before the type checks).
SPEC = RESOURCE.spec(ARGUMENT_SPEC, mutually_exclusive=[['name', 'settings']])
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
