#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: credential
short_description: Create, update or delete a credential
version_added: 0.2.0
description:
  - Makes a credential of the service match the fields given; fields not given are left alone.
  - A credential is found by its name and O(credential_type), and by O(organization) when it is given.
  - Takes the options of awx.awx's C(credential) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the credential.
    type: str
    required: true
  new_name:
    description:
      - A new name for the credential (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the credential.
    type: str
  credential_type:
    description:
      - The type of the credential, by name (for example C(Machine), C(Source Control)) or id.
    type: str
    required: true
  organization:
    description:
      - The organization that owns the credential, by name or id.
    type: str
  user:
    description:
      - The user that owns the credential, by username or id. Used when the credential is created.
    type: str
  team:
    description:
      - The team that owns the credential, by name or id. Used when the credential is created.
    type: str
  inputs:
    description:
      - The values of the credential type's input fields (C(username), C(password), C(ssh_key_data), ...).
      - The dict given replaces the credential's inputs, as in awx.awx; an input left out is removed.
      - How secret inputs are compared and sent is told in the notes.
    type: dict
  update_secrets:
    description:
      - Whether the secret inputs given are written when nothing else of the credential changes (see the notes).
    type: bool
    default: true
  state:
    description:
      - V(present) creates or updates the credential, V(absent) deletes it.
      - V(exists) creates the credential when it is missing and leaves a credential found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - The service reads secret inputs back as C($encrypted$), so the module cannot tell whether a secret it is
    given equals the one stored. It compares the other fields, the non-secret inputs, and which inputs are set;
    a secret input the service does not hold yet is a change.
  - Whenever the credential is written (created, or anything it can compare changed), every input given is sent,
    secrets included, so no value given is dropped. With O(update_secrets=false) an update sends the secrets the
    service already holds as C($encrypted$), which keeps the stored values.
  - With O(update_secrets=true), a run in which nothing else changed still sends the secret inputs given that the
    service holds (not in check mode), so that a new password reaches the service; the run reports no change for
    it, since the module cannot know whether the value differed, and returns their names in RV(secrets_sent).
    With O(update_secrets=false) such a run sends nothing.
  - Diff mode shows secret inputs as C(VALUE_SPECIFIED_IN_NO_LOG_PARAMETER); O(inputs) is a no_log option, so its
    values are masked in all output.
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.copy_from
'''

EXAMPLES = r'''
- name: A machine credential of the Default organization
  automation.service.credential:
    name: Deploy
    credential_type: Machine
    organization: Default
    inputs:
      username: deploy
      ssh_key_data: "{{ lookup('ansible.builtin.file', 'deploy_key') }}"

- name: Keep the stored secrets; only set them when the credential is created
  automation.service.credential:
    name: Deploy
    credential_type: Machine
    organization: Default
    update_secrets: false
    inputs:
      username: deploy
      ssh_key_data: "{{ lookup('ansible.builtin.file', 'deploy_key') }}"

- name: Remove a credential
  automation.service.credential:
    name: Deploy
    credential_type: Machine
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the credential (of the deleted credential with O(state=absent)).
  returned: when the credential exists or existed
  type: int
  sample: 7
credential:
  description: The credential as the service returns it, secret inputs read as C($encrypted$) (the would-be
    credential in check mode, its secret inputs masked).
  returned: with O(state=present)
  type: dict
  sample: {"id": 7, "name": "Deploy", "credential_type": 1, "inputs": {"username": "deploy",
           "ssh_key_data": "$encrypted$"}}
secrets_sent:
  description: The names of the secret inputs written although nothing else changed (O(update_secrets=true)).
  returned: when such inputs were written
  type: list
  elements: str
  sample: [password]
'''

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Encrypted, Resource

ARGUMENT_SPEC = dict(
    copy_from=dict(type='str'),
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    credential_type=dict(type='str', required=True),
    organization=dict(type='str'),
    user=dict(type='str'),
    team=dict(type='str'),
    inputs=dict(type='dict', no_log=True),
    update_secrets=dict(type='bool', default=True, no_log=False),
    state=STATE_EXISTS,
)


def secret_fields(api, existing, desired):
    """The ids of the credential type's secret input fields (read only when inputs are given)."""
    if not api.params.get('inputs'):
        return set()
    type_id = existing['credential_type'] if existing else \
        api.resolve_id('credential_types', api.params['credential_type'], 'credential type')
    definition = api.client.get('credential_types/%d/' % type_id)
    fields = (definition.get('inputs') or {}).get('fields') or []
    return set(field['id'] for field in fields if field.get('secret'))


def owner_ids(api):
    """The user or team that owns a new credential."""
    owners = {}
    if api.params.get('user') is not None:
        owners['user'] = api.resolve_id('users', api.params['user'], 'user', name_field='username')
    if api.params.get('team') is not None:
        owners['team'] = api.resolve_id('teams', api.params['team'], 'team')
    return owners


RESOURCE = Resource(
    'credentials', 'credential', 'credential',
    scope={'credential_type': 'credential_types', 'organization': 'organizations'},
    fields=('description',),
    json_data=('inputs',),
    # Secret inputs read back as $encrypted$; every input given goes with a write.
    encrypted=Encrypted('inputs', secret_fields, sent_with_every_write=True),
    on_create=owner_ids,
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC, mutually_exclusive=[('organization', 'user', 'team')])


def run(api):
    RESOURCE.run(api)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
