#!/usr/bin/env python3
"""Requests about facts the reference service once took without seeing the real service.

    probes.py --url URL --ca FILE --username NAME --password-env VAR [--prefix P]

Sent through the recording proxy after the integration targets (run.sh does, in
AWX's layout, as the target "probes"), so that a real service's answers to them
are recorded, and the reference service's compared with those, with the rest;
each probe also prints the status and the start of the answer the client got
with the fact it is about. The facts are those the reference
service's README lists as observed (copy, launch, config, bulk, schedules,
inventory script, unified job ids, ad hoc commands, applications). The probes
make their own objects (named with the prefix) and delete them at the end; a
job or update they start stays pending on an API-only AWX.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import sys
import uuid
import zipfile

import requests


class Probe:
    def __init__(self, url: str, ca: str, username: str, password: str):
        self.url = url.rstrip('/')
        self.http = requests.Session()
        self.http.verify = ca
        self.http.auth = (username, password)
        self.http.headers['Accept'] = 'application/json'

    def call(self, fact: str, method: str, path: str, body=None, show=True):
        response = self.http.request(method, self.url + path, json=body, verify=self.http.verify)
        try:
            data = response.json()
        except ValueError:
            data = response.text
        if show:
            text = data if isinstance(data, str) else json.dumps(data, sort_keys=True)
            print('%s: %s %s -> %d %s' % (fact, method, path, response.status_code, text[:400]))
            if response.headers.get('Location'):
                print('    Location: %s' % response.headers['Location'])
        return response.status_code, data

    def one(self, path: str, query: str) -> dict:
        status, data = self.call('lookup', 'GET', '%s?%s' % (path, query), show=False)
        if status != 200 or data.get('count') != 1:
            sys.exit('probes: %s?%s found %s' % (path, query, data))
        return data['results'][0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n', maxsplit=1)[0])
    parser.add_argument('--url', required=True)
    parser.add_argument('--ca', required=True)
    parser.add_argument('--username', required=True)
    parser.add_argument('--password-env', required=True, help='the environment variable that holds the password')
    parser.add_argument('--prefix', default='diffcheck-probe-' + uuid.uuid4().hex[:6],
                        help='the names of the objects made (default: with a random part, so that runs do not meet)')
    args = parser.parse_args(argv)
    p = Probe(args.url, args.ca, args.username, os.environ[args.password_env])
    prefix = args.prefix

    demo_jt = p.one('/api/v2/job_templates/', 'name=Demo+Job+Template')
    org = p.one('/api/v2/organizations/', 'name=Default')
    created = []

    # Copy: CopyAPIView and CopySerializer.
    status, jt = p.call('copy answers 201 with the object and a Location', 'POST',
                        '/api/v2/job_templates/%d/copy/' % demo_jt['id'], {'name': prefix + '-jt'})
    if status == 201:
        created.append('/api/v2/job_templates/%d/' % jt['id'])
    p.call('copy keeping the name is refused', 'POST', '/api/v2/job_templates/%d/copy/' % demo_jt['id'], {'name': demo_jt['name']})
    p.call('copy without a name is refused', 'POST', '/api/v2/job_templates/%d/copy/' % demo_jt['id'], {})
    p.call('copy GET', 'GET', '/api/v2/job_templates/%d/copy/' % demo_jt['id'])

    # Launch defaults and value checks.
    if status == 201:
        p.call('asks on launch', 'PATCH', '/api/v2/job_templates/%d/' % jt['id'],
               {'ask_forks_on_launch': True, 'ask_timeout_on_launch': True, 'ask_job_slice_count_on_launch': True,
                'ask_instance_groups_on_launch': True, 'ask_labels_on_launch': True,
                'ask_execution_environment_on_launch': True}, show=False)
        p.call('launch defaults', 'GET', '/api/v2/job_templates/%d/launch/' % jt['id'])
        p.call('bad forks', 'POST', '/api/v2/job_templates/%d/launch/' % jt['id'], {'forks': -1})
        p.call('bad timeout', 'POST', '/api/v2/job_templates/%d/launch/' % jt['id'], {'timeout': -5})
        p.call('bad job_slice_count', 'POST', '/api/v2/job_templates/%d/launch/' % jt['id'], {'job_slice_count': 0})
        p.call('bad forks type', 'POST', '/api/v2/job_templates/%d/launch/' % jt['id'], {'forks': 'many'})

    # An inventory with a host and a group, copied.
    status, inv = p.call('inventory', 'POST', '/api/v2/inventories/', {'name': prefix + '-inv', 'organization': org['id']}, show=False)
    if status == 201:
        created.append('/api/v2/inventories/%d/' % inv['id'])
        p.call('host', 'POST', '/api/v2/inventories/%d/hosts/' % inv['id'], {'name': 'h1', 'variables': '{"a": 1}'}, show=False)
        status, group = p.call('group', 'POST', '/api/v2/inventories/%d/groups/' % inv['id'], {'name': 'g1'}, show=False)
        p.call('inventory script', 'GET', '/api/v2/inventories/%d/script/?hostvars=1' % inv['id'])
        p.call('inventory script of a host', 'GET', '/api/v2/inventories/%d/script/?host=h1' % inv['id'])
        p.call('inventory script all', 'GET', '/api/v2/inventories/%d/script/?all=1&towervars=1' % inv['id'])
        status, copy = p.call('inventory copy', 'POST', '/api/v2/inventories/%d/copy/' % inv['id'], {'name': prefix + '-inv2'})
        if status == 201:
            created.append('/api/v2/inventories/%d/' % copy['id'])
            p.call('the copy\'s hosts right after', 'GET', '/api/v2/inventories/%d/hosts/' % copy['id'])
        status, source = p.call('file inventory source', 'POST', '/api/v2/inventory_sources/',
                                {'name': prefix + '-src', 'inventory': inv['id'], 'source': 'file', 'source_path': 'hosts'})
        if status == 201:
            p.call('can a file source update', 'GET', '/api/v2/inventory_sources/%d/update/' % source['id'])
        # Ad hoc commands.
        p.call('ad hoc command with an unknown module', 'POST', '/api/v2/inventories/%d/ad_hoc_commands/' % inv['id'],
               {'module_name': 'no_such_module', 'credential': demo_jt['summary_fields']['credentials'][0]['id']})
        p.call('ad hoc command without a credential', 'POST', '/api/v2/inventories/%d/ad_hoc_commands/' % inv['id'],
               {'module_name': 'ping'})
        p.call('ad hoc launch GET', 'GET', '/api/v2/inventories/%d/ad_hoc_commands/' % inv['id'])

    # Unified job ids: a job, then a project update, then a job.
    p.call('one id space: a job', 'POST', '/api/v2/job_templates/%d/launch/' % demo_jt['id'], {})
    p.call('one id space: an update', 'POST', '/api/v2/projects/%d/update/' % demo_jt['project'], {})
    p.call('one id space: a job', 'POST', '/api/v2/job_templates/%d/launch/' % demo_jt['id'], {})

    # Bulk.
    p.call('bulk settings', 'GET', '/api/v2/settings/bulk/')
    p.call('bulk launch of an unknown template', 'POST', '/api/v2/bulk/job_launch/',
           {'name': prefix + '-bulk', 'jobs': [{'unified_job_template': 99999999}]})
    p.call('bulk launch of a node without a template', 'POST', '/api/v2/bulk/job_launch/', {'name': prefix + '-bulk', 'jobs': [{}]})
    p.call('bulk launch with a bad field', 'POST', '/api/v2/bulk/job_launch/',
           {'name': prefix + '-bulk', 'jobs': [{'unified_job_template': demo_jt['id'], 'forks': 'x'}]})

    # Schedules: an old hourly rule, a naive UNTIL.
    for rule in ('DTSTART:20200101T000000Z RRULE:FREQ=HOURLY;INTERVAL=1',
                 'DTSTART;TZID=America/New_York:20300101T120000 RRULE:FREQ=DAILY;INTERVAL=1;UNTIL=20300110T120000',
                 'DTSTART:20300101T120000Z RRULE:FREQ=MINUTELY;INTERVAL=1'):
        status, schedule = p.call('schedule %s' % rule, 'POST', '/api/v2/job_templates/%d/schedules/' % demo_jt['id'],
                                  {'name': '%s-sched-%d' % (prefix, len(created)), 'rrule': rule})
        if status == 201:
            created.append('/api/v2/schedules/%d/' % schedule['id'])

    # Workflows: the launch GET of one with an approval node.
    status, wfjt = p.call('workflow', 'POST', '/api/v2/workflow_job_templates/', {'name': prefix + '-wf', 'organization': org['id']}, show=False)
    if status == 201:
        created.append('/api/v2/workflow_job_templates/%d/' % wfjt['id'])
        status, node = p.call('node', 'POST', '/api/v2/workflow_job_templates/%d/workflow_nodes/' % wfjt['id'], {}, show=False)
        if status == 201:
            p.call('approval template', 'POST', '/api/v2/workflow_job_template_nodes/%d/create_approval_template/' % node['id'],
                   {'name': prefix + '-approve', 'timeout': 0})
        p.call('workflow launch GET', 'GET', '/api/v2/workflow_job_templates/%d/launch/' % wfjt['id'])

    # Subscriptions.
    p.call('config POST without eula_accepted', 'POST', '/api/v2/config/', {})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w') as archive:
        archive.writestr('consumer_export.zip', b'not a manifest')
    p.call('config POST of a zip manifest', 'POST', '/api/v2/config/', {'manifest': base64.b64encode(buffer.getvalue()).decode()})

    # Applications: the grant types offered.
    status, options = p.call('applications OPTIONS', 'OPTIONS', '/api/v2/applications/', show=False)
    choices = options.get('actions', {}).get('POST', {}).get('authorization_grant_type', {}).get('choices') if status == 200 else None
    print('applications OPTIONS: authorization_grant_type choices %s' % json.dumps(choices))

    for path in reversed(created):
        p.call('clean up', 'DELETE', path, show=False)
    return 0


if __name__ == '__main__':
    sys.exit(main())
