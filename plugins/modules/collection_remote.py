#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: collection_remote
short_description: Create, update or delete a collection remote of Automation Hub
version_added: 0.5.0
description:
  - Makes a collection remote of Automation Hub (Pulp's C(remotes/ansible/collection/)) match the options given. A
    remote says where a collection repository syncs its content from (Ansible Galaxy, console.redhat.com, another
    Hub) and which collections it takes.
  - Options not given are left alone, but for those with a default, which are sent as their default.
  - Takes the options of ansible.hub's C(collection_remote) module. Unlike it, O(url) is needed only to create a
    remote, a remote whose secrets are already set is not written again for them alone, and a diff says what
    changed.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the remote (for example V(community) or V(rh-certified), the remotes every Hub has).
    type: str
    required: true
  url:
    description:
      - The URL of the server to sync from, ending with C(/) (for another Hub, its distribution's content URL,
        V(https://hub.example.com/api/galaxy/content/published/)). Needed to create a remote.
    type: str
  auth_url:
    description:
      - The URL of the single sign-on server that turns O(token) into a bearer token (console.redhat.com's). Without
        it, the remote sends O(token) as C(Token <token>).
      - V('') takes it away.
    type: str
  token:
    description:
      - The token the remote sends to the server it syncs from. Never shown.
      - V('') takes it away.
    type: str
  policy:
    description:
      - How content is downloaded. The Hub takes only V(immediate) (download everything when syncing); the other
        choice, ansible.hub's, means the same.
    type: str
    choices: ['immediate', 'When syncing, download all metadata and content now.']
    default: immediate
  requirements:
    description:
      - The collections to sync, each as V(namespace.name), made into the requirements file the remote keeps (its
        C(collections) list). An empty list takes the requirements away, so that everything is synced.
      - Mutually exclusive with O(requirements_file).
    type: list
    elements: str
  requirements_file:
    description:
      - Path to a requirements file (YAML, with a C(collections) list, whose entries may give a C(version) range)
        whose text the remote keeps.
      - Mutually exclusive with O(requirements).
    type: str
  username:
    description:
      - User name the remote authenticates with (Basic) when it has no O(token).
      - The Hub never reads it back, so a remote that has a user name is not compared on which one; V('') takes it
        away.
    type: str
  password:
    description:
      - Password of O(username). Never shown.
      - V('') takes it away.
    type: str
  tls_validation:
    description:
      - Whether the remote checks the server's TLS certificate.
    type: bool
    default: true
  client_key:
    description:
      - A PEM encoded private key the remote authenticates with. Never shown.
      - Mutually exclusive with O(client_key_path).
    type: str
  client_cert:
    description:
      - A PEM encoded client certificate the remote authenticates with.
      - Mutually exclusive with O(client_cert_path).
    type: str
  ca_cert:
    description:
      - A PEM encoded CA certificate the remote trusts for the server's certificate (a Hub with a private CA).
      - Mutually exclusive with O(ca_cert_path).
    type: str
  client_key_path:
    description:
      - Path to a file that holds O(client_key).
      - Mutually exclusive with O(client_key).
    type: str
  client_cert_path:
    description:
      - Path to a file that holds O(client_cert).
      - Mutually exclusive with O(client_cert).
    type: str
  ca_cert_path:
    description:
      - Path to a file that holds O(ca_cert).
      - Mutually exclusive with O(ca_cert).
    type: str
  download_concurrency:
    description:
      - How many downloads the remote runs at once.
    type: int
    default: 10
  max_retries:
    description:
      - How many times a failed download is tried again. V(0) leaves it to the Hub's default.
    type: int
    default: 0
  rate_limit:
    description:
      - How many requests per second the remote sends at most.
    type: int
    default: 8
  signed_only:
    description:
      - Whether only signed collections are synced.
    type: bool
    default: false
  sync_dependencies:
    description:
      - Whether the collections that those synced depend on are synced too.
    type: bool
    default: true
  proxy_url:
    description:
      - The proxy the remote goes through. V('') takes it away.
    type: str
  proxy_username:
    description:
      - User name for the proxy. The Hub never reads it back, as O(username).
    type: str
  proxy_password:
    description:
      - Password for the proxy. Never shown.
    type: str
  state:
    description:
      - V(present) creates or updates the remote, V(absent) deletes it (nothing to do when there is none).
    type: str
    choices: [present, absent]
    default: present
notes:
  - The Hub never reads back O(token), O(password), O(proxy_password), O(client_key), O(username) nor
    O(proxy_username); it says only whether each is set. A value given for one that is not set, or V('') for one that
    is, is a change; a value given for one that is set is not compared, and is sent again with any other change of the
    remote (a new value is taken then).
  - The Hub applies a change or a deletion of a remote in a task; the module waits for it.
extends_documentation_fragment:
  - automation.service.hub
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: Sync rh-certified content from console.redhat.com
  automation.service.collection_remote:
    name: rh-certified
    url: https://console.redhat.com/api/automation-hub/content/published/
    auth_url: https://sso.redhat.com/auth/realms/redhat-external/protocol/openid-connect/token
    token: "{{ rh_offline_token }}"
    ah_host: https://hub.example.com
    ah_username: admin
    ah_password: "{{ hub_admin_password }}"

- name: Take two collections from Ansible Galaxy
  automation.service.collection_remote:
    name: community
    url: https://galaxy.ansible.com/api/
    requirements:
      - ansible.utils
      - community.general

- name: Take the collections a requirements file names
  automation.service.collection_remote:
    name: community
    url: https://galaxy.ansible.com/api/
    requirements_file: files/requirements.yml

- name: Remove a remote
  automation.service.collection_remote:
    name: old-mirror
    state: absent
'''

RETURN = r'''
name:
  description: Name of the remote.
  returned: always
  type: str
  sample: community
href:
  description: The remote's C(pulp_href), its path in the Hub's Pulp API.
  returned: when the remote exists or existed (not for one check mode would create)
  type: str
  sample: /api/galaxy/pulp/api/v3/remotes/ansible/collection/01a22aa8-ffb7-76bb-ab06-5f161f12f373/
type:
  description: What the object is, V(collection remote).
  returned: always
  type: str
  sample: collection remote
url:
  description: The remote's fields as the Hub returns them (its secrets only as C(hidden_fields)), at the top of the
    result as ansible.hub returns them; this is one of them.
  returned: with O(state=present)
  type: str
  sample: https://galaxy.ansible.com/api/
hidden_fields:
  description: Which of the fields the Hub never reads back are set.
  returned: with O(state=present)
  type: list
  elements: dict
  sample: [{"name": "token", "is_set": true}, {"name": "password", "is_set": false}]
'''

from ansible_collections.automation.service.plugins.module_utils import _hub_repositories as repos
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._hub import hub_spec, place, secrets_set
from ansible_collections.automation.service.plugins.module_utils._plan import Plan, Write
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

MODULE = 'collection_remote'
# ansible.hub's second choice of policy, which says what immediate means
IMMEDIATE_TOO = 'When syncing, download all metadata and content now.'

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    url=dict(type='str'),
    auth_url=dict(type='str'),
    token=dict(type='str', no_log=True),
    policy=dict(type='str', choices=['immediate', IMMEDIATE_TOO], default='immediate'),
    requirements=dict(type='list', elements='str'),
    requirements_file=dict(type='str'),
    username=dict(type='str'),
    password=dict(type='str', no_log=True),
    tls_validation=dict(type='bool', default=True),
    client_key=dict(type='str', no_log=True),
    client_cert=dict(type='str'),
    ca_cert=dict(type='str'),
    client_key_path=dict(type='str', no_log=False),
    client_cert_path=dict(type='str'),
    ca_cert_path=dict(type='str'),
    download_concurrency=dict(type='int', default=10),
    max_retries=dict(type='int', default=0),
    rate_limit=dict(type='int', default=8),
    signed_only=dict(type='bool', default=False),
    sync_dependencies=dict(type='bool', default=True),
    proxy_url=dict(type='str'),
    proxy_username=dict(type='str'),
    proxy_password=dict(type='str', no_log=True),
    state=STATE,
)
# Fields sent as given; those of them that are text, kept without the white space around them
FIELDS = ('url', 'auth_url', 'policy', 'tls_validation', 'client_cert', 'ca_cert', 'download_concurrency',
          'max_retries', 'rate_limit', 'signed_only', 'sync_dependencies', 'proxy_url')
TEXT = ('url', 'auth_url', 'client_cert', 'ca_cert', 'proxy_url')
NORMALIZE = dict([(key, repos.stripped) for key in TEXT] + [('requirements_file', repos.requirements_data)])


def desired(params):
    """The remote's fields the options give (those the Hub reads back), as the Hub keeps them."""
    fields = {}
    for key in FIELDS:
        value = params.get(key)
        if key + '_path' in ARGUMENT_SPEC and params.get(key + '_path') is not None:
            value = repos.read_file(params[key + '_path'], key + '_path')
        if value is None:
            continue
        fields[key] = repos.stripped(value) if key in TEXT else value
    if fields.get('policy') == IMMEDIATE_TOO:
        fields['policy'] = 'immediate'
    if fields.get('max_retries') == 0:
        fields['max_retries'] = None    # ansible.hub's 0: the Hub's default
    if params.get('requirements') is not None:
        fields['requirements_file'] = repos.requirements_text(params['requirements'])
    elif params.get('requirements_file') is not None:
        fields['requirements_file'] = repos.stripped(repos.read_file(params['requirements_file'], 'requirements_file'))
    return fields


def hidden_given(api):
    """The hidden fields given (name -> value; '' takes one away); a client key read from its file is kept out of
    every output as the option's would be."""
    params = api.params
    given = dict((key, params.get(key)) for key in repos.HIDDEN if params.get(key) is not None)
    if params.get('client_key_path') is not None:
        given['client_key'] = repos.read_file(params['client_key_path'], 'client_key_path')
        if given['client_key'].strip():
            api.no_log_values.add(given['client_key'])
    return given


def plan(api, existing):
    params = api.params
    fields = desired(params)
    given = hidden_given(api)
    if existing is None:
        if not fields.get('url'):
            raise ConfigError('Unable to create collection remote %s: url is required to create collection remote %s.'
                              % (params['name'], params['name']))
        body = dict(fields, name=params['name'])
        body.update((key, value) for key, value in given.items() if value != '')
        shown = dict((key, value) for key, value in body.items() if key not in repos.HIDDEN)
        answer = dict(shown, hidden_fields=[{'name': key, 'is_set': key in body} for key in repos.HIDDEN])
        return Plan(None, [Write('POST', place(api, repos.REMOTES, MODULE), body, expect=(201,), before={},
                                 after=body, secret=repos.HIDDEN, makes=True, answer=answer)])
    held = secrets_set(existing)
    hidden = {}
    for key, value in sorted(given.items()):
        want = value != ''
        if want != (key in held):
            hidden[key] = ('<set>' if key in held else None, value if want else None, value if want else None)
    # the secrets given go with any change, so that a new value is taken then
    extra = dict((key, value) for key, value in given.items() if value != '' and key not in hidden)
    return repos.plan_update(api, MODULE, existing, fields, NORMALIZE, secret=repos.HIDDEN, hidden=hidden,
                             extra=extra)


def run(api):
    params = api.params
    name = params['name']
    existing = repos.find_named(api, MODULE, repos.REMOTES, name, 'collection remote')
    if params['state'] == 'absent':
        api.apply(repos.plan_delete(api, MODULE, existing, 'collection remote'))
        api.returns(**repos.hub_result({} if existing is None else {'pulp_href': existing['pulp_href']},
                                       'collection remote', name))
        return
    made = api.apply(plan(api, existing))
    api.returns(**repos.hub_result(made, 'collection remote', name))


SPEC = hub_spec(ARGUMENT_SPEC, mutually_exclusive=[
    ('requirements', 'requirements_file'),
    ('client_key', 'client_key_path'),
    ('client_cert', 'client_cert_path'),
    ('ca_cert', 'ca_cert_path'),
])


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
