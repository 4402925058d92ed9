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
  - Behind a platform gateway (Automation Platform 2.5 to 2.7), organizations, teams and users are written at the
    gateway, as M(automation.service.organization), M(automation.service.team) and M(automation.service.user) write
    them there, and the memberships of organizations and teams (the C(Member) and C(Admin) roles of users) become
    the gateway's role assignments; everything else goes to the controller. So an export of an AWX imports into
    the platform in one task (see the guide "Moving from AWX to Automation Platform").
author:
  - automation.service maintainers (@automation-service)
options:
  assets:
    description:
      - The data to apply, as export returns it. One list per kind (C(organizations), C(users), C(teams),
        C(credential_types), C(execution_environments), C(credentials), C(notification_templates), C(projects),
        C(inventory), C(inventory_sources), C(job_templates), C(workflow_job_templates), C(applications),
        C(schedules), and Event-Driven Ansible's C(eda_credential_types), C(eda_credentials),
        C(eda_decision_environments), C(eda_projects), C(eda_event_streams), C(eda_rulebook_activations), and
        Automation Hub's C(hub_namespaces), C(hub_collection_remotes), C(hub_collection_repositories),
        C(hub_ee_registries)).
    type: dict
    required: true
  ah_host:
    description:
      - ansible.hub's name of O(service_url), for a standalone Automation Hub (or the platform gateway in front of
        one). Given in the task, it is taken over O(service_url); else the environment variable E(AH_HOST), then
        those of O(service_url).
    type: str
    aliases: [ah_hostname]
    version_added: 0.5.0
  ah_username:
    description:
      - ansible.hub's name of O(service_username). Given in the task, it is taken over O(service_username); else the
        environment variable E(AH_USERNAME), then those of O(service_username).
    type: str
    version_added: 0.5.0
  ah_password:
    description:
      - ansible.hub's name of O(service_password). Given in the task, it is taken over O(service_password); else the
        environment variable E(AH_PASSWORD), then those of O(service_password).
    type: str
    version_added: 0.5.0
  ah_token:
    description:
      - ansible.hub's name of O(service_token), as a string or as the dict M(automation.service.ah_token) returns.
        On a standalone Hub it is sent as galaxy-ng's C(Token); behind a gateway it is the gateway's token.
      - Given in the task, it is taken over O(service_token); else the environment variable E(AH_API_TOKEN), then
        those of O(service_token).
    type: raw
    version_added: 0.5.0
  ah_path_prefix:
    description:
      - Where a standalone Hub serves its API, C(/api/<ah_path_prefix>/) (galaxy-ng's C(GALAXY_API_PATH_PREFIX));
        a value starting with C(/api/) is the whole path. Behind a platform gateway the Hub's API is where the
        gateway says. If not set, the environment variable E(GALAXY_API_PATH_PREFIX), else V(galaxy).
      - The service is found to be a standalone Hub only when C(GET /api/) is neither AWX's nor a gateway's answer.
    type: str
    version_added: 0.5.0
  validate_certs:
    description:
      - Verify the service's TLS certificate. Defaults to V(true); turn it off only for testing.
      - Environment variables E(AH_VERIFY_SSL), E(SERVICE_VERIFY_SSL), E(CONTROLLER_VERIFY_SSL), E(TOWER_VERIFY_SSL),
        E(GATEWAY_VERIFY_SSL), E(AAP_VALIDATE_CERTS).
      - The alias C(ah_verify_ssl) is ansible.hub's name.
    type: bool
    aliases: [aap_validate_certs, gateway_validate_certs, ah_verify_ssl]
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
notes:
  - It takes ansible.hub's connection options (O(ah_host), O(ah_username), O(ah_password), O(ah_token),
    O(ah_path_prefix)) as the Hub's modules do, so that it reaches a standalone Hub, and reads their environment
    variables (E(AH_HOST)...) before the shared ones where the task gives no connection option.
  - An empty or C($encrypted$) secret is left out. A new credential, notification template or user is created
    without it, and an existing one keeps its own. A secret given in clear is set when the object is created and
    never changed afterwards (M(automation.service.credential) with O(automation.service.credential#module:update_secrets)
    changes it). Secrets given in clear never show in the task's output.
  - A user created without a password (an export holds none) gets a random one that nobody knows; the task
    warns about it and names the user in RV(users_without_password) (awx.awx's import sets a fixed password).
  - A credential or notification template whose secrets the data leaves out, and which has no value for them,
    is named in RV(secrets_needed) with those fields, on every run until they are given.
  - A project created from source control is waited for until its first update ends (at most ten minutes), so that the
    job templates that follow find their playbooks; an update that fails ends the import with its output.
  - Event-Driven Ansible's objects (behind a platform gateway only; data that holds them fails on AWX 24) are
    applied after the controller's, each found by its type and name. A new EDA credential needs every input its
    type requires; where the data leaves one out (an export holds no secrets), the task fails before it writes
    anything and names them, so give them in the data. Its other secrets, and a project's proxy password, are
    handled as the controller's secrets are, and named in RV(secrets_needed).
  - A new EDA project is waited for until its rulebooks are imported (at most ten minutes), so that the
    activations that follow find their rulebooks; an import that fails ends the task with its error.
  - An EDA rulebook activation is edited only while it is disabled (EDA refuses otherwise). An enabled one whose
    fields differ is disabled, edited and enabled again.
  - Automation Hub's objects (behind a platform gateway, or on a standalone Hub, which takes only them) are applied
    last, each found by its type and name, in the order namespaces, collection remotes, collection repositories (a
    repository's remote named by name, the distributions of the data made or pointed at it), EE registries.
    What the Hub does in the background (Pulp's updates of remotes, repositories and distributions) is waited for.
  - The secrets the Hub never shows (a remote's or registry's C(username), C(password), C(token), C(proxy_username),
    C(proxy_password), C(client_key)) are sent only when given in clear, and only to an object that has none yet (a
    new one, or one whose field is not set); one the data gives as an empty string that the object lacks is named in
    RV(secrets_needed).
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

- name: Copy Automation Hub's remotes and repositories from one Hub to another
  automation.service.export:
    hub_collection_remotes: all
    hub_collection_repositories: all
  register: exported_hub

- name: Apply them, with the remotes' tokens given
  automation.service.import:
    assets: "{{ exported_hub.assets | combine({'hub_collection_remotes': remotes}) }}"
  vars:
    remotes: >-
      {{ exported_hub.assets.hub_collection_remotes
         | map('combine', {'token': lookup('ansible.builtin.env', 'REMOTE_TOKEN')}) | list }}

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
users_without_password:
  description:
    - The users this task created without a password (the data gave none). Nobody knows theirs; give each one
      (M(automation.service.user) with O(automation.service.user#module:update_password=always)), or let them log in
      through an authenticator.
  returned: success
  type: list
  elements: str
  sample: ["alice"]
secrets_needed:
  description:
    - The credentials (the controller's and Event-Driven Ansible's), notification templates, EDA projects (a
      proxy's password) and the Hub's collection remotes and EE registries of the data that have no value for
      secrets the data left out (an export never holds them), as their kind and natural key, with the names of
      those fields.
  returned: success
  type: dict
  sample: {"credential Ops/Deploy key/Machine/ssh": ["password", "ssh_key_data"]}
'''

from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._import import import_assets

ARGUMENT_SPEC = dict(assets=dict(type='dict', required=True))


def run(api):
    if not any(key.startswith('hub_') and value for key, value in api.params['assets'].items()):
        api.reaches_no_hub()
    import_assets(api, api.params['assets'])


SPEC = hub_spec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
