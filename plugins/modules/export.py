#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: export
short_description: Export the service's objects as data
version_added: 0.2.0
description:
  - Reads the objects named, of each kind asked for, and returns them as data that M(automation.service.import)
    applies to this service or another one.
  - The data has the shape C(awx export) writes. Each object holds its writable fields, the objects it refers to by
    natural key (a dict of its C(type) and the fields that name it), its related sets under C(related) (a template's
    credentials, labels, survey, schedules and notification templates, a workflow's nodes and their edges, the roles of
    users and teams) and its own C(natural_key).
  - Secrets are never exported. The service shows them as C($encrypted$); they are written as empty strings.
  - Needs no awxkit (awx.awx's module does).
author:
  - automation.service maintainers (@automation-service)
options:
  all:
    description:
      - Export every object of every kind.
    type: bool
    default: false
  organizations:
    description: The organizations to export, by name or id; C(all) for every one.
    type: list
    elements: str
  users:
    description: The users to export, by username or id; C(all) for every one.
    type: list
    elements: str
  teams:
    description: The teams to export, by name or id; C(all) for every one.
    type: list
    elements: str
  credential_types:
    description: The credential types to export, by name or id; C(all) for every one. The service's own types are never exported.
    type: list
    elements: str
  credentials:
    description: The credentials to export, by name or id; C(all) for every one.
    type: list
    elements: str
  execution_environments:
    description: The execution environments to export, by name or id; C(all) for every one. The service's own are never exported.
    type: list
    elements: str
  notification_templates:
    description: The notification templates to export, by name or id; C(all) for every one.
    type: list
    elements: str
  inventory_sources:
    description: The inventory sources to export, by name or id; C(all) for every one.
    type: list
    elements: str
  inventory:
    description: The inventories to export, by name or id; C(all) for every one.
    type: list
    elements: str
  projects:
    description: The projects to export, by name or id; C(all) for every one.
    type: list
    elements: str
  job_templates:
    description: The job templates to export, by name or id; C(all) for every one.
    type: list
    elements: str
  workflow_job_templates:
    description: The workflow job templates to export, by name or id; C(all) for every one.
    type: list
    elements: str
  applications:
    description: The OAuth2 applications to export, by name or id; C(all) for every one.
    type: list
    elements: str
  schedules:
    description: The schedules to export, by name or id; C(all) for every one.
    type: list
    elements: str
  eda_credential_types:
    description:
      - Event-Driven Ansible's credential types to export, by name or id; C(all) for every one. EDA's own types are
        never exported. Only behind a platform gateway, as for every O(eda_credentials) to O(eda_event_streams).
    type: list
    elements: str
    version_added: 0.4.0
  eda_credentials:
    description:
      - Event-Driven Ansible's credentials to export, by name or id; C(all) for every one. Their secrets are
        written as empty strings.
    type: list
    elements: str
    version_added: 0.4.0
  eda_decision_environments:
    description: Event-Driven Ansible's decision environments to export, by name or id; C(all) for every one.
    type: list
    elements: str
    version_added: 0.4.0
  eda_projects:
    description: Event-Driven Ansible's projects to export, by name or id; C(all) for every one.
    type: list
    elements: str
    version_added: 0.4.0
  eda_rulebook_activations:
    description:
      - Event-Driven Ansible's rulebook activations to export, by name or id; C(all) for every one.
      - An activation names its rulebook by its project and name, its controller token by name (only the exporting
        user's tokens can be named), and its event streams by name in C(source_mappings).
    type: list
    elements: str
    version_added: 0.4.0
  eda_event_streams:
    description:
      - Event-Driven Ansible's event streams to export, by name or id; C(all) for every one. Their C(uuid) is kept, so
        that an import elsewhere keeps the URL that senders post to.
    type: list
    elements: str
    version_added: 0.4.0
  hub_namespaces:
    description:
      - Automation Hub's collection namespaces to export, by name; C(all) for every one. Behind a platform gateway
        or on a standalone Hub (O(ah_host)), as for every O(hub_collection_remotes) to O(hub_ee_registries).
    type: list
    elements: str
    version_added: 0.5.0
  hub_collection_remotes:
    description:
      - Automation Hub's collection remotes to export, by name; C(all) for every one.
      - The Hub never shows a remote's C(username), C(password), C(token), C(proxy_username), C(proxy_password)
        nor C(client_key); each one it has is written as an empty string.
    type: list
    elements: str
    version_added: 0.5.0
  hub_collection_repositories:
    description:
      - Automation Hub's collection repositories to export, by name; C(all) for every one. A repository names its
        remote by name, and lists the distributions that serve it (their names and base paths).
    type: list
    elements: str
    version_added: 0.5.0
  hub_ee_registries:
    description:
      - Automation Hub's execution environment registries to export, by name; C(all) for every one. The secrets
        the Hub keeps of one (C(username), C(password), C(proxy_username), C(proxy_password), C(client_key)) are
        written as empty strings.
    type: list
    elements: str
    version_added: 0.5.0
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
  - automation.service.attributes.info_module
notes:
  - It takes ansible.hub's connection options (O(ah_host), O(ah_username), O(ah_password), O(ah_token),
    O(ah_path_prefix)) as the Hub's modules do, so that it reaches a standalone Hub, and reads their environment
    variables (E(AH_HOST)...) before the shared ones where the task gives no connection option.
  - With no kind given and O(all=false), every object of every kind is exported, as awx.awx does.
  - A name matching objects in several organizations exports each of them.
  - Named URLs (C(name++organization)) are not taken; name the object by id instead.
  - An inventory is exported with its fields, labels and sources (O(inventory_sources)), not its hosts and groups.
  - Event-Driven Ansible's objects are read from its API behind the gateway (C(/api/eda/v1/)). With every kind
    exported (O(all), or no kind given), they are left out where the service has no EDA (AWX 24, or a platform
    deployed without it); an C(eda_*) option given there fails the task. Their names are unique in EDA, so each is
    named by its type and name; its references are natural keys under the reference's name without C(_id)
    (C(organization), C(eda_credential), C(decision_environment), C(rulebook), C(awx_token)).
  - Automation Hub's objects are read from its API, behind the gateway (C(/api/galaxy/)) or on a standalone Hub.
    With every kind exported, they are left out where the service has no Hub (AWX 24, or a platform deployed without
    it); a C(hub_*) option given there fails the task. On a standalone Hub only the C(hub_*) kinds are exported
    (there every kind means every C(hub_*) kind); another kind given there fails the task. Each object is named by its
    type and name. Collections, their versions and execution environment images are content, not configuration,
    and are not exported; nor are the Hub's users, groups and roles.
'''

EXAMPLES = r'''
- name: Export one job template and every credential
  automation.service.export:
    job_templates: [Deploy]
    credentials: all
  register: exported

- name: Export Event-Driven Ansible's activations and what they run with
  automation.service.export:
    eda_rulebook_activations: all
    eda_projects: all
    eda_decision_environments: all
    eda_credentials: all
    eda_credential_types: all
    eda_event_streams: all
  register: exported_eda

- name: Export Automation Hub's namespaces, remotes, repositories and registries from a standalone Hub
  automation.service.export:
    hub_namespaces: all
    hub_collection_remotes: all
    hub_collection_repositories: all
    hub_ee_registries: all
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_password }}"
  register: exported_hub

