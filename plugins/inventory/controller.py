# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
name: controller
short_description: The hosts, groups and variables of one of the service's inventories
version_added: 0.2.0
description:
  - Reads one inventory of the service (its hosts, groups, group children and the variables of each) as an Ansible
    inventory, with one request (the inventory's C(script/) endpoint, as the service's own jobs read it).
  - Authenticates as the modules do, with every method of the collection (a cached session, a token, SSO, Basic).
  - The configuration file's name ends with C(controller.yml), C(controller.yaml), C(controller_inventory.yml) or
    C(controller_inventory.yaml) (also C(tower.yml), C(tower_inventory.yml) and their C(.yaml) forms, as awx.awx
    reads them). The source C(@controller_inventory) takes every option from the environment instead.
  - Takes awx.awx's C(controller) inventory plugin's options; its connection option names C(host), C(username),
    C(password), C(oauth_token) and C(verify_ssl) are taken as O(service_url), O(service_username),
    O(service_password), O(service_token) and O(validate_certs).
author:
  - automation.service maintainers (@automation-service)
options:
  plugin:
    description: The name of this plugin, so that Ansible knows the configuration file is for it.
    type: str
    required: true
    choices: [automation.service.controller]
  inventory_id:
    description:
      - The inventory, by id, or by name and organization as C(name++organization) (the service's named URL form).
    type: raw
    required: true
    env:
      - name: CONTROLLER_INVENTORY
      - name: SERVICE_INVENTORY
  include_metadata:
    description:
      - Also set C(controller_metadata) (and C(tower_metadata), its old name) on the C(all) group, with the service's
        C(version), C(ansible_version) and C(license_type), from one more request (C(/api/v2/config/), behind a
        platform gateway C(/api/controller/v2/config/)).
    type: bool
    default: false
  include_disabled:
    description:
      - Also list the hosts that are disabled on the service. awx.awx lists them always; here too by default.
    type: bool
    default: true
extends_documentation_fragment:
  - automation.service.auth
  - automation.service.auth.plugins
  - inventory_cache
notes:
  - Each host gets the variables C(remote_tower_enabled) (C("true") or C("false")) and C(remote_tower_id) (its id on
    the service), as from awx.awx's plugin.
  - The variables read from the service (of hosts, of groups, and C(controller_metadata)) are marked unsafe, as
    C(!unsafe) marks them in YAML, so a template stored in a variable on the service (C({{ ... }}) or C({% ... %}))
    reaches plays as that text and is never run.
  - With O(cache=true), a later run reads the inventory from Ansible's inventory cache instead of the service
    until O(cache_timeout) runs out (C(--flush-cache) reads it again).
'''

EXAMPLES = r'''
# inventory/controller.yml, then: ansible-inventory -i inventory/controller.yml --list
plugin: automation.service.controller
service_url: https://automation.example.com
inventory_id: Production++Default
# service_username and service_password (or a token) from SERVICE_* / CONTROLLER_* environment variables;
# a cached session is reused across runs as by the modules.
cache: true
cache_plugin: ansible.builtin.jsonfile
cache_connection: ~/.cache/automation-inventory
cache_timeout: 600
'''

from ansible.errors import AnsibleParserError
from ansible.module_utils.common.text.converters import to_native, to_text
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.automation.service.plugins.module_utils._errors import ServiceError
from ansible_collections.automation.service.plugins.module_utils._options import options_from_getter, resolve
from ansible_collections.automation.service.plugins.plugin_utils._lookup_base import display
from ansible_collections.automation.service.plugins.plugin_utils import _core

FILE_ENDINGS = tuple('%s.%s' % (stem, ext) for stem in ('controller', 'controller_inventory', 'tower', 'tower_inventory')
                     for ext in ('yml', 'yaml'))
FROM_ENVIRONMENT = ('@controller_inventory', '@tower_inventory')
# awx.awx's connection option names, in a configuration file.
AWX_OPTION_NAMES = {
    'host': 'service_url', 'username': 'service_username', 'password': 'service_password',
    'oauth_token': 'service_token', 'verify_ssl': 'validate_certs',
}


class InventoryModule(BaseInventoryPlugin, Cacheable):

    NAME = 'automation.service.controller'

    def verify_file(self, path):
        if path.endswith(FROM_ENVIRONMENT):
            return True
        return super(InventoryModule, self).verify_file(path) and path.endswith(FILE_ENDINGS)

    def parse(self, inventory, loader, path, cache=True):
        super(InventoryModule, self).parse(inventory, loader, path)
        if path.endswith(FROM_ENVIRONMENT):
            self.set_options(direct={'plugin': self.NAME})
        else:
            config = _core.inventory_config(self, path)
            given = dict(config)
            for theirs, ours in AWX_OPTION_NAMES.items():
                if theirs in given:
                    given.setdefault(ours, given.pop(theirs))  # our own name wins
            if given != config:
                self.set_options(direct=given, var_options=_core.inventory_variables(self))

        cache_key = self.get_cache_key(path)
        use_cache = self.get_option('cache') and cache
        data = None
        if use_cache:
            try:
                data = self.cache[cache_key]
            except KeyError:
                data = None
        if data is None:
            data = self.fetch()
            if self.get_option('cache'):
                self.cache[cache_key] = data
        self.populate(data)

    def fetch(self):
        """The inventory's script data (and the service's metadata when asked)."""
        from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
        from ansible_collections.automation.service.plugins.module_utils._info import object_id
        try:
            client = connect(resolve(options_from_getter(self.get_option)), warn=display.warning)
            inventory_id = self.inventory_id(client)
            query = {'hostvars': '1', 'towervars': '1'}
            if self.get_option('include_disabled'):
                query['all'] = '1'
            data = {'script': client.get('inventories/%d/script/' % object_id('inventory_id', inventory_id),
                                         params=query)}
            if self.get_option('include_metadata'):
                config = client.get('config/')
                data['metadata'] = {
                    'license_type': (config.get('license_info') or {}).get('license_type', 'unknown'),
                    'version': config.get('version', 'unknown'),
                    'ansible_version': config.get('ansible_version', 'unknown'),
                }
            return data
        except ServiceError as exc:
            raise AnsibleParserError('automation.service.controller: %s' % to_native(exc))

    def inventory_id(self, client):
        value = self.get_option('inventory_id')
        if value is None or value == '':
            raise AnsibleParserError('automation.service.controller: inventory_id is required (or CONTROLLER_INVENTORY).')
        text = to_text(value).strip().replace('/', '')
        if text.isdigit():
            return int(text)
        name, _sep, organization = text.partition('++')
        where = {'name': name, 'page_size': 2}
        if organization:
            where['organization__name'] = organization
        found = client.get('inventories', params=where).get('results', [])
        if len(found) != 1:
            raise AnsibleParserError('automation.service.controller: %s inventory %r%s.' % (
                'no' if not found else 'more than one', name,
                ' in organization %r' % organization if organization else ' (name it as name++organization)'))
        return found[0]['id']

    def populate(self, data):
        """Hosts, groups and their variables into the inventory. Every value comes from the service, where
        anyone who may edit a host or group writes it: each is marked unsafe (``wrap_var``) so that Jinja never
        templates it (``{{ lookup('pipe', ...) }}`` in a host variable stays that text). Names are keys."""
        script = data['script']
        for group in script:
            if group != '_meta':
                self.inventory.add_group(group)
        for host, variables in ((script.get('_meta') or {}).get('hostvars') or {}).items():
            self.inventory.add_host(host)
            for name, value in variables.items():
                self.inventory.set_variable(host, name, wrap_var(value))
        for group, content in script.items():
            if group == '_meta':
                continue
            if group != 'all':
                for host in content.get('hosts') or []:
                    self.inventory.add_host(host, group)
                for child in content.get('children') or []:
                    self.inventory.add_group(child)
                    self.inventory.add_child(group, child)
            else:
                for host in content.get('hosts') or []:
                    self.inventory.add_host(host)
                for child in content.get('children') or []:
                    self.inventory.add_group(child)  # an empty group is listed here alone
            for name, value in (content.get('vars') or {}).items():
                self.inventory.set_variable(group, name, wrap_var(value))
        if 'metadata' in data:
            self.inventory.set_variable('all', 'controller_metadata', wrap_var(data['metadata']))
            self.inventory.set_variable('all', 'tower_metadata', wrap_var(data['metadata']))
        self.inventory.reconcile_inventory()
