# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Controller-side adapter: the lookup reads the shared options through
Ansible's plugin config and connects through the same auth layer as modules."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleError
from ansible.module_utils.common.text.converters import to_native
from ansible.plugins.lookup import LookupBase
from ansible.utils.display import Display

from ansible_collections.automation.service.plugins.module_utils._errors import ServiceError
from ansible_collections.automation.service.plugins.module_utils._options import options_from_getter, resolve
from ansible_collections.automation.service.plugins.plugin_utils import _core

display = Display()


class ServiceLookupBase(LookupBase):
    """Base of lookups that talk to the service."""

    def set_service_options(self, variables, direct):
        """``set_options`` with the variables that options read through ``vars:``
        rendered first (they arrive untemplated, and a path would be resolved
        against the playbook directory before rendering)."""
        from ansible import constants as C
        definitions = C.config.get_configuration_definitions('lookup', _core.lookup_name(self)) or {}
        names = set(entry['name'] for spec in definitions.values() for entry in (spec.get('vars') or []))
        rendered = {}
        templar = _core.lookup_templar(self)
        for name in names:
            if variables and name in variables:
                value = variables[name]
                if templar is not None:
                    value = templar.template(value)
                rendered[name] = value
        self.set_options(var_options=rendered, direct=direct)

    def connect(self):
        from ansible_collections.automation.service.plugins.module_utils._authenticator import connect
        try:
            return connect(resolve(options_from_getter(self.get_option)), warn=display.warning,
                           bounded=True)
        except ServiceError as exc:
            raise AnsibleError(to_native(exc))
