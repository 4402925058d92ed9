#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: project_update
short_description: Update a project from its source control, and optionally wait for it
version_added: 0.1.0
description:
  - Starts an update of a project whose content comes from source control (the service checks out
    its C(scm_url) again), and by default waits for it to finish.
  - The update request is sent once and never retried once it may have reached the service. When the
    connection breaks after it was sent, the module fails and says how to find out whether the update started.
  - A manual project (no C(scm_type)) cannot be updated; the module fails saying so.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - The project to update, by name or numeric id.
    type: str
    required: true
    aliases: [project]
  organization:
    description:
      - Organization of the project, by name or numeric id, to find it when several organizations have
        a project of that name. It is never changed.
    type: str
  wait:
    description:
      - Wait for the update to finish; fail when it does not succeed.
      - When waiting, the task reports C(changed) only when the project's source control revision changed.
    type: bool
    default: true
  interval:
    description:
      - With O(wait), seconds between two polls of the update's status.
    type: float
    default: 1
  timeout:
    description:
      - With O(wait), how many seconds to wait at most. The module then fails, saying the update is still
        running and its id; the update goes on. Without it, waits as long as the update runs.
    type: int
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
attributes:
  check_mode:
    description: Finds the project and checks that it can be updated; starts nothing.
    support: full
  diff_mode:
    description: An update has no before and after.
    support: none
notes:
  - Without O(wait), the task always reports C(changed).
seealso:
  - module: automation.service.project
  - module: automation.service.inventory_source_update
'''

EXAMPLES = r'''
- name: Update a project and wait at most two minutes
  automation.service.project_update:
    project: Networking Project
    organization: Default
    timeout: 120

- name: Start an update without waiting for it
  automation.service.project_update:
    project: Networking Project
    wait: false
  register: update

- name: Show the update that started
  ansible.builtin.debug:
    msg: "Project update {{ update.id }} is {{ update.status }}"
'''

RETURN = r'''
id:
  description: Id of the project update.
  returned: success, except in check mode
  type: int
  sample: 86
status:
  description: Status of the update (its final status when the module waited).
  returned: success, except in check mode
  type: str
  sample: successful
elapsed:
  description: Seconds the update ran.
  returned: when the module waited
  type: float
  sample: 2.4
started:
  description: When the update started.
  returned: when the module waited
  type: str
  sample: "2024-05-01T10:00:00.123456Z"
finished:
  description: When the update finished.
  returned: when the module waited
  type: str
  sample: "2024-05-01T10:00:02.523456Z"
stdout:
  description: The last lines of the update's output.
  returned: when the module waited and the update finished
  type: str
  sample: "Checked out https://github.com/example/playbooks.git at revision 5c1e..."
project:
  description: Id of the project.
  returned: success
  type: int
  sample: 12
project_update:
  description: The project update as the service returns it.
  returned: success, except in check mode
  type: dict
  sample: {"id": 86, "status": "successful", "project": 12, "scm_revision": "5c1e0d2"}
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils import _jobs

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True, aliases=['project']),
    organization=dict(type='str'),
    wait=dict(type='bool', default=True),
    interval=dict(type='float', default=1.0),
    timeout=dict(type='int'),
)


def run(api):
    params = api.params
    org_id = api.resolve_id('organizations', params['organization'], 'organization')
    # (awx.awx's words: "Unable to find project")
    project_id = api.resolve_id('projects', params['name'], 'project', missing='Unable to find project %r.',
                                organization=org_id)
    project = api.get_one('projects', id=project_id, organization=org_id)
    if project is None:
        raise NotFound('Unable to find project %r.' % params['name'])
    api.returns(project=project_id)
    what = 'Project %r is a manual project (no scm_type): it' % project['name']
    # Waited for, the update changed something when it brought another revision.
    _jobs.run_update(api, 'projects/%d/update' % project_id, _jobs.PROJECT_UPDATE,
                     'projects/%d/project_updates/' % project_id, what,
                     changed_if=lambda update: update.get('scm_revision') != project.get('scm_revision'))


SPEC = ModuleSpec(ARGUMENT_SPEC, resource='project_updates', result_key='project_update')


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