- name: Keep the export in a file
  ansible.builtin.copy:
    content: "{{ exported.assets | to_nice_json }}"
    dest: backup.json
    mode: "0600"
'''

RETURN = r'''
assets:
  description:
    - The objects, one list per kind asked for. Each object has its fields, its references and C(natural_key).
  returned: success
  type: dict
  sample: {"organizations": [{"name": "Ops", "description": "", "max_hosts": 0, "default_environment": null,
           "natural_key": {"type": "organization", "name": "Ops"}}]}
'''

from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._assets import BY_KEY
from ansible_collections.automation.service.plugins.module_utils._export import EDA_BY_KEY, HUB_BY_KEY, export_assets

KEYS = list(BY_KEY) + list(EDA_BY_KEY) + list(HUB_BY_KEY)
ARGUMENT_SPEC = dict(all=dict(type='bool', default=False))
ARGUMENT_SPEC.update((key, dict(type='list', elements='str')) for key in KEYS)


def run(api):
    params = api.params
    asked = dict((key, params[key]) for key in KEYS if params.get(key) is not None)
    every = params['all'] or not asked
    if every:
        asked = dict((key, []) for key in KEYS)
    selection = dict((key, [] if 'all' in names else names) for key, names in asked.items())
    if not any(key.startswith('hub_') for key in selection):
        api.reaches_no_hub()
    api.returns(assets=export_assets(api, selection, eda_optional=every))


SPEC = hub_spec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
