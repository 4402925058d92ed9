#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ah_ee_registry
short_description: Create, update or delete a remote container registry of Automation Hub
version_added: 0.5.0
description:
  - Makes a remote registry of execution environment images of Automation Hub (the Hub's
    C(_ui/v1/execution-environments/registries/)) match the options given; options not given are left alone.
  - A registry is where the Hub's remote repositories (M(automation.service.ah_ee_repository) with its
    O(automation.service.ah_ee_repository#module:registry) option)
    pull their images from, with the credentials, certificates and proxy given here.
  - Takes the options of ansible.hub's C(ah_ee_registry) module and returns what it returns.
  - The Hub never reads back O(username), O(password), O(client_key), O(proxy_username) nor O(proxy_password), only
    whether each is set. One given for a registry that has none set is a change; one given for a registry that has
    one set is sent again with any other change of the registry, and alone changes nothing (the Hub cannot say
    whether it differs).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the registry.
    type: str
    required: true
  url:
    description:
      - The URL of the registry (V(https://quay.io), V(https://registry.redhat.io)). Needed with O(state=present).
    type: str
  username:
    description:
      - The user name to log in to the registry with.
    type: str
  password:
    description:
      - The password to log in to the registry with. Never shown in the output.
    type: str
  tls_validation:
    description:
      - Whether the Hub checks the registry's TLS certificate.
    type: bool
    default: true
  client_key:
    description:
      - A PEM-encoded private key the Hub authenticates to the registry with. Never shown in the output.
      - Mutually exclusive with O(client_key_path).
    type: str
  client_cert:
    description:
      - A PEM-encoded client certificate the Hub authenticates to the registry with.
      - Mutually exclusive with O(client_cert_path).
    type: str
  ca_cert:
    description:
      - A PEM-encoded CA certificate the Hub trusts the registry's certificate by.
      - Mutually exclusive with O(ca_cert_path).
    type: str
  client_key_path:
    description:
      - Path of a file (where the module runs) holding O(client_key).
    type: str
  client_cert_path:
    description:
      - Path of a file (where the module runs) holding O(client_cert).
    type: str
  ca_cert_path:
    description:
      - Path of a file (where the module runs) holding O(ca_cert).
    type: str
  proxy_url:
    description:
      - The proxy the Hub reaches the registry through.
    type: str
  proxy_username:
    description:
      - The user name to log in to the proxy with.
    type: str
  proxy_password:
    description:
      - The password to log in to the proxy with. Never shown in the output.
    type: str
  download_concurrency:
    description:
      - How many downloads the Hub runs at once from the registry (a whole number).
    type: str
  rate_limit:
    description:
      - How many requests a second the Hub sends to the registry at most (a whole number).
    type: str
  state:
    description:
      - V(present) creates or updates the registry, V(absent) deletes it (a registry that does not exist is not an
        error).
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: A registry the Hub pulls execution environments from, with credentials
  automation.service.ah_ee_registry:
    name: quay
    url: https://quay.io
    username: robot
    password: "{{ quay_robot_password }}"
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Trust a private CA for it
  automation.service.ah_ee_registry:
    name: internal
    url: https://registry.example.com
    ca_cert_path: /etc/pki/ca-trust/source/anchors/example-ca.pem

- name: Remove it
  automation.service.ah_ee_registry:
    name: internal
    state: absent
'''

RETURN = r'''
name:
  description: Name of the registry.
  returned: always
  type: str
  sample: quay
id:
  description: Id of the registry (a UUID); of the deleted registry with O(state=absent).
  returned: when the registry exists or existed (not for a registry check mode would create)
  type: str
  sample: 01a22aaa-f3fe-7944-ba4a-3779a9372287
type:
  description: What the task managed, V(registries), as ansible.hub says it.
  returned: always
  type: str
  sample: registries
registry:
  description: The registry as the Hub returns it (the would-be registry in check mode), its secrets not shown.
  returned: with O(state=present)
  type: dict
  sample: {"id": "01a22aaa-f3fe-7944-ba4a-3779a9372287", "name": "quay", "url": "https://quay.io",
           "tls_validation": true, "write_only_fields": [{"name": "password", "is_set": true}]}
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_ee
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec
from ansible_collections.automation.service.plugins.module_utils._hub_ee import REGISTRY_ARGUMENT_SPEC

ARGUMENT_SPEC = REGISTRY_ARGUMENT_SPEC

SPEC = hub_spec(ARGUMENT_SPEC, result_key='registry',
                mutually_exclusive=[('client_key', 'client_key_path'), ('client_cert', 'client_cert_path'),
                                    ('ca_cert', 'ca_cert_path')])
run = _hub_ee.run_registry


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
