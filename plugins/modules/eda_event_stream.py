#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_event_stream
short_description: Create, update or delete an event stream of Event-Driven Ansible
version_added: 0.4.0
description:
  - Makes an event stream of Event-Driven Ansible (EDA), at the platform gateway's C(/api/eda/v1/event-streams/),
    match the options given. An event stream is a URL that takes events from outside (a webhook), checked with
    its credential, for the rulebook activations that listen to it.
  - Takes the options of ansible.eda's C(event_stream) module. Unlike it, the result has the event stream as the
    service returns it (its C(url) is where events are posted), and a diff says what changed.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the event stream, or its numeric id.
    type: str
    required: true
  new_name:
    description:
      - Rename the event stream to this name. Running the task again after the rename finds it by this name.
    type: str
  credential_name:
    description:
      - The EDA credential that checks the events posted, by name or id; one of an event stream credential type
        (HMAC, Basic, Token, OAuth2, OAuth2 JWT, ECDSA, mTLS, GitLab, GitHub, ServiceNow or Dynatrace Event
        Stream).
      - Needed with O(state=present).
    type: str
    aliases: [credential]
  organization_name:
    description:
      - The organization of the event stream, by name or id.
      - Needed with O(state=present).
    type: str
    aliases: [organization]
  headers:
    description:
      - Comma-separated names of the HTTP headers of a request that go into the event; V('') (the default) for
        every header.
      - Sent as given on every run, the default included (ansible.eda's module sends it only when it is not empty,
        so that it could not go back to every header).
    type: str
    default: ''
  forward_events:
    description:
      - Whether the event stream forwards the events it takes to the rulebook activations that listen to it.
        V(false) (the default) keeps the stream in test mode, where it only shows the last event.
    type: bool
    default: false
  uuid:
    description:
      - The UUID in the event stream's URL, unique among event streams; the service makes one when it is not
        given. Checked as a UUID before anything is sent.
    type: str
  event_stream_type:
    description:
      - Accepted and ignored, as by ansible.eda, whose option it is (the credential says the type).
    type: str
    aliases: [type]
  state:
    description:
      - V(present) creates or updates the event stream, V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes
'''

EXAMPLES = r'''
- name: An event stream checked with an HMAC credential, forwarding its events
  automation.service.eda_event_stream:
    name: Git pushes
    credential_name: Git push HMAC
    organization_name: Default
    forward_events: true
  register: stream

- name: Where to post the events
  ansible.builtin.debug:
    msg: "{{ stream.event_stream.url }}"

- name: Remove it
  automation.service.eda_event_stream:
    name: Git pushes
    state: absent
'''

RETURN = r'''
id:
  description: Id of the event stream (of the deleted one with O(state=absent)).
  returned: when the event stream exists or existed
  type: int
  sample: 4
event_stream:
  description: The event stream as the service returns it (the would-be one in check mode).
  returned: with O(state=present)
  type: dict
  sample: {"id": 4, "name": "Git pushes", "test_mode": false, "additional_data_headers": "",
           "eda_credential": {"id": 200, "name": "Git push HMAC"}, "organization": {"id": 1, "name": "Default"},
           "uuid": "550e8400-e29b-41d4-a716-446655440000",
           "url": "https://aap.example.com/eda-event-streams/api/eda/v1/external_event_stream/550e8400-e29b-41d4-a716-446655440000/post/"}
'''

import uuid

from ansible_collections.automation.service.plugins.module_utils._eda import (
    ORGANIZATION, ORGANIZATION_OPTION, EdaResource, Reference,
)
from ansible_collections.automation.service.plugins.module_utils._errors import ConfigError
from ansible_collections.automation.service.plugins.module_utils._resource import STATE

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    credential_name=dict(type='str', aliases=['credential']),
    organization_name=dict(ORGANIZATION_OPTION),
    headers=dict(type='str', default=''),
    forward_events=dict(type='bool', default=False),
    uuid=dict(type='str'),
    event_stream_type=dict(type='str', aliases=['type']),
    state=STATE,
)


class EventStream(EdaResource):
    """An event stream: its options are named otherwise than its fields (``forward_events`` is the service's
    ``test_mode`` turned round, ``headers`` its ``additional_data_headers``), and its UUID is compared as one."""

    def desired(self, api, existing):
        params = api.params
        wanted = super(EventStream, self).desired(api, existing)
        wanted['test_mode'] = not params['forward_events']
        wanted['additional_data_headers'] = params['headers']
        if params.get('uuid'):
            wanted['uuid'] = str(uuid.UUID(params['uuid']))
        return wanted


RESOURCE = EventStream(
    'event-streams', 'event_stream', 'event stream', 'eda_event_stream',
    references={'organization_name': ORGANIZATION,
                'credential_name': Reference('eda-credentials', 'eda_credential_id', 'credential')},
)


def run(api):
    params = api.params
    if params.get('uuid'):
        try:
            uuid.UUID(params['uuid'])
        except ValueError:
            raise ConfigError('Invalid UUID format: %s' % params['uuid'])
    if params.get('event_stream_type') is not None:
        api.warn('event_stream_type is ignored: the credential of an event stream says its type.')
    if params['state'] == 'present':
        missing = [option for option in ('credential_name', 'organization_name') if not params.get(option)]
        if missing:
            # ansible.eda's (AnsibleModule's required_if) words
            raise ConfigError('state is present but all of the following are missing: %s' % ', '.join(missing))
    RESOURCE.run(api)


SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
