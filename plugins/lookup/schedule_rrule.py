# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: schedule_rrule
short_description: An rrule string for a schedule
version_added: 0.2.0
description:
  - Builds the C(rrule) of a schedule (M(automation.service.schedule)) from a frequency and a few options, in the form
    the service accepts (C(DTSTART;TZID=...) and an C(RRULE) with its C(INTERVAL)).
  - Takes the terms and options of awx.awx's C(schedule_rrule) lookup and returns the same strings.
  - Runs on the controller and sends no request.
requirements:
  - python-dateutil (on the controller)
author:
  - automation.service maintainers (@automation-service)
options:
  _terms:
    description:
      - The frequency, one of V(none) (once), V(minute), V(hour), V(day), V(week) or V(month).
    required: true
    type: list
    elements: str
  start_date:
    description:
      - When the schedule starts, C(YYYY-MM-DD) or C(YYYY-MM-DD HH:MM:SS), in O(timezone). Now, when not given.
    type: str
  timezone:
    description:
      - The time zone of O(start_date) and O(end_on), an IANA name such as C(Europe/Paris).
    type: str
    default: America/New_York
  every:
    description:
      - Run every this many minutes, hours, days, weeks or months (not with V(none)).
    type: int
    default: 1
  end_on:
    description:
      - When the schedule ends (not with V(none)), a number of runs (C(5)) or a date (C(YYYY-MM-DD [HH:MM:SS])).
        Never, when not given.
    type: str
  on_days:
    description:
      - For V(week), the days to run on, comma-separated (C(monday,thursday)).
    type: str
  month_day_number:
    description:
      - For V(month), the day of the month to run on (1 to 31). Not with O(on_the).
    type: int
  on_the:
    description:
      - For V(month), which weekday of the month to run on, as two words, C(first), C(second), C(third), C(fourth) or
        C(last) and a weekday (C(last friday)). Not with O(month_day_number).
    type: str
'''

EXAMPLES = r'''
- name: Every day at 03:00 in Paris, from the first of June
  automation.service.schedule:
    name: nightly
    unified_job_template: Deploy
    rrule: "{{ query('automation.service.schedule_rrule', 'day', start_date='2030-06-01 03:00:00', timezone='Europe/Paris') }}"

- name: Once
  ansible.builtin.debug:
    msg: "{{ lookup('automation.service.schedule_rrule', 'none', start_date='2030-06-01 12:00:00') }}"
'''

RETURN = r'''
_raw:
  description:
    - The rrule, for example C(DTSTART;TZID=America/New_York:20300601T120000 RRULE:FREQ=DAILY;COUNT=1;INTERVAL=1).
    - As awx.awx's lookup, the text itself under ansible-core before 2.18 (C(query()) then gives the text, and
      ansible-core warns that a lookup should return a list); from 2.18 on, which requires a list, a one-item list.
      M(automation.service.schedule) takes either in O(automation.service.schedule#module:rrule).
  type: list
  elements: str
'''

import datetime

from ansible.errors import AnsibleError
from ansible.plugins.lookup import LookupBase

from ansible_collections.automation.service.plugins.plugin_utils._rrule import (
    DATE_FORMAT, POSITIONS, WEEKDAYS, check_timezone, end_arguments, frequency_of, lookup_result, parse_when,
    require_dateutil, rule_text, weekday,
)


def rule_arguments(frequency, kind, options):
    """The keyword arguments of dateutil's rrule for one frequency and its options."""
    every = options['every']
    if every < 1:
        raise AnsibleError('every must be 1 or more, not %d.' % every)
    arguments = {'freq': kind, 'interval': every}
    if options['start_date'] is not None:
        arguments['dtstart'] = parse_when(options['start_date'], 'Parameter start_date must be in the format ' + DATE_FORMAT)
    if frequency == 'none':
        arguments['count'] = 1
        return arguments
    arguments.update(end_arguments(options['end_on'], 'Parameter end_on must either be an integer or in the format ' + DATE_FORMAT))
    if frequency == 'week' and options['on_days']:
        said = 'Parameter on_days must only contain values ' + ', '.join(WEEKDAYS)
        arguments['byweekday'] = [weekday(day, said) for day in options['on_days'].split(',')]
    if frequency == 'month':
        day, on_the = options['month_day_number'], options['on_the']
        if day is not None and on_the:
            raise AnsibleError('Month based frequencies can have month_day_number or on_the but not both')
        if day is not None:
            if not 1 <= day <= 31:
                raise AnsibleError('month_day_number must be between 1 and 31, not %d.' % day)
            arguments['bymonthday'] = day
        if on_the:
            words = on_the.split()
            if len(words) != 2:
                raise AnsibleError('on_the parameter must be two words separated by a space: one of %s and a weekday, '
                                   'not %r.' % (', '.join(POSITIONS), on_the))
            if words[0].lower() not in POSITIONS:
                raise AnsibleError('The first string of the on_the parameter is not valid: it must be one of %s, not %r.'
                                   % (', '.join(POSITIONS), words[0]))
            arguments['byweekday'] = weekday(words[1], 'Weekday portion of on_the parameter is not valid: it must be one '
                                                       'of ' + ', '.join(WEEKDAYS))
            arguments['bysetpos'] = POSITIONS[words[0].lower()]
    return arguments


def rrule_string(frequency, options):
    """The rule as the service takes it: one line, DTSTART with its TZID, INTERVAL always."""
    frequency, kind = frequency_of(frequency)
    timezone = check_timezone(options['timezone'])
    arguments = rule_arguments(frequency, kind, options)
    if 'dtstart' not in arguments:
        arguments['dtstart'] = datetime.datetime.now().replace(microsecond=0)
    return rule_text(arguments, timezone)


class LookupModule(LookupBase):

    def run(self, terms, variables=None, **kwargs):
        require_dateutil('schedule_rrule')
        self.set_options(var_options=variables, direct=kwargs)
        if len(terms) != 1:
            raise AnsibleError('You may only pass one schedule type in at a time (schedule_rrule takes one frequency, '
                               'got %d).' % len(terms))
        options = dict((name, self.get_option(name)) for name in
                       ('start_date', 'timezone', 'every', 'end_on', 'on_days', 'month_day_number', 'on_the'))
        return lookup_result(rrule_string(terms[0], options))
