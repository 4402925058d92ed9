#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: schedule
short_description: Create, update or delete a schedule
version_added: 0.2.0
description:
  - Makes a schedule (when the service launches a job template, workflow, project update or inventory update, and
    with what launch values) match the fields given; fields not given are left alone.
  - A schedule is found by its name among the schedules of O(unified_job_template), or among all schedules when
    O(unified_job_template) is not given.
  - Takes the options of awx.awx's C(schedule) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the schedule, unique among the schedules of its template.
    type: str
    required: true
  new_name:
    description:
      - A new name for the schedule (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the schedule.
    type: str
  rrule:
    description:
      - When the schedule runs, as an iCal recurrence (a C(DTSTART) with a time zone and one or more C(RRULE)),
        for example C(DTSTART;TZID=Europe/Paris:20300101T020000 RRULE:FREQ=DAILY;INTERVAL=1).
      - The service checks it as its API does (a C(DTSTART) that is not naive, C(INTERVAL) in every rule, no
        C(SECONDLY), no C(COUNT) above 999, ...) and the module reports its message when it refuses one.
      - Needed to create the schedule. Compared as text, after a naive C(UNTIL) is turned into UTC in the time
        zone of C(DTSTART), as the service stores it.
      - A string, or the one-item list that C(query()) of the P(automation.service.schedule_rrule#lookup) and
        P(automation.service.schedule_rruleset#lookup) lookups gives.
    type: raw
  unified_job_template:
    description:
      - What the schedule launches - a job template, workflow job template, project or inventory source, by name
        or id.
      - The schedule is looked up among this template's schedules. Needed to create the schedule.
      - A name that more than one kind of template has (a project and a job template, say) cannot tell them
        apart; give the id, or O(organization).
    type: str
  organization:
    description:
      - The organization of O(unified_job_template) (of an inventory source, its inventory's organization), by name
        or id; it narrows the search for the template. Not a field of the schedule.
    type: str
  enabled:
    description:
      - Whether the service runs the schedule.
    type: bool
  extra_data:
    description:
      - Extra variables given to the launch; the template must prompt for variables. Compared as data.
    type: dict
  inventory:
    description:
      - The inventory the launch uses, by name or id; the template must prompt for the inventory.
    type: str
  scm_branch:
    description:
      - The branch the launch uses; the template must prompt for it.
    type: str
  job_type:
    description:
      - The job type of the launch; the template must prompt for it.
    type: str
    choices: [run, check]
  job_tags:
    description:
      - Comma separated tags to run; the template must prompt for tags.
    type: str
  skip_tags:
    description:
      - Comma separated tags to skip; the template must prompt for skipped tags.
    type: str
  limit:
    description:
      - A host pattern that narrows the hosts of the launch; the template must prompt for the limit.
    type: str
  diff_mode:
    description:
      - Whether the launch runs in diff mode; the template must prompt for it.
    type: bool
  verbosity:
    description:
      - The verbosity of the launch, from 0 (normal) to 5 (WinRM debug); the template must prompt for it.
    type: int
    choices: [0, 1, 2, 3, 4, 5]
  execution_environment:
    description:
      - The execution environment the launch uses, by name or id; the template must prompt for it. V('') clears it.
    type: str
  forks:
    description:
      - The forks of the launch; the template must prompt for them.
    type: int
  job_slice_count:
    description:
      - The number of slices of the launch; the template must prompt for it.
    type: int
  timeout:
    description:
      - The timeout of the launch, in seconds; the template must prompt for it.
    type: int
  credentials:
    description:
      - The credentials the launch uses, by name or id; the job template must prompt for credentials.
      - The list given replaces the schedule's credentials; V([]) removes them all.
    type: list
    elements: str
  instance_groups:
    description:
      - The instance groups the launch runs on, by name or id; the template must prompt for instance groups.
      - The list given replaces the schedule's instance groups; V([]) removes them all.
    type: list
    elements: str
  labels:
    description:
      - The labels of the launch, by name (in any organization, as awx.awx looks them up) or id.
      - The list given replaces the schedule's labels; V([]) removes them all.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the schedule, V(absent) deletes it.
      - V(exists) creates the schedule when it is missing and leaves one found as it is.
      - With V(absent), a O(unified_job_template) that does not exist means there is nothing to delete.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - A schedule is created through its template's C(schedules) list, so the service knows which kind of template
    it launches; the template of an existing schedule is never changed.
  - The lists O(credentials), O(labels) and O(instance_groups) are compared as sets; the order of instance groups
    is not kept.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Run the Deploy template every night at two, Paris time
  automation.service.schedule:
    name: Nightly deploy
    unified_job_template: Deploy
    rrule: DTSTART;TZID=Europe/Paris:20300101T020000 RRULE:FREQ=DAILY;INTERVAL=1
    limit: web
    extra_data:
      release: stable

- name: Pause it
  automation.service.schedule:
    name: Nightly deploy
    unified_job_template: Deploy
    enabled: false

- name: Update the cloud inventory every hour
  automation.service.schedule:
    name: Hourly sync
    unified_job_template: EC2 hosts
    organization: Default
    rrule: DTSTART:20300101T000000Z RRULE:FREQ=HOURLY;INTERVAL=1

- name: Remove a schedule
  automation.service.schedule:
    name: Nightly deploy
    unified_job_template: Deploy
    state: absent
'''

RETURN = r'''
id:
  description: Id of the schedule (of the deleted schedule with O(state=absent)).
  returned: when the schedule exists or existed
  type: int
  sample: 12
schedule:
  description: The schedule as the service returns it (the would-be schedule in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 12, "name": "Nightly deploy", "unified_job_template": 9, "enabled": true,
           "rrule": "DTSTART;TZID=Europe/Paris:20300101T020000 RRULE:FREQ=DAILY;INTERVAL=1",
           "next_run": "2030-01-01T01:00:00Z", "limit": "web"}
'''

import datetime
import re

from ansible_collections.automation.service.plugins.module_utils._api_module import is_id
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError, MultipleFound, NotFound
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource

# The kinds of template a schedule launches: endpoint, and the filter that scopes it to an organization.
TEMPLATES = (
    ('job_templates', 'organization'),
    ('workflow_job_templates', 'organization'),
    ('projects', 'organization'),
    ('inventory_sources', 'inventory__organization'),
)

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    rrule=dict(type='raw'),
    unified_job_template=dict(type='str'),
    organization=dict(type='str'),
    enabled=dict(type='bool'),
    extra_data=dict(type='dict'),
    inventory=dict(type='str'),
    scm_branch=dict(type='str'),
    job_type=dict(type='str', choices=['run', 'check']),
    job_tags=dict(type='str'),
    skip_tags=dict(type='str'),
    limit=dict(type='str'),
    diff_mode=dict(type='bool'),
    verbosity=dict(type='int', choices=[0, 1, 2, 3, 4, 5]),
    execution_environment=dict(type='str'),
    forks=dict(type='int'),
    job_slice_count=dict(type='int'),
    timeout=dict(type='int'),
    credentials=dict(type='list', elements='str'),
    instance_groups=dict(type='list', elements='str'),
    labels=dict(type='list', elements='str'),
    state=STATE_EXISTS,
)


def utc_until(rrule):
    """``rrule`` with each naive UNTIL read in DTSTART's time zone and written in UTC, which is how the
    service stores it; as given when that cannot be worked out here."""
    if not isinstance(rrule, str) or 'UNTIL=' not in rrule:
        return rrule
    start = re.search(r'DTSTART(?:;TZID=([^:]+))?:[0-9]{8}T[0-9]{6}(Z?)', rrule)
    if start is None or not (start.group(1) or start.group(2)):
        return rrule
    try:
        if start.group(2):
            zone = datetime.timezone.utc
        else:
            from zoneinfo import ZoneInfo  # Python 3.9 and later
            zone = ZoneInfo(start.group(1))

        def in_utc(match):
            local = datetime.datetime.strptime(match.group(1), '%Y%m%dT%H%M%S').replace(tzinfo=zone)
            return 'UNTIL=' + local.astimezone(datetime.timezone.utc).strftime('%Y%m%dT%H%M%SZ')

        return re.sub(r'UNTIL=([0-9]{8}T[0-9]{6})(?![0-9Z])', in_utc, rrule)
    except Exception:  # no such zone, no time zone data, a date out of range: compare as given
        return rrule


class Schedules(Resource):
    """A schedule is found among the schedules of its template (named by kind as well as name, see
    find_template()) and made there; its rrule compares in UTC."""

    def template(self, api):
        """(endpoint, object) of the template O(unified_job_template) names (looked up once per task)."""
        if 'unified_job_templates' not in api.found:
            api.found['unified_job_templates'] = find_template(api)
        return api.found['unified_job_templates']

    def create_endpoint(self, api):
        template = self.template(api)
        return '%s/%d/schedules' % (template[0], template[1]['id']) if template else self.endpoint

    def find(self, api):
        params = api.params
        if self.template(api) is None and params.get('unified_job_template') is not None:
            if params['state'] == 'absent':
                return None
            raise NotFound('unified job template %r was not found.' % params['unified_job_template'])
        endpoint = self.create_endpoint(api)
        existing = api.get_one(endpoint, name=params['name'])
        if existing is None and params.get('new_name'):
            existing = api.get_one(endpoint, name=params['new_name'])
        return existing

    def create_fields(self, api):
        return {'unified_job_template': self.template(api)[1]['id']}


RESOURCE = Schedules(
    'schedules', 'schedule', 'schedule',
    # organization narrows the search for the template only (find_template): awx.awx looks up the
    # labels and instance groups in every organization.
    fields=('description', 'rrule', 'enabled', 'scm_branch', 'job_type', 'job_tags', 'skip_tags', 'limit',
            'diff_mode', 'verbosity', 'forks', 'job_slice_count', 'timeout'),
    references={'inventory': 'inventories', 'execution_environment': 'execution_environments'},
    json_data=('extra_data',),
    associations={'credentials': ('credentials', 'credentials'), 'labels': ('labels', 'labels'),
                  'instance_groups': ('instance_groups', 'instance_groups')},
    required_on_create=('rrule', 'unified_job_template'),
    compared_as={'rrule': utc_until},
)
# O(rrule) is read as one rule set (one_rule()).
SPEC = RESOURCE.spec(ARGUMENT_SPEC, adjust=lambda params: {'rrule': one_rule(params.get('rrule'))})


def find_template(api):
    """(endpoint, object) of the template O(unified_job_template) names, None when it names nothing."""
    value = api.params.get('unified_job_template')
    if value is None:
        return None
    where = {'id': int(value)} if is_id(value) else {'name': value}
    organization = api.params.get('organization')
    org_id = api.resolve_id('organizations', organization, 'organization') if organization is not None else None
    found = []
    for endpoint, org_field in TEMPLATES:
        filters = dict(where, **({org_field: org_id} if org_id is not None else {}))
        obj = api.get_one(endpoint, **filters)
        if obj is not None:
            found.append((endpoint, obj))
    if len(found) > 1:
        raise MultipleFound('unified job template %r names more than one template (%s): give its id%s.'
                            % (value, ', '.join('%s %d' % (e.rstrip('s').replace('_', ' '), o['id']) for e, o in found),
                               '' if organization is not None else ' or its organization'))
    return found[0] if found else None


def one_rule(value):
    """O(rrule) as text: a string as given, the one item of a one-item list (what query() of the rrule
    lookups gives)."""
    if isinstance(value, (list, tuple)):
        if len(value) != 1 or not isinstance(value[0], str):
            raise ConfigError('rrule takes one rule set: a string, or the one-item list that query() of the '
                              'schedule_rrule and schedule_rruleset lookups gives; got %d items.' % len(value))
        return value[0]
    return value if value is None or isinstance(value, str) else str(value)


def run(api):
    RESOURCE.run(api)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
