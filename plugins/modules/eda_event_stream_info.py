#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_event_stream_info
short_description: Read the event streams of Event-Driven Ansible
version_added: 0.4.0
description:
  - Reads event streams of Event-Driven Ansible (EDA), at the platform gateway's C(/api/eda/v1/event-streams/).
  - Takes the options of ansible.eda's C(event_stream_info) module. Unlike it, every page is read, and O(name) is
    the whole name (the service's own C(name) filter matches the start of a name).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only the event stream with this name.
    type: str
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes.info_module
'''

EXAMPLES = r'''
- name: One event stream
  automation.service.eda_event_stream_info:
    name: Git pushes
  register: found

- name: Every event stream
  automation.service.eda_event_stream_info:
  register: all_streams
'''

RETURN = r'''
event_streams:
  description: The matching event streams, as the service returns them.
  returned: always
  type: list
  elements: dict
  sample: [{"id": 4, "name": "Git pushes", "test_mode": false, "additional_data_headers": "",
            "eda_credential": {"id": 200, "name": "Git push HMAC"}, "organization": {"id": 1, "name": "Default"},
            "events_received": 0}]
'''

from ansible_collections.automation.service.plugins.module_utils import _eda

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
)


def run(api):
    api.returns(event_streams=_eda.read_list(api, 'event-streams', 'eda_event_stream_info', name=api.params['name']))


SPEC = _eda.info_spec('event_streams', ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
