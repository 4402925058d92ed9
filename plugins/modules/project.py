#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: project
short_description: Create, update or delete a project
version_added: 0.1.0
description:
  - Makes a project of the service match the fields given; fields not given are left alone.
  - A manual project's playbooks are a directory (O(local_path)) under the service's projects directory; an SCM
    project's come from O(scm_url).
  - Takes the options of awx.awx's C(project) module.
  - With O(update_project), starts an update of an SCM project (asked for once, never sent twice) and, with
    O(wait), waits for it. Without it, O(wait) waits for an update of the project that is already running
    (the service may start one by itself when an SCM project is created or its source changes).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the project, unique within its organization.
    type: str
    required: true
  new_name:
    description:
      - A new name for the project (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  organization:
    description:
      - The organization of the project, by name or numeric id. Required to create a project; without it an existing
        project is found by name alone.
    type: str
  description:
    description:
      - Description of the project.
    type: str
  scm_type:
    description:
      - Where the playbooks come from; V(manual) (or V('')) is a directory of the service's projects directory.
    type: str
    choices: [manual, '', git, svn, insights, archive]
  scm_url:
    description:
      - URL of the repository or archive of an SCM project.
    type: str
  local_path:
    description:
      - For a manual project, the directory of the playbooks, relative to the service's projects directory. Required
        to create a manual project; not used with another O(scm_type).
    type: str
  scm_branch:
    description:
      - Branch, tag or commit to check out; V('') is the repository's default.
    type: str
  scm_refspec:
    description:
      - The refspec to fetch (git).
    type: str
  credential:
    description:
      - The source control credential to reach the repository with, by name or id; V('') clears it.
    type: str
    aliases: [scm_credential]
  scm_clean:
    description:
      - Discard local changes before an update.
    type: bool
  scm_delete_on_update:
    description:
      - Delete the checkout completely before an update.
    type: bool
  scm_track_submodules:
    description:
      - Check out the latest commit of the submodules' branches.
    type: bool
  scm_update_on_launch:
    description:
      - Update the project before each job that uses it.
    type: bool
  scm_update_cache_timeout:
    description:
      - Seconds an update stays fresh enough for O(scm_update_on_launch) not to update again.
    type: int
  allow_override:
    description:
      - Let job templates and launches choose another branch (their C(scm_branch)).
    type: bool
    aliases: [scm_allow_override]
  timeout:
    description:
      - Seconds a project update may run before the service cancels it; V(0) means no limit.
    type: int
    aliases: [job_timeout]
  default_environment:
    description:
      - The default execution environment of the jobs of the project, by name or id; V('') clears it.
    type: str
  signature_validation_credential:
    description:
      - The credential whose key checks the signature of the project's content, by name or id; V('') clears it.
    type: str
  notification_templates_started:
    description:
      - Notification templates sent when an update of the project starts, by name or id. The list given replaces the
        project's list; V([]) empties it.
    type: list
    elements: str
  notification_templates_success:
    description:
      - Notification templates sent when an update of the project succeeds, by name or id, as a list that replaces
        the project's.
    type: list
    elements: str
  notification_templates_error:
    description:
      - Notification templates sent when an update of the project fails, by name or id, as a list that replaces the
        project's.
    type: list
    elements: str
  state:
    description:
      - V(present) creates or updates the project, V(absent) deletes it.
      - V(exists) creates the project when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
  wait:
    description:
      - Wait for the project's update to finish (the one O(update_project) started, or one already running);
        fail with the last lines of its output when it does not succeed.
      - At most O(timeout) seconds when O(timeout) is more than 0, as awx.awx does.
    type: bool
    default: true
  update_project:
    description:
      - Start an update of the project (an SCM project) once it matches the options, even when nothing changed.
      - When waiting, the task reports C(changed) when the project changed or its source control revision did.
    type: bool
    default: false
  interval:
    description:
      - With O(wait), seconds between two polls of the update's status.
    type: float
    default: 2
notes:
  - O(timeout) is both the project's update timeout on the service and, with O(wait), how long the module waits,
    as in awx.awx.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.copy_from
  - automation.service.custom_virtualenv
seealso:
  - module: automation.service.job_template
'''

EXAMPLES = r'''
- name: The playbooks in the projects directory's deploy folder
  automation.service.project:
    name: Deploy playbooks
    organization: Default
    local_path: deploy

- name: Playbooks from a git repository
  automation.service.project:
    name: Site playbooks
    organization: Default
    scm_type: git
    scm_url: https://git.example.com/ops/site.git
    scm_branch: main
    credential: Git deploy key
    scm_update_on_launch: true
    scm_update_cache_timeout: 300
    allow_override: true

- name: Remove a project
  automation.service.project:
    name: Deploy playbooks
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the project (of the deleted project with O(state=absent)).
  returned: when the project exists or existed
  type: int
  sample: 2
project:
  description: The project as the service returns it (the would-be project in check mode).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 2, "name": "Deploy playbooks", "organization": 1, "scm_type": "", "local_path": "deploy", "status": "ok"}
