# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: api
short_description: Read objects from any endpoint of the service's API
version_added: 0.1.0
description:
  - GETs an endpoint of C(/api/v2/) and returns its objects, following C(next) pages when asked to.
  - A list endpoint gives its objects; a detail endpoint gives the one object.
author:
  - automation.service maintainers (@automation-service)
options:
  _terms:
    description:
      - The endpoint, relative to C(/api/v2/) (V(hosts), V(inventories/3/hosts)) or as an absolute path.
    required: true
    type: list
    elements: str
  query_params:
    description:
      - Filters and other query parameters, for example C(name=web01) and C(inventory=3) as a dictionary.
    type: dict
    default: {}
    aliases: [query, data, filters]
  return_all:
    description:
      - Follow every C(next) page. Without it only the first page is returned (and a warning says when there
        are more).
      - Pages are read with the largest page size the service allows unless C(page_size) is in O(query_params).
    type: bool
    default: false
  expect_one:
    description:
      - Fail unless exactly one object matches, and return that object rather than a list of one.
    type: bool
    default: false
  max_objects:
    description:
      - Fail rather than read more than this many objects with O(return_all).
    type: int
    default: 10000
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.auth.plugins
notes:
  - Runs on the controller, with Python's standard library only.
'''

EXAMPLES = r'''
- name: All hosts of inventory 3
  ansible.builtin.debug:
    msg: "{{ query('automation.service.api', 'hosts', query_params={'inventory': 3}, return_all=true) }}"

- name: One host by name, as a dictionary
  ansible.builtin.set_fact:
    web01: "{{ lookup('automation.service.api', 'hosts', query_params={'name': 'web01'}, expect_one=true) }}"

- name: The current user
  ansible.builtin.debug:
    msg: "{{ lookup('automation.service.api', 'me', expect_one=true).username }}"
'''

RETURN = r'''
_raw:
  description:
    - The objects of the endpoint; with O(expect_one) the one object.
  type: list
  elements: dict
'''

from ansible.errors import AnsibleError
from ansible.module_utils.common.text.converters import to_native

from ansible_collections.automation.service.plugins.module_utils._errors import ServiceError
from ansible_collections.automation.service.plugins.plugin_utils._lookup_base import ServiceLookupBase, display

MAX_PAGE_SIZE = 200


class LookupModule(ServiceLookupBase):

    def run(self, terms, variables=None, **kwargs):
        self.set_service_options(variables, kwargs)
        if len(terms) != 1:
            raise AnsibleError('The api lookup takes exactly one endpoint, got %d.' % len(terms))
        endpoint = terms[0]
        params = dict(self.get_option('query_params') or {})
        return_all = self.get_option('return_all')
        expect_one = self.get_option('expect_one')
        limit = self.get_option('max_objects')
        if return_all and 'page_size' not in params:
            params['page_size'] = MAX_PAGE_SIZE

        client = self.connect()
        try:
            page = client.get(endpoint, params=params)
            if not isinstance(page, dict) or 'results' not in page:
                objects = [page]
            else:
                objects = list(page['results'])
                while return_all and page.get('next'):
                    page = client.get(page['next'])
                    objects.extend(page['results'])
                    if len(objects) > limit:
                        raise AnsibleError('%s holds more than max_objects=%d objects.' % (endpoint, limit))
                if not return_all and page.get('next') and not expect_one:
                    display.warning('%s has %s objects; only the first %d were returned (set return_all).'
                                    % (endpoint, page.get('count'), len(objects)))
        except ServiceError as exc:
            raise AnsibleError(to_native(exc))

        if expect_one:
            if len(objects) != 1:
                raise AnsibleError('Expected exactly one object from %s with %s, found %s.'
                                   % (endpoint, params, page.get('count', len(objects))
                                      if isinstance(page, dict) else len(objects)))
            return [objects[0]]
        return objects
