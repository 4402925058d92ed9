#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_project
short_description: Create, update, delete or sync a project of Event-Driven Ansible
version_added: 0.4.0
description:
  - Makes a project of Event-Driven Ansible (EDA), at the platform gateway's C(/api/eda/v1/projects/), match the
    options given; options not given are left alone, but for O(update_revision_on_launch) and
    O(scm_update_cache_timeout), which have defaults.
  - EDA imports a project from its git repository when it is made, and again when its O(url) or O(scm_branch)
    changes; the rulebooks it finds there are what rulebook activations run. With O(wait), the task waits for
    that import to end, and fails when it failed.
  - Takes the options of ansible.eda's C(project) module. Unlike it, the project is also found by its id, the
    result has the project as the service returns it, and a diff says what changed.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the project, or its numeric id.
    type: str
    required: true
  new_name:
    description:
      - Rename the project to this name. Running the task again after the rename finds the project by this name.
    type: str
  description:
    description:
      - Description of the project.
    type: str
  url:
    description:
      - The git URL of the project's repository. Needed to create a project.
    type: str
  proxy:
    description:
      - Proxy used to reach the repository over HTTP or HTTPS.
      - A password in it (V(http://user:password@proxy.example.com)) is never shown in the output; the service
        reads it back masked, so a proxy with a password is compared by everything else.
    type: str
  credential:
    description:
      - The EDA credential (a source control credential) to read the repository with, by name or id.
      - V('') takes the credential away.
    type: str
  organization_name:
    description:
      - The organization of the project, by name or id. Needed to create a project.
    type: str
    aliases: [organization]
  scm_branch:
    description:
      - The branch, tag or commit of the repository to import.
    type: str
  update_revision_on_launch:
    description:
      - Whether EDA syncs the project when an activation of it starts.
    type: bool
    default: false
  scm_update_cache_timeout:
    description:
      - Seconds a sync stays fresh enough that an activation starting within them does not sync again (0 to
        86400, 0 for always). More than 0 needs O(update_revision_on_launch).
    type: int
    default: 0
  sync:
    description:
      - Sync an existing project from its repository (C(POST .../sync/)), every time the task runs; a project the
        task creates is imported anyway. Reports a change.
    type: bool
    default: false
  wait:
    description:
      - Wait for the import or sync the task started (a new project, a changed O(url) or O(scm_branch), O(sync))
        to end; fail when it failed. Without it, the task returns at once.
    type: bool
    default: true
  timeout:
    description:
      - With O(wait), seconds to wait for the import or sync before failing.
    type: int
    default: 60
  interval:
    description:
      - With O(wait), seconds between two reads of the project's import state.
    type: float
    default: 2.0
  state:
    description:
      - V(present) creates or updates the project, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - The service refuses to delete a project while it is importing; O(wait) lets an import end first.
  - Automation Platform 2.6's EDA has no O(update_revision_on_launch) nor O(scm_update_cache_timeout). There an
    existing project is not compared on them, and a value other than the default is ignored with a warning.
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: An EDA project of rulebooks from git, imported before the task returns
  automation.service.eda_project:
    name: Rulebooks
    url: https://git.example.com/ops/rulebooks.git
    scm_branch: main
    organization_name: Default
    service_url: https://aap.example.com
    service_username: admin
    service_password: "{{ aap_admin_password }}"

- name: Sync it again from its repository
  automation.service.eda_project:
    name: Rulebooks
    sync: true

- name: Remove it
  automation.service.eda_project:
    name: Rulebooks
    state: absent
'''

RETURN = r'''
id:
  description: Id of the project (of the deleted project with O(state=absent)).
  returned: when the project exists or existed
  type: int
  sample: 24
project:
  description: The project as the service returns it (the would-be project in check mode); with O(wait), as the
    import or sync left it.
  returned: with O(state=present)
  type: dict
  sample: {"id": 24, "name": "Rulebooks", "url": "https://git.example.com/ops/rulebooks.git", "organization_id": 1,
           "import_state": "completed", "import_error": null, "git_hash": "417b4dbe9b3472fd64212ef8233b865585e5ade3"}
'''

from ansible_collections.automation.service.plugins.module_utils import _eda_activations as eda
from ansible_collections.automation.service.plugins.module_utils._eda import (
    ORGANIZATION, ORGANIZATION_OPTION, EdaResource, Reference,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    url=dict(type='str'),
    proxy=dict(type='str'),
    credential=dict(type='str'),
    organization_name=dict(ORGANIZATION_OPTION),
    scm_branch=dict(type='str'),
    update_revision_on_launch=dict(type='bool', default=False),
    scm_update_cache_timeout=dict(type='int', default=0),
    sync=dict(type='bool', default=False),
    wait=dict(type='bool', default=True),
    timeout=dict(type='int', default=60),
    interval=dict(type='float', default=2.0),
    state=STATE,
)
# The fields whose change makes the service import the project again.
SYNCED_BY = ('url', 'scm_branch', 'scm_refspec')
# The fields EDA 2.6 has not (field -> the default this module sends)
LATER = {'update_revision_on_launch': False, 'scm_update_cache_timeout': 0}


class Project(EdaResource):
    """A project: its proxy compared, and shown, as the service reads it back (its password masked); the import its
    creation or a change of its url or branch starts waited for (with ``wait``); the fields of a later EDA left out
    where the service has none."""

    def desired(self, api, existing):
        return eda.known_only(api, existing, super(Project, self).desired(api, existing), LATER, self.label)

    def plan_object(self, api, existing, desired, lists):
        plan = super(Project, self).plan_object(api, existing, desired, lists)
        return Plan(plan.existing, [self.finished(api, write) for write in plan.writes])

    def finished(self, api, write):
        """``write`` as this module sends it: its proxy shown as the service reads it back, and waiting for the
        import it starts."""
        changes = {}
        for side in ('after', 'answer'):
            value = getattr(write, side)
            if isinstance(value, dict) and value.get('proxy'):
                changes[side] = dict(value, proxy=eda.proxy_as_read(value['proxy']))
        if write.method == 'POST' or (write.method == 'PATCH' and set(SYNCED_BY) & set(write.body or {})):
            changes['settle'] = lambda answer: imported(api, self.endpoint, answer)
        return write.but(**changes) if changes else write


def imported(api, endpoint, answer):
    """The project ``answer`` once the import its write started has ended (with ``wait``; else as answered)."""
    params = api.params
    if not params['wait']:
        return answer
    return eda.wait_for_import(api.client, '%s%d/' % (endpoint, answer['id']), params['timeout'], params['interval'])


RESOURCE = Project(
    'projects', 'project', 'project', 'eda_project',
    fields=('description', 'url', 'proxy', 'scm_branch', 'update_revision_on_launch', 'scm_update_cache_timeout'),
    references={'organization_name': ORGANIZATION,
                'credential': Reference('eda-credentials', 'eda_credential_id', 'credential')},
    compared_as={'proxy': eda.proxy_as_read},
)


def run(api):
    params = api.params
    cached = bool(params['scm_update_cache_timeout']) and params['scm_update_cache_timeout'] > 0
    if cached and not params['update_revision_on_launch']:
        raise ConfigError('scm_update_cache_timeout requires update_revision_on_launch to be true')
    if params['wait'] and not 0 < params['interval'] < float('inf'):
        raise ConfigError('interval must be a number of seconds more than 0.')
    password = eda.proxy_password(params.get('proxy'))
    if password:
        api.no_log_values.add(password)
    placed = RESOURCE.placed(api)

    def planned(plan):
        # ansible.eda's words for what a new project needs, before anything is written
        if params['state'] == 'present' and plan.existing is None:
            if not params.get('url'):
                raise ConfigError('Parameter url is required when state is present and project does not exist')
            if not params.get('organization_name'):
                raise ConfigError('Parameter organization_name is required when state is present and project does '
                                  'not exist')

    found, new = placed.run(api, planned)
    if params['sync'] and params['state'] == 'present' and found is not None and not new:
        made = api.apply(Plan(found, [Write(
            'POST', '%s%d/sync/' % (placed.endpoint, found['id']), {}, expect=(202,), before={'synced': False},
            after={'synced': True}, makes=True, answer=found,
            settle=lambda answer: imported(api, placed.endpoint, dict(answer or {}, id=found['id'])))]))
        api.returns(project=made)


SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
