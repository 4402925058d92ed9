# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: schedule_rruleset
short_description: An rrule set (several rules, some excluded) for a schedule
version_added: 0.2.0
description:
  - Builds the C(rrule) of a schedule (M(automation.service.schedule)) from a start date and several rules, each
    included (C(RRULE)) or excluded (C(EXRULE)), in the form the service accepts.
  - Takes the terms and options of awx.awx's C(schedule_rruleset) lookup and returns the same strings.
  - Runs on the controller and sends no request.
requirements:
  - python-dateutil (on the controller)
author:
  - automation.service maintainers (@automation-service)
options:
  _terms:
    description:
      - When the rules start, C(YYYY-MM-DD) or C(YYYY-MM-DD HH:MM:SS), in O(timezone).
    required: true
    type: list
    elements: str
  timezone:
    description:
      - The time zone of the start and of the rules' end dates, an IANA name such as C(Europe/Paris).
    type: str
    default: America/New_York
  rules:
    description:
      - The rules, at least one of them included. Each is a dictionary with C(frequency) (V(none), V(minute), V(hour),
        V(day), V(week) or V(month)), and optionally C(interval), C(end_on) (a number of runs or a date),
        C(bysetpos) (C(first), C(second), C(third), C(fourth), C(last), comma-separated), C(bymonth) (1-12),
        C(bymonthday) (1-31), C(byyearday) (1-366), C(byweekno) (1-52), C(byweekday) (weekday names), C(byhour)
        (0-23), C(byminute) (0-59), each a number, a list or comma-separated text, and C(include) (default true;
        false makes it an C(EXRULE)).
    type: list
    elements: dict
'''

EXAMPLES = r'''
- name: Every day at 10:30 but on Sundays
  automation.service.schedule:
    name: weekdays-and-saturdays
    unified_job_template: Deploy
    rrule: "{{ query('automation.service.schedule_rruleset', '2030-04-30 10:30:00', rules=rules, timezone='UTC') }}"
  vars:
    rules:
      - frequency: day
      - frequency: day
        byweekday: sunday
        include: false
'''

RETURN = r'''
_raw:
  description:
    - The rule set, for example C(DTSTART;TZID=UTC:20300430T103000 RRULE:FREQ=DAILY;INTERVAL=1 EXRULE:...).
    - As awx.awx's lookup, the text itself under ansible-core before 2.18 (C(query()) then gives the text, and
      ansible-core warns that a lookup should return a list); from 2.18 on, which requires a list, a one-item list.
      M(automation.service.schedule) takes either in O(automation.service.schedule#module:rrule).
  type: list
  elements: str
'''

from ansible.errors import AnsibleError
from ansible.plugins.lookup import LookupBase

from ansible_collections.automation.service.plugins.plugin_utils._rrule import (
    DATE_FORMAT, POSITIONS, WEEKDAYS, check_timezone, end_arguments, frequency_of, lookup_result, parse_when,
    require_dateutil, rule_text, weekday,
)

# rule key -> (smallest, largest) of its numbers
NUMBERS = {'bymonth': (1, 12), 'bymonthday': (1, 31), 'byyearday': (1, 366), 'byweekno': (1, 52), 'byhour': (0, 23),
           'byminute': (0, 59)}
KEYS = ('frequency', 'interval', 'end_on', 'bysetpos', 'byweekday', 'include') + tuple(NUMBERS)


def items(value):
    """A number, a list, or comma-separated text, as a list of stripped items."""
    if isinstance(value, (list, tuple)):
        return [str(item).strip() for item in value]
    return [item.strip() for item in str(value).split(',')]


def numbers(key, value, number):
    low, high = NUMBERS[key]
    found = []
    for item in items(value):
        if not item.isdigit() or not low <= int(item) <= high:
            raise AnsibleError('In rule %d %s must be between %d and %d, not %r.' % (number, key, low, high, item))
        found.append(int(item))
    return found


def positions(value, number):
    found = []
    for item in items(value):
        if item.lower() not in POSITIONS:
            raise AnsibleError('In rule %d bysetpos must only contain values in %s, not %r.'
                               % (number, ', '.join(POSITIONS), item))
        found.append(POSITIONS[item.lower()])
    return found


def rule_arguments(rule, start, number):
    if not isinstance(rule, dict):
        raise AnsibleError('Rule %d is not a dictionary: %r.' % (number, rule))
    unknown = sorted(set(rule) - set(KEYS))
    if unknown:
        raise AnsibleError('Rule %d has invalid options: %s (a rule takes %s).' % (number, ', '.join(unknown), ', '.join(KEYS)))
    if not rule.get('frequency'):
        raise AnsibleError('Rule %d is missing a frequency' % number)
    frequency, kind = frequency_of(rule['frequency'], number)
    interval = str(rule.get('interval', 1)).strip()
    if not interval.isdigit() or int(interval) < 1:
        raise AnsibleError('In rule %d interval must be 1 or more, not %r.' % (number, rule.get('interval')))
    arguments = {'freq': kind, 'interval': int(interval), 'dtstart': start}
    if frequency == 'none':
        arguments['count'] = 1
    else:
        arguments.update(end_arguments(rule.get('end_on'), 'In rule %d end_on must either be an integer or in the format %s'
                                       % (number, DATE_FORMAT)))
    if rule.get('bysetpos') is not None:
        arguments['bysetpos'] = positions(rule['bysetpos'], number)
    if rule.get('byweekday') is not None:
        said = 'In rule %d byweekday must only contain values in %s' % (number, ', '.join(WEEKDAYS))
        arguments['byweekday'] = [weekday(day, said) for day in items(rule['byweekday'])]
    for key in NUMBERS:
        if rule.get(key) is not None:
            arguments[key] = numbers(key, rule[key], number)
    return arguments


def ruleset_string(start_text, rules, timezone):
    start = parse_when(start_text, 'The start date must be in the format ' + DATE_FORMAT)
    if not rules:
        raise AnsibleError('You must include rules to be in the ruleset via the rules parameter (at least one rule).')
    timezone = check_timezone(timezone)
    parts = []
    for number, rule in enumerate(rules, 1):
        text = rule_text(rule_arguments(rule, start, number), timezone if number == 1 else None)
        if not rule.get('include', True):
            text = text.replace('RRULE:', 'EXRULE:', 1)
        parts.append(text)
    if not any(rule.get('include', True) for rule in rules):
        raise AnsibleError('A ruleset must contain at least one RRULE: every rule is excluded (include: false).')
    return ' '.join(parts)


class LookupModule(LookupBase):

    def run(self, terms, variables=None, **kwargs):
        require_dateutil('schedule_rruleset')
        self.set_options(var_options=variables, direct=kwargs)
        if len(terms) != 1:
            raise AnsibleError('You may only pass one schedule type in at a time (schedule_rruleset takes one start date, '
                               'got %d).' % len(terms))
        return lookup_result(ruleset_string(terms[0], self.get_option('rules'), self.get_option('timezone')))
