#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: import
short_description: Apply exported data to the service
version_added: 0.2.0
description:
  - Applies the data M(automation.service.export) returns (or C(awx export) writes) to the service, idempotently.
  - Each object is found by its natural key. A missing object is created; a found one gets only the fields that
    differ. Related sets (credentials, labels, notification templates, roles, workflow edges) gain the members they
    lack and lose none. Surveys, schedules and workflow nodes are made to match.
  - Objects are created in the order they refer to each other, so one export of several kinds applies at once.
  - Needs no awxkit (awx.awx's module does).
author:
  - automation.service maintainers (@automation-service)
options:
  assets:
    description:
      - The data to apply, as export returns it. One list per kind (C(organizations), C(users), C(teams),
        C(credential_types), C(execution_environments), C(credentials), C(notification_templates), C(projects),
        C(inventory), C(inventory_sources), C(job_templates), C(workflow_job_templates), C(applications),
        C(schedules)).
    type: dict
    required: true
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
notes:
  - An empty or C($encrypted$) secret is left out. A new credential, notification template or user is created
    without it, and an existing one keeps its own. A secret given in clear is set when the object is created and
    never changed afterwards (M(automation.service.credential) with O(automation.service.credential#module:update_secrets)
    changes it). Secrets given in clear never show in the task's output.
  - A user created without a password gets a random one that nobody knows, and the task warns about it
    (awx.awx's import sets a fixed password).
  - A project created from source control is waited for until its first update ends (at most ten minutes), so that the
    job templates that follow find their playbooks; an update that fails ends the import with its output.
  - Nothing is deleted; objects of the service that the data does not name are left alone.
  - Supports check mode (awx.awx's does not). In check mode, objects that the data would create are reported as
    created, and what refers to them is not checked further.
'''

EXAMPLES = r'''
- name: Export the workflow and what it runs from one service
  automation.service.export:
    workflow_job_templates: [Nightly]
    job_templates: all
    projects: all
    inventory: all
  register: exported

- name: Apply it to another service
  automation.service.import:
    assets: "{{ exported.assets }}"
    controller_host: https://standby.example.com

- name: Apply a file written by awx export
  automation.service.import:
    assets: "{{ lookup('ansible.builtin.file', 'org.json') | from_json }}"
'''

RETURN = r'''
created:
  description: The objects created (or, in check mode, that would be), as kind and natural key.
  returned: success
  type: list
  elements: str
  sample: ["organization Ops", "job template Ops/Deploy"]
updated:
  description: The objects found whose fields or related sets were changed (or would be).
  returned: success
  type: list
  elements: str
  sample: ["project Ops/Playbooks"]
'''

from ansible_collections.automation.service.plugins.module_utils._api_module import ModuleSpec
from ansible_collections.automation.service.plugins.module_utils._import import import_assets

ARGUMENT_SPEC = dict(assets=dict(type='dict', required=True))


def run(api):
    import_assets(api, api.params['assets'])


SPEC = ModuleSpec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
