#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_credential_input_source
short_description: Create, update or delete where an input of an Event-Driven Ansible credential comes from
version_added: 0.4.0
description:
  - Makes an input of one of Event-Driven Ansible's credentials come from an external secret system (the source
    credential, of a lookup type such as HashiCorp Vault Secret Lookup) as the options say, at
    C(/api/eda/v1/credential-input-sources/) behind the platform gateway.
  - An input source is the one of its target credential, source credential and input field; only its
    O(description) and O(metadata) change.
  - Takes the options of ansible.eda's C(credential_input_source) module.
author:
  - automation.service maintainers (@automation-service)
options:
  target_credential:
    description:
      - The credential whose input comes from the source, by name or id.
    type: str
    required: true
  source_credential:
    description:
      - The credential of the external secret system the input is looked up with, by name or id.
    type: str
    required: true
  input_field_name:
    description:
      - The input of the target credential that comes from the source.
    type: str
    required: true
  description:
    description:
      - The description of the input source.
    type: str
  metadata:
    description:
      - What the lookup needs, as the source credential's type says (a C(secret_path) and a C(secret_key) for
        HashiCorp Vault), compared as data; its secret values, which EDA reads back as C($encrypted$), count as
        unchanged when set on both sides.
    type: dict
  organization_name:
    description:
      - The organization of the input source, by name or id. When not given, a new input source is made in the
        target credential's organization (ansible.eda sends none, which EDA refuses).
    type: str
    aliases: [organization]
  state:
    description:
      - V(present) creates or updates the input source, V(absent) deletes it (nothing to delete when its target or
        source credential is gone, where ansible.eda fails for a missing target).
      - V(exists) only looks it up and returns it (with RV(msg) when there is none); nothing changes.
    type: str
    choices: [present, absent, exists]
    default: present
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: The password of "App" comes from the vault
  automation.service.eda_credential_input_source:
    target_credential: App
    source_credential: Vault
    input_field_name: password
    metadata:
      secret_path: secret/app
      secret_key: password
'''

RETURN = r'''
id:
  description: Id of the input source (of the deleted one with O(state=absent)).
  returned: when the input source exists or existed
  type: int
  sample: 123
credential_input_source:
  description: The input source as EDA returns it (the would-be one in check mode).
  returned: with O(state=present), or O(state=exists) when found
  type: dict
  sample: {"id": 123, "input_field_name": "password", "target_credential": 15, "source_credential": 23,
           "metadata": {"secret_path": "secret/app", "secret_key": "password"}, "description": ""}
input_field_name:
  description: The input field the source is for.
  returned: with O(state=exists) when found
  type: str
target_credential:
  description: Id of the target credential.
  returned: with O(state=exists) when found
  type: int
source_credential:
  description: Id of the source credential.
  returned: with O(state=exists) when found
  type: int
metadata:
  description: The metadata, as EDA shows it.
  returned: with O(state=exists) when found
  type: dict
description:
  description: The description of the input source.
  returned: with O(state=exists) when found
  type: str
msg:
  description: C(Credential input source not found).
  returned: with O(state=exists) when there is none
  type: str
existing:
  description: The input source before the task (empty when there was none).
  returned: with O(state=present) or O(state=absent)
  type: dict
end_state:
  description: The input source after the task (empty once deleted).
  returned: with O(state=present) or O(state=absent)
  type: dict
'''

from ansible_collections.automation.service.plugins.module_utils._eda import (
    ORGANIZATION, EdaResource, find, place, referred_id,
)
from ansible_collections.automation.service.plugins.module_utils._errors import NotFound
from ansible_collections.automation.service.plugins.module_utils._resource import Encrypted, as_data

ARGUMENT_SPEC = dict(
    target_credential=dict(type='str', required=True),
    source_credential=dict(type='str', required=True),
    input_field_name=dict(type='str', required=True),
    description=dict(type='str'),
    metadata=dict(type='dict'),
    organization_name=dict(type='str', aliases=['organization']),
    state=dict(type='str', choices=['present', 'absent', 'exists'], default='present'),
)
MODULE = 'eda_credential_input_source'


def credential(api, option):
    """The credential ``option`` names (looked up once a task); None when there is none."""
    key = ('eda-credential', option)
    if key not in api.scope_objects:
        api.scope_objects[key] = find(api, place(api, 'eda-credentials', MODULE), api.params[option], 'name',
                                      option.replace('_', ' '))
    return api.scope_objects[key]


def metadata_secrets(api, existing, desired):
    """The secret metadata fields of the source credential's type."""
    if not api.params.get('metadata'):
        return set()
    source = credential(api, 'source_credential')
    type_id = referred_id(source, 'credential_type_id')
    if type_id is None:
        return set()
    definition = api.client.get('%s%d/' % (place(api, 'credential-types', MODULE), type_id))
    return set(field['id'] for field in (definition.get('inputs') or {}).get('metadata') or [] if field.get('secret'))


class InputSource(EdaResource):
    """Found by its target, source and input field (it has no name); made with them and an organization."""

    def find(self, api):
        target = credential(api, 'target_credential')
        if target is None:
            if api.params['state'] == 'absent':
                return None     # gone with its target credential: nothing to delete
            raise NotFound("Target credential '%s' not found" % api.params['target_credential'], total_results=0)
        source = credential(api, 'source_credential')
        if source is None:
            if api.params['state'] == 'present':
                raise NotFound("Source credential '%s' not found" % api.params['source_credential'], total_results=0)
            return None
        sources = api.client.iterate(self.endpoint, params={'target_credential': target['id'],
                                                            'source_credential': source['id'], 'page_size': 200})
        for found in sources:
            if referred_id(found, 'source_credential_id') == source['id'] and \
                    referred_id(found, 'target_credential_id') == target['id'] and \
                    found.get('input_field_name') == api.params['input_field_name']:
                return found
        return None

    def plan_object(self, api, existing, desired, lists):
        if existing is not None and not isinstance(existing.get('metadata'), (dict, type(None))):
            # metadata read back as something else than a mapping (text): compared as it parses, else as none
            metadata = as_data(existing['metadata'])
            existing = dict(existing, metadata=metadata if isinstance(metadata, dict) else {})
        return super(InputSource, self).plan_object(api, existing, desired, lists)

    def create_fields(self, api):
        target = credential(api, 'target_credential')
        fields = {'target_credential': target['id'], 'source_credential': credential(api, 'source_credential')['id']}
        if api.params.get('organization_name') is None:
            fields['organization_id'] = referred_id(target, 'organization_id')
        return fields


RESOURCE = InputSource(
    'credential-input-sources', 'credential_input_source', 'credential input source', MODULE,
    name='input_field_name', fields=('description',), json_data=('metadata',),
    references={'organization_name': ORGANIZATION},
    encrypted=Encrypted('metadata', metadata_secrets, sent_with_every_write=True),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def run(api):
    if api.params['state'] != 'exists':
        return RESOURCE.run(api)
    placed = RESOURCE.placed(api)
    found = placed.find(api)
    if found is None:
        api.says('Credential input source not found')
        return
    api.returns(**dict((key, value) for key, value in found.items()))
    api.returns(credential_input_source=found)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
