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
  - GETs an endpoint of C(/api/v2/) (behind an Automation Platform gateway, C(/api/controller/v2/); see
    O(service_layout)) and returns its objects, following C(next) pages when asked to.
  - A list endpoint gives its objects; a detail endpoint gives the one object.
  - C(automation.service.gateway_api), ansible.platform's name, is this lookup with its relative endpoints taken as
    the platform gateway's, relative to C(/api/gateway/v1/) (V(service_clusters), V(http_ports/3)); on AWX 24, which
    has no gateway, relative to C(/api/v2/).
author:
  - automation.service maintainers (@automation-service)
options:
  _terms:
    description:
      - The endpoint, relative to C(/api/v2/) (V(hosts), V(inventories/3/hosts)), or to C(/api/controller/v2/)
        behind a platform gateway, or as an absolute path. Named C(gateway_api), relative to C(/api/gateway/v1/).
    required: true
    type: list
    elements: str
  query_params:
    description:
      - Filters and other query parameters, for example C(name=web01) and C(inventory=3) as a dictionary.
    type: dict
    default: {}
    aliases: [query, data, filters, filter, params]
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
      - With O(return_all), fail when the list holds more objects than this, before reading its other pages.
    type: int
    default: 10000
  expect_objects:
    description:
      - Fail unless the endpoint is a list or the detail of one object (an answer with C(results) or C(id)).
      - O(expect_one) checks this too.
    type: bool
    default: false
    aliases: [expect_object]
  return_objects:
    description:
      - Return the objects of a list endpoint. With V(false), return the page itself (C(count), C(next),
        C(previous), C(results)); with O(return_all) its C(results) hold every page and C(next) is null.
    type: bool
    default: true
  return_ids:
    description:
      - Return the ids of the objects (as strings, as awx.awx's C(controller_api) does) instead of the objects.
    type: bool
    default: false
    aliases: [return_id]
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.auth.plugins
notes:
  - Runs on the controller; needs the Python package C(requests) there.
  - Also reachable as C(automation.service.controller_api), awx.awx's name. awx.awx's connection option names
    C(host), C(username), C(password), C(oauth_token), C(verify_ssl) and C(request_timeout) are taken as
    O(service_url), O(service_username), O(service_password), O(service_token), O(validate_certs) and
    O(request_timeout).
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

- name: The gateway's service clusters, by ansible.platform's name of the lookup
  ansible.builtin.debug:
    msg: "{{ query('automation.service.gateway_api', 'service_clusters', return_all=true) }}"
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
# awx.awx's controller_api takes these connection option names.
AWX_OPTION_NAMES = {
    'host': 'service_url', 'controller_host': 'service_url',
    'username': 'service_username', 'controller_username': 'service_username',
    'password': 'service_password', 'controller_password': 'service_password',
    'oauth_token': 'service_token', 'controller_oauthtoken': 'service_token',
    'verify_ssl': 'validate_certs', 'controller_config_file': 'service_config_file',
}


def our_names(kwargs):
    """The lookup's keyword arguments with awx.awx's connection option names taken as ours."""
    options = {}
    for key, value in kwargs.items():
        name = AWX_OPTION_NAMES.get(key, key)
        if name in options and name != key:
            continue  # our own name wins over awx.awx's
        options[name] = value
    return options


class LookupModule(ServiceLookupBase):

    def gateway_named(self):
        """Whether the task named this lookup ``gateway_api`` (ansible.platform's name, redirected here): its
        relative endpoints are then the gateway's."""
        return any(str(name).rsplit('.', 1)[-1] == 'gateway_api' for name in getattr(self, '_redirected_names', None) or ())

    def run(self, terms, variables=None, **kwargs):
        self.set_service_options(variables, our_names(kwargs))
        if len(terms) != 1:
            # awx.awx's message (playbooks look for it), and how many were given.
            raise AnsibleError('You must pass exactly one endpoint to query (got %d).' % len(terms))
        endpoint = terms[0]
        params = dict(self.get_option('query_params') or {})
        return_all = self.get_option('return_all')
        expect_one = self.get_option('expect_one')
        limit = self.get_option('max_objects')
        if return_all and 'page_size' not in params:
            params['page_size'] = MAX_PAGE_SIZE

        client = self.connect()
        try:
            if self.gateway_named():
                endpoint = client.settled_layout().gateway_path(endpoint)
            page = client.get(endpoint, params=params)
            is_list = isinstance(page, dict) and 'results' in page
            if not is_list:
                objects = [page]
            else:
                objects = list(page['results'])
                count = page.get('count', len(objects))
                if return_all and isinstance(count, int) and count > limit:
                    raise AnsibleError('List view at %s returned %d objects, which is more than the maximum '
                                       'allowed by max_objects, %d' % (endpoint, count, limit))
                while return_all and page.get('next'):
                    page = client.get(page['next'])
                    objects.extend(page['results'])
                    if len(objects) > limit:
                        raise AnsibleError('List view at %s returned %d objects, which is more than the maximum '
                                           'allowed by max_objects, %d' % (endpoint, len(objects), limit))
                if not return_all and page.get('next') and not expect_one:
                    display.warning('%s has %s objects; only the first %d were returned (set return_all).'
                                    % (endpoint, page.get('count'), len(objects)))
        except ServiceError as exc:
            if getattr(exc, 'status', None) == 404:
                # awx.awx's words, then ours (the method, the whole address and the answer)
                raise AnsibleError('The requested object could not be found at %s: %s'
                                   % (endpoint, to_native(exc)))
            raise AnsibleError(to_native(exc))

        is_object = isinstance(page, dict) and 'id' in page
        # awx.awx's and ansible.platform's words name the endpoint as the task gave it (its gateway_api lookup's
        # 'users', not the path it is read at)
        if (self.get_option('expect_objects') or expect_one) and not is_list and not is_object:
            raise AnsibleError('Did not obtain a list or detail view at %s, and expect_objects or expect_one '
                               'is set to True' % terms[0])
        if expect_one:
            if len(objects) != 1:
                found = page.get('count', len(objects)) if is_list else len(objects)
                raise AnsibleError('Expected one object from endpoint %s, but obtained %s from API (query_params %s)'
                                   % (terms[0], found, params))
            objects = [objects[0]]
        if self.get_option('return_ids'):
            objects = [str(item['id']) for item in objects if isinstance(item, dict) and 'id' in item]
        if is_list and not self.get_option('return_objects'):
            whole = dict(page, results=objects)
            if return_all:
                whole.update(next=None, previous=None)
            return [whole]
        return objects
