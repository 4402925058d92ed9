#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: notification_template
short_description: Create, update or delete a notification template
version_added: 0.2.0
description:
  - Makes a notification template (where and how the service sends job notifications) match the fields given;
    fields not given are left alone.
  - A notification template is found by its name, within O(organization) when it is given.
  - Takes the options of awx.awx's C(notification_template) module.
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Name of the notification template, unique within its organization.
    type: str
    required: true
  new_name:
    description:
      - A new name for the notification template (found by O(name), or by O(new_name) when it was already renamed).
    type: str
  description:
    description:
      - Description of the notification template.
    type: str
  organization:
    description:
      - The organization of the notification template, by name or id. Needed to create it.
    type: str
  notification_type:
    description:
      - How notifications are sent. Needed to create the notification template.
    type: str
    choices: [awssns, email, grafana, irc, mattermost, pagerduty, rocketchat, slack, twilio, webhook]
  notification_configuration:
    description:
      - The settings of the notification type, for example C(host), C(port), C(sender), C(recipients), C(username)
        and C(password) for C(email); C(url), C(headers) and C(http_method) for C(webhook); C(channels) and C(token)
        for C(slack).
      - The dict given replaces the stored configuration. A setting left out takes the service's default
        (for example C(timeout=30) for C(email)) and is compared so.
      - Secret settings (C(password), C(token), C(account_token), C(grafana_key), C(aws_secret_access_key),
        C(aws_session_token)) are never shown; see the notes for how they are compared.
    type: dict
  messages:
    description:
      - Custom messages per event (C(started), C(success), C(error), C(workflow_approval)), each a dict of
        C(message) and C(body). Compared with the stored messages as data.
    type: dict
  update_secrets:
    description:
      - Whether the secret settings given are written when nothing else of the notification template changes
        (see the notes).
    type: bool
    default: true
  state:
    description:
      - V(present) creates or updates the notification template, V(absent) deletes it.
      - V(exists) creates the notification template when it is missing and leaves one found as it is.
    type: str
    choices: [present, absent, exists]
    default: present
notes:
  - The service reads a secret setting back as C($encrypted$), so the module cannot tell whether a secret given
    equals the one stored; it compares whether the secret is set. A secret the service does not hold yet, or holds
    when none is given, is a change.
  - Whenever the configuration is written (created, or anything it can compare changed), every setting given is
    sent, secrets included. With O(update_secrets=false) an update sends the secrets the service already holds as
    C($encrypted$), which keeps the stored values.
  - With O(update_secrets=true), a run in which nothing else changed still sends the configuration when it holds
    secrets the service holds too (not in check mode), so that a new password reaches the service; the run reports
    no change for it and returns the names of those secrets in RV(secrets_sent).
  - O(notification_configuration) is a no_log option, so no log shows it; in the task's result only the values of
    secret settings are masked (diff mode shows them as C(VALUE_SPECIFIED_IN_NO_LOG_PARAMETER)).
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.attributes
  - automation.service.copy_from
'''

EXAMPLES = r'''
- name: Mail the operators
  automation.service.notification_template:
    name: Mail operators
    organization: Default
    notification_type: email
    notification_configuration:
      host: smtp.example.com
      port: 587
      use_tls: true
      use_ssl: false
      username: automation
      password: "{{ smtp_password }}"
      sender: automation@example.com
      recipients:
        - ops@example.com

- name: A webhook with custom messages
  automation.service.notification_template:
    name: Chat hook
    organization: Default
    notification_type: webhook
    notification_configuration:
      url: https://chat.example.com/hooks/1
      headers:
        X-Source: automation
    messages:
      error:
        message: "{{ '{{' }} job_friendly_name {{ '}}' }} failed"  # a template the service renders

- name: Remove a notification template
  automation.service.notification_template:
    name: Chat hook
    organization: Default
    state: absent
'''

RETURN = r'''
id:
  description: Id of the notification template (of the deleted one with O(state=absent)).
  returned: when the notification template exists or existed
  type: int
  sample: 5
notification_template:
  description: The notification template as the service returns it, secret settings read as C($encrypted$)
    (the would-be notification template in check mode, its secrets masked).
  returned: with O(state=present) or O(state=exists)
  type: dict
  sample: {"id": 5, "name": "Mail operators", "organization": 1, "notification_type": "email",
           "notification_configuration": {"host": "smtp.example.com", "password": "$encrypted$"}, "messages": null}
secrets_sent:
  description: The names of the secret settings written although nothing else changed (O(update_secrets=true)).
  returned: when such settings were written
  type: list
  elements: str
  sample: [password]
'''

from ansible_collections.automation.service.plugins.module_utils._assets import NOTIFICATION_SECRETS as SECRETS
from ansible_collections.automation.service.plugins.module_utils._resource import STATE_EXISTS, Encrypted, Resource

TYPES = ['awssns', 'email', 'grafana', 'irc', 'mattermost', 'pagerduty', 'rocketchat', 'slack', 'twilio', 'webhook']
# The defaults the service fills in, per type (its OPTIONS).
DEFAULTS = {
    'awssns': dict.fromkeys(('aws_access_key_id', 'aws_region', 'aws_secret_access_key', 'aws_session_token',
                             'sns_topic_arn'), ''),
    'email': {'timeout': 30},
    'webhook': {'disable_ssl_verification': False, 'http_method': 'POST', 'password': '', 'username': ''},
}
CONFIG = 'notification_configuration'

ARGUMENT_SPEC = dict(
    copy_from=dict(type='str'),
    name=dict(type='str', required=True),
    new_name=dict(type='str'),
    description=dict(type='str'),
    organization=dict(type='str'),
    notification_type=dict(type='str', choices=TYPES),
    notification_configuration=dict(type='dict', no_log=True),
    messages=dict(type='dict'),
    update_secrets=dict(type='bool', default=True, no_log=False),
    state=STATE_EXISTS,
)


def notification_type(api, existing, desired):
    return desired.get('notification_type') or (existing or {}).get('notification_type')


RESOURCE = Resource(
    'notification_templates', 'notification_template', 'notification template',
    scope={'organization': 'organizations'},
    fields=('description', 'notification_type'),
    json_data=(CONFIG, 'messages'),
    required_on_create=('organization', 'notification_type'),
    # The secrets of its type read back as $encrypted$, the settings it does not give as the service's
    # defaults; a new type replaces every setting.
    encrypted=Encrypted(CONFIG, lambda api, existing, desired: SECRETS.get(notification_type(api, existing, desired), ()),
                        defaults=lambda api, existing, desired: DEFAULTS.get(notification_type(api, existing, desired), {}),
                        resets=lambda delta: 'notification_type' in delta,
                        # a no_log option, so that no log shows it; in the result only its secrets are masked
                        logged_secrets=frozenset(name for names in SECRETS.values() for name in names)),
)
SPEC = RESOURCE.spec(ARGUMENT_SPEC)


def run(api):
    RESOURCE.run(api)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
