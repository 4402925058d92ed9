#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: job_list
short_description: List jobs
version_added: 0.2.0
description:
  - Lists the service's jobs, one page of them or every page, filtered by status and by any other filter of the
    jobs endpoint.
  - Takes the options of awx.awx's C(job_list) module and returns the same keys.
author:
  - automation.service maintainers (@automation-service)
options:
  status:
    description:
      - Only the jobs with this status.
    type: str
    choices: [new, pending, waiting, running, error, failed, canceled, successful]
  page:
    description:
      - The page to read (the service's page size, or C(page_size) in O(query)).
    type: int
  all_pages:
    description:
      - Read every page and return all the jobs in RV(results).
    type: bool
    default: false
  query:
    description:
      - More filters of the jobs endpoint, as a dict. C(job_template=7) in it is sent as C(?job_template=7).
    type: dict
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes.info_module
notes:
  - O(page) and O(all_pages=true) cannot be given together.
'''

EXAMPLES = r'''
- name: The running jobs of one playbook
  automation.service.job_list:
    status: running
    query:
      playbook: site.yml
  register: running

- name: Every failed job
  automation.service.job_list:
    status: failed
    all_pages: true
  register: failed_jobs
'''

RETURN = r'''
count:
  description: How many jobs match.
  returned: success
  type: int
  sample: 51
next:
  description: The path of the next page (null on the last page, and with O(all_pages=true)).
  returned: success
  type: str
  sample: /api/v2/jobs/?page=2&status=failed
previous:
  description: The path of the previous page (null on the first page, and with O(all_pages=true)).
  returned: success
  type: str
  sample: null
results:
  description: The jobs, as the service returns them.
  returned: success
  type: list
  elements: dict
  sample: [{"id": 2, "status": "failed", "job_template": 5, "finished": "2024-05-01T10:00:03.323456Z"}]
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._info import wire_value

ARGUMENT_SPEC = dict(
    status=dict(type='str', choices=['new', 'pending', 'waiting', 'running', 'error', 'failed', 'canceled',
                                     'successful']),
    page=dict(type='int'),
    all_pages=dict(type='bool', default=False),
    query=dict(type='dict'),
)


def run(api):
    params = api.params
    query = dict((key, wire_value(value)) for key, value in (params['query'] or {}).items())
    if params['status']:
        query['status'] = params['status']
    if params['page']:
        query['page'] = params['page']
    if params['all_pages']:
        query.setdefault('page_size', 200)
        jobs = list(api.client.iterate('jobs', params=query))
        api.returns(count=len(jobs), next=None, previous=None, results=jobs)
        return
    page = api.client.get('jobs', params=query)
    api.returns(**dict((key, page.get(key)) for key in ('count', 'next', 'previous', 'results')))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='jobs', result_key='results', mutually_exclusive=[('page', 'all_pages')])


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
