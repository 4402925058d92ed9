# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # What every Event-Driven Ansible module shares.
    DOCUMENTATION = r'''
options: {}
notes:
  - B(Needs an Automation Platform gateway) (2.5 to 2.7) with Event-Driven Ansible behind it, whose API the gateway
    serves at C(/api/eda/v1/). On AWX 24, which has neither, the task fails before it reads or writes anything, and
    says so.
  - The connection options, the authentication methods and the session cache are those of every module of this
    collection (see O(service_auth)); through the gateway, a session, a token and Basic authentication all work for
    EDA as for the gateway and the controller.
  - The options, their aliases and defaults are those of ansible.eda's module of the same name without the C(eda_)
    prefix, as of its release 2.13.0; the differences are said in the module's notes and in the migration guide.
  - An object is named by its name, compared exactly (EDA's C(?name=) filter keeps every name that starts with the
    one given, whatever the case); digits that no object is named name one by id.
'''

    # The organization option of the modules whose objects belong to one.
    ORGANIZATION = r'''
options:
  organization_name:
    description:
      - The organization the object belongs to, by name or id. Needed to create one.
    type: str
    aliases: [organization]
'''
