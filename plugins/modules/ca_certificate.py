#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: ca_certificate
short_description: Add, update or remove a CA certificate a platform gateway trusts
version_added: 0.3.0
description:
  - Makes one of the CA certificates of a platform gateway match the options given, at its
    C(/api/gateway/v1/ca_certificates/). The gateway trusts the certificates they sign, for example the client
    certificates of a route that requires mutual TLS.
  - Takes the options of ansible.platform's C(ca_certificate) module, which is not in one of its releases yet (the
    one proposed in its pull request 59, commit b731d41d0c53e21460ebf6fb958bc66068e501ff).
author:
  - automation.service maintainers (@automation-service)
options:
  pem_data:
    description:
      - The certificate, PEM encoded.
      - Required, with O(state=absent) too, as in ansible.platform's module.
    type: str
    required: true
  remote_id:
    description:
      - An identifier of the certificate elsewhere.
    type: str
  sha256:
    description:
      - The certificate's SHA-256 fingerprint; without it, the gateway works it out for a new certificate and when
        O(pem_data) changes.
    type: str
  state:
    description:
      - V(present) adds or updates the certificate, V(absent) removes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Trust the company's CA
  automation.service.ca_certificate:
    name: Company CA
    pem_data: "{{ lookup('ansible.builtin.file', 'company-ca.pem') }}"
'''

RETURN = r'''
id:
  description: Id of the certificate (of the removed one with O(state=absent)).
  returned: when the certificate exists or existed
  type: int
  sample: 11
name:
  description: Name of the certificate.
  returned: with O(state=present)
  type: str
  sample: Company CA
ca_certificate:
  description: The certificate as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 11, "name": "Company CA", "pem_data": "-----BEGIN CERTIFICATE-----...", "remote_id": "",
           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}
'''

from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    pem_data=dict(type='str', required=True),
    remote_id=dict(type='str'),
    sha256=dict(type='str'),
    state=STATE,
)

RESOURCE = GatewayResource('ca_certificates', 'ca_certificate', 'CA certificate', fields=('pem_data', 'remote_id', 'sha256'))
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
