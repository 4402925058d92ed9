# -*- coding: utf-8 -*-
# Copyright: automation.service contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):

    # What state=enforced does, for the modules of the platform gateway's own objects that offer it.
    DOCUMENTATION = r'''
options: {}
notes:
  - O(state=enforced) does what V(present) does, and more. Every field of the object that this module has an
    option for and that the task does not give goes back to the gateway's default for it, so that running the
    task again undoes what was changed elsewhere (ansible.platform's O(state=enforced), "will default values of
    any option not provided").
  - The defaults are those the gateway says for a new object, in its answer to the OPTIONS of the object's list
    (C(actions.POST.<field>.default)). That request is sent once a task, only with O(state=enforced), and only when the
    object exists (a new object gets the gateway's defaults anyway, so nothing more is sent to make it).
  - Left as they are with O(state=enforced) when not given. The name. The objects the object refers to (an HTTP
    port, a service cluster, a service type, an authenticator), which have no default. The fields set only when the
    object is made (a service key's C(secret_length)) or fixed then (an authenticator's type). The secrets and
    the settings that hold them (an authenticator's configuration, a service key's secret). The fields the OPTIONS
    says are required, and those it does not list (a gateway without that field). Also the fields of the object that
    the module has no option for. An option with a default of its own (in this module's option list) is always given.
  - Whether the platform gateway's OPTIONS gives a default for each field is not known to this collection; the
    platform's published API schemas do not say what OPTIONS answers. A field the OPTIONS lists without a default is
    left as it is, and the task warns once, naming the fields it could not reset.
  - Check mode and diff mode show the fields that go back to their defaults as any other change (the diff's before
    and after list them). A second run changes nothing.
'''
