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

from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Resource, as_data

ENCRYPTED = '$encrypted$'

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

RESOURCE = Resource(
    'credentials', 'credential', 'credential',
    scope={'credential_type': 'credential_types', 'organization': 'organizations'},
    fields=('description',),
    json_data=('inputs',),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC, mutually_exclusive=[('organization', 'user', 'team')])


def is_set(value):
    return value not in ('', None)


def secret_fields(api, existing):
    """The ids of the credential type's secret input fields."""
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


def run(api):
    params = api.params
    existing, source = RESOURCE.locate(api)
    if params.get('state') == 'exists':
        existing, source = RESOURCE.copy(api, existing, source), None  # nothing more to resolve: made now
    if RESOURCE.settle(api, existing):
        return
    inputs = params.get('inputs')
    secrets = secret_fields(api, existing) if inputs else set()

    def masked(data, mark):
        """``data`` with its set secret inputs replaced by ``mark``."""
        data = as_data(data)
        return dict((k, mark if k in secrets and is_set(v) else v) for k, v in data.items())

    hidden = ['inputs.' + name for name in sorted(secrets)]   # masked in the diff
    desired = RESOURCE.desired(api, existing)
    existing = RESOURCE.copy(api, existing, source)  # once every name is resolved
    if existing is None:
        created = api.ensure_present(None, desired, create=lambda: dict(RESOURCE.scope_ids(api), **owner_ids(api)),
                                     secret=hidden)
        if api.check_mode and inputs:
            api.returns(credential=dict(created, inputs=masked(inputs, ENCRYPTED)))
        return

    # Secrets compare as "set or not": the service reads them back as $encrypted$.
    delta = api.changes(existing, desired, {'inputs': lambda data: masked(data, ENCRYPTED)})
    held = [k for k, v in sorted((inputs or {}).items())
            if k in secrets and is_set(v) and (existing.get('inputs') or {}).get(k) == ENCRYPTED]
    if not delta:
        if held and params['update_secrets'] and not api.check_mode:
            existing = api.client.request('PATCH', api.detail_path(existing), json_body={'inputs': inputs},
                                          expect=(200,))
            api.returns(secrets_sent=held)
        api.returns_object(existing, existing, hidden)
        return
    before = dict((k, as_data(existing.get(k)) if k == 'inputs' else existing.get(k)) for k in delta)
    after = dict((k, masked(delta[k], ENCRYPTED) if k == 'inputs' else delta[k]) for k in delta)
    if api.check_mode:
        api.change(before, after, hidden)
        api.returns_object(existing, dict(existing, **after), hidden)
        return
    if inputs is not None:
        # Every input given goes with the write: the inputs sent replace the stored ones.
        keep = [] if params['update_secrets'] else held
        delta['inputs'] = dict((k, ENCRYPTED if k in keep else v) for k, v in inputs.items())
    updated = api.client.request('PATCH', api.detail_path(existing), json_body=delta, expect=(200,))
    api.change(before, after, hidden)
    api.returns_object(existing, updated, hidden)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