project_update:
  description: The project update that was started or waited for, as the service returns it.
  returned: when an update was started or waited for
  type: dict
  sample: {"id": 31, "status": "successful", "project": 2, "scm_revision": "5c1e0d2"}
stdout:
  description: The last lines of the update's output.
  returned: when the module waited for an update
  type: str
  sample: "Checked out https://git.example.com/ops/site.git at revision 5c1e0d2"
'''

from ansible_collections.automation.service.plugins.module_utils._resource import CUSTOM_VIRTUALENV, STATE_EXISTS, Resource
from ansible_collections.automation.service.plugins.module_utils import _jobs
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan

NOTIFICATIONS = ('notification_templates_started', 'notification_templates_success', 'notification_templates_error')
ARGUMENT_SPEC = dict(
    copy_from=dict(type='str'),
    custom_virtualenv=CUSTOM_VIRTUALENV,
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    organization=dict(type='str'),
    description=dict(type='str'),
    scm_type=dict(type='str', choices=['manual', '', 'git', 'svn', 'insights', 'archive']),
    scm_url=dict(type='str'),
    local_path=dict(type='str'),
    scm_branch=dict(type='str'),
    scm_refspec=dict(type='str'),
    credential=dict(type='str', aliases=['scm_credential']),
    scm_clean=dict(type='bool'),
    scm_delete_on_update=dict(type='bool'),
    scm_track_submodules=dict(type='bool'),
    scm_update_on_launch=dict(type='bool'),
    scm_update_cache_timeout=dict(type='int'),
    allow_override=dict(type='bool', aliases=['scm_allow_override']),
    timeout=dict(type='int', aliases=['job_timeout']),
    default_environment=dict(type='str'),
    signature_validation_credential=dict(type='str'),
    state=STATE_EXISTS,
    wait=dict(type='bool', default=True),
    update_project=dict(type='bool', default=False),
    interval=dict(type='float', default=2.0),
)
ARGUMENT_SPEC.update((option, dict(type='list', elements='str')) for option in NOTIFICATIONS)

RESOURCE = Resource(
    'projects', 'project', 'project',
    scope={'organization': 'organizations'},
    fields=('description', 'scm_type', 'scm_url', 'local_path', 'scm_branch', 'scm_refspec', 'scm_clean',
            'scm_delete_on_update', 'scm_track_submodules', 'scm_update_on_launch', 'scm_update_cache_timeout',
            'allow_override', 'timeout'),
    references={'credential': 'credentials', 'default_environment': 'execution_environments',
                'signature_validation_credential': 'credentials'},
    associations=dict((option, (option, 'notification_templates')) for option in NOTIFICATIONS),
    required_on_create=('organization',),
)


def adjust(params):
    """scm_type manual is the service's ''; the playbooks of an SCM project are its checkout (no local_path)."""
    scm_type = '' if params['scm_type'] == 'manual' else params['scm_type']
    return dict(scm_type=scm_type, local_path=None if scm_type else params['local_path'])


def run(api):
    params = api.params
    if params['scm_update_cache_timeout'] and params['scm_update_on_launch'] is not True:
        api.warn('scm_update_cache_timeout matters only with scm_update_on_launch: true.')
    if params['wait'] and not 0 < params['interval'] < float('inf'):
        raise ConfigError('interval must be a number of seconds more than 0.')
    project, new = RESOURCE.run(api)
    if project is None or not project.get('scm_type'):
        return
    if params['update_project']:
        def waited(update):
            api.returns(project_update=update)
            return wait_for_update(api, update['id']) if params['wait'] else update

        # Started, it changed something; unless the task waits for it: then a new revision says so.
        judged = params['wait'] and not api.check_mode
        api.apply(Plan(project, [_jobs.start_update(
            'projects/%d/update' % project['id'], _jobs.PROJECT_UPDATE, 'projects/%d/project_updates/' % project['id'],
            settle=waited,
            changes=(lambda done: done is not None and done.get('scm_revision') != project.get('scm_revision'))
            if judged else True)]))
    elif params['wait'] and not api.check_mode:
        current = api.client.get('projects/%d' % project['id']).get('summary_fields', {}).get('current_update')
        if current:
            wait_for_update(api, current['id'])


def update_result(result):
    """_jobs.wait's result as this module returns it: the project's own id stays the module's id."""
    return {'project_update': result.get('job'), 'stdout': result.get('stdout')}


def wait_for_update(api, update_id):
    """Wait for the project's update ``update_id``, and return it as it ended."""
    timeout = api.params['timeout'] if api.params['timeout'] and api.params['timeout'] > 0 else None
    done = _jobs.wait(api.client, update_id, timeout, api.params['interval'], kind=_jobs.PROJECT_UPDATE,
                      shape=update_result)
    api.returns(**done)
    return done['project_update']


SPEC = RESOURCE.spec(ARGUMENT_SPEC, adjust=adjust)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
