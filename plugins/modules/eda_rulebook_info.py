#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: eda_rulebook_info
short_description: Read the rulebooks of Event-Driven Ansible's projects, with their sources
version_added: 0.4.0
description:
  - Reads the rulebooks EDA found in its projects, at the platform gateway's C(/api/eda/v1/rulebooks/), each with
    its event sources (C(.../rulebooks/<id>/sources/)), whose names an activation's event streams take.
  - Takes the options of ansible.eda's C(rulebook_info) module. Unlike it, every page is read, and O(name) is the
    whole name (the service's own C(name) filter matches any part of a name).
author:
  - automation.service maintainers (@automation-service)
options:
  name:
    description:
      - Only the rulebooks with this name (its file name, V(hello.yml)); in every project unless O(project_name)
        is given.
    type: str
  project_name:
    description:
      - Only the rulebooks of this project, by name or id.
    type: str
    aliases: [project]
extends_documentation_fragment:
  - automation.service.eda
  - automation.service.auth
  - automation.service.attributes.info_module
'''

EXAMPLES = r'''
- name: The sources of hello.yml in the Rulebooks project
  automation.service.eda_rulebook_info:
    name: hello.yml
    project_name: Rulebooks
  register: found

- name: Their names
  ansible.builtin.debug:
    msg: "{{ found.rulebooks[0].sources | map(attribute='name') | list }}"
'''

RETURN = r'''
rulebooks:
  description: The matching rulebooks, as the service returns them, each with its C(sources).
  returned: always
  type: list
  elements: dict
  sample: [{"id": 893, "name": "hello.yml", "project_id": 177, "organization_id": 1, "rulesets": "",
            "sources": [{"name": "__SOURCE_1", "rulebook_hash": "1e0f22025ab0a4e729fb68bcb9497412c3d9f477ce5a8cb91cc2ef15e35c4dc6",
                         "source_info": "ansible.eda.range:\n  limit: 5\n"}]}]
'''

from ansible_collections.automation.service.plugins.module_utils import _eda
from ansible_collections.automation.service.plugins.module_utils import _eda_activations as eda

ARGUMENT_SPEC = dict(
    name=dict(type='str'),
    project_name=dict(type='str', aliases=['project']),
)


def run(api):
    params = api.params
    paths = eda.paths_of(api, 'eda_rulebook_info')
    filters = {}
    if params['project_name']:
        filters['project_id'] = _eda.resolve_id(api, paths('projects'), params['project_name'], 'project')
    path = paths('rulebooks')
    rulebooks = []
    for rulebook in _eda.read_list(api, 'rulebooks', 'eda_rulebook_info', name=params['name'], **filters):
        rulebooks.append(dict(rulebook, sources=eda.sources_of(api, path, rulebook['id'])))
    api.returns(rulebooks=rulebooks)


SPEC = _eda.info_spec('rulebooks', ARGUMENT_SPEC)


def main():
    SPEC.main(run)


if __name__ == '__main__':
    main()
