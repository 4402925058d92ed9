# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Schedule rules as the service takes them, for the schedule_rrule and
schedule_rruleset lookups: dateutil builds each rule; its DTSTART gets the
service's TZID form and every RRULE an INTERVAL."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

from ansible.errors import AnsibleError
from ansible.module_utils.compat.version import LooseVersion
from ansible.release import __version__ as ANSIBLE_CORE_VERSION

try:
    from dateutil import rrule
except ImportError:  # said by require_dateutil when a lookup runs
    rrule = None

FREQUENCIES = ('none', 'minute', 'hour', 'day', 'week', 'month')
WEEKDAYS = ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')
# awx.awx's words for a bad date (playbooks written for it compare them)
DATE_FORMAT = 'YYYY-MM-DD [HH:MM:SS]'
POSITIONS = {'first': 1, 'second': 2, 'third': 3, 'fourth': 4, 'last': -1}
DEFAULT_TIMEZONE = 'America/New_York'


class RuleText(str):
    """A rule as awx.awx's lookups return it: the text itself, not a list.

    query() then gives the text, as playbooks written for awx.awx expect. Iterating it
    yields the whole text once, so that lookup(), which joins a lookup's items with
    commas, gives the text too and not its characters."""

    def __iter__(self):
        yield str(self)


def lookup_result(text):
    """What the rrule lookups return: the text as awx.awx returns it where ansible-core
    still takes a lookup's text (before 2.18, with its deprecation warning), else the
    one-item list that ansible-core requires (query() then gives that list, which
    schedule's rrule takes)."""
    if LooseVersion(ANSIBLE_CORE_VERSION) < LooseVersion('2.18'):
        return RuleText(text)
    return [text]


def require_dateutil(lookup):
    if rrule is None:
        raise AnsibleError('The %s lookup needs the Python package python-dateutil on the controller: '
                           'python -m pip install python-dateutil' % lookup)


def frequency_of(name, rule=None):
    """The frequency and dateutil's kind for it; ``rule``: the rule's number in a rule set."""
    key = str(name).strip().lower()
    if key not in FREQUENCIES:
        said = 'Frequency of rule %d is invalid %s' % (rule, name) if rule else 'Frequency of %s is invalid' % name
        raise AnsibleError('%s: it must be one of %s.' % (said, ', '.join(FREQUENCIES)))
    kinds = {'none': rrule.DAILY, 'minute': rrule.MINUTELY, 'hour': rrule.HOURLY, 'day': rrule.DAILY,
             'week': rrule.WEEKLY, 'month': rrule.MONTHLY}
    return key, kinds[key]


def parse_when(text, said):
    """The date of ``text``; ``said``: what is wrong when it is none (awx.awx's words)."""
    for layout in ('%Y-%m-%d %H:%M:%S', '%Y-%m-%d'):
        try:
            return datetime.datetime.strptime(str(text).strip(), layout)
        except ValueError:
            continue
    raise AnsibleError('%s, not %r.' % (said, text))


def end_arguments(end_on, said):
    """``count`` for a number of runs, ``until`` for a date."""
    if end_on is None:
        return {}
    text = str(end_on).strip()
    if text.isdigit():
        return {'count': int(text)}
    return {'until': parse_when(text, said)}


def check_timezone(name):
    try:
        import zoneinfo
    except ImportError:  # Python before 3.9: dateutil's own database
        from dateutil import tz
        known = tz.gettz(name) is not None
    else:
        known = name in zoneinfo.available_timezones()
    if not known:
        raise AnsibleError('Timezone parameter is not valid: %r is not a known time zone (an IANA name such as '
                           'Europe/Paris).' % name)
    return name


def weekday(name, said):
    """dateutil's weekday for a name; ``said``: what is wrong when it is none (awx.awx's words)."""
    key = str(name).strip().lower()
    if key not in WEEKDAYS:
        raise AnsibleError('%s, not %r.' % (said, name))
    return rrule.weekdays[WEEKDAYS.index(key)]


def rule_text(arguments, timezone=None):
    """One rule as the service takes it. With ``timezone``, the DTSTART line
    (``DTSTART;TZID=...:``) and the RRULE on one line; without, the RRULE alone."""
    lines = str(rrule.rrule(**arguments)).split('\n')
    rule = lines[-1]
    if ';INTERVAL=' not in rule:
        rule += ';INTERVAL=1'
    if timezone is None:
        return rule
    return '%s %s' % (lines[0].replace('DTSTART:', 'DTSTART;TZID=%s:' % timezone, 1), rule)
