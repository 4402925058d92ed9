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
      - The certificate, PEM encoded; compared without leading and trailing white space, which the gateway does
        not keep.
      - Required, with O(state=absent) too, as in ansible.platform's module.
    type: str
    required: true
  related_id_reference:
    description:
      - A reference to an object the certificate is related to (at most 64 characters), the gateway's
        C(related_id_reference).
      - C(remote_id) is the name this option had in earlier releases of this collection, and in the module proposed
        to ansible.platform; the gateway's field is this one.
    type: str
    aliases: [remote_id]
  sha256:
    description:
      - The certificate's SHA-256 fingerprint, which the platform requires of a new certificate (its published API
        schemas, 2.6 and 2.7).
      - Without it, the SHA-256 of the first certificate of O(pem_data) (of its DER encoding, in lower-case hex, as
        C(openssl x509 -noout -fingerprint -sha256) shows it without the colons) is sent with a new certificate
        and with a change of O(pem_data); it is then not compared otherwise.
    type: str
  state:
    description:
      - V(present) adds or updates the certificate, V(absent) removes it.
      - V(enforced) is V(present), and O(related_id_reference), when not given, goes back to the gateway's default
        (as its OPTIONS says it; see the notes).
    type: str
    choices: [present, absent, enforced]
    default: present
extends_documentation_fragment:
  - automation.service.gateway_routing
  - automation.service.auth
  - automation.service.attributes
  - automation.service.gateway_enforced
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
  returned: with O(state=present) or O(state=enforced)
  type: str
  sample: Company CA
ca_certificate:
  description: The certificate as the gateway returns it (the would-be one in check mode).
  returned: with O(state=present) or O(state=enforced)
  type: dict
  sample: {"id": 11, "name": "Company CA", "pem_data": "-----BEGIN CERTIFICATE-----...", "related_id_reference": "",
           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}
'''

import hashlib
import re
import ssl

from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._gateway_routing import GatewayResource
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    pem_data=dict(type='str', required=True),
    related_id_reference=dict(type='str', aliases=['remote_id']),
    sha256=dict(type='str'),
    state=dict(STATE, choices=STATE['choices'] + ['enforced']),
)
CERTIFICATE = re.compile(r'-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----', re.DOTALL)


def fingerprint(pem_data):
    """The SHA-256 of the DER encoding of the first certificate of ``pem_data``, in lower-case hex."""
    found = CERTIFICATE.search(pem_data or '')
    try:
        der = ssl.PEM_cert_to_DER_cert(found.group(0)) if found else None
    except ValueError:
        der = None
    if der is None:
        raise ConfigError('pem_data holds no PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----).')
    return hashlib.sha256(der).hexdigest()


class CACertificate(GatewayResource):
    """A CA certificate; the sha256 the platform requires is worked out when not given (see fingerprint())."""

    def desired(self, api, existing):
        wanted = super(CACertificate, self).desired(api, existing)
        if 'sha256' not in wanted and (existing is None or trimmed(existing.get('pem_data')) != trimmed(wanted.get('pem_data'))):
            wanted['sha256'] = fingerprint(wanted.get('pem_data'))
        return wanted


def trimmed(text):
    """Text as the gateway keeps it: without leading and trailing white space (a file's last newline)."""
    return (text or '').strip()


RESOURCE = CACertificate('ca_certificates', 'ca_certificate', 'CA certificate',
                         fields=('pem_data', 'related_id_reference', 'sha256'), compared_as={'pem_data': trimmed})
SPEC = RESOURCE.spec(ARGUMENT_SPEC)
run = RESOURCE.run


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
